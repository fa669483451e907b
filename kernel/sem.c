/* SPDX-License-Identifier: Apache-2.0 */
/* Counting semaphores. Every operation is O(1); see prioq.h. */
#include "lmk.h"

#if LM_CFG_SEM

lm_status_t lm_sem_create(lm_sem_t *s, uint32_t initial, uint32_t max)
{
    LMK_CHECK(s != NULL, LM_ERR_PARAM);
    LMK_CHECK(max != 0u && initial <= max, LM_ERR_PARAM);
    lm_irqstate_t st = lm_port_irq_lock();
    lm_status_t r = lmk_create_check_locked(LMK_MAGIC_OF(s), LM_MAGIC_SEM);
    if (r == LM_OK) {
        lmk_waitq_init(&s->waiters);
        s->count = initial;
        s->max = max;
        lmk_create_publish_locked(LMK_MAGIC_OF(s), LM_MAGIC_SEM);
    }
    lm_port_irq_unlock(st);
    return LMK_FAIL(r);
}

lm_status_t lm_sem_delete(lm_sem_t *s)
{
    LMK_CHECK_OBJ(s, LM_MAGIC_SEM);
    lm_irqstate_t st = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(s, LM_MAGIC_SEM)) {
        lm_port_irq_unlock(st);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(s)); /* new calls fail from here on (R9.1) */
    lm_port_irq_unlock(st);
    lmk_delete_wake_all(&s->waiters, LMK_MAGIC_OF(s));
    return LM_OK;
}

/* Context: thread; isr with LM_NO_WAIT. Lock: taken. Cost: O(1). */
#undef LMK_CALL_NAME
#define LMK_CALL_NAME "lm_sem_take"
lm_status_t lmk_sem_take(lm_sem_t *s, lm_tick_t timeout)
{
    LMK_CHECK_ARGS(s != NULL && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    lm_irqstate_t st = lm_port_irq_lock();
    /* The arguments, then the object, then the context, as a queue's calls
     * (docs/errors.md). R12.1: a blocking form from a handler is refused
     * whatever the count, so the mistake shows on every call. */
    lm_status_t refused = LM_OK;
    if (LMK_DEAD_LOCKED(s, LM_MAGIC_SEM)) {
        refused = LM_ERR_OBJECT;
    } else if (timeout != LM_NO_WAIT && lm_port_in_isr()) {
        refused = LM_ERR_ISR;
    }
    if (refused != LM_OK) {
        lm_port_irq_unlock(st);
        return LMK_FAIL(refused);
    }
    if (s->count != 0u) {
        s->count--;
        lm_port_irq_unlock(st);
        return lmk_trace_obj(LM_TRACE_SEM_TAKE, s, LM_OK);
    }
    lm_status_t r = lmk_wait_allowed(timeout);
    if (r != LM_OK) {
        lm_port_irq_unlock(st);
        return lmk_trace_obj(LM_TRACE_SEM_TAKE, s, LMK_FAIL(r));
    }
    lmk_wait_prioq_locked(&s->waiters, LMK_WAIT_PRIOQ, &s->waiters, timeout);
    lm_port_irq_unlock(st);
    return lmk_trace_obj(LM_TRACE_SEM_TAKE, s, lmk.current->wait_status);
}

/* Context: thread, isr. Lock: taken. Cost: O(1). */
#undef LMK_CALL_NAME
#define LMK_CALL_NAME "lm_sem_give"
lm_status_t lmk_sem_give(lm_sem_t *s)
{
    LMK_CHECK_ARGS(s != NULL, LM_ERR_PARAM);
    lm_irqstate_t st = lm_port_irq_lock();
    lm_status_t r = LM_OK;
    if (LMK_DEAD_LOCKED(s, LM_MAGIC_SEM)) {
        r = LM_ERR_OBJECT;
    } else if (!lmk_waitq_empty(&s->waiters)) {
        /* The most urgent taker gets the unit; its wake in this frame, as a
         * queue's send to a waiting receiver (the interrupt → thread path). */
        lm_thread_t *t = lmk_first_waiter(&s->waiters);
        lmk_wait_hand_over_locked(&s->waiters, t);
    } else if (s->count == s->max) {
        r = LM_ERR_OVERFLOW;
    } else {
        s->count++;
    }
    lm_port_irq_unlock(st);
    return lmk_trace_obj(LM_TRACE_SEM_GIVE, s, LMK_FAIL(r));
}

#undef LMK_CALL_NAME
#define LMK_CALL_NAME __func__

lm_status_t lm_sem_count(const lm_sem_t *s, uint32_t *count)
{
    LMK_CHECK_OBJ(s, LM_MAGIC_SEM);
    LMK_CHECK(count != NULL, LM_ERR_PARAM);
    *count = s->count;
    return LM_OK;
}

#endif /* LM_CFG_SEM */
