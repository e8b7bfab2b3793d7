/* diag.c — diagnostics in the form FILE:LINE:COL: error: MESSAGE. */
#include "ir.h"

#include <stdarg.h>
#include <string.h>

void diag_init(Diag *d, const char *file, FILE *out)
{
    d->file = file ? file : "<input>";
    d->out = out;
    d->nerrors = 0;
    d->first = NULL;
    d->first_size = 0;
}

void diag_keep_first(Diag *d, char *buf, size_t n)
{
    d->first = n ? buf : NULL;
    d->first_size = n;
    if (n)
        buf[0] = 0;
}

static void vreport(Diag *d, uint32_t line, uint32_t col, const char *prefix, const char *fmt, va_list ap)
{
    if (d->first && !d->nerrors) {
        va_list copy;
        va_copy(copy, ap);
        int k = snprintf(d->first, d->first_size, "%s:%u:%u: error: %s", d->file, line, col, prefix);
        if (k >= 0 && (size_t)k < d->first_size)
            vsnprintf(d->first + k, d->first_size - (size_t)k, fmt, copy);
        va_end(copy);
        char *nl = strchr(d->first, '\n');
        if (nl)
            *nl = 0;
    }
    d->nerrors++;
    if (!d->out)
        return;
    fprintf(d->out, "%s:%u:%u: error: %s", d->file, line, col, prefix);
    vfprintf(d->out, fmt, ap);
    fputc('\n', d->out);
}

void diag_error(Diag *d, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(d, line, col, "", fmt, ap);
    va_end(ap);
}

const char *gate_label(const Func *f, GateId g, char *buf, size_t n)
{
    if (g == NO_GATE || g >= f->circ->ngates)
        snprintf(buf, n, "<none>");
    else if (g == ROOT_STATE_ENTRY || g == ROOT_DEPEND_ENTRY)
        snprintf(buf, n, "entry");
    else if (f->circ->gates[g].name)
        snprintf(buf, n, "%%%s", f->circ->gates[g].name);
    else if (f->circ->gates[g].op == OP_RETURN || f->circ->gates[g].op == OP_THROW)
        snprintf(buf, n, "%s#%u", op_info[f->circ->gates[g].op].name, g);
    else
        snprintf(buf, n, "%%t%u", g);
    return buf;
}

void diag_gate(Diag *d, const Func *f, GateId g, const char *fmt, ...)
{
    char label[160], prefix[256];
    const Gate *gt = g < f->circ->ngates ? &f->circ->gates[g] : NULL;
    uint32_t line = gt && gt->line ? gt->line : f->line;
    uint32_t col = gt && gt->line ? gt->col : f->col;
    snprintf(prefix, sizeof prefix, "in @%s: gate %s: ", f->name, gate_label(f, g, label, sizeof label));
    va_list ap;
    va_start(ap, fmt);
    vreport(d, line, col, prefix, fmt, ap);
    va_end(ap);
}

size_t text_bom_length(const char *src, size_t len)
{
    return len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

bool text_find_nul(const char *src, size_t len, uint32_t *line, uint32_t *col)
{
    const char *z = memchr(src, 0, len), *line_start = src;
    if (!z)
        return false;
    *line = 1;
    for (const char *q = src; q < z; q++)
        if (*q == '\n') {
            ++*line;
            line_start = q + 1;
        }
    *col = (uint32_t)(z - line_start) + 1;
    return true;
}
