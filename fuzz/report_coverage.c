/* report_coverage.c — the report page's generator coverage (fuzz/report.h): a table of
 * every opcode with the programs that contained it as generated (what the -O0 and
 * per-pass stages ran) and after -O2 (what the -O2 stages ran), and its gates by type
 * as a heat map; opcodes never generated, and those the -O2 pipeline always removed,
 * are marked. */
#include "fuzz/report_internal.h"

#include <math.h>

static const Type column_types[] = {TY_I1, TY_I8, TY_I16, TY_I32, TY_I64, TY_F32, TY_F64, TY_NONE};
enum { NCOLS = sizeof column_types / sizeof column_types[0] };

static uint64_t busiest_cell(const ReportCoverage *c)
{
    uint64_t most = 0;
    for (int op = 0; op < OP_COUNT; op++)
        for (int ty = 0; ty < TY_COUNT; ty++)
            most = c->gates[op][ty] > most ? c->gates[op][ty] : most;
    return most;
}

/* a cell shaded by its count on a log scale of the busiest cell's */
static void heat_cell(FILE *f, uint64_t v, uint64_t most)
{
    if (!v) {
        fputs("<td></td>", f);
        return;
    }
    double a = most > 1 ? 0.12 + 0.7 * log((double)v) / log((double)most) : 0.5;
    fprintf(f, "<td style=\"background:rgba(59,130,246,%.2f)\">%llu</td>", a, (unsigned long long)v);
}

static void share_cell(FILE *f, const char *cls, uint64_t v, uint64_t programs)
{
    fprintf(f, "<td class=\"%s\">%llu <span class=\"note\">(%.0f%%)</span></td>", cls, (unsigned long long)v,
            programs ? 100.0 * (double)v / (double)programs : 0.0);
}

static void opcode_row(FILE *f, const ReportCoverage *c, int op, uint64_t most, bool o2)
{
    uint64_t in = c->op_programs[op][VIEW_INPUT], after = c->op_programs[op][VIEW_O2], gates = 0;
    for (int ty = 0; ty < TY_COUNT; ty++)
        gates += c->gates[op][ty];
    const char *cls = !in ? " class=\"missing\"" : o2 && !after ? " class=\"folded\"" : "";
    fprintf(f, "<tr%s data-opcode=\"%s\"><td class=\"op\">%s</td>", cls, op_info[op].name, op_info[op].name);
    share_cell(f, "in", in, c->programs);
    if (o2)
        share_cell(f, "o2", after, c->programs);
    fprintf(f, "<td>%llu</td>", (unsigned long long)gates);
    for (int k = 0; k < NCOLS; k++)
        heat_cell(f, c->gates[op][column_types[k]], most);
    fputs("</tr>\n", f);
}

static void legend(FILE *f, const CampaignReport *r, bool o2)
{
    fprintf(f, "<p class=\"note\">%llu programs counted. <b>as generated</b>: the programs containing the "
               "opcode, which these stages ran: ",
            (unsigned long long)r->total.programs);
    report_html_text(f, r->views[VIEW_INPUT][0] ? r->views[VIEW_INPUT] : "none");
    if (o2) {
        fputs(". <b>after -O2</b>: those still containing it after the -O2 pipeline, which these stages ran: ", f);
        report_html_text(f, r->views[VIEW_O2][0] ? r->views[VIEW_O2] : "none");
    }
    fputs(". Gates by type: the result's type, or the consumed value's for gates without one (as circ gen "
          "--stats counts). Red rows: never generated; amber: never left by -O2.</p>\n",
          f);
}

void report_html_coverage(FILE *f, const CampaignReport *r)
{
    const ReportCoverage *c = &r->total;
    bool o2 = !r->o->check.levels || (r->o->check.levels & CHECK_O2);
    uint64_t most = busiest_cell(c);
    fputs("<section id=\"coverage\" class=\"panel\"><h2>Generator coverage</h2>\n", f);
    legend(f, r, o2);
    fputs("<table><tr><th>opcode</th><th>as generated</th>", f);
    if (o2)
        fputs("<th>after -O2</th>", f);
    fputs("<th>gates</th>", f);
    for (int k = 0; k < NCOLS; k++)
        fprintf(f, "<th>%s</th>", ty_name(column_types[k]));
    fputs("</tr>\n", f);
    for (int op = 0; op < OP_COUNT; op++)
        if (!op_has(op, F_ROOT))
            opcode_row(f, c, op, most, o2);
    fputs("</table></section>\n", f);
}
