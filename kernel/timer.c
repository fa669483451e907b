/* SPDX-License-Identifier: Apache-2.0 */
/* Software timers on the timeout wheel; timeout.c's expiry step finds a
 * due timer and calls lmk_timer_fire. */
#include "lmk.h"

#if LM_CFG_TIMER

lm_status_t lm_timer_create(lm_timer_t *tm, lm_timer_fn_t fn, void *arg)
{
    LMK_CHECK(tm != NULL && fn != NULL, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(tm), LM_MAGIC_TIMER);
    if (st == LM_OK) {
        tm->timeout.link.next = NULL;
        tm->timeout.link.prev = NULL;
        tm->timeout.deadline = 0;
        tm->timeout.kind = LMK_TIMEOUT_TIMER;
        tm->fn = fn;
        tm->arg = arg;
        tm->period = 0;
        tm->active = 0;
        lmk_create_publish_locked(LMK_MAGIC_OF(tm), LM_MAGIC_TIMER);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_status_t lm_timer_start(lm_timer_t *tm, lm_tick_t delay, lm_tick_t period)
{
    LMK_CHECK_OBJ(tm, LM_MAGIC_TIMER);
    LMK_CHECK(delay != 0u && delay <= LM_TICK_MAX_TIMEOUT, LM_ERR_PARAM);
    LMK_CHECK(period <= LM_TICK_MAX_TIMEOUT, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(tm, LM_MAGIC_TIMER)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_timeout_cancel_locked(&tm->timeout);
    tm->period = period;
    tm->active = 1u;
    lmk_timeout_arm_locked(&tm->timeout, delay);
    lm_port_irq_unlock(s);
    return LM_OK;
}

lm_status_t lm_timer_stop(lm_timer_t *tm)
{
    LMK_CHECK_OBJ(tm, LM_MAGIC_TIMER);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = LM_OK;
    if (LMK_DEAD_LOCKED(tm, LM_MAGIC_TIMER)) {
        st = LM_ERR_OBJECT;
    } else if (tm->active == 0u) {
        st = LM_ERR_STATE;
    } else {
        lmk_timeout_cancel_locked(&tm->timeout);
        tm->active = 0u;
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_status_t lm_timer_delete(lm_timer_t *tm)
{
    LMK_CHECK_OBJ(tm, LM_MAGIC_TIMER);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(tm, LM_MAGIC_TIMER)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_timeout_cancel_locked(&tm->timeout);
    tm->active = 0u;
#if LM_CFG_ARG_CHECKS
    tm->magic = 0u;
#endif
    lm_port_irq_unlock(s);
    return LM_OK;
}

/* Context: switch handler (timeout.c's expiry step). Lock: held on entry,
 * released on return. Cost: O(1), the callback's excepted. */
void lmk_timer_fire(lm_timer_t *tm, lm_irqstate_t s)
{
    lm_timer_fn_t fn = tm->fn;
    (void)lmk_trace_obj(LM_TRACE_TIMER_EXPIRY, tm, LM_OK);
    void *arg = tm->arg;
    if (tm->period != 0u) {
        lmk_timeout_rearm_locked(&tm->timeout, tm->period); /* no drift (R10.2) */
    } else {
        tm->active = 0u;
    }
    lm_port_irq_unlock(s);
    fn(arg); /* lock not held: see limen/timer.h */
}

bool lm_timer_active(const lm_timer_t *tm)
{
    return tm != NULL && tm->active != 0u;
}

#endif /* LM_CFG_TIMER */
