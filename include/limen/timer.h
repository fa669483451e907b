/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Software timers. Callbacks run in the kernel's deferred tick context: in
 * interrupt context as the kernel sees it (lm_port_in_isr() is true, only the
 * non-blocking API may be called), at the lowest interrupt priority, with the
 * kernel lock NOT held, so interrupts are served while a callback runs.
 */
#ifndef LIMEN_TIMER_H
#define LIMEN_TIMER_H

#include "limen/base.h"

typedef void (*lm_timer_fn_t)(void *arg);

typedef struct lm_timer {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
#endif
    struct lm_timeout timeout;
    lm_timer_fn_t fn;
    void *arg;
    lm_tick_t period;       /* 0: one-shot */
    uint8_t active;
} lm_timer_t;

lm_status_t lm_timer_create(lm_timer_t *tm, lm_timer_fn_t fn, void *arg);
/* Stop and forget the timer. Context: thread, isr. */
lm_status_t lm_timer_delete(lm_timer_t *tm);

/* (Re)start: first expiry `delay` ticks from now (1..LM_TICK_MAX_TIMEOUT),
 * then every `period` ticks (0 = one-shot). Periodic expiries do not drift.
 * Context: thread, isr. Cost: O(1). @retval LM_OK, LM_ERR_PARAM, LM_ERR_OBJECT */
lm_status_t lm_timer_start(lm_timer_t *tm, lm_tick_t delay, lm_tick_t period);

/* Stop; a stopped timer's callback does not run again.
 * @retval LM_OK, LM_ERR_STATE (not running), LM_ERR_OBJECT */
lm_status_t lm_timer_stop(lm_timer_t *tm);

bool lm_timer_active(const lm_timer_t *tm);

#endif
