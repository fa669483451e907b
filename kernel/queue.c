/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Message queues. One wait queue serves both directions: receivers wait only
 * while the queue is empty and senders only while it is full, so with a
 * capacity of at least one the two never wait at once. Between the masked
 * steps of a flush the queue can be empty while senders still wait, which is
 * why each waiter is tagged with its direction (QWAIT_SEND) rather than
 * inferred from the count, and why a receive then takes a sender's message
 * instead of waiting behind it.
 */
#include <string.h>
#include "lmk.h"

#if LM_CFG_QUEUE

#define QWAIT_RECV 0x0u
#define QWAIT_SEND 0x1u
#define QWAIT_FRONT 0x2u

/* The key of lm_queue_t for a queue of msg_size-byte messages; 0 for
 * one that is not live. */
static inline void lmk_queue_key_set(lm_queue_t *q, uint32_t msg_size)
{
#if LM_CFG_ARG_CHECKS
    q->key = LM_MAGIC_QUEUE ^ msg_size;
#else
    (void)q;
    (void)msg_size;
#endif
}

lm_status_t lm_queue_create(lm_queue_t *q, void *buffer, size_t msg_size, size_t capacity)
{
    LMK_CHECK(q != NULL && buffer != NULL, LM_ERR_PARAM);
    LMK_CHECK(msg_size != 0u && capacity != 0u, LM_ERR_PARAM);
    LMK_CHECK(msg_size <= UINT32_MAX / capacity, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(q), LM_MAGIC_QUEUE);
    if (st == LM_OK) {
        lmk_waitq_init(&q->waiters);
        q->buffer = (uint8_t *)buffer;
        q->end = q->buffer + msg_size * capacity;
        q->read = q->buffer;
        q->write = q->buffer;
        q->msg_size = (uint32_t)msg_size;
        q->capacity = (uint32_t)capacity;
        q->count = 0;
        lmk_queue_key_set(q, (uint32_t)msg_size);
        lmk_create_publish_locked(LMK_MAGIC_OF(q), LM_MAGIC_QUEUE);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

/* Copy one message. A 4-byte message (a word, a pointer: the common case,
 * laid out as the straight path) is one load and one store; a multiple of 4
 * goes a word at a time with fixed-size memcpy (single loads and stores,
 * unaligned allowed); the rest through the library's memcpy.
 * Cost: O(msg_size), under the kernel lock. */
static inline void msg_copy(void *dst, const void *src, uint32_t n)
{
    if (__builtin_expect(n == 4u, 1)) {
        memcpy(dst, src, 4u);
        return;
    }
    if ((n & 3u) != 0u) {
        memcpy(dst, src, n);
        return;
    }
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    for (uint32_t i = 0; i < n; i += 4u) {
        memcpy(d + i, s + i, 4u);
    }
}

/* The queue's message size, in a call whose checks passed: the caller's
 * own `size` once the key check has shown it equal (already in a
 * register), the field without the checks. */
static inline uint32_t checked_msg_size(const lm_queue_t *q, size_t size)
{
#if LM_CFG_ARG_CHECKS
    (void)q;
    return (uint32_t)size;
#else
    (void)size;
    return q->msg_size;
#endif
}

/* Lock: held; there is room. Cost: one copy. The ring is kept as byte
 * pointers, so no index is multiplied by the message size. The fields are
 * read before the copy: the caller's buffer may, for all the compiler
 * knows, overlap the control block, and reading them again after it would
 * cost a load each. */
static inline void put_locked(lm_queue_t *q, const void *msg, uint32_t size, bool front)
{
    uint32_t count = q->count;
    if (front) {
        uint8_t *r = (q->read == q->buffer) ? q->end : q->read;
        r -= size;
        q->read = r;
        msg_copy(r, msg, size);
    } else {
        uint8_t *w = q->write;
        uint8_t *after = w + size;
        q->write = (after == q->end) ? q->buffer : after;
        msg_copy(w, msg, size);
    }
    q->count = count + 1u;
}

/* Lock: held; the queue is not empty. Cost: one copy. */
static inline void get_locked(lm_queue_t *q, void *buf, uint32_t size)
{
    uint32_t count = q->count;
    uint8_t *r = q->read;
    uint8_t *after = r + size;
    q->read = (after == q->end) ? q->buffer : after;
    msg_copy(buf, r, size);
    q->count = count - 1u;
}

/* The checks of a send or receive that need the queue, made once under
 * the lock: a live queue (R12.3), the message size, and (R12.1,
 * docs/errors.md) no blocking form from a handler, whatever the queue
 * holds, so that the mistake shows on every call. The good path tests
 * them as cheaply as it can: the live queue and the size with one load
 * and one compare (the key, lm_queue_t). Lock: held. O(1). */
static inline bool queue_call_ok_locked(const lm_queue_t *q, size_t size, lm_tick_t timeout)
{
#if LM_CFG_ARG_CHECKS
    if ((q->key ^ size) != LM_MAGIC_QUEUE) {
        return false;
    }
#else
    (void)q; /* no magic word, no size check */
    (void)size;
#endif
    return timeout == LM_NO_WAIT || !lm_port_in_isr();
}

/* Which check a refused call failed, in the order docs/errors.md gives
 * (after the pointer arguments: argument checks come first). Out of line
 * and cold: the good path neither loads the magic word nor keeps the codes
 * in registers. Its own section keeps it beside the rest of this file's
 * code, not with the cold code at the start of .text: the debug
 * information then gives this file one contiguous range, which debuggers
 * unwinding a thread's stack rely on (limen bt). Lock: held. */
static __attribute__((noinline, cold, section(".text.lmk_queue_refusal"))) lm_status_t
queue_refusal(const lm_queue_t *q, size_t size)
{
#if LM_CFG_ARG_CHECKS
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_QUEUE)) {
        return LM_ERR_OBJECT;
    }
    if (size != q->msg_size) {
        return LM_ERR_SIZE;
    }
#else
    (void)q;
    (void)size;
#endif
    return LM_ERR_ISR;
}

/* A sender waiting for room, if the most urgent waiter is one. */
static lm_thread_t *waiting_sender(const lm_queue_t *q)
{
    lm_thread_t *w = lmk_first_waiter(&q->waiters);
    return (w != NULL && (w->wait_opt & QWAIT_SEND) != 0u) ? w : NULL;
}

/* One body for both sends. With the error hook it is inlined into each, so
 * that a refusal names the call and the application's call site. */
#undef LMK_CALL_NAME
#define LMK_CALL_NAME (front ? "lm_queue_send_front" : "lm_queue_send")
static __attribute__((always_inline)) inline lm_status_t queue_send(lm_queue_t *q, const void *msg, size_t size,
                              lm_tick_t timeout, bool front)
{
    LMK_CHECK_ARGS(q != NULL && msg != NULL && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    LMK_CHECK_ARGS(size != 0u, LM_ERR_SIZE); /* the key's value for no queue */
    lm_irqstate_t s = lm_port_irq_lock();
    if (__builtin_expect(!queue_call_ok_locked(q, size, timeout), 0)) {
        lm_status_t refused = queue_refusal(q, size);
        lm_port_irq_unlock(s);
        return LMK_FAIL(refused);
    }
    if (!lmk_waitq_empty(&q->waiters)) {
        lm_thread_t *w = lmk_first_waiter(&q->waiters);
        if ((w->wait_opt & QWAIT_SEND) == 0u) {
            /* A receiver waits: the message goes straight to it. */
            msg_copy(w->wait_data, msg, checked_msg_size(q, size));
            lmk_wait_hand_over_locked(&q->waiters, w);
            lm_port_irq_unlock(s);
            return LM_OK;
        }
    }
    if (q->count < q->capacity) {
        put_locked(q, msg, checked_msg_size(q, size), front);
        lm_port_irq_unlock(s);
        return LM_OK;
    }
    lm_status_t st = lmk_wait_allowed(timeout);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(st); /* LM_ERR_WOULD_BLOCK: the queue is full */
    }
    lm_thread_t *cur = lmk.current;
    cur->wait_data = (void *)(uintptr_t)msg;
    _Static_assert(QWAIT_FRONT == 2u, "front is bit 1");
    cur->wait_opt = QWAIT_SEND | ((uint32_t)front << 1);
    lmk_wait_prioq_locked(&q->waiters, LMK_WAIT_PRIOQ, &q->waiters, timeout);
    lm_port_irq_unlock(s);
    return cur->wait_status;
}
#undef LMK_CALL_NAME
#define LMK_CALL_NAME __func__

lm_status_t lmk_queue_send(lm_queue_t *q, const void *msg, size_t size, lm_tick_t timeout)
{
    return lmk_trace_obj(LM_TRACE_QUEUE_SEND, q, queue_send(q, msg, size, timeout, false));
}

lm_status_t lmk_queue_send_front(lm_queue_t *q, const void *msg, size_t size, lm_tick_t timeout)
{
    return lmk_trace_obj(LM_TRACE_QUEUE_SEND_FRONT, q, queue_send(q, msg, size, timeout, true));
}

/* The most urgent blocked sender moves its message into the queue.
 * Lock: held. Cost: one copy. Returns false if no sender waits. */
static bool admit_sender_locked(lm_queue_t *q)
{
    lm_thread_t *w = waiting_sender(q);
    if (w == NULL) {
        return false;
    }
    put_locked(q, w->wait_data, q->msg_size, (w->wait_opt & QWAIT_FRONT) != 0u);
    lmk_wait_served_locked(w);
    return true;
}

#undef LMK_CALL_NAME
#define LMK_CALL_NAME "lm_queue_receive"
lm_status_t lmk_queue_receive(lm_queue_t *q, void *buf, size_t size, lm_tick_t timeout)
{
    LMK_CHECK_ARGS(q != NULL && buf != NULL && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    LMK_CHECK_ARGS(size != 0u, LM_ERR_SIZE); /* the key's value for no queue */
    lm_irqstate_t s = lm_port_irq_lock();
    if (__builtin_expect(!queue_call_ok_locked(q, size, timeout), 0)) {
        lm_status_t refused = queue_refusal(q, size);
        lm_port_irq_unlock(s);
        return LMK_FAIL(refused);
    }
    if (q->count != 0u) {
        get_locked(q, buf, checked_msg_size(q, size));
        /* With messages queued, a waiter can only be a sender (the head
         * comment): no scan when none waits. */
        if (!lmk_waitq_empty(&q->waiters)) {
            (void)admit_sender_locked(q);
        }
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_QUEUE_RECEIVE, q, LM_OK);
    }
    lm_thread_t *w = waiting_sender(q);
    if (w != NULL) {
        /* Empty with senders blocked: only between the steps of a flush
         * (R9.2). Take the most urgent sender's message directly; waiting
         * here would leave a receiver queued behind senders that the flush
         * can then no longer admit, and both sides would wait forever. */
        msg_copy(buf, w->wait_data, checked_msg_size(q, size));
        lmk_wait_served_locked(w);
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_QUEUE_RECEIVE, q, LM_OK);
    }
    lm_status_t st = lmk_wait_allowed(timeout);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return lmk_trace_obj(LM_TRACE_QUEUE_RECEIVE, q, LMK_FAIL(st)); /* LM_ERR_WOULD_BLOCK: empty */
    }
    lm_thread_t *cur = lmk.current;
    cur->wait_data = buf;
    cur->wait_opt = QWAIT_RECV;
    lmk_wait_prioq_locked(&q->waiters, LMK_WAIT_PRIOQ, &q->waiters, timeout);
    lm_port_irq_unlock(s);
    return lmk_trace_obj(LM_TRACE_QUEUE_RECEIVE, q, cur->wait_status);
}

#undef LMK_CALL_NAME
#define LMK_CALL_NAME __func__

lm_status_t lm_queue_peek(const lm_queue_t *q, void *buf, size_t size)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_QUEUE);
    LMK_CHECK(buf != NULL, LM_ERR_PARAM);
    LMK_CHECK(size == q->msg_size, LM_ERR_SIZE);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = LM_ERR_WOULD_BLOCK;
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_QUEUE)) {
        st = LM_ERR_OBJECT;
    } else if (q->count != 0u) {
        msg_copy(buf, q->read, q->msg_size);
        st = LM_OK;
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

/* One step of a flush's walk: a sender admitted while there is room (a
 * delete meanwhile leaves none). Lock: held. O(1). */
static bool flush_admit_one_locked(void *queue)
{
    lm_queue_t *q = queue;
    return q->count < q->capacity && admit_sender_locked(q);
}

/* Context: thread, isr. Cost: O(1) masked, then one masked step per
 * admitted sender (R9.2); no other thread runs until the last step. */
lm_status_t lm_queue_flush(lm_queue_t *q)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_QUEUE);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_QUEUE)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    q->count = 0;
    q->read = q->write;
    lmk_walk_begin_locked();
    lmk_walk_admit(q, flush_admit_one_locked, s);
    return LM_OK;
}

lm_status_t lm_queue_delete(lm_queue_t *q)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_QUEUE);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_QUEUE)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(q));
    lmk_queue_key_set(q, 0u);
    /* No room from here on: a flush still admitting senders stops at its
     * next step, so every waiter is the delete's to wake (R9.1), and no
     * step writes into the buffer once the caller may take it back. */
    q->capacity = 0;
    q->count = 0;
    lm_port_irq_unlock(s);
    lmk_delete_wake_all(&q->waiters, LMK_MAGIC_OF(q));
    return LM_OK;
}

lm_status_t lm_queue_count(const lm_queue_t *q, uint32_t *count)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_QUEUE);
    LMK_CHECK(count != NULL, LM_ERR_PARAM);
    *count = q->count;
    return LM_OK;
}

#endif /* LM_CFG_QUEUE */
