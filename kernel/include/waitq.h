/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Wait queues (struct lm_waitq, limen/base.h): the threads waiting on a
 * semaphore, mutex, message queue or pool, most urgent first and FIFO among
 * equal priorities (R8.2, docs/rules.md). Two representations, chosen by
 * LM_CFG_WAIT_QUEUE_COMPACT (docs/design.md, "Wait queues"):
 *
 *   operation    table (prioq.h)         compact (waitq.c), B = log2(P)
 *   init         O(P/32) words cleared   2 pointers cleared
 *   empty        O(1)                    O(1)
 *   first        O(1): 1-2 bit scans     O(1): the head
 *   push_back    O(1)                    at most 2B trie nodes visited
 *   remove       O(1)                    at most 2B+1 trie nodes visited
 *   unlink       remove, leaving the thread's links for the ready queue
 *                to write (lmk_wait_resume_locked): the waker's fast path;
 *                unlink_first, the same for the first waiter
 *
 * In both, no cost depends on the number of waiters: with B fixed by the
 * configuration (5 at 32 priorities, 6 at 64), the compact bounds are
 * constants too. A thread's key is its priority t->prio while it is queued;
 * a change of priority removes it first and pushes it back after.
 */
#ifndef LMK_WAITQ_H
#define LMK_WAITQ_H

#include "limen/limen.h"
#include "list.h"
#include "prioq.h"

#if LM_CFG_WAIT_QUEUE_COMPACT

/* The general cases (waitq.c): a queue that has waiters already, a waiter
 * that is not alone. */
void lmk_waitq_push_back_slow(struct lm_waitq *wq, lm_thread_t *t);
void lmk_waitq_remove_slow(struct lm_waitq *wq, lm_thread_t *t);

/* Inline: the first waiter of a queue, and the last to leave it, are most
 * waits (a producer and a consumer; an interrupt and a thread): no walk. */
static inline void lmk_waitq_push_back(struct lm_waitq *wq, lm_thread_t *t)
{
    if (wq->head != NULL) {
        lmk_waitq_push_back_slow(wq, t);
        return;
    }
    t->qlink.next = &t->qlink;
    t->qlink.prev = &t->qlink;
    t->wq_child[0] = NULL;
    t->wq_child[1] = NULL;
    t->wq_last = t;
    wq->head = t;
    wq->root = t;
}

static inline void lmk_waitq_remove(struct lm_waitq *wq, lm_thread_t *t)
{
    if (t->qlink.next != &t->qlink) {
        lmk_waitq_remove_slow(wq, t);
        return;
    }
    wq->head = NULL;
    wq->root = NULL;
    t->qlink.next = NULL;
    t->qlink.prev = NULL;
}

/* The compact queue's general removal clears the links itself: no saving
 * to make there. */
static inline void lmk_waitq_unlink(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_waitq_remove(wq, t);
}

static inline void lmk_waitq_unlink_first(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_waitq_remove(wq, t);
}

static inline void lmk_waitq_init(struct lm_waitq *wq)
{
    wq->head = NULL;
    wq->root = NULL;
}

static inline bool lmk_waitq_empty(const struct lm_waitq *wq)
{
    return wq->head == NULL;
}

/* Most urgent waiter, NULL if none. */
static inline lm_thread_t *lmk_waitq_first(const struct lm_waitq *wq)
{
    return wq->head;
}

/* Priority of the most urgent waiter; LMK_PRIO_NONE if none. */
static inline unsigned lmk_waitq_best_prio(const struct lm_waitq *wq)
{
    return (wq->head != NULL) ? wq->head->prio : LMK_PRIO_NONE;
}

#else /* table */

static inline void lmk_waitq_init(struct lm_waitq *wq)
{
    lmk_prioq_init(&wq->table);
}

static inline bool lmk_waitq_empty(const struct lm_waitq *wq)
{
    return lmk_prioq_empty(&wq->table);
}

static inline lm_thread_t *lmk_waitq_first(const struct lm_waitq *wq)
{
    unsigned p = lmk_prioq_best_prio(&wq->table);
    return (p != LMK_PRIO_NONE) ? LMK_CONTAINER_OF(wq->table.ring[p], lm_thread_t, qlink)
                                : NULL;
}

static inline void lmk_waitq_push_back(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_prioq_push_back(&wq->table, &t->qlink, t->prio);
}

static inline void lmk_waitq_remove(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_prioq_remove(&wq->table, &t->qlink, t->prio);
}

static inline void lmk_waitq_unlink(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_prioq_unlink(&wq->table, &t->qlink, t->prio);
}

/* lmk_waitq_unlink for t, the first waiter (lmk_waitq_first). */
static inline void lmk_waitq_unlink_first(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_prioq_unlink_first(&wq->table, &t->qlink, t->prio);
}

static inline unsigned lmk_waitq_best_prio(const struct lm_waitq *wq)
{
    return lmk_prioq_best_prio(&wq->table);
}

#endif

#endif
