/* test_check.h — CHECK(cond, fmt, ...): count a check in `checks`; on a false
 * condition, print where and why and count a failure in `failures` (one pair per
 * test program). */
#ifndef CIRC_TEST_CHECK_H
#define CIRC_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
            failures++;                                                              \
        }                                                                            \
    } while (0)

#endif
