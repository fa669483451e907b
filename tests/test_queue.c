/* SPDX-License-Identifier: Apache-2.0 */
/* Message queues: every call of limen/queue.h, message order and contents,
 * hand-over to waiting receivers and from blocked senders, flush, timeouts,
 * deletion and calls from interrupt handlers (docs/rules.md R8, R9.1, R9.2,
 * R10.3, R10.6, R12; docs/errors.md). */
#include <string.h>
#include "harness.h"
#include "lmt_msg.h"

#define MSZ LMT_MSG_SIZE
#define CAP 4u

#define NW 5
static const char *const wname[NW] = {"a", "b", "c", "d", "e"};
static const unsigned wprio[NW] = {5, 3, 5, 1, 3};
static lm_thread_t *wt[NW];
#define CTRL_PRIO 10u

static lm_queue_t q;
static LM_QUEUE_BUFFER_DEFINE(qbuf, MSZ, CAP);
static lm_tick_t t0;

static unsigned since_t0(void)
{
    return (unsigned)(lm_tick_t)(lm_tick_now() - t0);
}

static unsigned widx(void)
{
    for (unsigned i = 0; i < NW; i++) {
        if (wt[i] == lm_thread_self()) {
            return i;
        }
    }
    lmt_fail(__FILE__, __LINE__, "not a waiter");
}

static lm_status_t send_id(unsigned id, lm_tick_t timeout)
{
    uint8_t m[MSZ];
    lmt_msg_make(m, id);
    return lm_queue_send(&q, m, MSZ, timeout);
}

static lm_status_t send_front_id(unsigned id, lm_tick_t timeout)
{
    uint8_t m[MSZ];
    lmt_msg_make(m, id);
    return lm_queue_send_front(&q, m, MSZ, timeout);
}

/* Receive one message and return its id. */
static unsigned recv_id(void)
{
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_NO_WAIT), LM_OK);
    return lmt_msg_id(buf);
}

static unsigned peek_id(void)
{
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_peek(&q, buf, MSZ), LM_OK);
    return lmt_msg_id(buf);
}

static uint32_t qcount(void)
{
    uint32_t c = 0xDEADu;
    LMT_ST(lm_queue_count(&q, &c), LM_OK);
    return c;
}

static void fresh_queue(size_t capacity)
{
    memset(&q, 0, sizeof q);
    memset(qbuf, 0, sizeof qbuf);
    LMT_ST(lm_queue_create(&q, qbuf, MSZ, capacity), LM_OK);
}

static void make_waiters(lm_thread_entry_t fn)
{
    for (unsigned i = 0; i < NW; i++) {
        wt[i] = lmt_spawn_ex(wname[i], wprio[i], LM_THRESHOLD_NONE, 0, fn, NULL, false);
    }
}

static void start_waiters(void)
{
    for (unsigned i = 0; i < NW; i++) {
        LMT_ST(lm_thread_start(wt[i]), LM_OK);
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_BLOCKED);
    }
}

/* ---------------------------------------------------------------------- */

/* docs/errors.md: NULL pointers, zero or overflowing sizes, wrong message
 * sizes and dead objects are refused and change nothing. */
LMT_CASE(queue_bad_arguments)
{
    lmt_begin();
    uint8_t m[MSZ + 1u];
    uint8_t buf[MSZ + 4u];
    uint32_t c = 77u;
    lmt_msg_make(m, 1);
    m[MSZ] = 0;
    memset(&q, 0, sizeof q);
    LMT_ST(lm_queue_send(&q, m, MSZ, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_queue_send_front(&q, m, MSZ, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_queue_peek(&q, buf, MSZ), LM_ERR_OBJECT);
    LMT_ST(lm_queue_flush(&q), LM_ERR_OBJECT);
    LMT_ST(lm_queue_count(&q, &c), LM_ERR_OBJECT);
    LMT_ST(lm_queue_delete(&q), LM_ERR_OBJECT);
    LMT_EQ(c, 77u);

    LMT_ST(lm_queue_create(NULL, qbuf, MSZ, CAP), LM_ERR_PARAM);
    LMT_ST(lm_queue_create(&q, NULL, MSZ, CAP), LM_ERR_PARAM);
    LMT_ST(lm_queue_create(&q, qbuf, 0, CAP), LM_ERR_PARAM);
    LMT_ST(lm_queue_create(&q, qbuf, MSZ, 0), LM_ERR_PARAM);
    LMT_ST(lm_queue_create(&q, qbuf, 0x10000u, 0x10001u), LM_ERR_PARAM); /* > 2^32 bytes */
    LMT_ST(lm_queue_send(&q, m, MSZ, LM_NO_WAIT), LM_ERR_OBJECT);

    LMT_ST(lm_queue_send(NULL, m, MSZ, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_queue_receive(NULL, buf, MSZ, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_queue_peek(NULL, buf, MSZ), LM_ERR_PARAM);
    LMT_ST(lm_queue_flush(NULL), LM_ERR_PARAM);
    LMT_ST(lm_queue_count(NULL, &c), LM_ERR_PARAM);
    LMT_ST(lm_queue_delete(NULL), LM_ERR_PARAM);

    fresh_queue(CAP);
    LMT_ST(lm_queue_send(&q, NULL, MSZ, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_queue_send_front(&q, NULL, MSZ, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_queue_send(&q, m, MSZ + 1u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_send(&q, m, MSZ - 1u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_send_front(&q, m, MSZ + 1u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_send(&q, m, MSZ, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    /* A size of 0 is no queue's: refused as an argument. */
    LMT_ST(lm_queue_send(&q, m, 0u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_send_front(&q, m, 0u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_receive(&q, buf, 0u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_count(&q, NULL), LM_ERR_PARAM);
    LMT_EQ(qcount(), 0);

    LMT_ST(send_id(9, LM_NO_WAIT), LM_OK);
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_receive(&q, NULL, MSZ, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_queue_receive(&q, buf, MSZ + 1u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_receive(&q, buf, MSZ - 1u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_queue_peek(&q, NULL, MSZ), LM_ERR_PARAM);
    LMT_ST(lm_queue_peek(&q, buf, MSZ + 1u), LM_ERR_SIZE);
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_EQ(qcount(), 1);
    LMT_EQ(recv_id(), 9);
    /* R11.7: blocking before lm_kernel_start. */
    LMT_ST(lm_queue_receive(&q, buf, MSZ, 5), LM_ERR_STATE);
    LMT_CHECK(lmt_msg_untouched(buf));
}

/* R10.3: FIFO order, byte-exact copies, full and empty, the ring wrapping
 * round several times. */
static void fifo_thread(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    fresh_queue(CAP);
    unsigned next_in = 1, next_out = 1;
    for (unsigned round = 0; round < 3u; round++) {
        while (qcount() < CAP) {
            LMT_ST(send_id(next_in, LM_NO_WAIT), LM_OK);
            next_in++;
        }
        LMT_ST(send_id(99, LM_NO_WAIT), LM_ERR_WOULD_BLOCK); /* full */
        LMT_EQ(qcount(), CAP);
        /* Take out 3 of 4, so the next fill wraps the ring. */
        for (unsigned k = 0; k < 3u; k++) {
            unsigned id = recv_id();
            LMT_EQ(id, next_out);
            lmt_log("%u", id);
            next_out++;
        }
    }
    while (qcount() != 0u) {
        unsigned id = recv_id();
        LMT_EQ(id, next_out);
        lmt_log("%u", id);
        next_out++;
    }
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(lmt_msg_untouched(buf));
}

LMT_CASE(queue_fifo_and_contents)
{
    lmt_begin();
    lmt_spawn("T", 4, fifo_thread, NULL);
    lmt_run();
    lmt_expect("1 2 3 4 5 6 7 8 9 10");
}

/* R10.3: send_front places a message to be received next; peek copies the
 * oldest message without removing it. */
static void front_thread(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    fresh_queue(CAP);
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_peek(&q, buf, MSZ), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, LM_NO_WAIT), LM_OK);
    LMT_ST(send_front_id(3, LM_NO_WAIT), LM_OK);
    LMT_EQ(peek_id(), 3);
    LMT_EQ(peek_id(), 3);
    LMT_EQ(qcount(), 3);
    LMT_ST(send_front_id(4, LM_NO_WAIT), LM_OK); /* full now */
    LMT_ST(send_front_id(5, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(send_id(5, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    while (qcount() != 0u) {
        lmt_log("%u", recv_id());
    }
    lmt_log("|");
    /* Only send_front, from a head in the middle of the ring. */
    for (unsigned id = 6; id <= 9u; id++) {
        LMT_ST(send_front_id(id, LM_NO_WAIT), LM_OK);
        LMT_EQ(peek_id(), id);
    }
    while (qcount() != 0u) {
        lmt_log("%u", recv_id());
    }
    lmt_log("|");
    /* Mixed, wrapping. */
    LMT_ST(send_id(10, LM_NO_WAIT), LM_OK);
    LMT_ST(send_front_id(11, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(12, LM_NO_WAIT), LM_OK);
    LMT_ST(send_front_id(13, LM_NO_WAIT), LM_OK);
    while (qcount() != 0u) {
        lmt_log("%u", recv_id());
    }
}

LMT_CASE(queue_send_front_and_peek)
{
    lmt_begin();
    lmt_spawn("T", 4, front_thread, NULL);
    lmt_run();
    lmt_expect("4 3 1 2 | 9 8 7 6 | 13 11 10 12");
}

/* R10.3, R10.6: receivers waiting on an empty queue get the messages
 * directly, most urgent first, FIFO among equals. */
static void recv_forever(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    lm_status_t st = lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER);
    if (st == LM_OK) {
        lmt_log("%s:%u", lmt_me(), lmt_msg_id(buf));
    } else {
        LMT_CHECK(lmt_msg_untouched(buf));
        lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    }
}

static void send_in_turn(void *arg)
{
    (void)arg;
    start_waiters();
    for (unsigned id = 1; id <= NW; id++) {
        LMT_ST(send_id(id, LM_NO_WAIT), LM_OK);
        LMT_EQ(qcount(), 0);
    }
    lmt_log("end");
}

LMT_CASE(queue_receivers_most_urgent_first)
{
    lmt_begin();
    fresh_queue(CAP);
    make_waiters(recv_forever);
    lmt_spawn("C", CTRL_PRIO, send_in_turn, NULL);
    lmt_run();
    lmt_expect("d:1 b:2 e:3 a:4 c:5 end");
}

/* R10.3: a send to an empty queue with a waiting receiver hands the message
 * over: it is not queued even though the receiver has not run yet (no
 * preemption, R2.2). send_front hands over the same way. */
static void slow_receiver(void *arg)
{
    (void)arg;
    for (unsigned k = 0; k < 4u; k++) {
        uint8_t buf[MSZ + 4u];
        lmt_msg_clear(buf);
        LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER), LM_OK);
        lmt_log("R:%u", lmt_msg_id(buf));
    }
}

static void fast_sender(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    LMT_ST(lm_thread_sleep(1), LM_OK); /* R blocks */
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_EQ(qcount(), 0);
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_peek(&q, buf, MSZ), LM_ERR_WOULD_BLOCK);
    LMT_ST(send_id(2, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(3, LM_NO_WAIT), LM_OK);
    lmt_log("S:count=%u", (unsigned)qcount());
    LMT_ST(lm_thread_sleep(1), LM_OK); /* R drains and blocks again */
    LMT_ST(send_front_id(4, 5), LM_OK);
    lmt_log("S:count=%u", (unsigned)qcount());
}

LMT_CASE(queue_handover_to_waiting_receiver)
{
    lmt_begin();
    fresh_queue(CAP);
    lmt_spawn("R", 8, slow_receiver, NULL);
    lmt_spawn("S", 4, fast_sender, NULL);
    lmt_run();
    lmt_expect("S:count=2 R:1 R:2 R:3 S:count=0 R:4");
}

/* R10.3, R10.6: a receive from a full queue moves the most urgent blocked
 * sender's message in (FIFO among equals); the order of messages is the
 * queue's, then the senders' in priority order. */
static void send_forever(void *arg)
{
    (void)arg;
    lm_status_t st = send_id(10u + widx(), LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void receive_in_turn(void *arg)
{
    (void)arg;
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, LM_NO_WAIT), LM_OK);
    start_waiters();
    LMT_EQ(qcount(), 2);
    for (unsigned k = 0; k < 7u; k++) {
        lmt_log("rx:%u", recv_id());
        LMT_EQ(qcount(), k < 5u ? 2u : 6u - k);
    }
}

LMT_CASE(queue_blocked_senders_most_urgent_first)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(send_forever);
    lmt_spawn("C", CTRL_PRIO, receive_in_turn, NULL);
    lmt_run();
    /* a..e send 10..14 */
    lmt_expect("d:OK rx:1 b:OK rx:2 e:OK rx:13 a:OK rx:11 c:OK rx:14 rx:10 rx:12");
}

/* R10.3: a blocked send_front message moved in goes to the front. */
static void front_sender(void *arg)
{
    (void)arg;
    lm_status_t st = send_front_id(9, LM_WAIT_FOREVER);
    lmt_log("F:%s", lmt_sn(st));
}

static void receive_three(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* F blocks on the full queue */
    LMT_EQ(lm_thread_state(wt[0]), LM_THREAD_BLOCKED);
    for (unsigned k = 0; k < 3u; k++) {
        lmt_log("rx:%u", recv_id());
    }
}

LMT_CASE(queue_blocked_send_front)
{
    lmt_begin();
    fresh_queue(2);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, LM_NO_WAIT), LM_OK);
    wt[0] = lmt_spawn("F", 3, front_sender, NULL);
    lmt_spawn("C", CTRL_PRIO, receive_three, NULL);
    lmt_run();
    lmt_expect("F:OK rx:1 rx:9 rx:2");
}

/* R8.2, R8.3, R8.4: every blocking call times out at exactly the n-th tick
 * (across the 2^32 wrap) and leaves the queue as it was; LM_NO_WAIT fails
 * at once; LM_WAIT_FOREVER waits for the partner. */
static void timed_user(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    lm_status_t st = lm_queue_receive(&q, buf, MSZ, LM_NO_WAIT);
    lmt_log("rx:%s@%u", lmt_sn(st), since_t0());
    st = lm_queue_receive(&q, buf, MSZ, 3);
    lmt_log("rx:%s@%u", lmt_sn(st), since_t0());
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    st = send_id(2, LM_NO_WAIT);
    lmt_log("tx:%s@%u", lmt_sn(st), since_t0());
    st = send_id(2, 4);
    lmt_log("tx:%s@%u", lmt_sn(st), since_t0());
    st = send_front_id(3, LM_NO_WAIT);
    lmt_log("txf:%s@%u", lmt_sn(st), since_t0());
    st = send_front_id(3, 6);
    lmt_log("txf:%s@%u", lmt_sn(st), since_t0());
    LMT_EQ(qcount(), 1);
    LMT_EQ(peek_id(), 1);
    LMT_EQ(recv_id(), 1);
    /* Forever: B sends at 1000, then receives at 2000. */
    lmt_msg_clear(buf);
    st = lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER);
    lmt_log("rx:%s=%u@%u", lmt_sn(st), lmt_msg_id(buf), since_t0());
    LMT_ST(send_id(4, LM_NO_WAIT), LM_OK);
    st = send_id(5, LM_WAIT_FOREVER);
    lmt_log("tx:%s@%u", lmt_sn(st), since_t0());
    LMT_EQ(recv_id(), 5);
}

static void partner(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1000), LM_OK);
    LMT_ST(send_id(77, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_sleep(1000), LM_OK);
    lmt_log("B:rx=%u", recv_id());
}

LMT_CASE(queue_timeouts)
{
    lmt_begin_at(0xFFFFFFF8u);
    t0 = lm_tick_now();
    fresh_queue(1);
    lmt_spawn("A", 3, timed_user, NULL);
    lmt_spawn("B", 6, partner, NULL);
    lmt_run();
    lmt_expect("rx:WOULD_BLOCK@0 rx:TIMEOUT@3 tx:WOULD_BLOCK@3 tx:TIMEOUT@7 "
               "txf:WOULD_BLOCK@7 txf:TIMEOUT@13 rx:OK=77@1000 tx:OK@2000 B:rx=4");
}

/* R9.2: flush discards every message, then blocked senders move their
 * messages in, most urgent first, while there is room; the rest stay
 * blocked until receives make room. */
static void flusher(void *arg)
{
    (void)arg;
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, LM_NO_WAIT), LM_OK);
    start_waiters();
    lmt_log("flush");
    LMT_ST(lm_queue_flush(&q), LM_OK);
    lmt_log("count=%u", (unsigned)qcount());
    LMT_EQ(lm_thread_state(wt[0]), LM_THREAD_BLOCKED);
    LMT_EQ(lm_thread_state(wt[2]), LM_THREAD_BLOCKED);
    LMT_EQ(lm_thread_state(wt[4]), LM_THREAD_BLOCKED);
    while (qcount() != 0u) {
        lmt_log("rx:%u", recv_id());
    }
}

LMT_CASE(queue_flush_admits_senders)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(send_forever);
    lmt_spawn("C", CTRL_PRIO, flusher, NULL);
    lmt_run();
    lmt_expect("flush d:OK b:OK count=2 e:OK rx:13 a:OK rx:11 c:OK rx:14 rx:10 rx:12");
}

/* R9.2: a flush of an empty queue leaves its receivers waiting. */
static void flush_empty(void *arg)
{
    (void)arg;
    start_waiters();
    LMT_ST(lm_queue_flush(&q), LM_OK);
    LMT_EQ(qcount(), 0);
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_BLOCKED);
    }
    lmt_log("flushed");
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_delete(&q), LM_OK);
}

LMT_CASE(queue_flush_with_receivers)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(recv_forever);
    lmt_spawn("C", CTRL_PRIO, flush_empty, NULL);
    lmt_run();
    lmt_expect("flushed d:1 b:DELETED e:DELETED a:DELETED c:DELETED");
}

/* R9.1: deleting a queue wakes its blocked senders with LM_ERR_DELETED,
 * most urgent first, one per step; from the start new calls fail with
 * LM_ERR_OBJECT. (Receivers: queue_flush_with_receivers.) */
static void send_then_probe(void *arg)
{
    (void)arg;
    lm_status_t st = send_id(10u + widx(), LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    if (lm_thread_self() == wt[3]) { /* the first one woken */
        uint32_t c = 5u;
        LMT_ST(send_id(1, LM_NO_WAIT), LM_ERR_OBJECT);
        LMT_ST(lm_queue_count(&q, &c), LM_ERR_OBJECT);
        LMT_EQ(c, 5u);
        /* R9.1: no thread runs until the walk ends: the others are woken. */
        LMT_EQ(lm_thread_state(wt[1]), LM_THREAD_READY);
        LMT_EQ(lm_thread_state(wt[0]), LM_THREAD_READY);
    }
}

static void queue_deleter(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    start_waiters();
    lmt_log("del");
    LMT_ST(lm_queue_delete(&q), LM_OK);
    lmt_log("deleted");
    uint32_t c = 5u;
    lmt_msg_clear(buf);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(send_id(1, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    LMT_ST(send_front_id(1, 10), LM_ERR_OBJECT);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    /* A deleted queue's key is that of a size of 0 (lm_queue_t): such a
     * call is refused before the queue is read, and waits on nothing. */
    LMT_ST(lm_queue_send(&q, buf, 0u, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_queue_receive(&q, buf, 0u, 1u), LM_ERR_SIZE);
    LMT_ST(lm_queue_peek(&q, buf, MSZ), LM_ERR_OBJECT);
    LMT_ST(lm_queue_flush(&q), LM_ERR_OBJECT);
    LMT_ST(lm_queue_count(&q, &c), LM_ERR_OBJECT);
    LMT_ST(lm_queue_delete(&q), LM_ERR_OBJECT);
    LMT_EQ(c, 5u);
    LMT_CHECK(lmt_msg_untouched(buf));
    fresh_queue(1);
    LMT_ST(send_id(3, LM_NO_WAIT), LM_OK);
    LMT_EQ(recv_id(), 3);
}

LMT_CASE(queue_delete_wakes_senders)
{
    lmt_begin();
    fresh_queue(1);
    make_waiters(send_then_probe);
    lmt_spawn("C", CTRL_PRIO, queue_deleter, NULL);
    lmt_run();
    lmt_expect("del d:DELETED b:DELETED e:DELETED a:DELETED c:DELETED deleted");
}

#if defined(LM_PORT_HOSTED)

/* R9.2: between the steps of a flush a receiver may act first. Here an
 * interrupt right after the discard step wakes an urgent receiver R while
 * the queue is empty and senders are still blocked: R must get the most
 * urgent sender's message, and the flush then admits the next one. */
static lm_sem_t go;

static void go_isr(void *arg)
{
    (void)arg;
    lmt_log("isr");
    LMT_ST(lm_sem_give(&go), LM_OK);
}

static void urgent_receiver(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&go, LM_WAIT_FOREVER), LM_OK);
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    lm_status_t st = lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER);
    lmt_log("R:%s=%u", lmt_sn(st), lmt_msg_id(buf));
}

static void blocked_sender(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    lm_status_t st = send_id(id, LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void flush_with_irq(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the senders block */
    lmt_log("flush");
    LMT_EQ(lm_hosted_irq_at_unmask(1, go_isr, NULL), 0);
    LMT_ST(lm_queue_flush(&q), LM_OK);
    lmt_log("L:count=%u", (unsigned)qcount());
    if (qcount() != 0u) {
        lmt_log("L:rx=%u", recv_id());
    }
}

LMT_CASE(queue_receiver_between_flush_steps)
{
    lmt_begin();
    fresh_queue(1);
    memset(&go, 0, sizeof go);
    LMT_ST(lm_sem_create(&go, 0, 1), LM_OK);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    lmt_spawn("R", 1, urgent_receiver, NULL);
    lmt_spawn("S1", 5, blocked_sender, (void *)(uintptr_t)2u);
    lmt_spawn("S2", 6, blocked_sender, (void *)(uintptr_t)3u);
    lmt_spawn("L", CTRL_PRIO, flush_with_irq, NULL);
    lmt_run();
    lmt_expect("flush isr R:OK=2 S1:OK S2:OK L:count=1 L:rx=3");
}

/* R9.2: a sender acting between the steps of a flush takes the freed slot
 * before the blocked senders. */
static void send_isr(void *arg)
{
    (void)arg;
    lmt_log("isr:%s", lmt_sn(send_id(9, LM_NO_WAIT)));
}

static void flush_with_send(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_EQ(lm_hosted_irq_at_unmask(1, send_isr, NULL), 0);
    LMT_ST(lm_queue_flush(&q), LM_OK);
    lmt_log("L:count=%u", (unsigned)qcount());
    lmt_log("L:rx=%u", recv_id());
    lmt_log("L:rx=%u", recv_id());
}

LMT_CASE(queue_sender_between_flush_steps)
{
    lmt_begin();
    fresh_queue(1);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    lmt_spawn("S1", 5, blocked_sender, (void *)(uintptr_t)2u);
    lmt_spawn("L", CTRL_PRIO, flush_with_send, NULL);
    lmt_run();
    lmt_expect("isr:OK L:count=1 S1:OK L:rx=9 L:rx=2");
}

/* R12.1, R12.2: from a handler, send/send_front/receive with LM_NO_WAIT,
 * peek, count and flush work; any other timeout returns LM_ERR_ISR and
 * changes nothing, whatever the queue holds. The receiver the handler
 * served runs when the handler returns. */
static lm_thread_t *isr_receiver;

static void queue_isr(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, 5), LM_ERR_ISR);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_EQ(lm_thread_state(isr_receiver), LM_THREAD_BLOCKED);
    /* Blocking send forms are refused even with a receiver waiting. */
    LMT_ST(send_id(1, 5), LM_ERR_ISR);
    LMT_ST(send_front_id(1, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_EQ(lm_thread_state(isr_receiver), LM_THREAD_BLOCKED);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK); /* straight to H */
    LMT_EQ(lm_thread_state(isr_receiver), LM_THREAD_READY);
    LMT_EQ(qcount(), 0);
    LMT_ST(send_id(2, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(3, 5), LM_ERR_ISR); /* room, but a blocking form */
    LMT_EQ(qcount(), 1);
    LMT_ST(send_front_id(3, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(4, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(send_id(4, 5), LM_ERR_ISR);
    LMT_ST(send_front_id(4, 5), LM_ERR_ISR);
    LMT_EQ(qcount(), 2);
    LMT_EQ(peek_id(), 3);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, 5), LM_ERR_ISR); /* data, but blocking */
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_EQ(qcount(), 2);
    LMT_EQ(recv_id(), 3);
    LMT_ST(lm_queue_flush(&q), LM_OK);
    LMT_EQ(qcount(), 0);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(send_id(5, LM_NO_WAIT), LM_OK);
    lmt_log("isr:end");
}

static void isr_raiser(void *arg)
{
    (void)arg;
    lmt_log("L:raise");
    LMT_EQ(lm_hosted_irq_raise(queue_isr, NULL), 0);
    lmt_log("L:after count=%u", (unsigned)qcount());
    LMT_EQ(recv_id(), 5);
}

static void isr_recv(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_queue_receive(&q, buf, MSZ, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H:%u", lmt_msg_id(buf));
}

LMT_CASE(queue_calls_from_isr)
{
    lmt_begin();
    fresh_queue(2);
    isr_receiver = lmt_spawn("H", 2, isr_recv, NULL);
    lmt_spawn("L", CTRL_PRIO, isr_raiser, NULL);
    lmt_run();
    lmt_expect("L:raise isr:end H:1 L:after count=1");
}

/* R12.1, R10.3: a receive with LM_NO_WAIT from a handler on a full queue
 * moves the most urgent blocked sender's message in. */
static void recv_isr(void *arg)
{
    (void)arg;
    lmt_log("isr:rx=%u", recv_id());
    LMT_EQ(qcount(), 1);
}

static void raise_recv(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_EQ(lm_hosted_irq_raise(recv_isr, NULL), 0);
    lmt_log("L:rx=%u", recv_id());
}

LMT_CASE(queue_isr_receive_admits_sender)
{
    lmt_begin();
    fresh_queue(1);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    lmt_spawn("S1", 5, blocked_sender, (void *)(uintptr_t)2u);
    lmt_spawn("S2", 3, blocked_sender, (void *)(uintptr_t)3u);
    lmt_spawn("L", CTRL_PRIO, raise_recv, NULL);
    lmt_run();
    lmt_expect("isr:rx=1 S2:OK S1:OK L:rx=3");
}

/* R9.1, R9.2: no other thread runs during a flush or a delete. K's flush
 * admits D (the most urgent sender) and then S; D, although more urgent,
 * runs only once the flush is over, and then deletes the queue. An
 * interrupt at the delete's first unmask readies H, the most urgent of
 * all, which still waits for the delete's last step before it suspends D.
 * (An interrupt that deletes the queue during a flush: test_races.) */
static lm_thread_t *deleter_d, *sender_s;

static void deleting_sender(void *arg)
{
    (void)arg;
    LMT_ST(send_id(2, LM_WAIT_FOREVER), LM_OK);
    lmt_log("D:admitted");
    LMT_EQ(lm_hosted_irq_at_unmask(1, go_isr, NULL), 0); /* after the mark */
    LMT_ST(lm_queue_delete(&q), LM_OK);
    lmt_log("D:deleted");
}

static void suspender(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&go, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H:suspend-D");
    LMT_ST(lm_thread_suspend(deleter_d), LM_OK);
}

static void flush_across_delete(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* D and S block on the full queue */
    lmt_log("K:flush");
    LMT_ST(lm_queue_flush(&q), LM_OK);
    lmt_log("K:flushed S=%s", lm_thread_state(sender_s) == LM_THREAD_BLOCKED ? "blocked" : "woken");
    LMT_ST(lm_thread_resume(deleter_d), LM_OK);
    lmt_log("K:end");
}

LMT_CASE(queue_flush_resumed_during_delete)
{
    lmt_begin();
    fresh_queue(2);
    memset(&go, 0, sizeof go);
    LMT_ST(lm_sem_create(&go, 0, 1), LM_OK);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(1, LM_NO_WAIT), LM_OK);
    lmt_spawn("H", 0, suspender, NULL);
    deleter_d = lmt_spawn("D", 1, deleting_sender, NULL);
    sender_s = lmt_spawn("S", 6, blocked_sender, (void *)(uintptr_t)3u);
    lmt_spawn("K", 5, flush_across_delete, NULL);
    lmt_run();
    lmt_expect("K:flush D:admitted isr H:suspend-D K:flushed S=woken D:deleted K:end S:OK");
}

#define HOSTED_CASES                                                           \
    , LMT_RUN(queue_receiver_between_flush_steps), LMT_RUN(queue_sender_between_flush_steps), \
        LMT_RUN(queue_calls_from_isr), LMT_RUN(queue_isr_receive_admits_sender),          \
        LMT_RUN(queue_flush_resumed_during_delete)
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(queue_bad_arguments), LMT_RUN(queue_fifo_and_contents),
         LMT_RUN(queue_send_front_and_peek), LMT_RUN(queue_receivers_most_urgent_first),
         LMT_RUN(queue_handover_to_waiting_receiver),
         LMT_RUN(queue_blocked_senders_most_urgent_first), LMT_RUN(queue_blocked_send_front),
         LMT_RUN(queue_timeouts), LMT_RUN(queue_flush_admits_senders),
         LMT_RUN(queue_flush_with_receivers), LMT_RUN(queue_delete_wakes_senders) HOSTED_CASES)
