/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Limen's own ready queue (kernel/include/prioq.h, the kernel's inline
 * code, unchanged): a FIFO ring per priority and a bitmap of the non-empty
 * ones. The thread whose slice ended goes to the back of its priority's
 * ring; the next is the head of the most urgent ring (one bit scan, two
 * above 32 priorities). Strict priority: the level is the priority (0 most
 * urgent), so only the most urgent level's threads run, in turn; the
 * study's proportional share is not Limen's policy.
 */
#include <stddef.h>

#include "prioq.h"
#include "rq.h"

static struct lm_prioq ready;

static void limen_init(unsigned levels)
{
    (void)levels;
    for (unsigned i = 0u; i < LM_PRIO_WORDS; i++) {
        ready.busy.word[i] = 0u;
    }
#if LM_PRIO_WORDS > 1
    ready.busy.summary = 0u;
#endif
}

static void limen_insert(rq_thread_t *t)
{
    lmk_prioq_push_back(&ready, &t->node, t->level);
}

static rq_thread_t *limen_next(void)
{
    unsigned p = lmk_prioq_best_prio(&ready);
    struct lm_dnode *n = ready.ring[p];
    lmk_prioq_remove(&ready, n, p);
    return (rq_thread_t *)(void *)((char *)n - offsetof(rq_thread_t, node));
}

const rq_ops_t rq_limen = {"limen", limen_init, limen_insert, limen_next};
