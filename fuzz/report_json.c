/* report_json.c — DIR/report.json (fuzz/report.h): the campaign's totals, time series,
 * time by phase, generator coverage and findings.  The totals are written one key per
 * line ("programs": 123,) so that scripts can read them without a JSON parser. */
#include "fuzz/report_internal.h"

#include <stdio.h>

void report_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_u64(FILE *f, const char *key, uint64_t v, const char *sep)
{
    fprintf(f, "    \"%s\": %llu%s\n", key, (unsigned long long)v, sep);
}

static void json_outcomes(FILE *f, const uint64_t *kinds)
{
    fputc('{', f);
    for (int k = 0; k < 5; k++)
        fprintf(f, "%s\"%s\": %llu", k ? ", " : "", check_kind_name(k), (unsigned long long)kinds[k]);
    fputc('}', f);
}

static void json_campaign(FILE *f, const CampaignReport *r)
{
    const CampaignOptions *o = r->o;
    fprintf(f, "  \"status\": \"%s\",\n  \"started\": %lld,\n", r->finished ? "finished" : "running",
            (long long)r->started);
    fputs("  \"campaign\": {\"command\": ", f);
    report_json_string(f, o->report_command);
    fprintf(f, ", \"seed\": %llu, \"jobs\": %u, \"size\": %u, \"swarm\": %s, \"reduce\": %s, \"seconds\": %.0f, "
               "\"findings_dir\": ",
            (unsigned long long)o->seed, o->jobs, o->gen.size ? o->gen.size : 100, o->gen.swarm ? "true" : "false",
            o->reduce ? "true" : "false", o->seconds);
    report_json_string(f, o->out_dir);
    fputs(", \"check_command\": ", f);
    report_json_string(f, o->report_check_command ? o->report_check_command : "circ check");
    fputs("},\n", f);
}

/* the totals, as the terminal summary prints them */
static void json_summary(FILE *f, const CampaignReport *r)
{
    const CampaignStats *st = &r->st;
    fprintf(f, "  \"summary\": {\n    \"elapsed\": %.1f,\n", st->elapsed);
    json_u64(f, "programs", st->programs, ",");
    json_u64(f, "execs", st->execs, ",");
    json_u64(f, "runs", st->runs, ",");
    json_u64(f, "mismatches", st->mismatches, ",");
    json_u64(f, "signatures", st->signatures, ",");
    json_u64(f, "crashes", st->crashes, ",");
    json_u64(f, "hangs", st->hangs, ",");
    json_u64(f, "unsaved", st->unsaved, ",");
    fprintf(f, "    \"execs_per_sec\": %.0f,\n", st->execs_per_sec);
    fprintf(f, "    \"programs_per_sec\": %.1f,\n    \"outcomes\": ",
            st->elapsed > 0 ? (double)st->programs / st->elapsed : 0.0);
    json_outcomes(f, st->outcome_kinds);
    fputs("\n  },\n", f);
}

static void json_series(FILE *f, const CampaignReport *r)
{
    fputs("  \"time_series\": [", f);
    for (uint32_t i = 0; i < r->nsamples; i++) {
        const ReportSample *s = &r->samples[i];
        fprintf(f, "%s\n    {\"t\": %.1f, \"programs\": %llu, \"execs\": %llu, \"runs\": %llu, \"mismatches\": %llu, "
                   "\"signatures\": %llu, \"crashes\": %llu, \"hangs\": %llu, \"programs_per_sec\": %.1f, "
                   "\"outcomes\": ",
                i ? "," : "", s->t, (unsigned long long)s->programs, (unsigned long long)s->execs,
                (unsigned long long)s->runs, (unsigned long long)s->mismatches, (unsigned long long)s->signatures,
                (unsigned long long)s->crashes, (unsigned long long)s->hangs,
                i ? report_rate(&r->samples[i - 1], s) : 0.0);
        json_outcomes(f, s->outcome_kinds);
        fputc('}', f);
    }
    fputs("\n  ],\n", f);
}

static void json_time(FILE *f, const CampaignReport *r)
{
    static const char *const cpu[3] = {"generate", "run_lines", "check"};
    fputs("  \"check_seconds\": {", f);
    for (int k = 0; k < PHASE_COUNT; k++)
        fprintf(f, "%s\"%s\": %.3f", k ? ", " : "", check_phase_names[k], r->st.check_phases[k]);
    fputs("},\n  \"worker_cpu_seconds\": {", f);
    for (int k = 0; k < 3; k++)
        fprintf(f, "%s\"%s\": %.3f", k ? ", " : "", cpu[k], r->st.worker_seconds[k]);
    fputs("},\n", f);
}

static void json_opcode(FILE *f, const ReportCoverage *c, int op)
{
    fputs("      {\"opcode\": ", f);
    report_json_string(f, op_info[op].name);
    fputs(", \"types\": {", f);
    bool first = true;
    for (int ty = 0; ty < TY_COUNT; ty++)
        if (c->gates[op][ty]) {
            fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", ty_name((Type)ty), (unsigned long long)c->gates[op][ty]);
            first = false;
        }
    fprintf(f, "}, \"programs\": {\"as_generated\": %llu, \"after_O2\": %llu}}",
            (unsigned long long)c->op_programs[op][VIEW_INPUT], (unsigned long long)c->op_programs[op][VIEW_O2]);
}

static void json_coverage(FILE *f, const CampaignReport *r)
{
    const ReportCoverage *c = &r->total;
    fprintf(f, "  \"coverage\": {\n    \"programs\": %llu,\n    \"stages_as_generated\": ",
            (unsigned long long)c->programs);
    report_json_string(f, r->views[VIEW_INPUT]);
    fputs(",\n    \"stages_after_O2\": ", f);
    report_json_string(f, r->views[VIEW_O2]);
    fputs(",\n    \"opcodes\": [", f);
    bool first = true;
    for (int op = 0; op < OP_COUNT; op++) {
        if (op_has(op, F_ROOT))
            continue;
        fputs(first ? "\n" : ",\n", f);
        json_opcode(f, c, op);
        first = false;
    }
    fputs("\n    ]\n  },\n", f);
}

static void json_finding(FILE *f, const ReportEntry *e)
{
    static const char *const keys[7] = {"signature", "stage", "detail", "file", "command", "reproducer", "picture"};
    const char *vals[7] = {e->signature, e->stage, e->detail, e->path, e->command, e->text,
                           e->svg ? "svg" : e->svg_note};
    fputs("    {", f);
    for (int k = 0; k < 7; k++) {
        fprintf(f, "%s\n      \"%s\": ", k ? "," : "", keys[k]);
        if (vals[k])
            report_json_string(f, vals[k]);
        else
            fputs("null", f);
    }
    fprintf(f, ",\n      \"first_seen\": %.1f, \"mismatches\": %llu, \"worker\": %u, \"program\": %llu, "
               "\"generator_seed\": \"0x%016llx\", \"gates\": %u, \"gates_generated\": %u, \"reduced\": %s\n    }",
            e->at, (unsigned long long)e->hits, e->worker, (unsigned long long)e->index,
            (unsigned long long)e->generator_seed, e->gates, e->gates_generated ? e->gates_generated : e->gates,
            e->gates_generated ? "true" : "false");
}

bool report_write_json(FILE *f, const CampaignReport *r)
{
    fputs("{\n  \"format\": \"circ-fuzz-report-1\",\n", f);
    json_campaign(f, r);
    json_summary(f, r);
    json_series(f, r);
    json_time(f, r);
    json_coverage(f, r);
    fputs("  \"findings\": [", f);
    for (uint32_t i = 0; i < r->nfindings; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_finding(f, &r->findings[i]);
    }
    fputs("\n  ]\n}\n", f);
    return !ferror(f);
}
