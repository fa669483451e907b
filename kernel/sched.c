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
#include "lmk.h"

struct lmk_kernel lmk;

/* The most urgent preempted thread whose threshold still holds, or NULL. */
static inline lm_thread_t *held_first(void)
{
    unsigned p = lmk_prioset_first(&lmk.held);
    return p == LMK_PRIO_NONE ? NULL : lmk_ready_head(p);
}

/* Context: any. Lock: held. Blocks: no. Cost: O(1). */
void lmk_sched_check_locked(void)
{
    if (!lmk.started || lmk.sched_lock != 0u) {
        return;
    }
    const lm_thread_t *cur = lmk.current;
    if (cur->state != LM_THREAD_READY || cur->yielded != 0u ||
        lmk_prioq_best_prio(&lmk.ready) < cur->preempt_limit) {
        lm_port_switch_pend();
    }
}

/* Context: thread or isr. Lock: held. Blocks: no. Cost: O(1). */
void lmk_sched_stop_current_locked(uint8_t new_state)
{
    lm_thread_t *cur = lmk.current;
    LM_ASSERT(cur != &lmk_idle_thread);
    lmk_ready_remove_locked(cur);
    cur->state = new_state;
    /* R3.5: the next decision is by priority alone. If cur is made ready
     * again before the switch (an interrupt at the unmask), it is at the
     * tail of its ring (R2.2) and keeps no claim on the CPU. */
    cur->yielded = 1u;
    lm_port_switch_pend();
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
            struct lm_prioq *wq = (struct lm_prioq *)t->wait_obj;
#if LM_CFG_MUTEX
            if (t->wait_kind == LMK_WAIT_MUTEX) {
                wq = &((lm_mutex_t *)t->wait_obj)->waiters;
            }
#endif
            lmk_prioq_remove(wq, &t->qlink, t->prio);
            lmk_prioq_push_back(wq, &t->qlink, prio);
        }
        t->prio = (uint16_t)prio;
        break;
    default:
        t->prio = (uint16_t)prio;
        break;
    }
    t->preempt_limit = (uint16_t)lmk_min_prio(t->threshold, t->prio);
    if (t->state == LM_THREAD_READY) {
        lmk_sched_check_locked();
    }
}

/*
 * Context: the port's context-switch handler (lowest interrupt priority).
 * Lock: not held on entry; taken for the decision itself.
 * Cost: O(1) for the decision, after the pending timeout work, which runs in
 * O(1) masked steps (timeout.c).
 */
lm_thread_t *lmk_switch_select(void)
{
#if LM_CFG_MUTEX
    /* Inheritance chains and releases the calls left to this handler (R5.3,
     * R5.6, R9.6) come first, as if the calls had made them; the expiry
     * steps do the same for what they and handlers queue (timeout.c). No
     * thread runs before all are done: a handler that queues more between
     * the last step and the decision below pends this handler again, which
     * runs before any thread does. */
    if (lmk_pi_work_pending()) {
        lmk_pi_process();
    }
#endif
    if (lmk_timeout_work_pending()) {
        lmk_timeout_process();
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *cur = lmk.current;
    lm_thread_t *next = cur;
    bool cur_ready = (cur->state == LM_THREAD_READY);
    bool yielded = (cur->yielded != 0u);

    if (!cur_ready || !lmk_sched_held()) {
        next = lmk_ready_best();
        /* R3.1: a running thread keeps the CPU against anything not more
         * urgent than its preemption-threshold, unless it gave it up. */
        /* R3.1: so does a thread preempted by a more urgent one, until it
         * runs again. */
        lm_thread_t *held = held_first();
        if (held != NULL && next->prio >= held->preempt_limit) {
            next = held;
        }
        if (cur_ready && !yielded && next->prio >= cur->preempt_limit) {
            next = cur;
        }
    }
    cur->yielded = 0u;
    if (next != cur) {
        if (cur_ready && !yielded && cur != &lmk_idle_thread &&
            cur->preempt_limit < cur->prio) {
            lmk_prioset_add(&lmk.held, cur->prio); /* cur stays at the head of its ring */
        }
        if (next != &lmk_idle_thread) {
            lmk_prioset_remove(&lmk.held, next->prio); /* next is the head of its ring */
        }
#if LM_CFG_STATS
        lmk.stats.context_switches++;
        next->stats.switches_in++;
        /* R7.2: preempted = still ready, did not give the CPU up, not idle. */
        if (cur_ready && !yielded && cur != &lmk_idle_thread) {
            lmk.stats.preemptions++;
            cur->stats.preemptions++;
        }
#endif
#if LM_CFG_SWITCH_HOOK
        if (lmk.switch_hook != NULL) {
            lmk.switch_hook(cur, next);
        }
#endif
#if LM_CFG_MUTEX
        lmk.walker = NULL; /* a walk cur was making starts again (mutex.c) */
#endif
        lmk_trace_switch(cur, next, yielded);
        lmk.current = next;
    }
    lm_port_irq_unlock(s);
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
    /* Only the running thread changes the depth, and it cannot be switched
     * out while it holds the lock, so no interrupt mask is needed. */
    lmk.sched_lock++;
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
    lmk_sched_check_locked();
    lm_port_irq_unlock(s);
    return LM_OK;
}

unsigned lm_sched_lock_depth(void)
{
    return lmk.sched_lock;
}
