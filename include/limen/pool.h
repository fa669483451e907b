/* SPDX-License-Identifier: Apache-2.0 */
/* Fixed-size block pools. */
#ifndef LIMEN_POOL_H
#define LIMEN_POOL_H

#include "limen/base.h"

typedef struct lm_pool {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
#endif
    struct lm_waitq waiters;
    uint8_t *buffer;
    void *free_list;       /* singly linked through the free blocks */
    uint32_t block_size;   /* rounded up to pointer alignment */
    uint32_t block_count;
    uint32_t free_count;
    uint32_t fresh;        /* blocks from this index on never handed out */
} lm_pool_t;

/* Size of one block as the pool stores it: at least two pointers (the free
 * list link and, with checks, a double-free tag), pointer-aligned. */
#define LM_POOL_BLOCK_SIZE(size)                                              \
    ((((size) < 2 * sizeof(void *) ? 2 * sizeof(void *) : (size)) +           \
      sizeof(void *) - 1) / sizeof(void *) * sizeof(void *))

#define LM_POOL_BUFFER_DEFINE(name, block_size, count) \
    _Alignas(sizeof(void *)) uint8_t name[LM_POOL_BLOCK_SIZE(block_size) * (count)]

/* buffer_size must hold `count` blocks of LM_POOL_BLOCK_SIZE(block_size).
 * Cost: O(1): blocks are handed out in address order until each has been
 * used once (nothing is written into the buffer here).
 * @retval LM_OK, LM_ERR_PARAM */
lm_status_t lm_pool_create(lm_pool_t *p, void *buffer, size_t buffer_size,
                           size_t block_size, size_t count);
lm_status_t lm_pool_delete(lm_pool_t *p);

/* Take a block into *block. Context: thread; isr with LM_NO_WAIT. Cost: O(1).
 * @retval LM_OK, LM_ERR_WOULD_BLOCK, LM_ERR_TIMEOUT, LM_ERR_DELETED,
 *         LM_ERR_ABORTED, LM_ERR_OBJECT, LM_ERR_PARAM, LM_ERR_ISR,
 *         LM_ERR_LOCKED */
lm_status_t lm_pool_alloc(lm_pool_t *p, void **block, lm_tick_t timeout);

/* Return a block; the most urgent waiter gets it directly.
 * Context: thread, isr. Cost: O(1).
 * @retval LM_OK, LM_ERR_PARAM (not a block of this pool), LM_ERR_STATE
 *         (already free, detected with checks on), LM_ERR_OBJECT */
lm_status_t lm_pool_free(lm_pool_t *p, void *block);

lm_status_t lm_pool_available(const lm_pool_t *p, uint32_t *free_blocks);

#endif
