/* runtime.c — the table of runtime functions (runtime.def) and a module's extern
 * declarations of them. */
#include "ir.h"

#include <string.h>

const RuntimeInfo runtime_info[RT_COUNT] = {
#define RT(name, ret, n, p0, p1, p2) {#name, ret, n, {p0, p1, p2}},
#include "runtime.def"
#undef RT
};

int runtime_find(const char *name, size_t n)
{
    for (int i = 0; i < RT_COUNT; i++)
        if (strlen(runtime_info[i].name) == n && !memcmp(runtime_info[i].name, name, n))
            return i;
    return -1;
}

int module_find_extern(const Module *m, const char *name, size_t n)
{
    for (uint32_t i = 0; i < m->nexterns; i++)
        if (strlen(m->externs[i].name) == n && !memcmp(m->externs[i].name, name, n))
            return (int)i;
    return -1;
}

uint32_t module_add_extern(Module *m, RuntimeFn rt)
{
    const char *name = runtime_info[rt].name;
    int have = module_find_extern(m, name, strlen(name));
    if (have >= 0)
        return (uint32_t)have;
    if (m->nexterns == m->capexterns) {
        uint32_t cap = m->capexterns ? 2 * m->capexterns : 4;
        m->externs = arena_grow(m->arena, m->externs, m->capexterns * sizeof *m->externs, cap * sizeof *m->externs);
        m->capexterns = cap;
    }
    m->externs[m->nexterns] = (Extern){name, (uint32_t)rt, 0, 0};
    return m->nexterns++;
}

int module_symbol_runtime(const Module *m, uint64_t lit)
{
    if (!sym_is_extern(lit) || (lit & ~(uint64_t)SYM_EXTERN) >= m->nexterns)
        return -1;
    return (int)m->externs[lit & ~(uint64_t)SYM_EXTERN].rt;
}

const char *module_symbol_name(const Module *m, uint64_t lit)
{
    int rt = module_symbol_runtime(m, lit);
    if (rt >= 0)
        return runtime_info[rt].name;
    return lit < m->nfuncs ? m->funcs[lit]->name : "?";
}
