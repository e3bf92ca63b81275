/* An SD card's flush, below SQLite: every fsync and fdatasync waits
 * MUTINY_FSYNC_DELAY_MS milliseconds (default 20) after the real call returns.
 *
 * Built by bench/sd_card.py with the system's cc into a temporary folder and loaded
 * into a child process with LD_PRELOAD, so the benchmark's own process is untouched
 * and nothing in the companion knows. If MUTINY_FSYNC_COUNT_FILE is set, the number
 * of delayed calls is written there when the process exits (the benchmark checks the
 * shim was really in the path). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long delay_ns = -1;
static volatile long delayed_calls = 0;

static void wait_like_a_card(void) {
    if (delay_ns < 0) {
        const char *ms = getenv("MUTINY_FSYNC_DELAY_MS");
        delay_ns = (long)((ms ? atof(ms) : 20.0) * 1e6);
    }
    struct timespec left = {delay_ns / 1000000000L, delay_ns % 1000000000L};
    while (nanosleep(&left, &left) != 0) {
    }
    __sync_fetch_and_add(&delayed_calls, 1);
}

int fsync(int fd) {
    static int (*real)(int) = 0;
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int done = real(fd);
    wait_like_a_card();
    return done;
}

int fdatasync(int fd) {
    static int (*real)(int) = 0;
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int done = real(fd);
    wait_like_a_card();
    return done;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("MUTINY_FSYNC_COUNT_FILE");
    if (!path) return;
    FILE *out = fopen(path, "w");
    if (out) {
        fprintf(out, "%ld\n", delayed_calls);
        fclose(out);
    }
}
