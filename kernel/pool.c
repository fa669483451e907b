/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fixed-size block pools. Blocks that have been freed form a list threaded
 * through them; blocks never handed out yet are taken in address order
 * from `fresh` on. So a create is O(1) (one masked step, like every create)
 * whatever the number of blocks, and nothing writes into a block before
 * it is first allocated.
 */
#include "lmk.h"

#if LM_CFG_POOL

/* Second word of a free block (checks on): marks it free, per pool, so a
 * double free is caught. An allocated block whose user data happens to hold
 * this exact word at that place would be refused on free (documented). */
static uintptr_t free_tag(const lm_pool_t *p)
{
    return (uintptr_t)p ^ (uintptr_t)0x5AFEB10Cu;
}

lm_status_t lm_pool_create(lm_pool_t *p, void *buffer, size_t buffer_size,
                           size_t block_size, size_t count)
{
    LMK_CHECK(p != NULL && buffer != NULL, LM_ERR_PARAM);
    LMK_CHECK(((uintptr_t)buffer & (sizeof(void *) - 1u)) == 0u, LM_ERR_PARAM);
    LMK_CHECK(block_size != 0u && count != 0u && block_size <= UINT32_MAX / 2u, LM_ERR_PARAM);
    size_t bs = LM_POOL_BLOCK_SIZE(block_size);
    LMK_CHECK(count <= UINT32_MAX && count <= buffer_size / bs, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(p), LM_MAGIC_POOL);
    if (st == LM_OK) {
        lmk_waitq_init(&p->waiters);
        p->buffer = (uint8_t *)buffer;
        p->block_size = (uint32_t)bs;
        p->block_count = (uint32_t)count;
        p->free_count = (uint32_t)count;
        p->free_list = NULL;
        p->fresh = 0;
        lmk_create_publish_locked(LMK_MAGIC_OF(p), LM_MAGIC_POOL);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_status_t lm_pool_alloc(lm_pool_t *p, void **block, lm_tick_t timeout)
{
    LMK_CHECK_OBJ(p, LM_MAGIC_POOL);
    LMK_CHECK(block != NULL && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    /* R12.1, docs/errors.md: a blocking form from a handler is refused
     * whatever the pool holds, so the mistake shows on every call. */
    if (timeout != LM_NO_WAIT && lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(p, LM_MAGIC_POOL)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    void **blk = (void **)p->free_list;
    if (blk != NULL || p->fresh < p->block_count) {
        if (blk != NULL) {
            p->free_list = blk[0];
        } else {
            blk = (void **)(void *)(p->buffer + (size_t)p->fresh * p->block_size);
            p->fresh++;
        }
        blk[1] = NULL; /* no longer free (a fresh block may hold an old tag) */
        p->free_count--;
        lm_port_irq_unlock(s);
        *block = blk;
        return lmk_trace_obj(LM_TRACE_POOL_ALLOC, p, LM_OK);
    }
    lm_status_t st = lmk_wait_allowed(timeout);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_POOL_ALLOC, p, LMK_FAIL(st));
    }
    lm_thread_t *cur = lmk.current;
    cur->wait_data = block;
    lmk_wait_prioq_locked(&p->waiters, LMK_WAIT_PRIOQ, &p->waiters, timeout);
    lm_port_irq_unlock(s);
    return lmk_trace_obj(LM_TRACE_POOL_ALLOC, p, cur->wait_status);
}

lm_status_t lm_pool_free(lm_pool_t *p, void *block)
{
    LMK_CHECK_OBJ(p, LM_MAGIC_POOL);
    LMK_CHECK(block != NULL, LM_ERR_PARAM);
#if LM_CFG_ARG_CHECKS
    uintptr_t off = (uintptr_t)block - (uintptr_t)p->buffer;
    if ((uintptr_t)block < (uintptr_t)p->buffer ||
        off >= (uintptr_t)p->block_size * p->block_count || off % p->block_size != 0u) {
        return LMK_FAIL(LM_ERR_PARAM);
    }
#endif
    void **blk = (void **)block;
    lm_irqstate_t s = lm_port_irq_lock();
#if LM_CFG_ARG_CHECKS
    if (LMK_DEAD_LOCKED(p, LM_MAGIC_POOL)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    if (off / p->block_size >= p->fresh || blk[1] == (void *)free_tag(p)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_STATE); /* already free, or never allocated */
    }
#endif
    lm_thread_t *w = lmk_first_waiter(&p->waiters);
    if (w != NULL) {
        *(void **)w->wait_data = blk;
        lmk_wait_served_locked(w);
    } else {
        blk[0] = p->free_list;
        blk[1] = (void *)free_tag(p);
        p->free_list = blk;
        p->free_count++;
    }
    lm_port_irq_unlock(s);
    return lmk_trace_obj(LM_TRACE_POOL_FREE, p, LM_OK);
}

lm_status_t lm_pool_available(const lm_pool_t *p, uint32_t *free_blocks)
{
    LMK_CHECK_OBJ(p, LM_MAGIC_POOL);
    LMK_CHECK(free_blocks != NULL, LM_ERR_PARAM);
    *free_blocks = p->free_count;
    return LM_OK;
}

lm_status_t lm_pool_delete(lm_pool_t *p)
{
    LMK_CHECK_OBJ(p, LM_MAGIC_POOL);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(p, LM_MAGIC_POOL)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(p));
    lm_port_irq_unlock(s);
    lmk_delete_wake_all(&p->waiters, LMK_MAGIC_OF(p));
    return LM_OK;
}

#endif /* LM_CFG_POOL */
