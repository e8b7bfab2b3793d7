/* check_stages.c — the kinds of stages of the differential check, in the order
 * they are tried: each is a StageOps (check_stage.h) of check.c or
 * check_machine.c, check_native.c, check_qemu.c or check_c.c. */
#include "fuzz/check_stage.h"

const StageOps *const check_stage_kinds[STAGE_KIND_COUNT] = {
    [STAGE_PASS] = &check_pass_stages,
    [STAGE_ORDER] = &check_order_stages,
    [STAGE_PIPELINE] = &check_pipeline_stages,
    [STAGE_TV] = &check_tv_stages,
    [STAGE_SCHED] = &check_sched_stages,
    [STAGE_MACHINE] = &check_machine_stages,
    [STAGE_NATIVE] = &check_native_stages,
    [STAGE_QEMU] = &check_qemu_stages,
    [STAGE_C] = &check_c_stages,
};
