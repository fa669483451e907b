/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel statistics (LM_CFG_STATS): reading and resetting them, the
 * interrupt count without the event trace, and CPU time
 * (LM_CFG_STATS_CPU_TIME), and the bookkeeping behind the unbounded
 * inversions (LM_CFG_STATS_INVERSIONS, lmk_stats.h). The counts themselves
 * are made where the events happen (lmk_stats.h; the switch's in the port
 * or lmk_switch_commit_locked). Every function here costs O(1), one masked
 * step, but the look at a switch for unbounded inversions: O(k), k the
 * owners with a waiter more urgent than themselves.
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

#if LM_STATS_INVERSIONS
/* A count reaches at most the number of mutexes one thread owns with
 * waiters at one priority: each has a waiter of its own (a thread waits on
 * one mutex at a time), so at most the number of threads. */
static void inv_count_add(lm_thread_t *o, unsigned p)
{
    if (!lmk_prioset_contains(&o->inv_set, p)) {
        o->inv_count[p] = 1u; /* not cleared at create: a count starts here */
        lmk_prioset_add(&o->inv_set, p);
    } else {
        o->inv_count[p]++;
    }
}

static void inv_count_remove(lm_thread_t *o, unsigned p)
{
    if (--o->inv_count[p] == 0u) {
        lmk_prioset_remove(&o->inv_set, p);
    }
}

/* o's waiters or its priority changed: on lmk.inv_owners if and only if a
 * waiter of one of its mutexes is more urgent than o. O(1). */
static void inv_owner_check(lm_thread_t *o)
{
    unsigned lo = lmk_prioset_first(&o->inv_set); /* LMK_PRIO_NONE: no waiter */
    o->inv_lo = (uint16_t)lo;
    bool inverted = lo < o->prio;
    if (inverted == (o->inv_pprev != NULL)) {
        return;
    }
    if (inverted) {
        o->inv_next = lmk.inv_owners;
        if (o->inv_next != NULL) {
            o->inv_next->inv_pprev = &o->inv_next;
        }
        o->inv_pprev = &lmk.inv_owners;
        lmk.inv_owners = o;
    } else {
        *o->inv_pprev = o->inv_next;
        if (o->inv_next != NULL) {
            o->inv_next->inv_pprev = o->inv_pprev;
        }
        o->inv_pprev = NULL;
    }
}

void lmk_stats_inv_rekey_locked(lm_mutex_t *m)
{
    lm_thread_t *o = m->owner;
    if (o == NULL) {
        return; /* being deleted: its waiters leave one by one */
    }
    unsigned key = lmk_waitq_best_prio(&m->waiters);
    if (key == m->inv_key) {
        return;
    }
    if (m->inv_key != LMK_PRIO_NONE) {
        inv_count_remove(o, m->inv_key);
    }
    if (key != LMK_PRIO_NONE) {
        inv_count_add(o, key);
    }
    m->inv_key = (uint16_t)key;
    inv_owner_check(o);
}

void lmk_stats_inv_release_locked(lm_mutex_t *m, lm_thread_t *o)
{
    if (m->inv_key != LMK_PRIO_NONE) {
        inv_count_remove(o, m->inv_key);
        m->inv_key = LMK_PRIO_NONE;
        inv_owner_check(o);
    }
}

void lmk_stats_inv_moved_locked(lm_thread_t *t)
{
    inv_owner_check(t);
    if (t->wait_kind == LMK_WAIT_MUTEX) {
        lmk_stats_inv_rekey_locked((lm_mutex_t *)t->wait_obj); /* it moved in the queue */
    }
}

/* Counted once per switch, however many owners M is between. The idle
 * thread is never counted: its priority is below every owner's. */
void lmk_stats_inv_switch_locked(lm_thread_t *next)
{
    unsigned p = next->prio;
    for (const lm_thread_t *o = lmk.inv_owners; o != NULL; o = o->inv_next) {
        if (o->inv_lo < p && p < o->prio) {
            lmk.stats.inversions_unbounded++;
            next->stats.inversions_unbounded++;
            return;
        }
    }
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
