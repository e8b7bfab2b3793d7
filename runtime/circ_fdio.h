/* circ_fdio.h — whole-buffer reads of standard input and writes of standard output
 * for the programs that talk to their parent through pipes or files under
 * qemu-aarch64 (qemu_runner.c, bench/trust/trust_a64_driver.c).  Plain C11 plus
 * POSIX read/write, no other project header. */
#ifndef CIRC_FDIO_H
#define CIRC_FDIO_H

#include <stddef.h>
#include <unistd.h>

/* n bytes from standard input into p; 0 at end of input or on an error */
static inline int circ_read_all(void *p, size_t n)
{
    for (size_t k = 0; k < n;) {
        ssize_t r = read(0, (char *)p + k, n - k);
        if (r <= 0)
            return 0;
        k += (size_t)r;
    }
    return 1;
}

/* n bytes of p to standard output; 0 on an error */
static inline int circ_write_all(const void *p, size_t n)
{
    for (size_t k = 0; k < n;) {
        ssize_t r = write(1, (const char *)p + k, n - k);
        if (r <= 0)
            return 0;
        k += (size_t)r;
    }
    return 1;
}

#endif
