/* target_registry.c — the target registry (compiler/target.h): every target it lists
 * is complete (name, forms, register file, hooks), its forms table agrees with the
 * LIR overloads and its register file with itself, it is found again by name and by
 * ISA, names are unique, name lists are formatted from it, and --isa style lists are
 * parsed against it (unknown names and empty lists refused). */
#include "compiler/lir/isel.h"
#include "compiler/target.h"

#include <string.h>

#include "tests/test_check.h"

static void check_complete(const Target *t)
{
    CHECK(t->name && *t->name, "a target without a name");
    CHECK(t->isa < ISA_COUNT, "%s: ISA %d out of range", t->name, (int)t->isa);
    CHECK(t->forms && t->nforms, "%s: no forms table", t->name);
    CHECK(t->nregs[BANK_GP] && t->nregs[BANK_FP], "%s: no registers", t->name);
    CHECK(t->reg_names[BANK_GP] && t->reg_names[BANK_FP], "%s: no register names", t->name);
    CHECK(t->allocatable[BANK_GP] && t->allocatable[BANK_FP], "%s: nothing to allocate", t->name);
    CHECK(tmp_is_reg(t->frame_base) && tmp_is_reg(t->stack_pointer), "%s: frame registers", t->name);
    CHECK(t->arg_ok && t->finish_frame && t->emit && t->listing, "%s: a hook is missing", t->name);
    CHECK(t->isel && t->isel->abi && t->isel->divide && t->isel->fptoi, "%s: selection hooks", t->name);
    CHECK(t->isel->abi->ngp_args && t->isel->abi->nfp_args, "%s: no argument registers", t->name);
}

/* rows in opcode order, each an existing overload accepting something in every
 * position, fixed registers that exist */
static void check_forms(const Target *t)
{
    for (uint32_t i = 0; i < t->nforms; i++) {
        const LirForm *f = &t->forms[i];
        CHECK(i == 0 || t->forms[i - 1].op <= f->op, "%s: form row %u out of opcode order", t->name, i);
        const LirOverload *o = lir_overload((LirOp)f->op, f->nargs);
        CHECK(o != NULL, "%s: form row %u: %s has no %u-argument overload", t->name, i,
              lir_op_name((LirOp)f->op), f->nargs);
        for (unsigned a = 0; o && a < f->nargs; a++) {
            CHECK(f->args[a].kinds != 0, "%s: form row %u arg %u accepts nothing", t->name, i, a);
            CHECK(!f->args[a].fixed || f->args[a].fixed <= t->nregs[o->args[a].bank],
                  "%s: form row %u arg %u is fixed to a register that does not exist", t->name, i, a);
        }
    }
}

/* the allocation order hands out allocatable registers that exist, each once */
static void check_registers(const Target *t)
{
    for (int b = 0; b < BANK_COUNT; b++) {
        uint64_t seen = 0;
        CHECK(t->nregs[b] <= LIR_MAX_REGS, "%s: %u registers", t->name, t->nregs[b]);
        uint64_t exists = t->nregs[b] >= 64 ? ~0ull : (1ull << t->nregs[b]) - 1;
        CHECK(!(t->allocatable[b] & ~exists) && !(t->callee_saved[b] & ~exists),
              "%s: allocatable or callee-saved registers that do not exist", t->name);
        for (unsigned i = 0; t->alloc_order[b] && i < t->nalloc_order[b]; i++) {
            unsigned r = t->alloc_order[b][i];
            CHECK(r < t->nregs[b] && (t->allocatable[b] >> r & 1), "%s: order names register %u", t->name, r);
            CHECK(!(seen >> r & 1), "%s: register %u twice in the order", t->name, r);
            seen |= 1ull << (r & 63);
        }
    }
}

static void check_lookup(void)
{
    unsigned n = target_count();
    CHECK(n >= 1 && n <= TARGET_MAX, "%u targets", n);
    const Target *all[TARGET_MAX];
    CHECK(target_list(all, TARGET_MAX) == n, "target_list lists every target");
    CHECK(target_list(all, 1) == 1, "target_list stops at max");
    for (unsigned i = 0; i < n; i++) {
        const Target *t = target_at(i);
        check_complete(t);
        check_forms(t);
        check_registers(t);
        CHECK(target_find(t->name) == t, "%s is not found by its name", t->name);
        CHECK(target_for_isa(t->isa) == t, "%s is not found by its ISA", t->name);
        CHECK(target_find_n(t->name, strlen(t->name) - 1) != t, "%s found by a prefix", t->name);
        for (unsigned j = 0; j < i; j++)
            CHECK(strcmp(target_at(j)->name, t->name) && target_at(j)->isa != t->isa,
                  "%s and %s share a name or an ISA", target_at(j)->name, t->name);
    }
    CHECK(target_at(n) == NULL, "target_at past the end");
    CHECK(target_find("no-such-target") == NULL, "an unknown name is found");
}

static void check_names(void)
{
    char buf[256], want[256] = "";
    for (unsigned i = 0; i < target_count(); i++) {
        const char *sep = i == 0 ? "" : i + 1 == target_count() ? " or " : ", ";
        strcat(strcat(want, sep), target_at(i)->name);
    }
    CHECK(!strcmp(target_names(buf, sizeof buf, ", ", " or "), want), "names '%s', want '%s'", buf, want);
    target_names(buf, 4, ",", ",");
    CHECK(strlen(buf) == 3, "a short buffer is truncated and terminated ('%s')", buf);
}

static void check_isa_lists(void)
{
    uint32_t mask, all = 0;
    const char *bad;
    size_t badlen;
    char list[256];
    target_names(list, sizeof list, ",", ",");
    for (unsigned i = 0; i < target_count(); i++)
        all |= 1u << target_at(i)->isa;
    CHECK(target_parse_isa_list(list, &mask, &bad, &badlen) && mask == all, "every target: mask %x", mask);
    char one[64];
    snprintf(one, sizeof one, ",%s,", target_at(0)->name);
    CHECK(target_parse_isa_list(one, &mask, &bad, &badlen) && mask == 1u << target_at(0)->isa,
          "empty items are skipped");
    snprintf(one, sizeof one, "%s,bogus", target_at(0)->name);
    CHECK(!target_parse_isa_list(one, &mask, &bad, &badlen) && badlen == 5 && !strncmp(bad, "bogus", 5),
          "an unknown name is refused and named");
    CHECK(!target_parse_isa_list("", &mask, &bad, &badlen), "an empty list is refused");
    CHECK(!target_parse_isa_list(",", &mask, &bad, &badlen), "a list naming nothing is refused");
}

int main(void)
{
    check_lookup();
    check_names();
    check_isa_lists();
    printf("target_registry: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
