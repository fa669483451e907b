/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The idle thread as the application sees it (limen/kernel.h
 * lm_kernel_idle_thread): its statistics and stack high-water mark read as
 * any other thread's. Its stack is filled with the watermark pattern at
 * lm_kernel_init, as lm_thread_start fills every other thread's, so its
 * high-water mark means something (LM_CFG_STACK_WATERMARK).
 */
#include <string.h>

#include "harness.h"
#include "limen/port.h"

static const lm_thread_t *seen_in_hook;

static void record_idle(void)
{
    seen_in_hook = lm_thread_self();
#if !defined(LM_PORT_HOSTED)
    /* In place of the harness's hook: on hardware nothing else ends the run. */
    if (lm_tick_next_deadline() == LM_WAIT_FOREVER) {
        lm_port_stop();
    }
#endif
}

static void sleeper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(3), LM_OK); /* the idle thread runs meanwhile */
    lmt_log("woke");
}

LMT_CASE(idle_thread_is_reachable)
{
    lmt_begin();
    const lm_thread_t *idle = lm_kernel_idle_thread();
    LMT_CHECK(idle != NULL);
    LMT_CHECK(strcmp(lm_thread_name(idle), "idle") == 0);
    LMT_EQ(lm_thread_priority(idle), LM_CFG_PRIORITIES); /* below every application priority */
    seen_in_hook = NULL;
    lm_idle_hook_set(record_idle);
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_run();
    lmt_expect("woke");
    LMT_CHECK(seen_in_hook == idle); /* the thread that runs the idle hook */
}

#if LM_CFG_STATS
LMT_CASE(idle_thread_statistics)
{
    lmt_begin();
    const lm_thread_t *idle = lm_kernel_idle_thread();
    lm_thread_stats_t st;
    LMT_ST(lm_thread_stats(idle, &st), LM_OK);
    LMT_EQ(st.switches_in, 0);
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_run();
    LMT_ST(lm_thread_stats(idle, &st), LM_OK);
    LMT_CHECK(st.switches_in >= 1u); /* S slept: the idle thread ran */
}
#endif

#if LM_CFG_STACK_WATERMARK
/* Before the fill, a never-filled stack read as 0 bytes unused: "overflowed". */
LMT_CASE(idle_thread_stack_high_water_mark)
{
    lmt_begin();
    const lm_thread_t *idle = lm_kernel_idle_thread();
    size_t before = 0;
    LMT_ST(lm_thread_stack_unused(idle, &before), LM_OK);
    /* Only the port's guard at the bottom and its first frame at the top
     * are not the pattern yet. */
    LMT_CHECK(before > LM_PORT_MIN_STACK / 2u);
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_run();
    size_t after = 0;
    LMT_ST(lm_thread_stack_unused(idle, &after), LM_OK);
    LMT_CHECK(after > 0u);
    LMT_CHECK(after < before); /* it ran: its stack was used */
    printf("# idle thread: %u bytes of stack unused before the run, %u after\n",
           (unsigned)before, (unsigned)after);
}
#endif

/* Directives may not appear inside a macro's arguments: one list per case. */
#if LM_CFG_STATS && LM_CFG_STACK_WATERMARK
LMT_MAIN(LMT_RUN(idle_thread_is_reachable), LMT_RUN(idle_thread_statistics),
         LMT_RUN(idle_thread_stack_high_water_mark))
#elif LM_CFG_STATS
LMT_MAIN(LMT_RUN(idle_thread_is_reachable), LMT_RUN(idle_thread_statistics))
#elif LM_CFG_STACK_WATERMARK
LMT_MAIN(LMT_RUN(idle_thread_is_reachable), LMT_RUN(idle_thread_stack_high_water_mark))
#else
LMT_MAIN(LMT_RUN(idle_thread_is_reachable))
#endif
