/* plugin.c — an example pass plugin for circ (include/circ/pass.h, docs/api.md):
 *   example-add-zero  ADD x, 0 -> x (correct)
 *   example-swap-sub  SUB x, y -> SUB y, x (WRONG on purpose: what `circ fuzz
 *                     --load-pass-plugin` finds, as pass-example-swap-sub:...)
 * Built against the installed headers only (CMakeLists.txt: circ::headers); its
 * circ_* calls resolve to the circ that loads it.  Load it with
 *   circ opt --load-pass-plugin=./libcirc_example_plugin.so --passes=example-add-zero FILE */
#include <circ/circ.h>

/* whether gate g is an integer CONSTANT 0 */
static int is_zero(const circ_function *f, circ_gate_id g)
{
    return circ_gate_opcode(f, g) == circ_opcode_find("CONSTANT") && circ_gate_literal(f, g) == 0 &&
           circ_gate_type(f, g) != CIRC_F32 && circ_gate_type(f, g) != CIRC_F64;
}

/* ADD x, 0 and ADD 0, x: every use of the ADD becomes a use of x */
static int add_zero(circ_function *f, void *user)
{
    (void)user;
    int add = circ_opcode_find("ADD"), changed = 0;
    for (circ_gate_id g = CIRC_FIRST_GATE; g < circ_gate_count(f); g++) {
        if (circ_gate_is_dead(f, g) || circ_gate_opcode(f, g) != add)
            continue;
        circ_gate_id a = circ_gate_input(f, g, CIRC_IN_DATA, 0), b = circ_gate_input(f, g, CIRC_IN_DATA, 1);
        circ_gate_id keep = is_zero(f, b) ? a : is_zero(f, a) ? b : CIRC_NO_GATE;
        if (keep == CIRC_NO_GATE)
            continue;
        circ_gate_replace_uses(f, g, keep);
        circ_gate_kill(f, g);
        changed = 1;
    }
    return changed;
}

/* SUB x, y -> SUB y, x: wrong whenever x != y */
static int swap_sub(circ_function *f, void *user)
{
    (void)user;
    int sub = circ_opcode_find("SUB"), changed = 0;
    for (circ_gate_id g = CIRC_FIRST_GATE; g < circ_gate_count(f); g++) {
        if (circ_gate_is_dead(f, g) || circ_gate_opcode(f, g) != sub)
            continue;
        circ_gate_id a = circ_gate_input(f, g, CIRC_IN_DATA, 0), b = circ_gate_input(f, g, CIRC_IN_DATA, 1);
        if (a == b)
            continue;
        circ_gate_set_input(f, g, CIRC_IN_DATA, 0, b);
        circ_gate_set_input(f, g, CIRC_IN_DATA, 1, a);
        changed = 1;
    }
    return changed;
}

/* api_version: the loading circ's; circ_pass_register refuses this plugin by itself
 * when that circ lacks the API it was built for (CIRC_VERSION) */
int circ_plugin_register(unsigned api_version, circ_pass_registry *r)
{
    (void)api_version;
    circ_pass add = {"example-add-zero", "ADD x, 0 -> x (an example plugin pass)", add_zero, NULL};
    circ_pass sub = {"example-swap-sub", "SUB x, y -> SUB y, x (WRONG on purpose: an example finding)", swap_sub,
                     NULL};
    return circ_pass_register(r, &add) || circ_pass_register(r, &sub);
}
