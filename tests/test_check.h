/* test_check.h — CHECK(cond, fmt, ...): count a check in `checks`; on a false
 * condition, count a failure in `failures` and print where and why (the first 19
 * failures; one pair per test program). */
#ifndef CIRC_TEST_CHECK_H
#define CIRC_TEST_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            failures++;                                                              \
            if (failures < 20) {                                                     \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                 \
                fprintf(stderr, __VA_ARGS__);                                        \
                fputc('\n', stderr);                                                 \
            }                                                                        \
        }                                                                            \
    } while (0)

#endif
