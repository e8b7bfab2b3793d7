/* mcov_table.h — machine-level coverage of a check or a campaign: one MachCov
 * (compiler/lir/mcov.h) per target, CPU level and -O level the machine-code stages
 * compile for, added up over workers, and the table of it: per ISA, every form of
 * its forms table, every condition code a form with a condition accepts, every
 * encoder path of its cov.def and every selector idiom, with their counts, and
 * those that no compile hit.
 *
 * A table is plain data of a fixed size (a campaign keeps one per worker in shared
 * memory); slots are added in the order compiles ask for them, and tables of
 * different orders add up by key. */
#ifndef CIRC_FUZZ_MCOV_TABLE_H
#define CIRC_FUZZ_MCOV_TABLE_H

#include "compiler/lir/mcov.h"

#include <stdio.h>

enum { MCOV_SLOTS = 12 };

typedef struct {
    char target[16];   /* Target.name */
    char cpu[16];      /* Target.cpu */
    uint8_t opt_level;
    MachCov cov;
} MachCovSlot;

typedef struct MachCovTable {
    uint32_t nslots;
    MachCovSlot slot[MCOV_SLOTS];
} MachCovTable;

/* the counters of target t at opt_level, added if new, in the column of t's CPU
 * level, or of variant if not NULL ("regs": the register-pressure stage, "local":
 * the local allocator's); NULL if tab or t is NULL or the table is full */
MachCov *mcov_table_slot(MachCovTable *tab, const Target *t, int opt_level, const char *variant);
/* into += from, slot by slot by key */
void mcov_table_add(MachCovTable *into, const MachCovTable *from);

typedef struct {
    uint32_t items, hit;   /* every item of the table's ISAs, and those hit */
    uint32_t unreached;    /* never hit, and marked as no IR reaching them (Target.unreached) */
    uint32_t marked_hit;   /* marked so, yet hit: a mark to correct */
} McovTotals;

/* the items of every ISA with a slot: counted, and (out not NULL) those never hit
 * by any of its slots and not marked unreachable listed one a line */
McovTotals mcov_table_unhit(const MachCovTable *tab, FILE *out);
/* "N of M items never hit (R reachable, U marked unreachable by IR; ...)" */
void mcov_totals_print(FILE *out, McovTotals n);
/* the whole table: per ISA and item, the count of each slot of the ISA */
void mcov_table_print(FILE *out, const MachCovTable *tab);
/* compile m for every target of the registry and each of its CPU levels at -O0 and
 * -O2, counting into tab (`circ gen --stats --machine`); false if a compile failed */
bool mcov_table_count_module(MachCovTable *tab, const Module *m);
/* the table into dir/machine-coverage.txt (atomically); false if it cannot be written */
bool mcov_table_write(const MachCovTable *tab, const char *dir);

#endif
