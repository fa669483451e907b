/* SPDX-License-Identifier: Apache-2.0 */
/* Counting semaphores. Waiters queue in priority order, FIFO among equals. */
#ifndef LIMEN_SEM_H
#define LIMEN_SEM_H

#include "limen/base.h"

typedef struct lm_sem {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
#endif
    struct lm_waitq waiters;
    uint32_t count;
    uint32_t max;
} lm_sem_t;

/* Context: thread (or before start). Cost: O(priorities/32) to clear the map.
 * @retval LM_OK, LM_ERR_PARAM (NULL, max 0, initial > max) */
lm_status_t lm_sem_create(lm_sem_t *s, uint32_t initial, uint32_t max);

/* Wake every waiter with LM_ERR_DELETED, one per masked step (R9.1).
 * Context: thread, isr. Cost: O(waiters) total, O(1) per masked step. */
lm_status_t lm_sem_delete(lm_sem_t *s);

/* Take one unit, waiting up to `timeout` ticks.
 * Context: thread; isr with LM_NO_WAIT. Cost: O(1).
 * @retval LM_OK, LM_ERR_WOULD_BLOCK, LM_ERR_TIMEOUT, LM_ERR_DELETED,
 *         LM_ERR_ABORTED, LM_ERR_OBJECT, LM_ERR_PARAM, LM_ERR_ISR,
 *         LM_ERR_LOCKED */
static inline lm_status_t lm_sem_take(lm_sem_t *s, lm_tick_t timeout);

/* Give one unit: to the most urgent waiter if any, else to the count.
 * Context: thread, isr. Cost: O(1).
 * @retval LM_OK, LM_ERR_OVERFLOW (count at max, nothing changed),
 *         LM_ERR_OBJECT */
static inline lm_status_t lm_sem_give(lm_sem_t *s);

/* Current count into *count. Context: thread, isr. */
lm_status_t lm_sem_count(const lm_sem_t *s, uint32_t *count);

/* The kernel's part of lm_sem_take and lm_sem_give, which check the
 * arguments that need no kernel state inline (LM_ARG_CHECKS_INLINE,
 * docs/errors.md) and then call it. Call those, not these. */
lm_status_t lmk_sem_take(lm_sem_t *s, lm_tick_t timeout);
lm_status_t lmk_sem_give(lm_sem_t *s);

__attribute__((always_inline)) static inline lm_status_t
lm_sem_take(lm_sem_t *s, lm_tick_t timeout)
{
#if LM_ARG_CHECKS_INLINE
    if (s == NULL || !lm_timeout_valid(timeout)) {
        return LM_ERR_PARAM;
    }
#endif
    return lmk_sem_take(s, timeout);
}

__attribute__((always_inline)) static inline lm_status_t
lm_sem_give(lm_sem_t *s)
{
#if LM_ARG_CHECKS_INLINE
    if (s == NULL) {
        return LM_ERR_PARAM;
    }
#endif
    return lmk_sem_give(s);
}

#endif
