/* opt_golden.c — golden tests of the passes: each tests/opt/NAME.circ starts with a
 * line `; opt: ARGS` (`--passes=a,b` or `-O1`/`-O2`); the module printed after
 * running those passes (with --verify-each) must equal tests/opt/NAME.expected.
 *
 *   opt_golden DIR            compare; exit 1 on any difference
 *   opt_golden --update DIR   rewrite the .expected files (review the diff!) */
#include "compiler/opt/opt.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = (cap + 4096) * 2;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* configure pm from the `; opt:` header; false if the file has none */
static bool configure(PassManager *pm, const char *src, const char *path)
{
    if (strncmp(src, "; opt: ", 7)) {
        fprintf(stderr, "%s: first line must be `; opt: ARGS`\n", path);
        return false;
    }
    char args[256];
    size_t n = strcspn(src + 7, "\n");
    snprintf(args, sizeof args, "%.*s", (int)n, src + 7);
    char err[200];
    if (!strncmp(args, "--passes=", 9))
        return pm_set_passes(pm, args + 9, err, sizeof err) || (fprintf(stderr, "%s: %s\n", path, err), false);
    if (!strcmp(args, "-O1") || !strcmp(args, "-O2") || !strcmp(args, "-O0")) {
        pm_set_level(pm, args[2] - '0');
        return true;
    }
    fprintf(stderr, "%s: unknown options '%s'\n", path, args);
    return false;
}

/* the optimized text of one input, or NULL on error */
static char *optimize(const char *path)
{
    size_t len;
    char *src = slurp(path, &len);
    if (!src)
        return NULL;
    Diag d;
    diag_init(&d, path, stderr);
    Module *m = parse_module(path, src, len, &d);
    PassOptions po = {.verify_each = true, .bisect_limit = -1};
    PassManager *pm = pm_new(&po);
    char *out = NULL;
    size_t outlen = 0;
    if (m && !verify_module(m, &d) && configure(pm, src, path) && pm_run(pm, m) == 0) {
        FILE *mem = open_memstream(&out, &outlen);
        print_module(mem, m);
        fclose(mem);
    }
    pm_free(pm);
    module_free(m);
    free(src);
    return out;
}

static int check_one(const char *dir, const char *name, bool update)
{
    char in[1024], exp[1024];
    snprintf(in, sizeof in, "%s/%s", dir, name);
    snprintf(exp, sizeof exp, "%s/%.*s.expected", dir, (int)(strlen(name) - 5), name);
    char *got = optimize(in);
    if (!got) {
        fprintf(stderr, "FAIL %s: could not optimize\n", in);
        return 1;
    }
    int bad = 0;
    if (update) {
        FILE *f = fopen(exp, "w");
        if (!f || fputs(got, f) < 0)
            bad = 1;
        if (f)
            fclose(f);
    } else {
        size_t n;
        char *want = slurp(exp, &n);
        if (!want || strcmp(want, got)) {
            fprintf(stderr, "FAIL %s: output differs from %s\n--- got:\n%s--- expected:\n%s", in, exp, got,
                    want ? want : "(missing)\n");
            bad = 1;
        } else {
            printf("ok   %s\n", in);
        }
        free(want);
    }
    free(got);
    return bad;
}

int main(int argc, char **argv)
{
    bool update = argc > 1 && !strcmp(argv[1], "--update");
    if (argc != 2 + update) {
        fprintf(stderr, "usage: opt_golden [--update] DIR\n");
        return 2;
    }
    const char *dir = argv[1 + update];
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 2;
    }
    int failures = 0, count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".circ")) {
            failures += check_one(dir, e->d_name, update);
            count++;
        }
    }
    closedir(d);
    printf("%d golden files, %d failed\n", count, failures);
    return failures || count == 0 ? 1 : 0;
}
