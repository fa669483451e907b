/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event flags. Waiters sit in a FIFO list in arrival order (R10.1). A set ORs
 * the bits in, moves every waiter to the `scan` list in one O(1) splice, and
 * then checks one waiter per masked step: satisfied ones are woken (and
 * consume their bits if they asked), the others go back to `waiters`.
 * A set that arrives during another's scan splices again, so every waiter is
 * checked against the newest bits (R9.3).
 *
 * Invariant: `waiters` followed by `scan` is the arrival order. A scan moves
 * nodes from the front of `scan` to the back of `waiters`; a rescan takes
 * both lists in that order. No thread starts waiting during a scan: the
 * setter holds the scheduler lock until its last step (R9), and a handler
 * cannot wait, so a new waiter always joins the back of `waiters`.
 *
 * A delete gathers every waiter on `waiters` in its first step, leaving
 * `scan` empty: a set still scanning (the one a handler's delete
 * interrupted) then has nothing left to check, and every waiter is the
 * delete's to wake with LM_ERR_DELETED (R9.1). No set can begin once the
 * delete has begun: it finds the object dead under the lock.
 */
#include "lmk.h"

#if LM_CFG_FLAGS

lm_status_t lm_flags_create(lm_flags_t *f, uint32_t initial)
{
    LMK_CHECK(f != NULL, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(f), LM_MAGIC_FLAGS);
    if (st == LM_OK) {
        lmk_list_init(&f->waiters);
        lmk_list_init(&f->scan);
        f->bits = initial;
        lmk_create_publish_locked(LMK_MAGIC_OF(f), LM_MAGIC_FLAGS);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

/* Every waiter, in arrival order, becomes the list still to check.
 * Lock: held. Cost: O(1) (two splices). */
static void rescan_all_locked(lm_flags_t *f)
{
    lmk_list_splice_back(&f->waiters, &f->scan);
    lmk_list_splice_back(&f->scan, &f->waiters);
}

static bool satisfied(uint32_t bits, uint32_t want, uint32_t options)
{
    return ((options & LM_FLAGS_ALL) != 0u) ? (bits & want) == want : (bits & want) != 0u;
}

lm_status_t lm_flags_set(lm_flags_t *f, uint32_t bits)
{
    LMK_CHECK_OBJ(f, LM_MAGIC_FLAGS);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(f, LM_MAGIC_FLAGS)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    f->bits |= bits;
    rescan_all_locked(f);
    lmk_walk_begin_locked();
    lm_port_irq_unlock(s);
    for (;;) {
        s = lm_port_irq_lock();
        struct lm_dnode *n = lmk_list_pop_front(&f->scan);
        if (n == NULL) {
            lmk_walk_end_locked();
            lm_port_irq_unlock(s);
            return lmk_trace_obj(LM_TRACE_FLAGS_SET, f, LM_OK);
        }
        lm_thread_t *t = LMK_CONTAINER_OF(n, lm_thread_t, qlink);
        if (satisfied(f->bits, t->wait_flags, t->wait_opt)) {
            *(uint32_t *)t->wait_data = f->bits;
            if ((t->wait_opt & LM_FLAGS_CONSUME) != 0u) {
                f->bits &= ~t->wait_flags;
            }
            lmk_wait_finish_locked(t, LM_OK);
        } else {
            lmk_list_push_back(&f->waiters, n);
        }
        lm_port_irq_unlock(s);
    }
}

lm_status_t lm_flags_clear(lm_flags_t *f, uint32_t bits)
{
    LMK_CHECK_OBJ(f, LM_MAGIC_FLAGS);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = LM_OK;
    if (LMK_DEAD_LOCKED(f, LM_MAGIC_FLAGS)) {
        st = LM_ERR_OBJECT;
    } else {
        f->bits &= ~bits;
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_status_t lm_flags_wait(lm_flags_t *f, uint32_t bits, unsigned options,
                          uint32_t *actual, lm_tick_t timeout)
{
    LMK_CHECK_OBJ(f, LM_MAGIC_FLAGS);
    LMK_CHECK(bits != 0u && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    LMK_CHECK((options & ~(LM_FLAGS_ALL | LM_FLAGS_CONSUME)) == 0u, LM_ERR_PARAM);
    /* R12.1, docs/errors.md: a blocking form from a handler is refused
     * whatever the flags hold, so the mistake shows on every call. */
    if (timeout != LM_NO_WAIT && lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    uint32_t seen = 0;
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(f, LM_MAGIC_FLAGS)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    if (satisfied(f->bits, bits, options)) {
        seen = f->bits;
        if ((options & LM_FLAGS_CONSUME) != 0u) {
            f->bits &= ~bits;
        }
        lm_port_irq_unlock(s);
        if (actual != NULL) {
            *actual = seen;
        }
        return lmk_trace_obj(LM_TRACE_FLAGS_WAIT, f, LM_OK);
    }
    lm_status_t st = lmk_wait_allowed(timeout);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_FLAGS_WAIT, f, LMK_FAIL(st));
    }
    lm_thread_t *cur = lmk.current;
    cur->wait_flags = bits;
    cur->wait_opt = options;
    cur->wait_data = &seen;
    lmk_block_current_locked(LMK_WAIT_FLAGS, f, timeout);
    /* No scan is under way: a set runs to its end before any other thread
     * does (R9), and a handler's set ends before the handler returns. */
    lmk_list_push_back(&f->waiters, &cur->qlink);
    lm_port_irq_unlock(s);
    if (cur->wait_status == LM_OK && actual != NULL) {
        *actual = seen;
    }
    return lmk_trace_obj(LM_TRACE_FLAGS_WAIT, f, cur->wait_status);
}

lm_status_t lm_flags_get(const lm_flags_t *f, uint32_t *bits)
{
    LMK_CHECK_OBJ(f, LM_MAGIC_FLAGS);
    LMK_CHECK(bits != NULL, LM_ERR_PARAM);
    *bits = f->bits;
    return LM_OK;
}

lm_status_t lm_flags_delete(lm_flags_t *f)
{
    LMK_CHECK_OBJ(f, LM_MAGIC_FLAGS);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(f, LM_MAGIC_FLAGS)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(f));
    lmk_list_splice_back(&f->waiters, &f->scan); /* arrival order, scan empty */
    lm_port_irq_unlock(s);
    for (;;) {
        s = lm_port_irq_lock();
        struct lm_dnode *n = lmk_list_pop_front(&f->waiters);
        if (n == NULL) {
            lmk_delete_end_locked(LMK_MAGIC_OF(f));
            lm_port_irq_unlock(s);
            return LM_OK;
        }
        lmk_wait_finish_locked(LMK_CONTAINER_OF(n, lm_thread_t, qlink), LM_ERR_DELETED);
        lm_port_irq_unlock(s);
    }
}

#endif /* LM_CFG_FLAGS */
