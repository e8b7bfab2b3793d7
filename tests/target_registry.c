/* target_registry.c — the target registry (compiler/target.h): every target it lists
 * is complete (name, forms, register file, hooks) and found again by name and by
 * ISA, names are unique, name lists are formatted from it, and --isa style lists
 * are parsed against it (unknown names and empty lists refused). */
#include "compiler/lir/lower.h"
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
    CHECK(t->isel && t->isel->entry && t->isel->gate && t->isel->term, "%s: selection hooks", t->name);
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
