/* SPDX-License-Identifier: Apache-2.0 */
/* Recursive, owner-checked mutexes with optional priority inheritance. */
#ifndef LIMEN_MUTEX_H
#define LIMEN_MUTEX_H

#include "limen/base.h"
#include "limen/thread.h"

/* Options for lm_mutex_create. */
#define LM_MUTEX_INHERIT 0x1u /* owner inherits the priority of its waiters */

typedef struct lm_mutex {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
#endif
    struct lm_waitq waiters;
    struct lm_dnode held_link;  /* in the owner's list of held mutexes */
    lm_thread_t *owner;
    uint16_t key;               /* priority it counts at in owner->pi_count */
    uint16_t depth;             /* recursion depth; 0 = free */
    uint8_t options;
    uint8_t abandoned;          /* previous owner ended while holding it */
#if LM_STATS_INVERSIONS
    uint16_t inv_key;           /* priority it counts at in owner->inv_count */
#endif
} lm_mutex_t;

/* @retval LM_OK, LM_ERR_PARAM (NULL, unknown option) */
lm_status_t lm_mutex_create(lm_mutex_t *m, unsigned options);

/* The owner, if any, loses it (its inherited priority is recomputed, O(1),
 * and its chain stepwise, R9.6); waiters are woken with LM_ERR_DELETED one
 * per masked step. Context: thread, isr. */
lm_status_t lm_mutex_delete(lm_mutex_t *m);

/* Lock, or add one level if the caller owns it already.
 * Context: thread. Cost: O(1) uncontended. Blocking: O(1) per masked step;
 * the deadlock check (R5.7) reads the chain of owners three links per step
 * and the inheritance it passes down (R5.3) goes three owners per step in
 * the context-switch handler: O(d) in all for a chain d owners deep, and
 * no other thread runs until both are done (R9.6).
 * @retval LM_OK, LM_ERR_ABANDONED (acquired; previous owner ended holding
 *         it), LM_ERR_WOULD_BLOCK, LM_ERR_TIMEOUT, LM_ERR_DELETED,
 *         LM_ERR_ABORTED, LM_ERR_DEADLOCK, LM_ERR_OVERFLOW (depth 65535),
 *         LM_ERR_OBJECT, LM_ERR_PARAM, LM_ERR_ISR, LM_ERR_LOCKED,
 *         LM_ERR_STATE (before lm_kernel_start() or from the idle hook) */
lm_status_t lm_mutex_lock(lm_mutex_t *m, lm_tick_t timeout);

/* Remove one level; at zero, pass the mutex to its most urgent waiter and
 * restore the caller's priority from the mutexes it still holds.
 * Context: thread. Cost: O(1), whatever the mutexes still held.
 * @retval LM_OK, LM_ERR_NOT_OWNER, LM_ERR_OBJECT, LM_ERR_ISR */
lm_status_t lm_mutex_unlock(lm_mutex_t *m);

/* Owner (NULL if free). Context: thread, isr. */
lm_thread_t *lm_mutex_owner(const lm_mutex_t *m);

#endif
