/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Priority queue of list nodes: a FIFO ring per priority plus the set of
 * non-empty rings (prioset.h). It serves as the ready queue and as every
 * wait queue.
 *
 *   operation      cost (P = LM_CFG_PRIORITIES)
 *   init           O(P/32) words cleared (ring p is read only while
 *                  bit p is set, so the ring pointers need no clearing)
 *   push_back      O(1): link at the ring's tail, set one or two bits
 *   push_front     O(1)
 *   remove         O(1): unlink, clear one or two bits if the ring empties
 *                  (unlink: the same, the node's links left for its next
 *                  queue to write)
 *   best_prio      O(1): one bit scan (two above 32 priorities)
 *   rotate         O(1): the ring's head becomes its tail
 *
 * None of these costs depends on how many nodes are queued or at which
 * priorities: that is the whole point (docs/design.md, seed 003).
 * Memory: 4*(P/32 rounded up) + (P>32 ? 4 : 0) + P*sizeof(void*) bytes.
 */
#ifndef LMK_PRIOQ_H
#define LMK_PRIOQ_H

#include "limen/base.h"
#include "prioset.h"

void lmk_prioq_init(struct lm_prioq *q);

static inline bool lmk_prioq_empty(const struct lm_prioq *q)
{
    return lmk_prioset_empty(&q->busy);
}

/* Most urgent non-empty priority; LMK_PRIO_NONE if the queue is empty. */
static inline unsigned lmk_prioq_best_prio(const struct lm_prioq *q)
{
    return lmk_prioset_first(&q->busy);
}

/* The same for a queue the caller knows holds a node. */
static inline unsigned lmk_prioq_best_prio_of_nonempty(const struct lm_prioq *q)
{
    return lmk_prioset_first_of_nonempty(&q->busy);
}

static inline void lmk_prioq_push_back(struct lm_prioq *q, struct lm_dnode *n,
                                       unsigned prio)
{
    if (!lmk_prioset_contains(&q->busy, prio)) {
        n->next = n;
        n->prev = n;
        q->ring[prio] = n;
        lmk_prioset_add(&q->busy, prio);
    } else {
        struct lm_dnode *head = q->ring[prio];
        n->next = head;
        n->prev = head->prev;
        head->prev->next = n;
        head->prev = n;
    }
}

static inline void lmk_prioq_push_front(struct lm_prioq *q, struct lm_dnode *n,
                                        unsigned prio)
{
    lmk_prioq_push_back(q, n, prio);
    q->ring[prio] = n;
}

/* Take n out of ring `prio` and leave n's own links as they were: for a
 * caller that links n into another queue at once, which writes them. */
static inline void lmk_prioq_unlink(struct lm_prioq *q, struct lm_dnode *n,
                                    unsigned prio)
{
    if (n->next == n) {
        lmk_prioset_remove(&q->busy, prio);
    } else {
        n->prev->next = n->next;
        n->next->prev = n->prev;
        if (q->ring[prio] == n) {
            q->ring[prio] = n->next;
        }
    }
}

/* lmk_prioq_unlink for n, the head of the most urgent ring. */
static inline void lmk_prioq_unlink_first(struct lm_prioq *q, struct lm_dnode *n,
                                          unsigned prio)
{
    if (n->next == n) {
        lmk_prioset_remove_first(&q->busy);
    } else {
        n->prev->next = n->next;
        n->next->prev = n->prev;
        q->ring[prio] = n->next;
    }
}

/* Take n out of ring `prio`; n is then in no queue, which its NULL links
 * say (tests/kcheck.c checks them). */
static inline void lmk_prioq_remove(struct lm_prioq *q, struct lm_dnode *n,
                                    unsigned prio)
{
    lmk_prioq_unlink(q, n, prio);
    n->next = NULL;
    n->prev = NULL;
}

/* The head of ring `prio` moves to its tail. The ring must not be empty. */
static inline void lmk_prioq_rotate(struct lm_prioq *q, unsigned prio)
{
    q->ring[prio] = q->ring[prio]->next;
}

/* True when ring `prio` holds more than one node. The ring must not be
 * empty (its only caller asks about the running thread's own ring, R1.4). */
static inline bool lmk_prioq_has_peer(const struct lm_prioq *q, unsigned prio)
{
    const struct lm_dnode *h = q->ring[prio];
    return h->next != h;
}

#endif
