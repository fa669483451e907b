/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scheduler: the ready queue, preemption decisions and the choice of the next
 * thread. Rules cited as R<n> are in docs/rules.md.
 *
 * The running thread stays in the ready queue, at the head of its priority's
 * ring. A preempted thread therefore resumes before its peers (R2.1); a
 * thread that relinquishes or ends its time-slice is moved to the tail and
 * marked `yielded`, which also drops the protection its preemption-threshold
 * gives it for that one decision (R3.3, R3.4).
 */
#include <stddef.h>

#include "lmk.h"

struct lmk_kernel lmk;

_Static_assert(offsetof(struct lmk_kernel, current) == LMK_SWITCH_CURRENT &&
                   offsetof(struct lmk_kernel, next) == LMK_SWITCH_NEXT &&
                   offsetof(struct lmk_kernel, timeout_work) == LMK_SWITCH_WORK &&
                   offsetof(struct lmk_kernel, pi_work) == LMK_SWITCH_WORK + 1u &&
                   offsetof(struct lmk_kernel, bar) == LMK_SWITCH_BAR &&
                   offsetof(struct lmk_kernel, bar_next) == LMK_SWITCH_BAR + 2u,
               "the port's view of the kernel state (include/limen/port.h)");
#if LM_CFG_SWITCH_HOOK
_Static_assert(offsetof(struct lmk_kernel, switch_hook) == LMK_SWITCH_HOOK, "port's view: hook");
#endif
#if LM_CFG_STATS
_Static_assert(offsetof(struct lmk_kernel, stats) == LMK_SWITCH_STATS &&
                   offsetof(lm_kernel_stats_t, context_switches) == 0u &&
                   offsetof(lm_kernel_stats_t, preemptions) == 4u,
               "port's view: the switch and preemption counts");
#endif

/* Context: any. Lock: held. Blocks: no. Cost: O(1). The out-of-line copy
 * of lmk_sched_preempt_inline_locked, for the wakes that are not a hand-over
 * (lmk_ready_insert_locked, lmk_wait_done_locked). */
void lmk_sched_preempt_locked(lm_thread_t *t)
{
    lmk_sched_preempt_inline_locked(t);
}

/*
 * Context: any. Lock: held. Blocks: no. Cost: O(1): two bit scans.
 *
 * The rules (R3.1, R3.5, R3.6, R6.2) as one choice:
 *   - under the scheduler lock or an R5.7 walk, a running thread that is
 *     still ready keeps the CPU;
 *   - otherwise the most urgent ready thread, unless a preempted thread's
 *     hold bars it (its threshold is at or above the candidate's
 *     priority), and unless the running thread's own threshold does, when
 *     it is ready and did not give the CPU up.
 * The bar a later wake must beat is the lowest of the same three numbers.
 */
void lmk_sched_decide_locked(void)
{
    lm_thread_t *cur = lmk.current;
    bool cur_ready = (cur->state == LM_THREAD_READY);
    lm_thread_t *next = cur;
    unsigned bar = 0u; /* nothing preempts */
    if (!lmk.started) {
        lmk.next = cur;
        return; /* lm_kernel_start makes the first decision */
    }
    if (!cur_ready || !lmk_sched_held()) {
        unsigned best = lmk_prioq_best_prio(&lmk.ready);
        next = (best != LMK_PRIO_NONE) ? lmk_ready_head(best) : &lmk_idle_thread;
        bar = best;
        unsigned h = lmk_prioset_first(&lmk.held);
        if (h != LMK_PRIO_NONE) {
            lm_thread_t *held = lmk_ready_head(h);
            if (best >= held->preempt_limit) {
                next = held;
            }
            bar = lmk_min_prio(bar, held->preempt_limit);
        }
        if (cur_ready && cur->yielded == 0u) {
            if (next->prio >= cur->preempt_limit) {
                next = cur;
            }
            bar = lmk_min_prio(bar, cur->preempt_limit);
        }
    }
    unsigned after = lmk_min_prio(bar, next->preempt_limit);
    if (next != cur) {
        if (cur_ready) {
            lmk_sched_hold_mark_locked(cur);
        }
#if LM_CFG_MUTEX
        lmk.walker = NULL; /* a walk cur was making starts again (mutex.c) */
#endif
        lm_port_switch_pend();
    } else if (cur->yielded != 0u) {
        /* cur gave the CPU up and is chosen again. Its yield ends where
         * every decision takes effect, in the switch handler (R12.2): a
         * wake before it (the tick's own expiries, say) still competes
         * with cur by priority alone (R3.5). */
        lm_port_switch_pend();
    } else {
        bar = after;
    }
    lmk.next = next;
    lmk.bar = (uint16_t)bar;
    lmk.bar_next = (uint16_t)after;
}

/* Context: thread or isr. Lock: held. Blocks: no. Cost: O(1). */
void lmk_sched_stop_current_locked(uint8_t new_state)
{
    /* Never the idle thread, the one thread at priority LM_CFG_PRIORITIES. */
    LM_ASSERT(lmk.current->prio != LM_CFG_PRIORITIES);
    lmk_sched_leave_locked(new_state);
}

/* Context: thread. Lock: held. Blocks: no. Cost: O(1). Not inlined into
 * lmk_sched_stop_current_locked above: one copy, which that tail-calls. */
__attribute__((noinline)) void lmk_sched_leave_locked(uint8_t new_state)
{
    lm_thread_t *cur = lmk.current;
    bool no_holds = lmk_sched_leave_body_locked(cur, new_state);
    cur->qlink.next = NULL; /* in no queue; a caller that queues it relinks it */
    cur->qlink.prev = NULL;
#if LM_CFG_MUTEX
    /* A handler that suspends or ends cur in an R5.7 walk: the walk starts
     * again when cur runs (mutex.c). */
    lmk.walker = NULL;
#endif
    lmk_sched_decide_given_up_locked(no_holds);
}

/* Context: any. Lock: held. Blocks: no. Cost: O(1).
 * Where t lands (R4.1-R4.3): the running thread goes to the head of its new
 * ring, any other ready thread to the tail, a waiter to the tail of its new
 * priority in its wait queue. Callers call only for a change of priority:
 * an unchanged one would send a ready thread to the tail of its ring. */
void lmk_thread_move_prio_locked(lm_thread_t *t, unsigned prio)
{
    lmk_trace_prio(t, prio, NULL, prio < t->prio);
    switch (t->state) {
    case LM_THREAD_READY:
        lmk_ready_remove_locked(t);
        t->prio = (uint16_t)prio;
        if (t == lmk.current) {
            lmk_prioset_remove(&lmk.held, prio); /* the running thread now comes first */
            lmk_prioq_push_front(&lmk.ready, &t->qlink, prio);
        } else {
            lmk_prioq_push_back(&lmk.ready, &t->qlink, prio);
        }
        break;
    case LM_THREAD_BLOCKED:
        if (t->wait_kind == LMK_WAIT_PRIOQ || t->wait_kind == LMK_WAIT_MUTEX) {
            struct lm_waitq *wq = (struct lm_waitq *)t->wait_obj;
#if LM_CFG_MUTEX
            if (t->wait_kind == LMK_WAIT_MUTEX) {
                wq = &((lm_mutex_t *)t->wait_obj)->waiters;
            }
#endif
            lmk_waitq_remove(wq, t);
            t->prio = (uint16_t)prio; /* its key in the queue (waitq.h) */
            lmk_waitq_push_back(wq, t);
        }
        t->prio = (uint16_t)prio;
        break;
    default:
        t->prio = (uint16_t)prio;
        break;
    }
    t->preempt_limit = (uint16_t)lmk_min_prio(t->threshold, t->prio);
    if (t->state == LM_THREAD_READY) {
        lmk_sched_decide_locked();
        lmk_trace_decided_own(t);
    }
}

/*
 * Context: the port's context-switch handler (lowest interrupt priority).
 * Lock: not held on entry; HELD on return, with no work left, so that the
 * port can withdraw its own pending request before it carries out the
 * decision (the wakes below requested it, and lmk.next has their result).
 * Cost: O(1) per masked step. Inheritance chains and releases the calls
 * left to this handler (R5.3, R5.6, R9.6) go first, as if the calls had
 * made them; expiries after (timeout.c). No thread runs before all are
 * done: work a handler queues between two steps is done here too.
 */
lm_irqstate_t lmk_switch_work(void)
{
    for (;;) {
        lm_irqstate_t s = lm_port_irq_lock();
#if LM_CFG_MUTEX
        if (lmk.pi_work != 0u) {
            lmk_pi_step(s);
            continue;
        }
#endif
        if (lmk.timeout_work == 0u) {
            return s;
        }
        lmk_timeout_step(s);
    }
}

/*
 * Context: the port's context-switch handler. Lock: held. Cost: O(1).
 * The switch itself: lmk.next becomes the running thread. A port that
 * makes the switch in assembly instead (the stores of LMK_SWITCH_* in
 * include/limen/port.h, under the lock) calls this only when there is
 * something to count or report: statistics, the switch hook.
 */
lm_thread_t *lmk_switch_commit_locked(void)
{
    lm_thread_t *prev = lmk.current;
    lm_thread_t *next = lmk.next;
    /* The decision takes effect: a yield it answered is over (R3.5), and
     * the thread chosen runs with its threshold. */
    next->yielded = 0u;
    if (next != prev) {
        lmk_stats_cpu_charge_locked(); /* prev's run ends */
#if LM_CFG_STATS
        lmk.stats.context_switches++;
        next->stats.switches_in++;
        /* R7.2: preempted = still ready, did not give the CPU up, not idle. */
        if (prev->state == LM_THREAD_READY && prev->yielded == 0u &&
            prev != &lmk_idle_thread) {
            lmk.stats.preemptions++;
            prev->stats.preemptions++;
        }
#endif
        lmk_stats_inversion_switch(next); /* LM_CFG_STATS_INVERSIONS */
#if LM_CFG_SWITCH_HOOK
        if (lmk.switch_hook != NULL) {
            lmk.switch_hook(prev, next);
        }
#endif
        lmk_trace_switch(prev, next, prev->yielded != 0u);
        lmk.current = next;
    }
    lmk.bar = lmk.bar_next;
    return next;
}

lm_status_t lm_sched_lock(void)
{
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    if (lmk.sched_lock == 0xFFu) {
        return LMK_FAIL(LM_ERR_OVERFLOW);
    }
    /* Masked: the depth and the decision's bar change together. */
    lm_irqstate_t s = lm_port_irq_lock();
    lmk.sched_lock++;
    lmk_sched_hold_locked();
    lm_port_irq_unlock(s);
    return LM_OK;
}

lm_status_t lm_sched_unlock(void)
{
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    if (lmk.sched_lock == 0u) {
        return LMK_FAIL(LM_ERR_STATE);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lmk.sched_lock--;
    lmk_sched_decide_locked();
    lm_port_irq_unlock(s);
    return LM_OK;
}

unsigned lm_sched_lock_depth(void)
{
    return lmk.sched_lock;
}
