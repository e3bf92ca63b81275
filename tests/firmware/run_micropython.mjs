// Runs a Python script under MicroPython's WebAssembly port (the npm package beside
// this file), with the given .py files in its /lib and a JSON input file at /input.json.
//
//   node run_micropython.mjs SCRIPT.py INPUT.json FILE.py [FILE.py...]
//
// The script's output goes to stdout; a Python exception exits with status 1 and its
// traceback on stderr.
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "node_modules", "@micropython", "micropython-webassembly-pyscript",
                   "micropython.mjs");
const { loadMicroPython } = await import(pathToFileURL(entry).href);

const [script, input, ...files] = process.argv.slice(2);
const out = [];
const err = [];
const mp = await loadMicroPython({
  heapsize: 16 * 1024 * 1024,
  linebuffer: false,
  stdout: (bytes) => out.push(Buffer.from(bytes)),
  stderr: (bytes) => err.push(Buffer.from(bytes)),
});

try {
  mp.FS.mkdir("/lib");
} catch (e) {
  // already there
}
for (const file of files) {
  mp.FS.writeFile("/lib/" + basename(file), readFileSync(file));
}
mp.FS.writeFile("/input.json", readFileSync(input));

let status = 0;
try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (error) {
  if (error.name !== "PythonError") throw error;
  err.push(Buffer.from(error.message));
  status = 1;
}
process.stdout.write(Buffer.concat(out));
process.stderr.write(Buffer.concat(err));
process.exitCode = status;
