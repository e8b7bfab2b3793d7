/* fuzz_target_main.c — a main that runs a libFuzzer target of fuzz/targets outside
 * libFuzzer (any compiler, no sanitizer needed): LLVMFuzzerInitialize, then
 * LLVMFuzzerTestOneInput on each FILE, and with --stages N also on each FILE
 * behind every stage choice {i, 0xff} (i < N: each stage alone, fuzz/fuzz_input.h).
 * A target aborts on a mismatch, so the exit status is the test's verdict.
 * Usage: TARGET [--stages N] FILE... */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the bytes of path behind room free bytes at the front; NULL if unreadable */
static uint8_t *read_file(const char *path, size_t room, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = room;
    for (;;) {
        if (n + 4096 > cap) {
            cap = 2 * (n + 4096);
            uint8_t *grown = realloc(buf, cap);
            if (!grown)
                abort();
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    *len = n - room;
    return buf;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    unsigned stages = 0, inputs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--stages") && i + 1 < argc) {
            stages = (unsigned)atoi(argv[++i]);
            continue;
        }
        size_t len;
        uint8_t *buf = read_file(argv[i], 2, &len);
        if (!buf) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf + 2, len);
        for (unsigned s = 0; s < stages; s++, inputs++) {
            buf[0] = (uint8_t)s;
            buf[1] = 0xff;
            LLVMFuzzerTestOneInput(buf, len + 2);
        }
        inputs++;
        free(buf);
    }
    printf("%u inputs checked\n", inputs);
    return 0;
}
