/* exec_util.h — the check counter shared by the tests that run hand-built machine
 * code under Unicorn (x64_exec.c, x64_roles.c, a64_target_exec.c): CHECK(cond,
 * printf-args) counts a check, and a failure, whose first 19 are reported with
 * the file and line. Each test prints and returns from `failures` and `checks`. */
#ifndef CIRC_TESTS_EXEC_UTIL_H
#define CIRC_TESTS_EXEC_UTIL_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            if (failures < 20) {                                             \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);         \
                fprintf(stderr, __VA_ARGS__);                                \
                fputc('\n', stderr);                                         \
            }                                                                \
        }                                                                    \
    } while (0)

#endif
