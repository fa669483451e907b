/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The block pool in the model, from docs/rules.md only (R10.4, R10.6, R8).
 * The model counts free blocks and keeps the waiters; which free block an
 * allocation gets is not fixed by the rules, so the driver tracks the
 * blocks themselves. A freed block goes to the most urgent waiter (R10.4),
 * and that block is predicted exactly (msg).
 */
#include "model.h"

void md_pool_init(struct md *m)
{
    m->pool_free = MD_POOL_BLOCKS;
    m->pool_dead = false;
}

int md_pool_alloc_nowait(struct md *m)
{
    if (m->pool_dead) {
        return MD_OBJECT; /* R9.1 */
    }
    if (m->pool_free == 0u) {
        return MD_WOULD_BLOCK; /* R8.3 */
    }
    m->pool_free--;
    return MD_OK;
}

void md_pool_alloc(struct md *m, uint32_t timeout)
{
    int me = m->cur;
    int st = md_pool_alloc_nowait(m);
    m->t[me].msg = MD_BLOCK_ANY;
    if (st != MD_WOULD_BLOCK || timeout == 0u) {
        m->t[me].ret = st;
        return;
    }
    if (md_refuse_block(m)) {
        return; /* R6.1 */
    }
    md_block(m, me, MD_W_POOL, 0, timeout); /* R10.6: priority order, FIFO */
}

int md_pool_free(struct md *m, uint32_t block)
{
    if (m->pool_dead) {
        return MD_OBJECT; /* R9.1 */
    }
    int w = md_first_waiter(m, MD_W_POOL, 0);
    if (w != MD_NONE) {
        m->t[w].msg = block; /* R10.4: directly to the most urgent waiter */
        md_end_wait(m, w, MD_OK);
        m->n_handovers++;
        return MD_OK;
    }
    m->pool_free++;
    return MD_OK;
}

int md_pool_available(const struct md *m, uint32_t *n)
{
    if (m->pool_dead) {
        return MD_OBJECT;
    }
    *n = m->pool_free;
    return MD_OK;
}
