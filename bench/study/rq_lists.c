/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The study's list structures: round robin (one FIFO, priorities ignored),
 * and one doubly-linked list sorted by key, searched for the insertion
 * point from the head (forward) or from the tail (backward). The next
 * thread is the head. Equal keys keep FIFO order.
 */
#include <stddef.h>

#include "rq.h"

static rq_thread_t *head, *tail;
static uint32_t now; /* the key of the thread last chosen */

static void lists_init(unsigned levels)
{
    (void)levels;
    head = NULL;
    tail = NULL;
    now = 0u;
}

static void link_after(rq_thread_t *t, rq_thread_t *after)
{
    t->prev = after;
    t->next = after != NULL ? after->next : head;
    if (t->next != NULL) {
        t->next->prev = t;
    } else {
        tail = t;
    }
    if (after != NULL) {
        after->next = t;
    } else {
        head = t;
    }
}

static rq_thread_t *pop_head(void)
{
    rq_thread_t *t = head;
    head = t->next;
    if (head != NULL) {
        head->prev = NULL;
    } else {
        tail = NULL;
    }
    now = t->key;
    return t;
}

static void rr_insert(rq_thread_t *t)
{
    link_after(t, tail);
}

/* Wrap-safe "a after b" for keys that advance modulo 2^32. */
static int later(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) > 0;
}

static void forward_insert(rq_thread_t *t)
{
    t->key = now + t->step;
    rq_thread_t *after = NULL;
    for (rq_thread_t *n = head; n != NULL && !later(n->key, t->key); n = n->next) {
        after = n;
    }
    link_after(t, after);
}

static void backward_insert(rq_thread_t *t)
{
    t->key = now + t->step;
    rq_thread_t *after = tail;
    while (after != NULL && later(after->key, t->key)) {
        after = after->prev;
    }
    link_after(t, after);
}

const rq_ops_t rq_round_robin = {"round_robin", lists_init, rr_insert, pop_head};
const rq_ops_t rq_sorted_forward = {"sorted_forward", lists_init, forward_insert, pop_head};
const rq_ops_t rq_sorted_backward = {"sorted_backward", lists_init, backward_insert, pop_head};

/* The loop alone: what every figure includes besides the structure. */
static rq_thread_t *last;
static void null_insert(rq_thread_t *t)
{
    last = t;
}
static rq_thread_t *null_next(void)
{
    return last;
}
const rq_ops_t rq_null = {"loop_only", lists_init, null_insert, null_next};
