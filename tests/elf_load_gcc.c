/* elf_load_gcc.c — a C file the elf_load test compiles with the system's compilers
 * (cc; aarch64-linux-gnu-gcc) and loads through oracle/elf_load.c: a runtime call,
 * a float constant from .rodata, a jump table, a store to the harness buffer. */
double circ_rt_fmod_f64(double a, double b);

double scaled_fmod(double a, double b) { return circ_rt_fmod_f64(a, b) * 2.5; }

long pick(long k, long x)
{
    switch (k) {
    case 0: return x + 11;
    case 1: return x * 3;
    case 2: return x - 7;
    case 3: return x ^ 0x55;
    case 4: return x << 2;
    case 5: return -x;
    default: return 99;
    }
}

int poke(unsigned char *heap, int v)
{
    heap[5] = (unsigned char)v;
    return heap[0];
}
