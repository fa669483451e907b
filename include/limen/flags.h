/* SPDX-License-Identifier: Apache-2.0 */
/* 32-bit event flags. */
#ifndef LIMEN_FLAGS_H
#define LIMEN_FLAGS_H

#include "limen/base.h"

/* Options for lm_flags_wait. */
#define LM_FLAGS_ANY 0x0u     /* any of the requested bits */
#define LM_FLAGS_ALL 0x1u     /* all of the requested bits */
#define LM_FLAGS_CONSUME 0x2u /* clear the requested bits when satisfied */

typedef struct lm_flags {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
#endif
    struct lm_dnode waiters; /* FIFO of waiting threads (R10.1) */
    struct lm_dnode scan;    /* waiters still to check after a set (R9.3) */
    uint32_t bits;
} lm_flags_t;

lm_status_t lm_flags_create(lm_flags_t *f, uint32_t initial);
/* Wake every waiter with LM_ERR_DELETED, one per masked step. */
lm_status_t lm_flags_delete(lm_flags_t *f);

/* OR bits in, then check waiters in arrival order, one per masked step, and
 * wake each one satisfied (consuming its bits if it asked to).
 * Context: thread, isr. Cost: O(1) per masked step, O(waiters) total. */
lm_status_t lm_flags_set(lm_flags_t *f, uint32_t bits);

/* Clear bits. Context: thread, isr. Cost: O(1). */
lm_status_t lm_flags_clear(lm_flags_t *f, uint32_t bits);

/* Wait until the requested bits are set (ANY or ALL). *actual (may be NULL)
 * receives the flags as they were when the wait was satisfied, before any
 * consumption. Context: thread; isr with LM_NO_WAIT. Cost: O(1).
 * @retval LM_OK, LM_ERR_WOULD_BLOCK, LM_ERR_TIMEOUT, LM_ERR_DELETED,
 *         LM_ERR_ABORTED, LM_ERR_PARAM (bits 0, unknown option),
 *         LM_ERR_OBJECT, LM_ERR_ISR, LM_ERR_LOCKED */
lm_status_t lm_flags_wait(lm_flags_t *f, uint32_t bits, unsigned options,
                          uint32_t *actual, lm_tick_t timeout);

/* Current flags into *bits. */
lm_status_t lm_flags_get(const lm_flags_t *f, uint32_t *bits);

#endif
