/* target.c — the registry: one line per target of the build (target.h). */
#include "compiler/target.h"
#include "compiler/a64/a64.h"
#include "compiler/x64/x64.h"

#include <stdio.h>
#include <string.h>

static const Target *(*const registry[])(void) = {
    x64_target,
    a64_target,
};
enum { NTARGETS = sizeof registry / sizeof registry[0] };
_Static_assert((int)NTARGETS <= (int)TARGET_MAX, "TARGET_MAX is too small for the registry");

unsigned target_count(void) { return NTARGETS; }

const Target *target_at(unsigned i) { return i < NTARGETS ? registry[i]() : NULL; }

unsigned target_list(const Target **out, unsigned max)
{
    unsigned n = 0;
    for (; n < NTARGETS && n < max; n++)
        out[n] = registry[n]();
    return n;
}

const Target *target_find_n(const char *name, size_t n)
{
    for (unsigned i = 0; i < NTARGETS; i++) {
        const Target *t = registry[i]();
        if (strlen(t->name) == n && !strncmp(t->name, name, n))
            return t;
    }
    return NULL;
}

const Target *target_find(const char *name) { return target_find_n(name, strlen(name)); }

const Target *target_for_isa(Isa isa)
{
    for (unsigned i = 0; i < NTARGETS; i++)
        if (registry[i]()->isa == isa)
            return registry[i]();
    return NULL;
}

const Target *target_level(const Target *t, const char *cpu)
{
    for (unsigned i = 0; t && cpu && i < t->nlevels; i++)
        if (!strcmp(t->levels[i]->cpu, cpu))
            return t->levels[i];
    return NULL;
}

const char *target_level_names(const Target *t, char *buf, size_t n, const char *sep)
{
    size_t at = 0;
    if (n)
        buf[0] = '\0';
    for (unsigned i = 0; i < t->nlevels && at < n; i++) {
        int k = snprintf(buf + at, n - at, "%s%s", i ? sep : "", t->levels[i]->cpu);
        at += k > 0 ? (size_t)k : 0;
    }
    return buf;
}

const char *target_names(char *buf, size_t n, const char *sep, const char *last_sep)
{
    size_t at = 0;
    if (n)
        buf[0] = '\0';
    for (unsigned i = 0; i < NTARGETS && at < n; i++) {
        const char *before = i == 0 ? "" : i + 1 == NTARGETS ? last_sep : sep;
        int k = snprintf(buf + at, n - at, "%s%s", before, registry[i]()->name);
        at += k > 0 ? (size_t)k : 0;
    }
    return buf;
}

bool target_parse_isa_list(const char *list, uint32_t *mask, const char **bad, size_t *badlen)
{
    *mask = 0;
    *bad = list;
    *badlen = strlen(list);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const Target *t = n ? target_find_n(p, n) : NULL;
        if (n && !t) {
            *bad = p;
            *badlen = n;
            return false;
        }
        if (t)
            *mask |= 1u << t->isa;
        p += n + (e != NULL);
    }
    return *mask != 0;
}
