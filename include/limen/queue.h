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

#endif
