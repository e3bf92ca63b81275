# Run by run_micropython.mjs: the checks of checks.py on the spec the test wrote.
import json

import checks

with open("/input.json") as spec:
    print(json.dumps(checks.main(json.load(spec))))
