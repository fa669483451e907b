/* SPDX-License-Identifier: Apache-2.0 */
/* Priority message queues: every call of lm_pqueue_*, the exact delivery
 * order (R10.7) against a reference, hand-over to waiting receivers and
 * from blocked senders with their priorities, flush, timeouts, deletion
 * and calls from interrupt handlers (R8, R9.1, R9.2, R10.6, R12;
 * docs/errors.md). */
#include <string.h>
#include "harness.h"
#include "lmt_msg.h"

#define MSZ LMT_MSG_SIZE
#define CAP 6u

static lm_pqueue_t q;
static LM_PQUEUE_BUFFER_DEFINE(qbuf, MSZ, 64);

static lm_status_t send_id(unsigned id, unsigned prio, lm_tick_t timeout)
{
    uint8_t m[MSZ];
    lmt_msg_make(m, id);
    return lm_pqueue_send(&q, m, MSZ, prio, timeout);
}

/* Receive one message without waiting; its id, and its priority in *prio. */
static unsigned recv_id(uint8_t *prio)
{
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, prio, LM_NO_WAIT), LM_OK);
    return lmt_msg_id(buf);
}

static uint32_t qcount(void)
{
    uint32_t c = 0xDEADu;
    LMT_ST(lm_pqueue_count(&q, &c), LM_OK);
    return c;
}

static void fresh_queue(size_t capacity)
{
    memset(&q, 0, sizeof q);
    memset(qbuf, 0, sizeof qbuf);
    LMT_ST(lm_pqueue_create(&q, qbuf, MSZ, capacity), LM_OK);
}

/* Receive every queued message, logging "id/prio". */
static void drain_log(void)
{
    while (qcount() != 0u) {
        uint8_t p = 0xAAu;
        unsigned id = recv_id(&p);
        lmt_log("%u/%u", id, (unsigned)p);
    }
}

/* ---------------------------------------------------------------------- */

/* docs/errors.md: NULL pointers, zero or overflowing sizes, a misaligned
 * buffer, wrong message sizes, a priority above LM_PQUEUE_PRIO_MAX and dead
 * objects are refused and change nothing. */
LMT_CASE(pqueue_bad_arguments)
{
    lmt_begin();
    uint8_t m[MSZ + 1u];
    uint8_t buf[MSZ + 4u];
    uint8_t p = 0x77u;
    uint32_t c = 77u;
    lmt_msg_make(m, 1);
    m[MSZ] = 0;
    memset(&q, 0, sizeof q);
    LMT_ST(lm_pqueue_send(&q, m, MSZ, 0, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, &p, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_flush(&q), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_count(&q, &c), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_delete(&q), LM_ERR_OBJECT);
    LMT_EQ(c, 77u);
    LMT_EQ(p, 0x77u);

    LMT_ST(lm_pqueue_create(NULL, qbuf, MSZ, CAP), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_create(&q, NULL, MSZ, CAP), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_create(&q, qbuf, 0, CAP), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_create(&q, qbuf, MSZ, 0), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_create(&q, qbuf, (size_t)UINT32_MAX, 1), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_create(&q, qbuf, 0x10000u, 0x10000u), LM_ERR_PARAM); /* > 2^32 bytes */
    LMT_ST(lm_pqueue_create(&q, qbuf + 1, MSZ, CAP), LM_ERR_PARAM);     /* misaligned */
    LMT_ST(lm_pqueue_send(&q, m, MSZ, 0, LM_NO_WAIT), LM_ERR_OBJECT);

    LMT_ST(lm_pqueue_send(NULL, m, MSZ, 0, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_receive(NULL, buf, MSZ, &p, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_flush(NULL), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_count(NULL, &c), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_delete(NULL), LM_ERR_PARAM);

    fresh_queue(CAP);
    /* A live control block is not created again. */
    LMT_ST(lm_pqueue_create(&q, qbuf, MSZ, CAP), LM_ERR_STATE);
    LMT_ST(lm_pqueue_send(&q, NULL, MSZ, 0, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_send(&q, m, MSZ, LM_PQUEUE_PRIO_MAX + 1u, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_send(&q, m, MSZ + 1u, 0, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_pqueue_send(&q, m, MSZ - 1u, 0, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_pqueue_send(&q, m, MSZ, 0, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_count(&q, NULL), LM_ERR_PARAM);
    LMT_EQ(qcount(), 0);

    LMT_ST(send_id(9, 3, LM_NO_WAIT), LM_OK);
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_receive(&q, NULL, MSZ, &p, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ + 1u, &p, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ - 1u, &p, LM_NO_WAIT), LM_ERR_SIZE);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, &p, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_EQ(p, 0x77u);
    LMT_EQ(qcount(), 1);
    LMT_EQ(recv_id(&p), 9);
    LMT_EQ(p, 3);
    /* R11.7: blocking before lm_kernel_start. */
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, &p, 5), LM_ERR_STATE);
    LMT_CHECK(lmt_msg_untouched(buf));
    /* The priority is optional. */
    LMT_ST(send_id(10, 0, LM_NO_WAIT), LM_OK);
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, NULL, LM_NO_WAIT), LM_OK);
    LMT_EQ(lmt_msg_id(buf), 10);
    LMT_ST(lm_pqueue_delete(&q), LM_OK);
    LMT_ST(send_id(1, 0, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, &p, LM_NO_WAIT), LM_ERR_OBJECT);
}

/* R10.7: most urgent first, FIFO within a priority; new priorities at the
 * front, the back and between; the extremes 0 and 255; the queue full. */
LMT_CASE(pqueue_delivery_order)
{
    lmt_begin();
    fresh_queue(CAP);
    LMT_ST(send_id(1, 5, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, 5, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(3, 255, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(4, 0, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(5, 7, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(6, 5, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(7, 1, LM_NO_WAIT), LM_ERR_WOULD_BLOCK); /* full */
    LMT_EQ(qcount(), CAP);
    drain_log();
    lmt_log("|");
    /* Interleaved: each receive takes the most urgent message present. */
    LMT_ST(send_id(10, 200, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(11, 100, LM_NO_WAIT), LM_OK);
    lmt_log("%u", recv_id(NULL));
    LMT_ST(send_id(12, 200, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(13, 150, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(14, 150, LM_NO_WAIT), LM_OK);
    lmt_log("%u", recv_id(NULL));
    LMT_ST(send_id(15, 50, LM_NO_WAIT), LM_OK);
    drain_log();
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, NULL, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(lmt_msg_untouched(buf));
    lmt_expect("4/0 1/5 2/5 6/5 5/7 3/255 | 11 13 15/50 14/150 10/200 12/200");
}

/* R10.7 against a reference: random sends and receives over several
 * ranges of priorities (all 256, a few, clustered at the ends), checked
 * message by message against a stable sort of what is queued. */
static uint32_t rnd_state;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1664525u + 1013904223u;
    return rnd_state >> 8;
}

#define REF_CAP 64u
static struct { unsigned id, prio, seq; } ref[REF_CAP];
static unsigned ref_n;

static unsigned ref_best(void)
{
    unsigned b = 0;
    for (unsigned i = 1; i < ref_n; i++) {
        if (ref[i].prio < ref[b].prio ||
            (ref[i].prio == ref[b].prio && ref[i].seq < ref[b].seq)) {
            b = i;
        }
    }
    return b;
}

static unsigned pick_prio(unsigned mode)
{
    switch (mode) {
    case 0: return rnd() % 256u;
    case 1: return rnd() % 4u * 85u;          /* 0, 85, 170, 255 */
    case 2: return (rnd() & 1u) != 0u ? rnd() % 8u : 248u + rnd() % 8u;
    default: return 100u + rnd() % 16u;
    }
}

LMT_CASE(pqueue_order_against_reference)
{
    lmt_begin();
    unsigned checked = 0;
    for (unsigned mode = 0; mode < 4u; mode++) {
        for (unsigned cap = 1; cap <= REF_CAP; cap = cap * 2u + 1u) {
            rnd_state = 12345u + mode * 977u + cap;
            fresh_queue(cap);
            ref_n = 0;
            unsigned seq = 0, id = 0;
            for (unsigned step = 0; step < 3000u; step++) {
                /* Fill more than drain, then the other way, so the queue
                 * goes through full and empty. */
                bool fill = ((step / 200u) % 2u == 0u) ? rnd() % 4u != 0u : rnd() % 4u == 0u;
                if (fill) {
                    unsigned p = pick_prio(mode);
                    id = (id + 1u) % 256u;
                    lm_status_t st = send_id(id, p, LM_NO_WAIT);
                    if (ref_n == cap) {
                        LMT_ST(st, LM_ERR_WOULD_BLOCK);
                    } else {
                        LMT_ST(st, LM_OK);
                        ref[ref_n].id = id;
                        ref[ref_n].prio = p;
                        ref[ref_n].seq = seq++;
                        ref_n++;
                    }
                } else if (ref_n == 0u) {
                    uint8_t buf[MSZ + 4u];
                    lmt_msg_clear(buf);
                    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, NULL, LM_NO_WAIT),
                           LM_ERR_WOULD_BLOCK);
                } else {
                    unsigned b = ref_best();
                    uint8_t p = 0;
                    LMT_EQ(recv_id(&p), ref[b].id);
                    LMT_EQ(p, ref[b].prio);
                    ref[b] = ref[--ref_n];
                    checked++;
                }
                LMT_EQ(qcount(), ref_n);
                if (step % 1000u == 999u && mode == 3u) {
                    /* A flush empties the queue in one step. */
                    LMT_ST(lm_pqueue_flush(&q), LM_OK);
                    ref_n = 0;
                    LMT_EQ(qcount(), 0);
                }
            }
            LMT_ST(lm_pqueue_delete(&q), LM_OK);
        }
    }
    LMT_CHECK(checked > 10000u);
}

/* R10.3, R10.6, R10.7: receivers waiting on an empty queue get the
 * messages directly, most urgent receiver first, each with the priority
 * it was sent with. */
#define NW 4
static const char *const wname[NW] = {"a", "b", "c", "d"};
static const unsigned wprio[NW] = {5, 3, 5, 1};
static lm_thread_t *wt[NW];
#define CTRL_PRIO 10u

static void recv_forever(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    uint8_t p = 0xAAu;
    lmt_msg_clear(buf);
    lm_status_t st = lm_pqueue_receive(&q, buf, MSZ, &p, LM_WAIT_FOREVER);
    if (st == LM_OK) {
        lmt_log("%s:%u/%u", lmt_me(), lmt_msg_id(buf), (unsigned)p);
    } else {
        LMT_CHECK(lmt_msg_untouched(buf));
        LMT_EQ(p, 0xAAu);
        lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    }
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

static void send_in_turn(void *arg)
{
    (void)arg;
    start_waiters();
    for (unsigned id = 1; id <= NW; id++) {
        LMT_ST(send_id(id, 200u + id, LM_NO_WAIT), LM_OK);
        LMT_EQ(qcount(), 0);
    }
    lmt_log("end");
}

LMT_CASE(pqueue_receivers_get_messages_directly)
{
    lmt_begin();
    fresh_queue(CAP);
    make_waiters(recv_forever);
    lmt_spawn("C", CTRL_PRIO, send_in_turn, NULL);
    lmt_run();
    lmt_expect("d:1/201 b:2/202 a:3/203 c:4/204 end");
}

/* R10.3, R10.6, R10.7: a receive from a full queue moves the most urgent
 * blocked sender's message in, at its message priority: the senders are
 * admitted in thread-priority order, and their messages then leave in
 * message-priority order. */
static const unsigned send_prio[NW] = {40, 20, 10, 30};

static unsigned widx(void)
{
    for (unsigned i = 0; i < NW; i++) {
        if (wt[i] == lm_thread_self()) {
            return i;
        }
    }
    lmt_fail(__FILE__, __LINE__, "not a waiter");
}

static void send_forever(void *arg)
{
    (void)arg;
    unsigned i = widx();
    lm_status_t st = send_id(10u + i, send_prio[i], LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void receive_in_turn(void *arg)
{
    (void)arg;
    LMT_ST(send_id(1, 25, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, 35, LM_NO_WAIT), LM_OK);
    start_waiters();
    LMT_EQ(qcount(), 2);
    for (unsigned k = 0; k < 6u; k++) {
        uint8_t p = 0;
        unsigned id = recv_id(&p);
        lmt_log("rx:%u/%u", id, (unsigned)p);
    }
}

LMT_CASE(pqueue_blocked_senders_admitted_with_their_priority)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(send_forever);
    lmt_spawn("C", CTRL_PRIO, receive_in_turn, NULL);
    lmt_run();
    /* a..d send 10..13 at 40, 20, 10, 30; thread order d, b, a, c. Each
     * receive admits one sender, whose message then goes before 2/35 when
     * it is more urgent (13/30, 11/20, 12/10) and after it when not. */
    lmt_expect("d:OK rx:1/25 b:OK rx:13/30 a:OK rx:11/20 c:OK rx:2/35 rx:12/10 rx:10/40");
}

/* R8.3, R8.4, R12.1: timeouts at exactly the n-th tick leave the queue as
 * it was; blocking forms from a handler are refused with LM_ERR_ISR even
 * when the queue could serve, non-blocking forms work. */
static lm_status_t isr_st[4];
static uint8_t isr_p;

static void isr_calls(void *arg)
{
    (void)arg;
    uint8_t m[MSZ];
    uint8_t buf[MSZ + 4u];
    lmt_msg_make(m, 50);
    isr_st[0] = lm_pqueue_send(&q, m, MSZ, 9, 1);
    isr_st[1] = lm_pqueue_receive(&q, buf, MSZ, &isr_p, LM_WAIT_FOREVER);
    lmt_msg_clear(buf);
    isr_st[2] = lm_pqueue_receive(&q, buf, MSZ, &isr_p, LM_NO_WAIT);
    isr_st[3] = lm_pqueue_send(&q, m, MSZ, 9, LM_NO_WAIT);
    LMT_EQ(lmt_msg_id(buf), 7);
}

static void timed_user(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    lm_tick_t t0 = lm_tick_now();
    lmt_msg_clear(buf);
    lm_status_t st = lm_pqueue_receive(&q, buf, MSZ, NULL, 3);
    lmt_log("rx:%s@%u", lmt_sn(st), (unsigned)(lm_tick_now() - t0));
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_ST(send_id(7, 8, LM_NO_WAIT), LM_OK);
    st = send_id(8, 0, 4);
    lmt_log("tx:%s@%u", lmt_sn(st), (unsigned)(lm_tick_now() - t0));
    LMT_EQ(qcount(), 1);
    LMT_EQ(lm_hosted_irq_raise(isr_calls, NULL), 0);
    lmt_log("isr:%s,%s,%s/%u,%s", lmt_sn(isr_st[0]), lmt_sn(isr_st[1]), lmt_sn(isr_st[2]),
            (unsigned)isr_p, lmt_sn(isr_st[3]));
    LMT_EQ(qcount(), 1);
    uint8_t p = 0;
    LMT_EQ(recv_id(&p), 50);
    LMT_EQ(p, 9);
}

LMT_CASE(pqueue_timeouts_and_handlers)
{
    lmt_begin();
    fresh_queue(1);
    lmt_spawn("A", 3, timed_user, NULL);
    lmt_run();
    lmt_expect("rx:TIMEOUT@3 tx:TIMEOUT@7 isr:ISR,ISR,OK/8,OK");
}

/* R9.2: a flush discards every message in one step, then blocked senders
 * move their messages in, most urgent sender first, while there is room. */
static void flusher(void *arg)
{
    (void)arg;
    LMT_ST(send_id(1, 0, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, 0, LM_NO_WAIT), LM_OK);
    start_waiters();
    lmt_log("flush");
    LMT_ST(lm_pqueue_flush(&q), LM_OK);
    lmt_log("count=%u", (unsigned)qcount());
    drain_log();
}

LMT_CASE(pqueue_flush_admits_senders)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(send_forever);
    lmt_spawn("C", CTRL_PRIO, flusher, NULL);
    lmt_run();
    /* d (13 at 30) and b (11 at 20) move in; the receives let a (10 at 40)
     * and c (12 at 10) in, each woken sender running before the receiver
     * logs what it received. */
    lmt_expect("flush d:OK b:OK count=2 a:OK 11/20 c:OK 13/30 12/10 10/40");
}

/* R9.2, R12.3: a handler between the flush's steps finds the queue empty
 * with senders still blocked, and its receive takes the most urgent
 * sender's message directly, with that message's priority. The handler
 * receives with lm_pqueue_get when arg is not NULL. */
static lm_status_t hf_st;
static unsigned hf_id;
static uint8_t hf_p;

static void hf_handler(void *arg)
{
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    uint32_t c = 9u;
    LMT_ST(lm_pqueue_count(&q, &c), LM_OK);
    hf_st = (arg != NULL) ? lm_pqueue_get(&q, buf, &hf_p, LM_NO_WAIT)
                          : lm_pqueue_receive(&q, buf, MSZ, &hf_p, LM_NO_WAIT);
    hf_id = (hf_st == LM_OK) ? lmt_msg_id(buf) : 0u;
    lmt_log("h:count=%u,%s,%u/%u", (unsigned)c, lmt_sn(hf_st), hf_id, (unsigned)hf_p);
}

static void flush_with_handler(void *arg)
{
    LMT_ST(send_id(1, 0, LM_NO_WAIT), LM_OK);
    LMT_ST(send_id(2, 0, LM_NO_WAIT), LM_OK);
    start_waiters();
    hf_p = 0;
    LMT_EQ(lm_hosted_irq_at_unmask(1, hf_handler, arg), 0);
    LMT_ST(lm_pqueue_flush(&q), LM_OK);
    drain_log();
}

LMT_CASE(pqueue_handler_between_flush_steps)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(send_forever);
    lmt_spawn("C", CTRL_PRIO, flush_with_handler, NULL);
    lmt_run();
    /* The handler takes d's message (13 at 30); b (11 at 20) and a (10 at
     * 40) then fill the queue; the receives let c (12 at 10) in. */
    lmt_expect("h:count=0,OK,13/30 d:OK b:OK a:OK c:OK 11/20 12/10 10/40");
}

/* The same with lm_pqueue_get in the handler. */
LMT_CASE(pqueue_get_between_flush_steps)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(send_forever);
    lmt_spawn("C", CTRL_PRIO, flush_with_handler, &q);
    lmt_run();
    lmt_expect("h:count=0,OK,13/30 d:OK b:OK a:OK c:OK 11/20 12/10 10/40");
}

/* R9.1: deleting a queue wakes its blocked receivers with LM_ERR_DELETED,
 * most urgent first, and leaves their buffers and priorities untouched. */
static void deleter(void *arg)
{
    (void)arg;
    start_waiters();
    lmt_log("del");
    LMT_ST(lm_pqueue_delete(&q), LM_OK);
    LMT_ST(send_id(1, 0, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_flush(&q), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_delete(&q), LM_ERR_OBJECT);
    /* The control block is free again. */
    fresh_queue(1);
    LMT_ST(send_id(3, 4, LM_NO_WAIT), LM_OK);
    uint8_t p = 0;
    LMT_EQ(recv_id(&p), 3);
    LMT_EQ(p, 4);
    lmt_log("again");
}

LMT_CASE(pqueue_delete_wakes_receivers)
{
    lmt_begin();
    fresh_queue(2);
    make_waiters(recv_forever);
    lmt_spawn("C", CTRL_PRIO, deleter, NULL);
    lmt_run();
    lmt_expect("del d:DELETED b:DELETED a:DELETED c:DELETED again");
}

/* Byte-exact copies for every kind of message size: one word, whole
 * words, and sizes that are not a multiple of 4. */
LMT_CASE(pqueue_message_sizes)
{
    lmt_begin();
    static const size_t sizes[] = {1, 4, 8, 12, 13};
    static lm_pqueue_t sq;
    static LM_PQUEUE_BUFFER_DEFINE(sbuf, 13, 3);
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        uint8_t in[3][16];
        memset(&sq, 0, sizeof sq);
        LMT_ST(lm_pqueue_create(&sq, sbuf, n, 3), LM_OK);
        for (unsigned j = 0; j < 3u; j++) {
            for (unsigned i = 0; i < 16u; i++) {
                in[j][i] = (uint8_t)(k * 50u + j * 16u + i + 1u);
            }
            LMT_ST(lm_pqueue_send(&sq, in[j], n, 2u - j, LM_NO_WAIT), LM_OK);
        }
        for (unsigned j = 3; j-- > 0u;) {
            uint8_t out[17];
            uint8_t p = 9;
            memset(out, LMT_MSG_GUARD, sizeof out);
            LMT_ST(lm_pqueue_receive(&sq, out, n, &p, LM_NO_WAIT), LM_OK);
            LMT_EQ(p, 2u - j);
            LMT_CHECK(memcmp(out, in[j], n) == 0);
            LMT_EQ(out[n], LMT_MSG_GUARD);
        }
        LMT_ST(lm_pqueue_delete(&sq), LM_OK);
    }
}

/* A receiver that does not ask for the priority gets the message. */
static void recv_no_prio(void *arg)
{
    (void)arg;
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_receive(&q, buf, MSZ, NULL, LM_WAIT_FOREVER), LM_OK);
    lmt_log("R:%u", lmt_msg_id(buf));
}

static void send_one(void *arg)
{
    (void)arg;
    LMT_ST(send_id(5, 17, LM_NO_WAIT), LM_OK);
    lmt_log("S");
}

LMT_CASE(pqueue_handover_without_priority)
{
    lmt_begin();
    fresh_queue(2);
    lmt_spawn("R", 2, recv_no_prio, NULL);
    lmt_spawn("S", 4, send_one, NULL);
    lmt_run();
    lmt_expect("R:5 S");
}

/* R12.3: a handler that deletes the queue between a flush's or a delete's
 * argument check and its lock: the call returns LM_ERR_OBJECT and changes
 * nothing more. */
static void del_handler(void *arg)
{
    (void)arg;
    LMT_ST(lm_pqueue_delete(&q), LM_OK);
}

static void racer(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_lock(1, del_handler, NULL), 0);
    LMT_ST(lm_pqueue_flush(&q), LM_ERR_OBJECT);
    fresh_queue(2);
    LMT_EQ(lm_hosted_irq_at_lock(1, del_handler, NULL), 0);
    LMT_ST(lm_pqueue_delete(&q), LM_ERR_OBJECT);
    fresh_queue(2);
    LMT_EQ(lm_hosted_irq_at_lock(1, del_handler, NULL), 0);
    LMT_ST(send_id(1, 0, LM_NO_WAIT), LM_ERR_OBJECT);
    lmt_log("done");
}

LMT_CASE(pqueue_deleted_before_the_lock)
{
    lmt_begin();
    fresh_queue(2);
    lmt_spawn("T", 3, racer, NULL);
    lmt_run();
    lmt_expect("done");
}

/* lm_pqueue_put and lm_pqueue_get: the send and the receive of a message
 * of the queue's own size, with the same refusals (no LM_ERR_SIZE), the
 * admission of blocked senders with their priorities (R10.7) and the
 * handler rule (R12.1). */
static void own_isr(void *arg)
{
    (void)arg;
    uint8_t m[MSZ];
    uint8_t buf[MSZ + 4u];
    lmt_msg_make(m, 60);
    lmt_msg_clear(buf);
    isr_st[0] = lm_pqueue_put(&q, m, 4, 1);
    isr_st[1] = lm_pqueue_get(&q, buf, &isr_p, LM_WAIT_FOREVER);
    isr_st[2] = lm_pqueue_put(&q, m, 4, LM_NO_WAIT);
    LMT_CHECK(lmt_msg_untouched(buf));
}

static void own_receiver(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 3u; i++) {
        uint8_t buf[MSZ + 4u];
        uint8_t p = 0xAAu;
        lmt_msg_clear(buf);
        lm_status_t st = lm_pqueue_get(&q, buf, &p, LM_WAIT_FOREVER);
        lmt_log("get:%s:%u/%u", lmt_sn(st), lmt_msg_id(buf), (unsigned)p);
    }
    /* Waiting without a priority to store: a timeout, then a hand-over. */
    uint8_t buf[MSZ + 4u];
    lmt_msg_clear(buf);
    lmt_log("get:%s", lmt_sn(lm_pqueue_get(&q, buf, NULL, 2)));
    LMT_CHECK(lmt_msg_untouched(buf));
    lm_status_t st = lm_pqueue_get(&q, buf, NULL, LM_WAIT_FOREVER);
    lmt_log("get:%s:%u", lmt_sn(st), lmt_msg_id(buf));
}

static void own_late(void *arg)
{
    (void)arg;
    uint8_t m[MSZ];
    LMT_ST(lm_thread_sleep(5), LM_OK);
    lmt_msg_make(m, 24);
    LMT_ST(lm_pqueue_put(&q, m, 6, LM_NO_WAIT), LM_OK); /* to R, waiting */
}

static void own_sender(void *arg)
{
    (void)arg;
    uint8_t m[MSZ];
    lmt_msg_make(m, 21);
    LMT_ST(lm_pqueue_put(&q, m, 17, LM_NO_WAIT), LM_OK); /* fills the queue */
    lmt_msg_make(m, 22);
    lmt_log("put:%s", lmt_sn(lm_pqueue_put(&q, m, 9, LM_WAIT_FOREVER))); /* admitted */
    lmt_msg_make(m, 23);
    lmt_log("put:%s", lmt_sn(lm_pqueue_put(&q, m, 2, LM_WAIT_FOREVER)));
    LMT_EQ(lm_hosted_irq_raise(own_isr, NULL), 0);
    lmt_log("isr:%s,%s,%s", lmt_sn(isr_st[0]), lmt_sn(isr_st[1]), lmt_sn(isr_st[2]));
}

LMT_CASE(pqueue_put_get_own_size)
{
    lmt_begin();
    uint8_t m[MSZ];
    uint8_t buf[MSZ + 4u];
    uint8_t p = 0x77u;
    lmt_msg_make(m, 1);
    memset(&q, 0, sizeof q);
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_put(&q, m, 0, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_get(&q, buf, &p, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_put(NULL, m, 0, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_get(NULL, buf, &p, LM_NO_WAIT), LM_ERR_PARAM);
    fresh_queue(1);
    LMT_ST(lm_pqueue_put(&q, NULL, 0, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_put(&q, m, LM_PQUEUE_PRIO_MAX + 1u, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_put(&q, m, 0, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_get(&q, NULL, &p, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_get(&q, buf, &p, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_pqueue_get(&q, buf, &p, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(lmt_msg_untouched(buf));
    LMT_EQ(p, 0x77u);
    LMT_EQ(qcount(), 0);
    /* MSZ bytes in and out, no more (id_of checks the guard bytes). */
    LMT_ST(lm_pqueue_put(&q, m, 200, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_pqueue_put(&q, m, 0, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_pqueue_get(&q, buf, &p, LM_NO_WAIT), LM_OK);
    LMT_EQ(lmt_msg_id(buf), 1);
    LMT_EQ(p, 200);
    lmt_spawn("R", 4, own_receiver, NULL);
    lmt_spawn("S", 3, own_sender, NULL);
    lmt_spawn("L", 5, own_late, NULL);
    lmt_run();
    /* S (more urgent) fills the queue with 21 and blocks on 22; R's get
     * takes 21 and admits 22 at its priority, and S runs at once and
     * blocks on 23; the next get admits 23 the same way. The handler's
     * waiting forms are refused, its put finds the queue full. Then R
     * takes 22 and 23 in turn, times out, and is handed L's 24. */
    lmt_expect("put:OK get:OK:21/17 put:OK isr:ISR,ISR,WOULD_BLOCK get:OK:22/9 get:OK:23/2 "
               "get:TIMEOUT get:OK:24");
    LMT_EQ(qcount(), 0);
    /* A queued message, no priority to store. */
    lmt_msg_make(m, 26);
    LMT_ST(lm_pqueue_put(&q, m, 7, LM_NO_WAIT), LM_OK);
    lmt_msg_clear(buf);
    LMT_ST(lm_pqueue_get(&q, buf, NULL, LM_NO_WAIT), LM_OK);
    LMT_EQ(lmt_msg_id(buf), 26);
    LMT_ST(lm_pqueue_delete(&q), LM_OK);
    LMT_ST(lm_pqueue_put(&q, m, 0, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pqueue_get(&q, buf, &p, LM_NO_WAIT), LM_ERR_OBJECT);
}

LMT_MAIN(LMT_RUN(pqueue_bad_arguments), LMT_RUN(pqueue_delivery_order),
         LMT_RUN(pqueue_order_against_reference), LMT_RUN(pqueue_receivers_get_messages_directly),
         LMT_RUN(pqueue_blocked_senders_admitted_with_their_priority),
         LMT_RUN(pqueue_timeouts_and_handlers), LMT_RUN(pqueue_flush_admits_senders),
         LMT_RUN(pqueue_handler_between_flush_steps), LMT_RUN(pqueue_delete_wakes_receivers),
         LMT_RUN(pqueue_message_sizes), LMT_RUN(pqueue_handover_without_priority),
         LMT_RUN(pqueue_deleted_before_the_lock),
         LMT_RUN(pqueue_put_get_own_size),
         LMT_RUN(pqueue_get_between_flush_steps))
