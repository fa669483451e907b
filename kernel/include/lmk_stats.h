/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's statistics counts (LM_CFG_STATS, kernel/stats.c; defined in
 * docs/trace.md, "Kernel statistics"): one call where each event happens,
 * beside the trace hook of the same event, so that the kernel and a trace
 * count the same things. Without LM_CFG_STATS each is empty. Lock: held by
 * every caller. Cost: O(1), a few instructions.
 */
#ifndef LMK_STATS_H
#define LMK_STATS_H

#include "limen/limen.h"

#if LM_CFG_STATS && LM_CFG_STATS_CPU_TIME
/* Charge the time since the last charge to the running thread and to the
 * elapsed time (kernel/stats.c). Lock: held. Cost: O(1), a timestamp read. */
void lmk_stats_cpu_charge_locked(void);
/* lm_kernel_start: start the timestamp and the elapsed time. Lock: held. */
void lmk_stats_cpu_start_locked(void);
#else
static inline void lmk_stats_cpu_charge_locked(void)
{
}
static inline void lmk_stats_cpu_start_locked(void)
{
}
#endif

#if LM_CFG_STATS
/* t was made ready by the end of its wait (status: the wait's result),
 * or, with status LM_OK, by a start or a resume. */
static inline void lmk_stats_resumed(lm_thread_t *t, lm_status_t status)
{
    lmk.stats.resumptions++;
    t->stats.resumptions++;
    if (status == LM_ERR_TIMEOUT) {
        lmk.stats.wait_timeouts++;
        t->stats.wait_timeouts++;
    }
}
/* t blocked, slept, or was suspended. */
static inline void lmk_stats_suspended(lm_thread_t *t)
{
    lmk.stats.suspensions++;
    t->stats.suspensions++;
}
/* t called lm_thread_yield. */
static inline void lmk_stats_relinquished(lm_thread_t *t)
{
    lmk.stats.relinquishes++;
    t->stats.relinquishes++;
}
/* A thread starts waiting on an inheriting mutex whose owner is less
 * urgent than it: the wait raises the owner (R5.2). */
static inline void lmk_stats_inversion_bounded(void)
{
    lmk.stats.inversions_bounded++;
}
#else
static inline void lmk_stats_resumed(lm_thread_t *t, lm_status_t status)
{
    (void)t;
    (void)status;
}
static inline void lmk_stats_suspended(lm_thread_t *t)
{
    (void)t;
}
static inline void lmk_stats_relinquished(lm_thread_t *t)
{
    (void)t;
}
static inline void lmk_stats_inversion_bounded(void)
{
}
#endif

#endif /* LMK_STATS_H */
