/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The experiment's unique case without end, recorded in overwrite mode:
 * a running target for `limen trace live` and `limen trace read`, which
 * read the trace over the GDB remote protocol (docs/trace.md). Board only.
 * Built without the recorder too (producer_consumer_live_notrace): GDB's
 * thread awareness on a kernel without it (tools/gdb/limen_gdb.py).
 */
#include "limen/limen.h"
#include "limen/port.h"
#include "pc.h"

#if LM_CFG_TRACE
static LM_TRACE_BUFFER_DEFINE(trace_buf, 16u * 1024u);

static void mark_cycle(uint32_t cycle)
{
    lm_trace_user(1u, cycle, 0u);
}
#endif

_Noreturn void pc_stop(void)
{
    lm_port_stop();
}

int main(void)
{
    static pc_result_t r;
#if LM_CFG_TRACE
    pc_cycle_hook = mark_cycle;
    if (lm_trace_start(trace_buf, sizeof trace_buf, 16u, LM_TRACE_OVERWRITE) != LM_OK) {
        return 1;
    }
    (void)lm_trace_name_event(1u, "cycle");
#endif
    pc_run(PC_UNIQUE, 1u, UINT32_MAX - 1u, NULL, &r); /* does not end */
    return 0;
}
