/*
 * Mutexes: recursive, owner-checked, with optional priority inheritance.
 *
 * A thread's effective priority is the most urgent of its base priority and
 * the most urgent waiter of every inheriting mutex it owns (R5.2). Each
 * mutex's most urgent waiter is one bit scan away (prioq.h), so recomputing
 * a thread's priority costs O(mutexes it owns). When the thread is itself
 * blocked on a mutex, its new priority moves it in that wait queue and is
 * passed on to that mutex's owner, and so on down the chain (R5.3):
 *
 *     H --waits--> m1 (owner M) ; M --waits--> m2 (owner L)
 *     => M runs at H's priority, and so does L.
 *
 * Chains cannot be cycles: lm_mutex_lock refuses to close one (R5.7).
 */
#include "lmk.h"

#if LM_CFG_MUTEX

lm_status_t lm_mutex_create(lm_mutex_t *m, unsigned options)
{
    LMK_CHECK(m != NULL, LM_ERR_PARAM);
    LMK_CHECK((options & ~LM_MUTEX_INHERIT) == 0u, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(m), LM_MAGIC_MUTEX);
    if (st == LM_OK) {
        lmk_prioq_init(&m->waiters);
        m->held_link.next = NULL;
        m->held_link.prev = NULL;
        m->owner = NULL;
        m->depth = 0;
        m->options = (uint8_t)options;
        m->abandoned = 0;
        lmk_create_publish_locked(LMK_MAGIC_OF(m), LM_MAGIC_MUTEX);
    }
    lm_port_irq_unlock(s);
    return st;
}

/* Context: any. Lock: held. Cost: O(owned) per thread, O(chain) threads. */
void lmk_prio_update_locked(lm_thread_t *t)
{
    for (;;) {
        unsigned p = t->base_prio;
        for (struct lm_dnode *n = t->held.next; n != &t->held; n = n->next) {
            const lm_mutex_t *m = LMK_CONTAINER_OF(n, lm_mutex_t, held_link);
            if ((m->options & LM_MUTEX_INHERIT) != 0u) {
                p = lmk_min_prio(p, lmk_prioq_best_prio(&m->waiters));
            }
        }
        if (p == t->prio) {
            return;
        }
        lmk_thread_move_prio_locked(t, p);
        if (t->state != LM_THREAD_BLOCKED || t->wait_kind != LMK_WAIT_MUTEX) {
            return;
        }
        const lm_mutex_t *next = (const lm_mutex_t *)t->wait_obj;
        if ((next->options & LM_MUTEX_INHERIT) == 0u || next->owner == NULL) {
            return;
        }
        t = next->owner;
    }
}

void lmk_mutex_waiter_left_locked(lm_mutex_t *m)
{
    if (m->owner != NULL && (m->options & LM_MUTEX_INHERIT) != 0u) {
        lmk_prio_update_locked(m->owner);
    }
}

/* m is free; make t its owner. Lock: held. Cost: O(1). */
static void mutex_acquire_locked(lm_mutex_t *m, lm_thread_t *t)
{
    m->owner = t;
    m->depth = 1;
    lmk_list_push_back(&t->held, &m->held_link);
}

/* Pass a freed m to its most urgent waiter, if any, with status.
 * Lock: held. Cost: O(1) + the new owner's priority update. */
static void mutex_hand_over_locked(lm_mutex_t *m, lm_status_t status)
{
    lm_thread_t *w = lmk_first_waiter(&m->waiters);
    if (w == NULL) {
        return;
    }
    lmk_prioq_remove(&m->waiters, &w->qlink, w->prio);
    mutex_acquire_locked(m, w);
    lmk_wait_finish_locked(w, status);
    if ((m->options & LM_MUTEX_INHERIT) != 0u) {
        lmk_prio_update_locked(w); /* it inherits from those still waiting */
    }
}

/* R5.7: would `cur` waiting on m close a chain of owners back to itself?
 * Lock: held. Cost: O(chain depth). */
static bool closes_cycle(const lm_mutex_t *m, const lm_thread_t *cur)
{
    const lm_thread_t *o = m->owner;
    while (o != NULL && o->state == LM_THREAD_BLOCKED && o->wait_kind == LMK_WAIT_MUTEX) {
        o = ((const lm_mutex_t *)o->wait_obj)->owner;
        if (o == cur) {
            return true;
        }
    }
    return false;
}

lm_status_t lm_mutex_lock(lm_mutex_t *m, lm_tick_t timeout)
{
    LMK_CHECK_OBJ(m, LM_MAGIC_MUTEX);
    LMK_CHECK(lmk_timeout_valid(timeout), LM_ERR_PARAM);
    if (lm_port_in_isr()) {
        return LM_ERR_ISR; /* an interrupt cannot own a mutex */
    }
    if (!lmk.started || lmk.current == &lmk_idle_thread) {
        /* Before lm_kernel_start or from the idle hook the caller is the idle
         * thread, which is outside the ready queue and can neither inherit a
         * priority nor ever unlock (docs/errors.md, LM_ERR_STATE). */
        return LM_ERR_STATE;
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *cur = lmk.current;
    lm_status_t st;
    if (LMK_DEAD_LOCKED(m, LM_MAGIC_MUTEX)) {
        lm_port_irq_unlock(s);
        return LM_ERR_OBJECT;
    }
    if (m->owner == NULL) {
        mutex_acquire_locked(m, cur);
        st = (m->abandoned != 0u) ? LM_ERR_ABANDONED : LM_OK;
        m->abandoned = 0u;
        lm_port_irq_unlock(s);
        return st;
    }
    if (m->owner == cur) {
        st = LM_OK;
        if (m->depth == 0xFFFFu) {
            st = LM_ERR_OVERFLOW;
        } else {
            m->depth++;
        }
        lm_port_irq_unlock(s);
        return st;
    }
    st = lmk_wait_allowed(timeout);
    if (st == LM_OK && closes_cycle(m, cur)) {
        st = LM_ERR_DEADLOCK;
    }
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return st;
    }
    lmk_wait_prioq_locked(&m->waiters, LMK_WAIT_MUTEX, m, timeout);
    if ((m->options & LM_MUTEX_INHERIT) != 0u) {
        lmk_prio_update_locked(m->owner); /* R5.2, R5.3 */
    }
    lm_port_irq_unlock(s);
    return cur->wait_status;
}

lm_status_t lm_mutex_unlock(lm_mutex_t *m)
{
    LMK_CHECK_OBJ(m, LM_MAGIC_MUTEX);
    if (lm_port_in_isr()) {
        return LM_ERR_ISR;
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *cur = lmk.current;
    if (LMK_DEAD_LOCKED(m, LM_MAGIC_MUTEX)) {
        lm_port_irq_unlock(s);
        return LM_ERR_OBJECT;
    }
    if (m->owner != cur) {
        lm_port_irq_unlock(s);
        return LM_ERR_NOT_OWNER;
    }
    if (--m->depth == 0u) {
        lmk_list_remove(&m->held_link);
        m->owner = NULL;
        lmk_prio_update_locked(cur); /* R5.4: drop what m lent us */
        mutex_hand_over_locked(m, LM_OK);
    }
    lm_port_irq_unlock(s);
    return LM_OK;
}

/* t ends owning mutexes: each goes to its next waiter, marked abandoned.
 * Lock: held. Cost: O(owned) hand-overs. */
void lmk_mutex_release_all_locked(lm_thread_t *t)
{
    struct lm_dnode *n;
    while ((n = lmk_list_pop_front(&t->held)) != NULL) {
        lm_mutex_t *m = LMK_CONTAINER_OF(n, lm_mutex_t, held_link);
        m->owner = NULL;
        m->depth = 0;
        if (lmk_prioq_empty(&m->waiters)) {
            m->abandoned = 1u; /* the next lock says so (R5.6) */
        } else {
            mutex_hand_over_locked(m, LM_ERR_ABANDONED);
        }
    }
    t->prio = t->base_prio;
    t->preempt_limit = (uint16_t)lmk_min_prio(t->threshold, t->prio);
}

lm_status_t lm_mutex_delete(lm_mutex_t *m)
{
    LMK_CHECK_OBJ(m, LM_MAGIC_MUTEX);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(m, LM_MAGIC_MUTEX)) {
        lm_port_irq_unlock(s);
        return LM_ERR_OBJECT;
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(m));
    lm_thread_t *owner = m->owner;
    if (owner != NULL) {
        lmk_list_remove(&m->held_link);
        m->owner = NULL;
        m->depth = 0;
        lmk_prio_update_locked(owner);
    }
    lm_port_irq_unlock(s);
    lmk_delete_wake_all(&m->waiters, LMK_MAGIC_OF(m));
    return LM_OK;
}

lm_thread_t *lm_mutex_owner(const lm_mutex_t *m)
{
    return m != NULL ? m->owner : NULL;
}

#endif /* LM_CFG_MUTEX */
