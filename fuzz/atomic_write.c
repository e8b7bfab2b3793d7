/* atomic_write.c — checked writes to a temporary renamed into place (atomic_write.h). */
#include "fuzz/atomic_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void atomic_writer_init(AtomicWriter *w)
{
    *w = (AtomicWriter){0};
    const char *s = getenv("CIRC_WRITE_FAIL");
    if (!s || !*s)
        return;
    char *end;
    unsigned long long n = strtoull(s, &end, 10);
    if (!n || (*end && strcmp(end, "+")))
        return;
    w->fail_first = n;
    w->fail_last = *end ? UINT64_MAX : n;
}

/* the temporary's name: .NAME.XXXXXX in path's folder */
static bool temp_name(const char *path, char *tmp, size_t n)
{
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    if (!*base) {
        errno = EISDIR;
        return false;
    }
    int k = snprintf(tmp, n, "%.*s.%s.XXXXXX", dir, path, base);
    if (k < 0 || (size_t)k >= n) {
        errno = ENAMETOOLONG;
        return false;
    }
    return true;
}

bool atomic_open(AtomicFile *af, AtomicWriter *w, const char *path)
{
    af->f = NULL;
    af->w = w;
    if (strlen(path) >= sizeof af->path) {
        errno = ENAMETOOLONG;
        return false;
    }
    snprintf(af->path, sizeof af->path, "%s", path);
    if (!temp_name(path, af->tmp, sizeof af->tmp))
        return false;
    int fd = mkstemp(af->tmp);
    if (fd < 0)
        return false;
    mode_t mask = umask(0); /* the permissions a plain fopen would give */
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) || !(af->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        unlink(af->tmp);
        errno = e;
        return false;
    }
    return true;
}

void atomic_discard(AtomicFile *af)
{
    int e = errno;
    if (af->f)
        fclose(af->f);
    af->f = NULL;
    unlink(af->tmp);
    errno = e;
}

/* flush, check, sync and close the temporary; false with errno set */
static bool finish_temp(AtomicFile *af)
{
    AtomicWriter *w = af->w;
    uint64_t nth = w ? ++w->commits : 0;
    if (w && w->fail_first && nth >= w->fail_first && nth <= w->fail_last) {
        errno = ENOSPC; /* injected: the disk is full */
        return false;
    }
    errno = 0;
    bool ok = fflush(af->f) == 0 && !ferror(af->f) && (!w || fsync(fileno(af->f)) == 0);
    if (!ok && !errno)
        errno = EIO;
    int e = errno;
    FILE *f = af->f;
    af->f = NULL;
    if (fclose(f) && ok) {
        ok = false;
        e = errno;
    }
    errno = e;
    return ok;
}

bool atomic_commit(AtomicFile *af, AtomicMode mode)
{
    if (!finish_temp(af)) {
        atomic_discard(af);
        return false;
    }
    bool placed = mode == AW_REPLACE ? rename(af->tmp, af->path) == 0 : link(af->tmp, af->path) == 0;
    int e = errno;
    if (!placed || mode == AW_NO_REPLACE)
        unlink(af->tmp);
    errno = e;
    return placed;
}

bool atomic_write_file(AtomicWriter *w, const char *path, AtomicMode mode, bool (*fill)(FILE *f, void *ctx),
                       void *ctx)
{
    AtomicFile af;
    if (!atomic_open(&af, w, path))
        return false;
    if (!fill(af.f, ctx)) {
        atomic_discard(&af);
        errno = EIO;
        return false;
    }
    return atomic_commit(&af, mode);
}
