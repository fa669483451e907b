/* SPDX-License-Identifier: Apache-2.0 */
/* Message queues: fixed message size, fixed capacity, copied by value. */
#ifndef LIMEN_QUEUE_H
#define LIMEN_QUEUE_H

#include "limen/base.h"

typedef struct lm_queue {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
    /* LM_MAGIC_QUEUE ^ msg_size while the queue is live, LM_MAGIC_QUEUE
     * (a message size of 0, which no queue has) otherwise: a send or a
     * receive checks the queue and the message size with one load and one
     * compare (kernel/queue.c). */
    uint32_t key;
#endif
    struct lm_waitq waiters; /* receivers when empty, senders when full */
    uint8_t *buffer;
    uint8_t *end;            /* buffer + capacity * msg_size */
    uint8_t *read;           /* the oldest message */
    uint8_t *write;          /* where the next message at the back goes */
    uint32_t msg_size;
    uint32_t capacity;
    uint32_t count;
} lm_queue_t;

/* A buffer for `capacity` messages of `msg_size` bytes, suitably aligned. */
#define LM_QUEUE_BUFFER_DEFINE(name, msg_size, capacity) \
    _Alignas(sizeof(void *)) uint8_t name[(msg_size) * (capacity)]

/* @retval LM_OK, LM_ERR_PARAM (NULL, size 0, capacity 0, size*capacity
 *         overflows) */
lm_status_t lm_queue_create(lm_queue_t *q, void *buffer, size_t msg_size,
                            size_t capacity);

/* Wake every waiter with LM_ERR_DELETED, one per masked step.
 * Context: thread, isr. */
lm_status_t lm_queue_delete(lm_queue_t *q);

/* Copy `size` bytes (must equal the queue's message size) to the back.
 * A waiting receiver gets the message directly.
 * Context: thread; isr with LM_NO_WAIT. Cost: O(1) + copying the message.
 * @retval LM_OK, LM_ERR_WOULD_BLOCK (full), LM_ERR_TIMEOUT, LM_ERR_DELETED,
 *         LM_ERR_ABORTED, LM_ERR_SIZE, LM_ERR_OBJECT, LM_ERR_PARAM,
 *         LM_ERR_ISR, LM_ERR_LOCKED */
static inline lm_status_t lm_queue_send(lm_queue_t *q, const void *msg, size_t size,
                                        lm_tick_t timeout);

/* As lm_queue_send, but the message goes to the front (received next). */
static inline lm_status_t lm_queue_send_front(lm_queue_t *q, const void *msg, size_t size,
                                              lm_tick_t timeout);

/* Copy the oldest message into buf and remove it.
 * Context: thread; isr with LM_NO_WAIT. Cost: O(1) + copying (one message,
 * two when a blocked sender's message moves into the freed slot).
 * @retval as lm_queue_send, LM_ERR_WOULD_BLOCK meaning empty */
static inline lm_status_t lm_queue_receive(lm_queue_t *q, void *buf, size_t size,
                                           lm_tick_t timeout);

/* Copy the oldest message without removing it. Never waits.
 * Context: thread, isr. @retval LM_OK, LM_ERR_WOULD_BLOCK, LM_ERR_SIZE, ... */
lm_status_t lm_queue_peek(const lm_queue_t *q, void *buf, size_t size);

/* Discard every queued message; blocked senders then fill the freed slots in
 * priority order, one per masked step. Context: thread, isr. */
lm_status_t lm_queue_flush(lm_queue_t *q);

/* Messages queued, into *count. Context: thread, isr. */
lm_status_t lm_queue_count(const lm_queue_t *q, uint32_t *count);

/* The kernel's part of the three calls above, which check the arguments
 * that need no kernel state inline (LM_ARG_CHECKS_INLINE, docs/errors.md)
 * and then call it. Call those, not these. */
lm_status_t lmk_queue_send(lm_queue_t *q, const void *msg, size_t size, lm_tick_t timeout);
lm_status_t lmk_queue_send_front(lm_queue_t *q, const void *msg, size_t size,
                                 lm_tick_t timeout);
lm_status_t lmk_queue_receive(lm_queue_t *q, void *buf, size_t size, lm_tick_t timeout);

__attribute__((always_inline)) static inline lm_status_t
lm_queue_send(lm_queue_t *q, const void *msg, size_t size, lm_tick_t timeout)
{
#if LM_ARG_CHECKS_INLINE
    if (q == NULL || msg == NULL || !lm_timeout_valid(timeout)) {
        return LM_ERR_PARAM;
    }
    if (size == 0u) {
        return LM_ERR_SIZE; /* no queue's: refused before the queue is read */
    }
#endif
    return lmk_queue_send(q, msg, size, timeout);
}

__attribute__((always_inline)) static inline lm_status_t
lm_queue_send_front(lm_queue_t *q, const void *msg, size_t size, lm_tick_t timeout)
{
#if LM_ARG_CHECKS_INLINE
    if (q == NULL || msg == NULL || !lm_timeout_valid(timeout)) {
        return LM_ERR_PARAM;
    }
    if (size == 0u) {
        return LM_ERR_SIZE; /* no queue's: refused before the queue is read */
    }
#endif
    return lmk_queue_send_front(q, msg, size, timeout);
}

__attribute__((always_inline)) static inline lm_status_t
lm_queue_receive(lm_queue_t *q, void *buf, size_t size, lm_tick_t timeout)
{
#if LM_ARG_CHECKS_INLINE
    if (q == NULL || buf == NULL || !lm_timeout_valid(timeout)) {
        return LM_ERR_PARAM;
    }
    if (size == 0u) {
        return LM_ERR_SIZE; /* no queue's: refused before the queue is read */
    }
#endif
    return lmk_queue_receive(q, buf, size, timeout);
}

/*
 * Priority message queues: as above, but each message carries a priority,
 * 0 (most urgent) to LM_PQUEUE_PRIO_MAX, the order of thread priorities. A
 * receive takes the most urgent message, FIFO among messages of equal
 * priority (R10.7). Each message lives in a slot of the caller's buffer
 * with the links that keep this order: LM_PQUEUE_SLOT_SIZE bytes a
 * message, five pointers more than its own bytes (kernel/pqueue.c).
 * A send or a receive costs at most 17 slots visited whatever the number
 * of messages queued and of waiters (docs/design.md, "Priority message
 * queues").
 */
#define LM_PQUEUE_PRIO_MAX 255u

/* A slot: its links, then the message (kernel/pqueue.c). */
struct lm_pqueue_slot;

typedef struct lm_pqueue {
#if LM_CFG_ARG_CHECKS
    uint32_t magic; /* first: a check reads it from any control block (docs/errors.md) */
#endif
    struct lm_waitq waiters;      /* receivers when empty, senders when full */
    struct lm_pqueue_slot *head;  /* the next message to receive; NULL if none */
    struct lm_pqueue_slot *tail;  /* the last message */
    struct lm_pqueue_slot *root;  /* the first message of each priority queued, as a trie */
    struct lm_pqueue_slot *free;  /* slots given back */
    uint8_t *fresh;               /* the slots never used begin here */
    uint32_t msg_size;
    uint32_t capacity;
    uint32_t count;
} lm_pqueue_t;

/* Bytes of buffer one message of `msg_size` bytes takes. */
#define LM_PQUEUE_SLOT_SIZE(msg_size) \
    (5u * sizeof(void *) + ((msg_size) + sizeof(void *) - 1u) / sizeof(void *) * sizeof(void *))

/* A buffer for `capacity` messages of `msg_size` bytes, suitably aligned. */
#define LM_PQUEUE_BUFFER_DEFINE(name, msg_size, capacity) \
    _Alignas(sizeof(void *)) uint8_t name[LM_PQUEUE_SLOT_SIZE(msg_size) * (capacity)]

/* buffer: capacity * LM_PQUEUE_SLOT_SIZE(msg_size) bytes, aligned to a
 * pointer. Context: thread, isr. Cost: O(1) (slots are handed out as
 * they are first needed).
 * @retval LM_OK, LM_ERR_PARAM (NULL, size 0, capacity 0, the buffer's size
 *         overflows, a buffer not aligned to a pointer), LM_ERR_STATE
 *         (live), LM_ERR_INIT */
lm_status_t lm_pqueue_create(lm_pqueue_t *q, void *buffer, size_t msg_size, size_t capacity);

/* Wake every waiter with LM_ERR_DELETED, one per masked step (R9.1).
 * Context: thread, isr. */
lm_status_t lm_pqueue_delete(lm_pqueue_t *q);

/* Copy `size` bytes (the queue's message size) in, at priority `prio`
 * (0..LM_PQUEUE_PRIO_MAX): after every message of the same or a more
 * urgent priority, before every less urgent one. A waiting receiver gets
 * the message directly.
 * Context: thread; isr with LM_NO_WAIT. Cost: O(1) + copying the message:
 * at most 17 slots visited (2B+1 for B = 8 bits of priority).
 * @retval LM_OK, LM_ERR_WOULD_BLOCK (full), LM_ERR_TIMEOUT, LM_ERR_DELETED,
 *         LM_ERR_ABORTED, LM_ERR_SIZE, LM_ERR_OBJECT, LM_ERR_PARAM (NULL,
 *         prio above LM_PQUEUE_PRIO_MAX, a bad timeout), LM_ERR_ISR,
 *         LM_ERR_LOCKED, LM_ERR_STATE */
lm_status_t lm_pqueue_send(lm_pqueue_t *q, const void *msg, size_t size, unsigned prio,
                           lm_tick_t timeout);

/* Copy the most urgent message (the oldest of its priority) into buf,
 * remove it, and store its priority in *prio unless prio is NULL.
 * Context: thread; isr with LM_NO_WAIT. Cost: O(1) + copying (one
 * message, two when a blocked sender's message moves into the freed
 * slot): at most 17 slots visited for each.
 * @retval as lm_pqueue_send, LM_ERR_WOULD_BLOCK meaning empty */
lm_status_t lm_pqueue_receive(lm_pqueue_t *q, void *buf, size_t size, uint8_t *prio,
                              lm_tick_t timeout);

/* lm_pqueue_send and lm_pqueue_receive of a message of the queue's own
 * size: the same rules, order and cost, no size to give or check (so
 * never LM_ERR_SIZE), four arguments. For a wrapper that keeps the
 * message size with the queue (the CMSIS-RTOS2 layer's message queues). */
lm_status_t lm_pqueue_put(lm_pqueue_t *q, const void *msg, unsigned prio, lm_tick_t timeout);
lm_status_t lm_pqueue_get(lm_pqueue_t *q, void *buf, uint8_t *prio, lm_tick_t timeout);

/* Discard every queued message in one O(1) step; blocked senders then
 * fill the freed slots in priority order, one per masked step (R9.2).
 * Context: thread, isr. */
lm_status_t lm_pqueue_flush(lm_pqueue_t *q);

/* Messages queued, into *count. Context: thread, isr. */
lm_status_t lm_pqueue_count(const lm_pqueue_t *q, uint32_t *count);

#endif
