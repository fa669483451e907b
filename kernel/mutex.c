/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mutexes: recursive, owner-checked, with optional priority inheritance.
 *
 * A thread's effective priority is the most urgent of its base priority and
 * the most urgent waiter of every inheriting mutex it owns (R5.2). Each
 * owned inheriting mutex with waiters is counted once in its owner, at the
 * priority of its most urgent waiter (its `key`): pi_count[key] and a bit
 * in pi_set. The owner's inherited priority is then one bit scan away, and
 * keeping it right when a waiter comes, goes or changes priority is O(1),
 * whatever the number of mutexes the owner holds.
 *
 * When the owner is itself blocked on a mutex, its new priority moves it in
 * that wait queue and may change that mutex's key, and so on down the chain
 * (R5.3):
 *
 *     H --waits--> m1 (owner M) ; M --waits--> m2 (owner L)
 *     => M runs at H's priority, and so does L.
 *
 * One step recomputes LMK_PI_LINKS threads of a chain; a chain longer than
 * that goes on in the context-switch handler, one step of LMK_PI_LINKS
 * links at a time, with interrupts unmasked between steps (lmk_pi_step).
 * Each step starts from the thread queued and re-derives everything from
 * the state as it is then, so steps in any order, or a chain changed by a
 * handler between two steps, end in what R5.2-R5.4 define. The switch
 * handler chooses the next thread only once the list is empty: no thread
 * runs on a priority the chain has not reached yet (R5.3).
 *
 * Chains cannot be cycles: lm_mutex_lock refuses to close one (R5.7),
 * walking the chain one link per masked step (cycle_walk).
 */
#include "lmk.h"

#if LM_CFG_MUTEX

/* Threads of a chain recomputed, or links walked for R5.7, in one masked
 * step. Any constant keeps the step O(1); three covers a thread, its owner
 * and that owner's owner, so chains through two mutexes take one step. */
#define LMK_PI_LINKS 3u

lm_status_t lm_mutex_create(lm_mutex_t *m, unsigned options)
{
    LMK_CHECK(m != NULL, LM_ERR_PARAM);
    LMK_CHECK((options & ~LM_MUTEX_INHERIT) == 0u, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(m), LM_MAGIC_MUTEX);
    if (st == LM_OK) {
        lmk_waitq_init(&m->waiters);
        m->held_link.next = NULL;
        m->held_link.prev = NULL;
        m->owner = NULL;
        m->key = LMK_PRIO_NONE;
        m->depth = 0;
        m->options = (uint8_t)options;
        m->abandoned = 0;
        lmk_stats_inv_created(m);
        lmk_create_publish_locked(LMK_MAGIC_OF(m), LM_MAGIC_MUTEX);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

/* ---- what an owner inherits: O(1) ---- */

/* A count can reach at most the number of threads blocked at priority p (a
 * thread waits on one mutex at a time), far below 65,535. */
static void pi_count_add(lm_thread_t *o, unsigned p)
{
    if (!lmk_prioset_contains(&o->pi_set, p)) {
        o->pi_count[p] = 1u; /* not cleared at create: a count starts here */
        lmk_prioset_add(&o->pi_set, p);
    } else {
        o->pi_count[p]++;
    }
}

static void pi_count_remove(lm_thread_t *o, unsigned p)
{
    if (--o->pi_count[p] == 0u) {
        lmk_prioset_remove(&o->pi_set, p);
    }
}

/* Count m in its owner at the priority of its most urgent waiter (nothing
 * for a mutex without inheritance, waiter or owner). True if that changed.
 * Lock: held. Cost: O(1). */
static bool mutex_rekey_locked(lm_mutex_t *m)
{
    lm_thread_t *o = m->owner;
    if (o == NULL) {
        return false; /* no key: mutex_release_locked cleared it */
    }
    unsigned key = LMK_PRIO_NONE;
    if ((m->options & LM_MUTEX_INHERIT) != 0u) {
        key = lmk_waitq_best_prio(&m->waiters);
    }
    if (key == m->key) {
        return false;
    }
    if (m->key != LMK_PRIO_NONE) {
        pi_count_remove(o, m->key);
    }
    if (key != LMK_PRIO_NONE) {
        pi_count_add(o, key);
    }
    m->key = (uint16_t)key;
    return true;
}

/* Append t to the deferred links and releases, once, and have the switch
 * handler run. Lock: held. Cost: O(1). */
static void pi_queue_locked(lm_thread_t *t)
{
    if (t->pi_queued != 0u) {
        return;
    }
    t->pi_queued = 1u;
    t->pi_next = NULL;
    if (lmk.pi_tail != NULL) {
        lmk.pi_tail->pi_next = t;
    } else {
        lmk.pi_head = t;
    }
    lmk.pi_tail = t;
    lmk.pi_work = 1u;
    lm_port_switch_pend();
}

/* One link: recompute t (R4.4, R5.2); if its priority changed while it
 * waits on a mutex, it has moved in that wait queue (R4.3), and the owner,
 * if that changed the mutex's key, is the next link, returned. Lock: held.
 * Cost: O(1). */
static lm_thread_t *pi_link_locked(lm_thread_t *t)
{
    unsigned p = lmk_min_prio(t->base_prio, lmk_prioset_first(&t->pi_set));
    if (p == t->prio) {
        return NULL;
    }
    lmk_thread_move_prio_locked(t, p);
    lmk_stats_inv_moved_locked(t);
    if (t->wait_kind != LMK_WAIT_MUTEX) {
        return NULL;
    }
    lm_mutex_t *m = (lm_mutex_t *)t->wait_obj;
    return mutex_rekey_locked(m) ? m->owner : NULL;
}

/* Context: any. Lock: held. Cost: O(1): LMK_PI_LINKS links. */
void lmk_prio_update_locked(lm_thread_t *t)
{
    for (unsigned i = 0; i < LMK_PI_LINKS && t != NULL; i++) {
        t = pi_link_locked(t);
    }
    if (t != NULL) {
        pi_queue_locked(t); /* R5.3: the rest of the chain, stepwise */
    }
}

/* m's waiters changed: recount m in its owner and recompute the owner.
 * Lock: held. Cost: O(1). */
static void mutex_waiters_changed_locked(lm_mutex_t *m)
{
    if (mutex_rekey_locked(m)) {
        lmk_prio_update_locked(m->owner);
    }
}

/* Context: any. Lock: held. Cost: O(1). */
void lmk_mutex_waiter_left_locked(lm_mutex_t *m)
{
    lmk.chain_gen++;
    lmk_stats_inv_rekey_locked(m);
    mutex_waiters_changed_locked(m);
}

/* m is free; make t its owner. Lock: held. Cost: O(1). */
static void mutex_acquire_locked(lm_mutex_t *m, lm_thread_t *t)
{
    m->owner = t;
    m->depth = 1;
    lmk_list_push_back(&t->held, &m->held_link);
    lmk.chain_gen++;
}

/* m's owner o loses it; the caller recomputes o. Lock: held. Cost: O(1). */
static void mutex_release_locked(lm_mutex_t *m, lm_thread_t *o)
{
    lmk_list_remove(&m->held_link);
    lmk_stats_inv_release_locked(m, o);
    if (m->key != LMK_PRIO_NONE) {
        pi_count_remove(o, m->key);
        m->key = LMK_PRIO_NONE;
    }
    m->owner = NULL;
    m->depth = 0;
    lmk.chain_gen++;
}

/* Pass a freed m to its most urgent waiter, if any, with status. The new
 * owner is ready, so no chain goes on from it. Lock: held. Cost: O(1). */
static void mutex_hand_over_locked(lm_mutex_t *m, lm_status_t status)
{
    lm_thread_t *w = lmk_first_waiter(&m->waiters);
    if (w == NULL) {
        return;
    }
    lmk_waitq_remove(&m->waiters, w);
    mutex_acquire_locked(m, w);
    (void)mutex_rekey_locked(m); /* it inherits from those still waiting */
    lmk_stats_inv_rekey_locked(m);
    lmk_wait_finish_locked(w, status);
    lmk_prio_update_locked(w);
}

/* Outcome of one attempt at the R5.7 walk. */
enum lmk_walk { WALK_CLEAR, WALK_CYCLE, WALK_AGAIN };

/* The owner of the mutex t waits on, NULL if t waits on none (a thread not
 * waiting has wait_kind NONE) or on one without owner (being deleted). */
static const lm_thread_t *owner_ahead(const lm_thread_t *t)
{
    if (t->wait_kind != LMK_WAIT_MUTEX) {
        return NULL;
    }
    return ((const lm_mutex_t *)t->wait_obj)->owner;
}

/* R5.7: would `cur` waiting on m (owned by another thread) close a chain of
 * owners back to itself? The walk takes one link per masked step, dropping
 * and retaking the lock (*s) in between. No other thread runs meanwhile
 * (lmk.walker: the switch handler keeps cur, sched.c); a handler or a
 * timeout may, and if one changes an owner or a waiter of any mutex
 * (chain_gen), or cur was switched out (suspended, then resumed), the walk
 * is abandoned: WALK_AGAIN, and the caller looks at m afresh. So the answer
 * is that of one chain unchanged from the first link read to the step that
 * acts on it. Lock: held on entry and on return. Cost: O(1) per masked
 * step, O(chain depth) steps. */
static enum lmk_walk cycle_walk(const lm_mutex_t *m, const lm_thread_t *cur, lm_irqstate_t *s)
{
    uint32_t gen = lmk.chain_gen;
    const lm_thread_t *o = m->owner;
    for (unsigned links = 1;; links++) {
        o = owner_ahead(o);
        if (o == cur) {
            return WALK_CYCLE;
        }
        if (o == NULL) {
            return WALK_CLEAR;
        }
        if (links % LMK_PI_LINKS != 0u) {
            continue;
        }
        lm_port_irq_unlock(*s);
        *s = lm_port_irq_lock();
        if (lmk.chain_gen != gen || lmk.walker != cur) {
            return WALK_AGAIN;
        }
    }
}

/* m is free: cur takes it. Lock: held. Cost: O(1). */
static lm_status_t mutex_take_free_locked(lm_mutex_t *m, lm_thread_t *cur)
{
    mutex_acquire_locked(m, cur);
    lm_status_t st = (m->abandoned != 0u) ? LM_ERR_ABANDONED : LM_OK; /* R5.6 */
    m->abandoned = 0u;
    return st;
}

/* The blocking part of lm_mutex_lock: m has another owner and cur may wait.
 * Lock: held on entry (s), released on return. Cost: O(1) per masked step;
 * O(chain depth) steps for the R5.7 walk, again each time a handler changes
 * a chain under it (at most once per owner or waiter it had to change, as
 * no thread blocks or locks meanwhile). */
static lm_status_t mutex_lock_wait(lm_mutex_t *m, lm_thread_t *cur, lm_tick_t timeout,
                                   lm_irqstate_t s)
{
    lm_status_t st;
    for (;;) {
        lmk.walker = cur;
        lmk_sched_hold_locked();
        enum lmk_walk w = cycle_walk(m, cur, &s);
        if (w == WALK_CLEAR) {
            lmk.walker = NULL;
            /* A bounded inversion: the raise below bounds it. The wait's
             * option word (unused by a mutex wait otherwise) says so to
             * the trace's block record. */
            bool bounded = (m->options & LM_MUTEX_INHERIT) != 0u && m->owner->prio > cur->prio;
            if (bounded) {
                lmk_stats_inversion_bounded(cur);
            }
            cur->wait_opt = bounded ? 1u : 0u;
            lmk_wait_prioq_locked(&m->waiters, LMK_WAIT_MUTEX, m, timeout);
            /* Its expiry may leave a chain to recompute (R9.6): a step of
             * its own, not a run's (timeout.c). Set here, not in the join
             * every wait shares, whose register use it would cost. */
            cur->timeout.kind = LMK_TIMEOUT_WAIT;
            lmk.chain_gen++;
            lmk_stats_inv_rekey_locked(m);
            mutex_waiters_changed_locked(m); /* R5.2, R5.3 */
            lm_port_irq_unlock(s);
            return cur->wait_status;
        }
        if (w == WALK_CYCLE) {
            st = LM_ERR_DEADLOCK;
            break;
        }
        /* WALK_AGAIN: m as it is now. */
#if LM_CFG_ARG_CHECKS
        if (m->magic != LM_MAGIC_MUTEX) {
            st = LM_ERR_DELETED; /* deleted during the walk: as if waiting (R5.8) */
            break;
        }
#endif
        if (m->owner == NULL) {
            st = mutex_take_free_locked(m, cur); /* its owner ended meanwhile */
            break;
        }
    }
    lmk.walker = NULL;
    lmk_sched_decide_locked(); /* a thread made ready during the walk */
    lm_port_irq_unlock(s);
    return st;
}

lm_status_t lm_mutex_lock(lm_mutex_t *m, lm_tick_t timeout)
{
    LMK_CHECK_OBJ(m, LM_MAGIC_MUTEX);
    LMK_CHECK(lmk_timeout_valid(timeout), LM_ERR_PARAM);
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR); /* an interrupt cannot own a mutex */
    }
    if (!lmk.started || lmk.current == &lmk_idle_thread) {
        /* Before lm_kernel_start or from the idle hook the caller is the idle
         * thread, which is outside the ready queue and can neither inherit a
         * priority nor ever unlock (docs/errors.md, LM_ERR_STATE). */
        return LMK_FAIL(LM_ERR_STATE);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *cur = lmk.current;
    lm_status_t st;
    if (LMK_DEAD_LOCKED(m, LM_MAGIC_MUTEX)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    if (m->owner == NULL) {
        st = mutex_take_free_locked(m, cur);
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_MUTEX_LOCK, m, LMK_FAIL(st));
    }
    if (m->owner == cur) {
        st = LM_OK;
        if (m->depth == 0xFFFFu) {
            st = LM_ERR_OVERFLOW;
        } else {
            m->depth++;
        }
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_MUTEX_LOCK, m, LMK_FAIL(st));
    }
    st = lmk_wait_allowed(timeout);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_MUTEX_LOCK, m, LMK_FAIL(st));
    }
    return lmk_trace_obj(LM_TRACE_MUTEX_LOCK, m, LMK_FAIL(mutex_lock_wait(m, cur, timeout, s)));
}

lm_status_t lm_mutex_unlock(lm_mutex_t *m)
{
    LMK_CHECK_OBJ(m, LM_MAGIC_MUTEX);
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *cur = lmk.current;
    if (LMK_DEAD_LOCKED(m, LM_MAGIC_MUTEX)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    if (m->owner != cur) {
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_MUTEX_UNLOCK, m, LMK_FAIL(LM_ERR_NOT_OWNER));
    }
    if (--m->depth == 0u) {
        mutex_release_locked(m, cur);
        lmk_prio_update_locked(cur); /* R5.4: drop what m lent us */
        mutex_hand_over_locked(m, LM_OK);
    }
    lm_port_irq_unlock(s);
    return lmk_trace_obj(LM_TRACE_MUTEX_UNLOCK, m, LM_OK);
}

/* Release the first mutex t owns (R5.6: in the order t acquired them) to
 * its next waiter, marked abandoned; queue t for the next one, or, with
 * none left, recompute t. A handler may have deleted the rest between two
 * steps. Lock: held. Cost: O(1). */
static void mutex_release_next_locked(lm_thread_t *t)
{
    if (!lmk_list_empty(&t->held)) {
        lm_mutex_t *m = LMK_CONTAINER_OF(t->held.next, lm_mutex_t, held_link);
        mutex_release_locked(m, t);
        if (lmk_waitq_empty(&m->waiters)) {
            m->abandoned = 1u; /* the next lock says so (R5.6) */
        } else {
            mutex_hand_over_locked(m, LM_ERR_ABANDONED);
        }
    }
    if (lmk_list_empty(&t->held)) {
        t->releasing = 0u;
        lmk_prio_update_locked(t); /* back to its base priority */
    } else {
        pi_queue_locked(t);
    }
}

/* Context: any. Lock: held. Cost: O(1); the other mutexes t owns are
 * released one per step in the switch handler. */
void lmk_mutex_release_begin_locked(lm_thread_t *t)
{
    t->releasing = 1u;
    mutex_release_next_locked(t);
}

/* Context: the switch handler (lmk_switch_work). Lock: held on entry,
 * released on return. One step for the first queued thread: a link of its
 * chain, or one mutex of an ended thread. Cost: O(1) per step; O(chain
 * depth) steps for a chain, O(mutexes owned) for an ended thread. */
void lmk_pi_step(lm_irqstate_t s)
{
    lm_thread_t *t = lmk.pi_head;
    lmk.pi_head = t->pi_next;
    if (lmk.pi_head == NULL) {
        lmk.pi_tail = NULL;
        lmk.pi_work = 0u;
    }
    t->pi_queued = 0u;
    if (t->releasing != 0u) {
        mutex_release_next_locked(t);
    } else {
        lmk_prio_update_locked(t);
    }
    lm_port_irq_unlock(s);
}

lm_status_t lm_mutex_delete(lm_mutex_t *m)
{
    LMK_CHECK_OBJ(m, LM_MAGIC_MUTEX);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(m, LM_MAGIC_MUTEX)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(m));
    lm_thread_t *owner = m->owner;
    if (owner != NULL) {
        mutex_release_locked(m, owner);
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
