/*
 * Priority queue of list nodes: a FIFO ring per priority plus a bitmap of the
 * non-empty rings (one word per 32 priorities and, above 32, a summary word).
 * It serves as the ready queue and as every wait queue.
 *
 *   operation      cost (P = LM_CFG_PRIORITIES)
 *   init           O(P/32) words cleared, O(P) ring pointers
 *   push_back      O(1): link at the ring's tail, set one or two bits
 *   push_front     O(1)
 *   remove         O(1): unlink, clear one or two bits if the ring empties
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

#define LMK_PRIO_NONE 0xFFFFu

void lmk_prioq_init(struct lm_prioq *q);

static inline bool lmk_prioq_empty(const struct lm_prioq *q)
{
#if LM_PRIO_WORDS > 1
    return q->summary == 0u;
#else
    return q->map[0] == 0u;
#endif
}

/* Most urgent non-empty priority; LMK_PRIO_NONE if the queue is empty. */
static inline unsigned lmk_prioq_best_prio(const struct lm_prioq *q)
{
#if LM_PRIO_WORDS > 1
    if (q->summary == 0u) {
        return LMK_PRIO_NONE;
    }
    unsigned w = (unsigned)__builtin_ctz(q->summary);
    return w * 32u + (unsigned)__builtin_ctz(q->map[w]);
#else
    if (q->map[0] == 0u) {
        return LMK_PRIO_NONE;
    }
    return (unsigned)__builtin_ctz(q->map[0]);
#endif
}

/* Head of the most urgent ring, NULL if empty. */
static inline struct lm_dnode *lmk_prioq_first(const struct lm_prioq *q)
{
    unsigned p = lmk_prioq_best_prio(q);
    return p == LMK_PRIO_NONE ? NULL : q->ring[p];
}

static inline void lmk_prioq_mark(struct lm_prioq *q, unsigned prio)
{
#if LM_PRIO_WORDS > 1
    q->summary |= 1u << (prio / 32u);
#endif
    q->map[prio / 32u] |= 1u << (prio % 32u);
}

static inline void lmk_prioq_unmark(struct lm_prioq *q, unsigned prio)
{
    q->map[prio / 32u] &= ~(1u << (prio % 32u));
#if LM_PRIO_WORDS > 1
    if (q->map[prio / 32u] == 0u) {
        q->summary &= ~(1u << (prio / 32u));
    }
#endif
}

static inline void lmk_prioq_push_back(struct lm_prioq *q, struct lm_dnode *n,
                                       unsigned prio)
{
    struct lm_dnode *head = q->ring[prio];
    if (head == NULL) {
        n->next = n;
        n->prev = n;
        q->ring[prio] = n;
        lmk_prioq_mark(q, prio);
    } else {
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

static inline void lmk_prioq_remove(struct lm_prioq *q, struct lm_dnode *n,
                                    unsigned prio)
{
    if (n->next == n) {
        q->ring[prio] = NULL;
        lmk_prioq_unmark(q, prio);
    } else {
        n->prev->next = n->next;
        n->next->prev = n->prev;
        if (q->ring[prio] == n) {
            q->ring[prio] = n->next;
        }
    }
    n->next = NULL;
    n->prev = NULL;
}

/* The head of ring `prio` moves to its tail. */
static inline void lmk_prioq_rotate(struct lm_prioq *q, unsigned prio)
{
    if (q->ring[prio] != NULL) {
        q->ring[prio] = q->ring[prio]->next;
    }
}

/* True when ring `prio` holds more than one node. */
static inline bool lmk_prioq_has_peer(const struct lm_prioq *q, unsigned prio)
{
    const struct lm_dnode *h = q->ring[prio];
    return h != NULL && h->next != h;
}

#endif
