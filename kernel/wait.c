/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Waiting and waking: the one protocol every blocking object uses.
 *
 * A thread blocks by leaving the ready queue, joining its object's wait
 * queue and arming its timeout, all under the kernel lock; the switch itself
 * happens when the caller releases the lock. Whoever ends the wait (a give,
 * a timeout, a deletion, an abort) does so under the lock, removes the thread
 * from every structure and writes its status, so exactly one of them wins
 * (R8.1) and the others find the thread no longer waiting.
 */
#include "lmk.h"


/* Context: thread. Lock: held. Blocks: when the caller unlocks. Cost: O(1). */
void lmk_block_current_locked(uint8_t kind, void *obj, lm_tick_t timeout)
{
    lm_thread_t *cur = lmk.current;
    lmk_trace_block(cur, kind, obj, 0u);
    lmk_stats_suspended(cur);
    cur->wait_kind = kind;
    cur->wait_obj = obj;
    cur->wait_status = LM_OK;
    lmk_sched_leave_locked(kind == LMK_WAIT_SLEEP ? LM_THREAD_SLEEPING : LM_THREAD_BLOCKED);
    if (timeout != LM_WAIT_FOREVER) {
        cur->timeout.kind = (kind == LMK_WAIT_SLEEP) ? LMK_TIMEOUT_SLEEP : LMK_TIMEOUT_WAIT;
        lmk_timeout_arm_locked(&cur->timeout, timeout);
    }
}

/* Context: thread. Lock: held. Blocks: when the caller unlocks. Cost: O(1).
 * lmk_block_current_locked and the join of the wait queue in one frame:
 * every blocking send, receive, take and lock comes this way. */
void lmk_wait_prioq_locked(struct lm_waitq *wq, uint8_t kind, void *obj,
                           lm_tick_t timeout)
{
    lm_thread_t *cur = lmk.current;
    /* A mutex wait's option word says whether it is a bounded inversion. */
    lmk_trace_block(cur, kind, obj, (kind == LMK_WAIT_MUTEX) ? (uint16_t)cur->wait_opt : 0u);
    lmk_stats_suspended(cur);
    cur->wait_kind = kind; /* beside the state and the yield the leave writes */
    cur->wait_status = LM_OK;
    cur->wait_obj = obj;
    bool no_holds = lmk_sched_leave_body_locked(cur, LM_THREAD_BLOCKED);
    lmk_waitq_push_back(wq, cur);
    if (timeout != LM_WAIT_FOREVER) {
        /* A mutex's lock marks its wait LMK_TIMEOUT_WAIT after the join. */
        cur->timeout.kind = LMK_TIMEOUT_WAITQ;
        lmk_timeout_arm_locked(&cur->timeout, timeout);
    }
    /* The hold set's emptiness is kept across the join and the arming
     * rather than read again (no handler runs meanwhile): measure 1 on
     * Armv7-M -6 / -18 / -6 instructions a cycle, on Armv6-M +3 / +9 / +3,
     * where it costs a register more. */
    lmk_sched_decide_given_up_locked(no_holds);
}

/* The wait of t (already unlinked from its wait queue) is over. Never
 * inlined into this file's callers, which are rare paths: they call it.
 * Context: any. Lock: held. Cost: O(1). */
__attribute__((noinline)) void lmk_wait_finish_locked(lm_thread_t *t, lm_status_t status)
{
    if (lmk_timeout_armed(&t->timeout)) { /* most waits end before their timeout */
        lmk_timeout_cancel_locked(&t->timeout);
    }
    lmk_wait_done_locked(t, status);
}

/* t, waiting in a wait queue (LMK_WAIT_PRIOQ: wait_obj is the queue), is
 * served (a sender's message moved in, a block handed to it): it leaves
 * the queue and its wait ends well. One copy for the objects' rarer
 * hand-overs (the hottest is lmk_wait_hand_over_locked), and one argument,
 * so that a caller keeps its own in their registers.
 * Context: any. Lock: held. Cost: O(1). */
void lmk_wait_served_locked(lm_thread_t *t)
{
    lmk_waitq_unlink((struct lm_waitq *)t->wait_obj, t);
    lmk_wait_finish_locked(t, LM_OK);
}

/* Unlink t from the object it waits on, not from its timeout.
 * Context: any. Lock: held. Cost: O(1), a mutex's chain included. */
static inline void wait_unlink_object_locked(lm_thread_t *t)
{
    switch (t->wait_kind) {
    case LMK_WAIT_PRIOQ:
        lmk_waitq_remove((struct lm_waitq *)t->wait_obj, t);
        break;
#if LM_CFG_MUTEX
    case LMK_WAIT_MUTEX: {
        lm_mutex_t *m = (lm_mutex_t *)t->wait_obj;
        lmk_waitq_remove(&m->waiters, t);
        t->wait_kind = LMK_WAIT_NONE;
        lmk_mutex_waiter_left_locked(m);
        break;
    }
#endif
#if LM_CFG_FLAGS
    case LMK_WAIT_FLAGS:
        lmk_list_remove(&t->qlink);
        break;
#endif
    default:
        break;
    }
    t->wait_kind = LMK_WAIT_NONE;
}

/* Unlink t from whatever it waits on, without waking it. Never inlined,
 * as lmk_wait_finish_locked: lmk_wait_end_locked is these two calls.
 * Context: any. Lock: held. Cost: O(1), a mutex's chain included (mutex.c). */
__attribute__((noinline)) void lmk_wait_unlink_locked(lm_thread_t *t)
{
    wait_unlink_object_locked(t);
    lmk_timeout_cancel_locked(&t->timeout);
}

/* Context: any. Lock: held. Cost: O(1). */
void lmk_wait_end_locked(lm_thread_t *t, lm_status_t status)
{
    lmk_wait_unlink_locked(t);
    lmk_wait_finish_locked(t, status);
}

#if LM_CFG_QUEUE
/* Context: thread or isr. Lock: held on entry (the walk begun), released
 * on return; taken once per admitted sender. Cost: O(1) per masked step
 * (the step's own), O(senders admitted) total. A flush's admission walk
 * (R9.2): `admit_one_locked` moves one blocked sender's message in, if
 * there is room and a sender, and says whether it did; the walk ends at
 * the first step that admits nobody. No other thread runs until then. */
void lmk_walk_admit(void *queue, bool (*admit_one_locked)(void *queue), lm_irqstate_t s)
{
    lm_port_irq_unlock(s);
    for (;;) {
        s = lm_port_irq_lock();
        bool more = admit_one_locked(queue);
        if (!more) {
            lmk_walk_end_locked();
        }
        lm_port_irq_unlock(s);
        if (!more) {
            return;
        }
    }
}
#endif

/* Context: thread or isr. Lock: NOT held; taken once per waiter.
 * Cost: O(1) per masked step, O(waiters) total.
 * Between steps, interrupts see some waiters woken and some not (R9.1); no
 * other thread runs until the last step (lmk_walk_begin_locked). */
void lmk_delete_wake_all(struct lm_waitq *wq, uint32_t *magic)
{
    for (;;) {
        lm_irqstate_t s = lm_port_irq_lock();
        lm_thread_t *t = lmk_first_waiter(wq);
        if (t == NULL) {
            lmk_delete_end_locked(magic);
            lm_port_irq_unlock(s);
            return;
        }
        lmk_wait_end_locked(t, LM_ERR_DELETED);
        lm_port_irq_unlock(s);
    }
}
