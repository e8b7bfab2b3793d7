/* main.c — runs bug.c's conv(): exit 0 when it returns INT64_MIN */
#include <stdio.h>
long long conv(void);
int main(void)
{
    long long r = conv();
    printf("conv() = %lld (expected -9223372036854775808)\n", r);
    return r != -0x7fffffffffffffffll - 1;
}
