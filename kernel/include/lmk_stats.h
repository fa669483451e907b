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
/* t starts waiting on an inheriting mutex whose owner is less urgent than
 * it: the wait raises the owner (R5.2). */
static inline void lmk_stats_inversion_bounded(lm_thread_t *t)
{
    lmk.stats.inversions_bounded++;
    t->stats.inversions_bounded++;
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
static inline void lmk_stats_inversion_bounded(lm_thread_t *t)
{
    (void)t;
}
#endif

#if LM_STATS_INVERSIONS
/*
 * Unbounded inversions (LM_CFG_STATS_INVERSIONS; kernel/stats.c). A switch
 * to M is one when some mutex has an owner O and a waiter H with
 * H.prio < M.prio < O.prio (effective priorities, lower is more urgent).
 * All of O's mutexes share the upper end O.prio, so the question is per
 * owner: is M strictly between O and the most urgent waiter of all the
 * mutexes O owns (O's inv_lo)? Each mutex counts in its owner at its most
 * urgent waiter's priority (inv_key, inv_count, inv_set, as the
 * inheritance counts do), and the owners whose inv_lo is more urgent than
 * themselves are on lmk.inv_owners. The hooks below keep both right in
 * O(1) at every change of a mutex's waiters, of its owner and of an
 * owner's priority, all of which mutex.c sees; the switch then looks only
 * at the owners on the list. Lock: held by every caller.
 */
/* m was created: it counts nowhere. O(1). */
static inline void lmk_stats_inv_created(lm_mutex_t *m)
{
    m->inv_key = LMK_PRIO_NONE;
}
/* m's waiters changed (a wait began or ended, a waiter moved) or m has a
 * new owner: count m in its owner at its most urgent waiter. O(1). */
void lmk_stats_inv_rekey_locked(lm_mutex_t *m);
/* m leaves its owner o (free, handed over, deleted). O(1). */
void lmk_stats_inv_release_locked(lm_mutex_t *m, lm_thread_t *o);
/* t's effective priority changed: as an owner, and as a waiter on a
 * mutex. O(1). */
void lmk_stats_inv_moved_locked(lm_thread_t *t);
/* The switch to next, from lmk_switch_commit_locked. O(k), k the owners
 * on lmk.inv_owners. */
void lmk_stats_inv_switch_locked(lm_thread_t *next);
/* One test when no owner has a waiter more urgent than itself. */
static inline void lmk_stats_inversion_switch(lm_thread_t *next)
{
    if (lmk.inv_owners != NULL) {
        lmk_stats_inv_switch_locked(next);
    }
}
#else
#if LM_CFG_MUTEX
static inline void lmk_stats_inv_created(lm_mutex_t *m)
{
    (void)m;
}
static inline void lmk_stats_inv_rekey_locked(lm_mutex_t *m)
{
    (void)m;
}
static inline void lmk_stats_inv_release_locked(lm_mutex_t *m, lm_thread_t *o)
{
    (void)m;
    (void)o;
}
#endif
static inline void lmk_stats_inv_moved_locked(lm_thread_t *t)
{
    (void)t;
}
static inline void lmk_stats_inversion_switch(lm_thread_t *next)
{
    (void)next;
}
#endif

#endif /* LMK_STATS_H */
