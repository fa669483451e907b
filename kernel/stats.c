/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel statistics (LM_CFG_STATS): reading and resetting them, the
 * interrupt count without the event trace, and CPU time
 * (LM_CFG_STATS_CPU_TIME). The counts themselves are made where the events
 * happen (lmk_stats.h; the switch's in the port or lmk_switch_commit_locked).
 * Every function here costs O(1), one masked step.
 */
#include <string.h>
#include "lmk.h"

#if LM_CFG_STATS && LM_CFG_STATS_CPU_TIME
void lmk_stats_cpu_start_locked(void)
{
    lmk.stats.timestamp_hz = lm_port_timestamp_start();
    lmk.cpu_mark = lm_port_timestamp();
}

/* The difference of two 32-bit readings is right as long as charges are
 * less than 2^32 counts apart: every switch and every tick announcement
 * charges (docs/trace.md, "Kernel statistics"). */
void lmk_stats_cpu_charge_locked(void)
{
    uint32_t now = lm_port_timestamp();
    uint32_t d = now - lmk.cpu_mark;
    lmk.cpu_mark = now;
    lmk.current->stats.cpu_time += d;
    lmk.cpu_elapsed += d;
}

/* Before a read or reset: the running thread's time so far (t NULL: any
 * thread's), once the kernel runs. */
static void charge_if_running(const lm_thread_t *t)
{
    if (lmk.started && (t == NULL || t == lmk.current)) {
        lmk_stats_cpu_charge_locked();
    }
}
#else
static inline void charge_if_running(const lm_thread_t *t)
{
    (void)t;
}
#endif

void lm_kernel_stats(lm_kernel_stats_t *out)
{
    if (out == NULL) {
        return;
    }
#if LM_CFG_STATS
    lm_irqstate_t s = lm_port_irq_lock();
    charge_if_running(NULL);
    *out = lmk.stats;
    lm_port_irq_unlock(s);
#else
    memset(out, 0, sizeof *out);
#endif
}

#if LM_CFG_STATS && LM_CFG_STATS_CPU_TIME
uint64_t lm_kernel_elapsed(void)
{
    lm_irqstate_t s = lm_port_irq_lock();
    charge_if_running(NULL);
    uint64_t e = lmk.cpu_elapsed;
    lm_port_irq_unlock(s);
    return e;
}
#endif

void lm_kernel_stats_reset(void)
{
#if LM_CFG_STATS
    lm_irqstate_t s = lm_port_irq_lock();
#if LM_CFG_STATS_CPU_TIME
    uint32_t hz = lmk.stats.timestamp_hz;
    charge_if_running(NULL); /* the time before belongs to the running thread */
    memset(&lmk.stats, 0, sizeof lmk.stats);
    lmk.stats.timestamp_hz = hz;
    lmk.cpu_elapsed = 0u;
#else
    memset(&lmk.stats, 0, sizeof lmk.stats);
#endif
    /* The application cannot reset the idle thread's (a const thread). */
    memset(&lmk_idle_thread.stats, 0, sizeof lmk_idle_thread.stats);
    lm_port_irq_unlock(s);
#endif
}

#if LM_CFG_STATS
lm_status_t lm_thread_stats(const lm_thread_t *t, lm_thread_stats_t *out)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    LMK_CHECK(out != NULL, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    charge_if_running(t);
    *out = t->stats;
    lm_port_irq_unlock(s);
    return LM_OK;
}

lm_status_t lm_thread_stats_reset(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    charge_if_running(t); /* its run so far is before the reset */
    memset(&t->stats, 0, sizeof t->stats);
    lm_port_irq_unlock(s);
    return LM_OK;
}

#if !LM_CFG_TRACE
/* With the trace, kernel/trace.c records and counts. */
void lm_trace_isr_enter(uint16_t irq)
{
    (void)irq;
    lm_irqstate_t s = lm_port_irq_lock(); /* a nested handler may count too */
    lmk.stats.interrupts++;
    lm_port_irq_unlock(s);
}

void lm_trace_isr_exit(uint16_t irq)
{
    (void)irq;
}
#endif
#endif
