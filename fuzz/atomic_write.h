/* atomic_write.h — files written whole or not at all: every file the tools and the
 * campaign write goes to a temporary name in the same folder (DIR/.NAME.XXXXXX),
 * is checked (the stream's error flag, flush, fsync, close) and only then renamed
 * into place, so a reader sees the old file or the complete new one, never a
 * truncated or empty one.  AW_NO_REPLACE links the file into place instead, failing
 * with EEXIST when the name is taken (a reproducer is never replaced).
 *
 * Fault injection (tests): an AtomicWriter counts the files committed through it;
 * the environment variable CIRC_WRITE_FAIL=N makes its Nth commit fail as a full
 * disk does (ENOSPC, nothing left behind), CIRC_WRITE_FAIL=N+ the Nth and every
 * later one.  Read once by atomic_writer_init. */
#ifndef CIRC_ATOMIC_WRITE_H
#define CIRC_ATOMIC_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t commits;            /* files committed (or failed to) through this writer */
    uint64_t fail_first, fail_last; /* injected failures: commits numbered in [first, last]; 0: none */
} AtomicWriter;

typedef enum { AW_REPLACE, AW_NO_REPLACE } AtomicMode;

typedef struct {
    FILE *f;                     /* write the contents here */
    AtomicWriter *w;
    char path[4096];             /* where the file goes */
    char tmp[4112];              /* the temporary beside it */
} AtomicFile;

/* a writer with the injected failures of CIRC_WRITE_FAIL (none when unset) */
void atomic_writer_init(AtomicWriter *w);

/* start writing path: af->f is a new temporary file in path's folder.  false with
 * errno set (the folder is missing or not writable, the name is too long).  w may be
 * NULL for scratch files nobody keeps: no injected failures and no fsync */
bool atomic_open(AtomicFile *af, AtomicWriter *w, const char *path);
/* check and close the temporary, then move it to af->path (mode says whether an
 * existing file may be replaced).  false with errno set, the temporary removed and
 * af->path untouched; af->f is closed either way */
bool atomic_commit(AtomicFile *af, AtomicMode mode);
/* give up: close and remove the temporary */
void atomic_discard(AtomicFile *af);

/* the whole of it: open, fill(f, ctx) (false: give up with errno EIO unless fill set
 * errno), commit.  false with errno set */
bool atomic_write_file(AtomicWriter *w, const char *path, AtomicMode mode, bool (*fill)(FILE *f, void *ctx),
                       void *ctx);

#endif
