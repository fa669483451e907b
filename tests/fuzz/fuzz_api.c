/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target: the public API driven by arbitrary bytes on the hosted
 * port (tests/fuzz/README.md).
 *
 * Every input is one fresh simulation: lmt_begin(), four worker threads and
 * one object of each kind configured from the first HDR_BYTES bytes, then
 * the rest of the input split in four equal streams, one per worker. A
 * worker reads its stream as operations (opcode byte, operand bytes) and
 * calls the API with them, bad arguments included. Some operations queue
 * simulated interrupts (lm_hosted_irq_at_unmask) or start a timer whose
 * callback runs one non-blocking operation in interrupt context.
 *
 * Every run is bounded: a worker's position in its stream survives a
 * restart (terminate + start replays nothing), operations and interrupts
 * have a budget per run, and a watchdog thread at priority 0 ends the
 * simulation with lm_hosted_stop() after a bounded stretch of virtual time.
 *
 * Checked for every input (a violation aborts, which libFuzzer reports):
 * every status is one the call documents; no call that cannot wait reports
 * a wait outcome; a successful mutex lock makes the caller the owner;
 * received messages and flags results are consistent; after the run,
 * semaphore count <= max, queue count <= capacity, pool blocks are
 * conserved and never handed out twice, a mutex owner is a live worker,
 * depth 0 iff free, a thread owning no mutex has its base priority, and a
 * worker still blocked on an object is blocked on the same incarnation of
 * it, alive or with its delete still under way (no waiter left behind by a
 * delete, R9.1).
 * Plus whatever AddressSanitizer, UBSan and the kernel's own asserts catch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "limen/port.h"

#define WORKERS 4
#define HDR_BYTES 16
#define OPS_BUDGET 2000u
#define IRQ_BUDGET 48u
#define TRACK 8

/* ---- failure reporting ---- */

static void fuzz_fail(int line, const char *what, long long detail)
{
    fprintf(stderr, "fuzz_api.c:%d: invariant violated: %s (%lld)\n", line, what, detail);
    fflush(stderr);
    abort();
}
#define FZ_CHECK(cond, detail) \
    do { if (!(cond)) { fuzz_fail(__LINE__, #cond, (long long)(detail)); } } while (0)

/* ---- status sets ---- */

#define B(st) (1u << (unsigned)(-(int)(st)))
#define WAIT_OUTCOMES (B(LM_ERR_TIMEOUT) | B(LM_ERR_DELETED) | B(LM_ERR_ABORTED))
#define BADARG (B(LM_ERR_PARAM) | B(LM_ERR_OBJECT))
#define S_BLOCKING (B(LM_OK) | B(LM_ERR_WOULD_BLOCK) | WAIT_OUTCOMES | BADARG | \
                    B(LM_ERR_ISR) | B(LM_ERR_LOCKED))

static bool status_in(lm_status_t st, uint32_t set)
{
    int v = (int)st;
    if (v > 0 || v < -17 || v == -8 || v == -9) {
        return false; /* not a member of lm_status_t at all */
    }
    return (set & B(st)) != 0u;
}

static bool fz_timeout_valid(lm_tick_t t)
{
    return t <= LM_TICK_MAX_TIMEOUT || t == LM_WAIT_FOREVER;
}

/* A call with a timeout: the documented set, and no wait outcome unless it
 * was allowed to wait (thread context, timeout != LM_NO_WAIT). */
static void check_wait_status(int line, lm_status_t st, uint32_t set, lm_tick_t timeout)
{
    if (!status_in(st, set)) {
        fuzz_fail(line, "undocumented status", (long long)st);
    }
    if ((timeout == LM_NO_WAIT || lm_port_in_isr()) && (B(st) & WAIT_OUTCOMES) != 0u) {
        fuzz_fail(line, "wait outcome without a wait", (long long)st);
    }
    if (lm_port_in_isr() && timeout != LM_NO_WAIT && fz_timeout_valid(timeout) &&
        (st == LM_OK || st == LM_ERR_WOULD_BLOCK)) {
        /* R12.1: a blocking form from a handler is refused whatever the state
         * (only bad arguments take precedence). */
        fuzz_fail(line, "blocking form accepted in an interrupt", (long long)st);
    }
}
#define ST(st, set) \
    do { if (!status_in((st), (set))) { fuzz_fail(__LINE__, "undocumented status", (long long)(st)); } } while (0)
#define WST(st, set, to) check_wait_status(__LINE__, (st), (set), (to))

/* ---- the objects of one run ---- */

enum obj_state { OBJ_LIVE, OBJ_DELETING, OBJ_DEAD };
enum obj_kind { K_SEM, K_MUTEX0, K_MUTEX1, K_QUEUE, K_FLAGS, K_POOL, K_TIMER, K_COUNT };

#define MSG_WORDS 2u
#define QUEUE_CAP_MAX 4u
#define POOL_BLOCK 16u
#define POOL_MAX 4u

static struct run {
    lm_thread_t *w[WORKERS];
    lm_thread_t *watchdog;
    lm_sem_t sem;
    lm_mutex_t mutex[2];
    lm_queue_t queue;
    lm_flags_t flags;
    lm_pool_t pool;
    lm_timer_t timer;
    uint8_t state[K_COUNT];
    uint32_t gen[K_COUNT];       /* creations of each object so far */
    int waits_on[WORKERS];       /* kind a worker is in a blocking call on, or -1 */
    uint32_t waits_gen[WORKERS]; /* that object's generation at the call */
    uint32_t mutex_deletes[2];
    /* creation parameters, reused when an object is created again */
    uint32_t sem_initial, sem_max;
    unsigned mutex_opt[2];
    size_t queue_cap;
    size_t pool_count;
    uint32_t flags_initial;
    /* input streams */
    const uint8_t *stream[WORKERS];
    size_t stream_len[WORKERS];
    size_t pos[WORKERS];
    unsigned ops;
    unsigned irqs;
    uint32_t msg_seq;
    uint16_t timer_op; /* what the timer callback does */
    /* pool blocks held: per worker and one set for interrupt context */
    void *blk[WORKERS + 1][TRACK];
    uint32_t blk_gen[WORKERS + 1][TRACK];
    uint32_t pool_gen;
    lm_tick_t wake[WORKERS + 1]; /* each context's grid of lm_thread_sleep_until */
} R;

static lm_sem_t never_sem; /* zero: never created, LM_ERR_OBJECT */
static lm_thread_t never_thread;
static lm_mutex_t never_mutex;
static LM_QUEUE_BUFFER_DEFINE(queue_buf, MSG_WORDS * 4u, QUEUE_CAP_MAX);
static LM_POOL_BUFFER_DEFINE(pool_buf, POOL_BLOCK, POOL_MAX);


/* ---- operand decoding ---- */

struct rd {
    const uint8_t *p;
    size_t n;
    size_t *pos;
};

static uint8_t next(struct rd *r)
{
    if (*r->pos >= r->n) {
        return 0;
    }
    return r->p[(*r->pos)++];
}

static lm_tick_t dec_timeout(uint8_t b)
{
    static const lm_tick_t tab[8] = {LM_NO_WAIT, 1, 2, 3, 7, 20, LM_WAIT_FOREVER,
                                     LM_TICK_MAX_TIMEOUT + 1u};
    return tab[b % 8u];
}

static lm_thread_t *dec_thread(uint8_t b)
{
    unsigned i = b % 6u;
    if (i < WORKERS) {
        return R.w[i];
    }
    return i == WORKERS ? NULL : &never_thread;
}

static unsigned dec_prio(uint8_t b)
{
    static const unsigned tab[10] = {0, 1, 2, 3, 4, 5, 6, 7, LM_CFG_PRIORITIES - 1u,
                                     LM_CFG_PRIORITIES};
    return tab[b % 10u];
}

static lm_mutex_t *dec_mutex(uint8_t b)
{
    unsigned i = b % 4u;
    if (i < 2u) {
        return &R.mutex[i];
    }
    return i == 2u ? NULL : &never_mutex;
}

static int ctx_index(void)
{
    if (lm_port_in_isr()) {
        return WORKERS;
    }
    lm_thread_t *self = lm_thread_self();
    for (int i = 0; i < WORKERS; i++) {
        if (R.w[i] == self) {
            return i;
        }
    }
    return WORKERS;
}

/* ---- pool block bookkeeping ---- */

static void block_keep(void *b, uint32_t gen)
{
    FZ_CHECK(b != NULL, 0);
    uintptr_t off = (uintptr_t)b - (uintptr_t)pool_buf;
    FZ_CHECK((uintptr_t)b >= (uintptr_t)pool_buf && off < sizeof pool_buf, off);
    FZ_CHECK(off % R.pool.block_size == 0u, off);
    if (gen != R.pool_gen) {
        return; /* the pool was created again meanwhile: the block is stale */
    }
    memset(b, 0xA5, R.pool.block_size); /* ours now: the kernel must not care */
    int c = ctx_index();
    for (unsigned i = 0; i < TRACK; i++) {
        if (R.blk[c][i] == NULL) {
            R.blk[c][i] = b;
            R.blk_gen[c][i] = gen;
            return;
        }
    }
    ST(lm_pool_free(&R.pool, b), B(LM_OK)); /* nowhere to keep it */
}

static void *block_take(uint8_t sel)
{
    int c = ctx_index();
    unsigned i = sel % TRACK;
    void *b = R.blk[c][i];
    if (b != NULL && R.blk_gen[c][i] != R.pool_gen) {
        b = NULL; /* from an earlier incarnation: freeing it is misuse */
    }
    R.blk[c][i] = NULL;
    return b;
}

/* ---- one operation (thread or interrupt context) ---- */

enum {
    OP_SEM_TAKE, OP_SEM_GIVE, OP_MTX_LOCK, OP_MTX_UNLOCK, OP_Q_SEND, OP_Q_RECV,
    OP_Q_PEEK, OP_FLAGS_SET, OP_FLAGS_CLEAR, OP_FLAGS_WAIT, OP_POOL_ALLOC,
    OP_POOL_FREE, OP_TIMER_START, OP_TIMER_STOP, OP_SET_PRIO, OP_SET_THRESH,
    OP_SUSPEND, OP_RESUME, OP_YIELD, OP_SLEEP, OP_WORK, OP_ABORT, OP_TERMINATE,
    OP_START, OP_DELETE, OP_CREATE, OP_IRQ, OP_SCHED_LOCK, OP_SCHED_UNLOCK,
    OP_THREAD_DELETE, OP_BAD, OP_COUNT
};

static void irq_handler(void *arg);

static void obj_delete(unsigned kind)
{
    lm_status_t st;
    uint8_t prev = R.state[kind];
    if (prev == OBJ_LIVE) {
        R.state[kind] = OBJ_DELETING;
    }
    switch (kind) {
    case K_SEM: st = lm_sem_delete(&R.sem); break;
    case K_MUTEX0:
    case K_MUTEX1:
        R.mutex_deletes[kind - K_MUTEX0]++;
        st = lm_mutex_delete(&R.mutex[kind - K_MUTEX0]);
        break;
    case K_QUEUE: st = lm_queue_delete(&R.queue); break;
    case K_FLAGS: st = lm_flags_delete(&R.flags); break;
    case K_POOL: st = lm_pool_delete(&R.pool); break;
    default: st = lm_timer_delete(&R.timer); break;
    }
    ST(st, B(LM_OK) | BADARG);
    /* LM_OK exactly when it was live (a second delete finds no magic). */
    FZ_CHECK((st == LM_OK) == (prev == OBJ_LIVE), st);
    if (prev == OBJ_LIVE) {
        R.state[kind] = OBJ_DEAD;
    }
}

static void timer_fn(void *arg);

static void obj_create(unsigned kind, uint8_t b)
{
    if (R.state[kind] != OBJ_DEAD || lm_port_in_isr()) {
        return; /* creating a live object again is misuse, not a test */
    }
    lm_status_t st;
    switch (kind) {
    case K_SEM: st = lm_sem_create(&R.sem, R.sem_initial, R.sem_max); break;
    case K_MUTEX0:
    case K_MUTEX1:
        /* an unknown option is refused and changes nothing */
        st = lm_mutex_create(&R.mutex[kind - K_MUTEX0], (b & 1u) ? 0x4u : R.mutex_opt[kind - K_MUTEX0]);
        if (b & 1u) {
            FZ_CHECK(st == LM_ERR_PARAM, st);
            return;
        }
        break;
    case K_QUEUE: st = lm_queue_create(&R.queue, queue_buf, MSG_WORDS * 4u, R.queue_cap); break;
    case K_FLAGS: st = lm_flags_create(&R.flags, R.flags_initial); break;
    case K_POOL:
        R.pool_gen++;
        st = lm_pool_create(&R.pool, pool_buf, sizeof pool_buf, POOL_BLOCK, R.pool_count);
        break;
    default: st = lm_timer_create(&R.timer, timer_fn, NULL); break;
    }
    FZ_CHECK(st == LM_OK, st);
    R.state[kind] = OBJ_LIVE;
    R.gen[kind]++;
}

/* A worker enters (kind >= 0) or leaves (-1) a call that may block on an
 * object; check_after_run asks whether a blocked worker's object is still
 * the one it blocked on. Handlers never block: not tracked. */
static void waiting_on(int kind)
{
    for (int i = 0; i < WORKERS; i++) {
        if (R.w[i] == lm_thread_self() && !lm_port_in_isr()) {
            R.waits_on[i] = kind;
            R.waits_gen[i] = kind >= 0 ? R.gen[kind] : 0u;
        }
    }
}

static void do_op(unsigned op, struct rd *r)
{
    bool isr = lm_port_in_isr();
    lm_status_t st;
    switch (op) {
    case OP_SEM_TAKE: {
        uint8_t b = next(r);
        lm_tick_t to = dec_timeout(b);
        waiting_on(K_SEM);
        st = lm_sem_take((b & 0x80u) ? &never_sem : &R.sem, to);
        waiting_on(-1);
        WST(st, S_BLOCKING, to);
        if (b & 0x80u) { /* the arguments are checked before the object */
            FZ_CHECK(st == (fz_timeout_valid(to) ? LM_ERR_OBJECT : LM_ERR_PARAM), st);
        }
        break;
    }
    case OP_SEM_GIVE:
        st = lm_sem_give(&R.sem);
        ST(st, B(LM_OK) | B(LM_ERR_OVERFLOW) | BADARG);
        break;
    case OP_MTX_LOCK: {
        uint8_t b = next(r);
        lm_mutex_t *m = dec_mutex(b);
        lm_tick_t to = dec_timeout((uint8_t)(b >> 2));
        unsigned mi = m == &R.mutex[1] ? 1u : 0u;
        uint32_t dels = R.mutex_deletes[mi];
        waiting_on((int)(K_MUTEX0 + mi));
        st = lm_mutex_lock(m, to);
        waiting_on(-1);
        WST(st, S_BLOCKING | B(LM_ERR_ABANDONED) | B(LM_ERR_DEADLOCK) | B(LM_ERR_OVERFLOW) |
                    B(LM_ERR_STATE), to);
        bool real = m == &R.mutex[0] || m == &R.mutex[1];
        if (isr && real && R.state[K_MUTEX0 + mi] == OBJ_LIVE && fz_timeout_valid(to)) {
            FZ_CHECK(st == LM_ERR_ISR, st); /* mutexes are for threads only */
        }
        if (st == LM_OK || st == LM_ERR_ABANDONED) {
            FZ_CHECK(real, st);
        }
        if ((st == LM_OK || st == LM_ERR_ABANDONED) && dels == R.mutex_deletes[mi]) {
            FZ_CHECK(lm_mutex_owner(m) == lm_thread_self(), st);
            FZ_CHECK(m->depth >= 1u, m->depth);
        }
        break;
    }
    case OP_MTX_UNLOCK:
        st = lm_mutex_unlock(dec_mutex(next(r)));
        ST(st, B(LM_OK) | B(LM_ERR_NOT_OWNER) | BADARG | B(LM_ERR_ISR));
        break;
    case OP_Q_SEND: {
        uint8_t b = next(r);
        lm_tick_t to = dec_timeout(b);
        uint32_t msg[MSG_WORDS + 1u];
        msg[0] = ++R.msg_seq;
        msg[1] = ~msg[0];
        msg[2] = 0;
        size_t size = (b & 0x40u) ? MSG_WORDS * 4u + 4u : MSG_WORDS * 4u;
        waiting_on(K_QUEUE);
        if (b & 0x80u) {
            st = lm_queue_send_front(&R.queue, msg, size, to);
        } else {
            st = lm_queue_send(&R.queue, msg, size, to);
        }
        waiting_on(-1);
        WST(st, S_BLOCKING | B(LM_ERR_SIZE), to);
        if ((b & 0x40u) && R.state[K_QUEUE] == OBJ_LIVE && fz_timeout_valid(to)) {
            FZ_CHECK(st == LM_ERR_SIZE || st == LM_ERR_OBJECT, st);
        }
        break;
    }
    case OP_Q_RECV:
    case OP_Q_PEEK: {
        uint8_t b = next(r);
        lm_tick_t to = dec_timeout(b);
        uint32_t msg[MSG_WORDS] = {0xDEADu, 0xDEADu};
        if (op == OP_Q_RECV) {
            waiting_on(K_QUEUE);
            st = lm_queue_receive(&R.queue, msg, sizeof msg, to);
            waiting_on(-1);
            WST(st, S_BLOCKING | B(LM_ERR_SIZE), to);
        } else if (b & 0x80u) {
            st = lm_queue_flush(&R.queue);
            ST(st, B(LM_OK) | BADARG);
            break;
        } else {
            st = lm_queue_peek(&R.queue, msg, sizeof msg);
            ST(st, B(LM_OK) | B(LM_ERR_WOULD_BLOCK) | BADARG);
        }
        if (st == LM_OK) {
            FZ_CHECK(msg[1] == ~msg[0] && msg[0] != 0u && msg[0] <= R.msg_seq, msg[0]);
        }
        break;
    }
    case OP_FLAGS_SET:
        st = lm_flags_set(&R.flags, (uint32_t)next(r) & 0x0Fu);
        ST(st, B(LM_OK) | BADARG);
        break;
    case OP_FLAGS_CLEAR:
        st = lm_flags_clear(&R.flags, (uint32_t)next(r) & 0x0Fu);
        ST(st, B(LM_OK) | BADARG);
        break;
    case OP_FLAGS_WAIT: {
        uint8_t b = next(r);
        uint8_t c = next(r);
        uint32_t bits = b & 0x0Fu;
        unsigned opt = (b >> 4) & 0x7u; /* 4 is an unknown option */
        lm_tick_t to = dec_timeout(c);
        uint32_t actual = 0xFFFF0000u;
        waiting_on(K_FLAGS);
        st = lm_flags_wait(&R.flags, bits, opt, (c & 0x80u) ? NULL : &actual, to);
        waiting_on(-1);
        WST(st, S_BLOCKING, to);
        if (st == LM_OK && (c & 0x80u) == 0u) {
            if (opt & LM_FLAGS_ALL) {
                FZ_CHECK((actual & bits) == bits, actual);
            } else {
                FZ_CHECK((actual & bits) != 0u, actual);
            }
        }
        if (bits == 0u && R.state[K_FLAGS] == OBJ_LIVE) {
            FZ_CHECK(st == LM_ERR_PARAM, st);
        }
        break;
    }
    case OP_POOL_ALLOC: {
        uint8_t b = next(r);
        lm_tick_t to = dec_timeout(b);
        void *blk = NULL;
        uint32_t gen = R.pool_gen;
        waiting_on(K_POOL);
        st = lm_pool_alloc(&R.pool, (b & 0x80u) ? NULL : &blk, to);
        waiting_on(-1);
        WST(st, S_BLOCKING, to);
        if (st == LM_OK) {
            block_keep(blk, gen);
        }
        break;
    }
    case OP_POOL_FREE: {
        uint8_t b = next(r);
        void *blk;
        switch (b >> 5) {
        case 0: blk = NULL; break;
        case 1: blk = pool_buf + 1; break;                   /* misaligned */
        case 2: blk = pool_buf + sizeof pool_buf; break;     /* past the end */
        case 3: blk = pool_buf; break;                       /* maybe a double free */
        default: blk = block_take(b); break;
        }
        if (blk == pool_buf) {
            /* Only a deliberate double free if nobody holds block 0. */
            for (int c = 0; c <= WORKERS; c++) {
                for (unsigned i = 0; i < TRACK; i++) {
                    if (R.blk[c][i] == pool_buf) {
                        blk = NULL;
                    }
                }
            }
            if (blk != NULL) {
                uint32_t before = 0;
                bool live = lm_pool_available(&R.pool, &before) == LM_OK;
                st = lm_pool_free(&R.pool, blk);
                /* Block 0 is free or held by a thread between alloc and
                 * bookkeeping; then the kernel may take it back. */
                ST(st, B(LM_OK) | B(LM_ERR_STATE) | BADARG);
                (void)live;
                break;
            }
        }
        if (b >> 5 >= 4u && blk == NULL) {
            break; /* nothing held in that slot */
        }
        st = lm_pool_free(&R.pool, blk);
        ST(st, B(LM_OK) | B(LM_ERR_STATE) | BADARG);
        if (b >> 5 == 1u || b >> 5 == 2u) {
            FZ_CHECK(st == LM_ERR_PARAM || st == LM_ERR_OBJECT, st);
        }
        break;
    }
    case OP_TIMER_START: {
        uint8_t b = next(r);
        uint8_t c = next(r);
        lm_tick_t delay = (b & 0x80u) ? 0u : (lm_tick_t)(1u + (b & 0x0Fu));
        lm_tick_t period = (b & 0x40u) ? (lm_tick_t)(2u + ((b >> 4) & 0x3u) * 3u) : 0u;
        R.timer_op = (uint16_t)(c | ((uint16_t)next(r) << 8));
        st = lm_timer_start(&R.timer, delay, period);
        ST(st, B(LM_OK) | BADARG);
        if (delay == 0u && R.state[K_TIMER] == OBJ_LIVE) {
            FZ_CHECK(st == LM_ERR_PARAM, st);
        }
        break;
    }
    case OP_TIMER_STOP:
        st = lm_timer_stop(&R.timer);
        ST(st, B(LM_OK) | B(LM_ERR_STATE) | BADARG);
        break;
    case OP_SET_PRIO: {
        lm_thread_t *t = dec_thread(next(r));
        unsigned p = dec_prio(next(r));
        st = lm_thread_set_priority(t, p);
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_PRIORITY) | B(LM_ERR_STATE));
        if (p >= LM_CFG_PRIORITIES && t != NULL && t != &never_thread) {
            FZ_CHECK(st == LM_ERR_PRIORITY || st == LM_ERR_OBJECT, st);
        }
        break;
    }
    case OP_SET_THRESH: {
        lm_thread_t *t = dec_thread(next(r));
        uint8_t b = next(r);
        unsigned th = (b & 0x80u) ? LM_THRESHOLD_NONE : dec_prio(b);
        st = lm_thread_set_threshold(t, th);
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_PRIORITY) | B(LM_ERR_STATE));
        break;
    }
    case OP_SUSPEND:
        st = lm_thread_suspend(dec_thread(next(r)));
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_STATE) | B(LM_ERR_LOCKED));
        break;
    case OP_RESUME:
        st = lm_thread_resume(dec_thread(next(r)));
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_STATE));
        break;
    case OP_YIELD:
        st = lm_thread_yield();
        ST(st, B(LM_OK) | B(LM_ERR_ISR) | B(LM_ERR_LOCKED));
        FZ_CHECK(isr == (st == LM_ERR_ISR), st);
        break;
    case OP_SLEEP: {
        uint8_t how = next(r);
        lm_tick_t to = dec_timeout(next(r));
        if ((how & 1u) == 0u) {
            st = lm_thread_sleep(to);
            ST(st, B(LM_OK) | B(LM_ERR_ISR) | B(LM_ERR_LOCKED) | B(LM_ERR_PARAM) |
                       B(LM_ERR_ABORTED));
            if (isr && fz_timeout_valid(to)) {
                FZ_CHECK(st == LM_ERR_ISR, st);
            }
            break;
        }
        /* The periodic sleep (R8.6), a period of `to` on this context's
         * grid. A refusal leaves the grid where it was; anything else moves
         * it on by exactly one period, whether the deadline was ahead, now
         * or past. */
        lm_tick_t *wake = &R.wake[ctx_index()];
        lm_tick_t wake0 = *wake;
        st = lm_thread_sleep_until(wake, to);
        ST(st, B(LM_OK) | B(LM_ERR_TIMEOUT) | B(LM_ERR_ISR) | B(LM_ERR_LOCKED) |
                   B(LM_ERR_PARAM) | B(LM_ERR_ABORTED));
        bool period_ok = to != 0u && to <= LM_TICK_MAX_TIMEOUT;
        if (isr && period_ok) {
            FZ_CHECK(st == LM_ERR_ISR, st);
        }
        if (st == LM_ERR_ISR || st == LM_ERR_LOCKED || st == LM_ERR_PARAM) {
            FZ_CHECK(*wake == wake0, *wake);
        } else {
            FZ_CHECK(*wake == wake0 + to, *wake);
        }
        break;
    }
    case OP_WORK: {
        uint8_t n = next(r) % 6u;
        if (!isr) {
            lm_hosted_work(n);
        }
        break;
    }
    case OP_ABORT:
        st = lm_thread_wait_abort(dec_thread(next(r)));
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_STATE));
        break;
    case OP_TERMINATE:
        st = lm_thread_terminate(dec_thread(next(r)));
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_STATE) | B(LM_ERR_LOCKED) | B(LM_ERR_ISR));
        break;
    case OP_START:
        st = lm_thread_start(dec_thread(next(r)));
        ST(st, B(LM_OK) | BADARG | B(LM_ERR_STATE));
        break;
    case OP_DELETE: {
        uint8_t b = next(r);
        if (b % 4u == 0u) { /* deletes are rarer than the other operations */
            obj_delete((b >> 2) % K_COUNT);
        }
        break;
    }
    case OP_CREATE: {
        uint8_t b = next(r);
        obj_create(b % K_COUNT, (uint8_t)(b >> 3));
        break;
    }
    case OP_IRQ: {
        uint8_t n = next(r);
        uint8_t a = next(r);
        uint8_t c = next(r);
        if (R.irqs < IRQ_BUDGET) {
            R.irqs++;
            uintptr_t arg = (uintptr_t)a | ((uintptr_t)c << 8);
            (void)lm_hosted_irq_at_unmask(1u + n % 12u, irq_handler, (void *)arg);
        }
        break;
    }
    case OP_SCHED_LOCK:
        st = lm_sched_lock();
        ST(st, B(LM_OK) | B(LM_ERR_ISR) | B(LM_ERR_OVERFLOW));
        FZ_CHECK(isr == (st == LM_ERR_ISR), st);
        break;
    case OP_SCHED_UNLOCK:
        st = lm_sched_unlock();
        ST(st, B(LM_OK) | B(LM_ERR_ISR) | B(LM_ERR_STATE));
        FZ_CHECK(isr == (st == LM_ERR_ISR), st);
        break;
    case OP_THREAD_DELETE: {
        uint8_t b = next(r);
        if (b % 8u == 0u) {
            st = lm_thread_delete(dec_thread((uint8_t)(b >> 3)));
            ST(st, B(LM_OK) | BADARG | B(LM_ERR_STATE) | B(LM_ERR_LOCKED) | B(LM_ERR_ISR));
        }
        break;
    }
    default: { /* bad arguments: NULL and never-created objects */
        uint8_t b = next(r);
        switch (b % 8u) {
        case 0: st = lm_sem_give(NULL); break;
        case 1: st = lm_sem_give(&never_sem); break;
        case 2: st = lm_queue_send(NULL, &b, 1, 0); break;
        case 3: st = lm_flags_wait(NULL, 1, 0, NULL, 0); break;
        case 4: st = lm_pool_alloc(NULL, NULL, 0); break;
        case 5: st = lm_timer_start(NULL, 1, 0); break;
        case 6: st = lm_thread_resume(&never_thread); break;
        default: st = lm_mutex_unlock(NULL); break;
        }
        FZ_CHECK(st == LM_ERR_PARAM || st == LM_ERR_OBJECT, st);
        break;
    }
    }
}

/* Interrupt and timer context: one operation from two bytes. */
static void isr_op(uintptr_t arg)
{
    uint8_t bytes[2] = {(uint8_t)(arg >> 8), (uint8_t)(arg >> 16)};
    size_t pos = 0;
    struct rd r = {bytes, sizeof bytes, &pos};
    FZ_CHECK(lm_port_in_isr(), 0);
    do_op((unsigned)(arg & 0xFFu) % OP_COUNT, &r);
}

static void irq_handler(void *arg)
{
    uintptr_t a = (uintptr_t)arg;
    /* opcode in the low byte, one operand byte; second operand 0 */
    isr_op((a & 0xFFu) | ((a >> 8) << 8));
}

static void timer_fn(void *arg)
{
    (void)arg;
    isr_op((uintptr_t)R.timer_op | ((uintptr_t)R.timer_op << 16));
}

/* ---- threads ---- */

static void worker(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    struct rd r = {R.stream[i], R.stream_len[i], &R.pos[i]};
    R.waits_on[i] = -1; /* a restart after terminate left no call behind */
    while (R.pos[i] < R.stream_len[i] && R.ops < OPS_BUDGET) {
        R.ops++;
        do_op(next(&r) % OP_COUNT, &r);
    }
}

static void watchdog(void *arg)
{
    lm_tick_t ticks = (lm_tick_t)(uintptr_t)arg;
    (void)lm_thread_sleep(ticks);
    lm_hosted_stop();
}

/* ---- checks after the run ---- */

static bool live_worker(const lm_thread_t *t)
{
    for (int i = 0; i < WORKERS; i++) {
        if (t == R.w[i]) {
            lm_thread_state_t s = lm_thread_state(t);
            return s != LM_THREAD_INACTIVE && s != LM_THREAD_TERMINATED;
        }
    }
    return false;
}

static void check_after_run(void)
{
    uint32_t n;
    if (R.state[K_SEM] == OBJ_LIVE) {
        FZ_CHECK(lm_sem_count(&R.sem, &n) == LM_OK, 0);
        FZ_CHECK(n <= R.sem.max && R.sem.max == R.sem_max, n);
    }
    if (R.state[K_QUEUE] == OBJ_LIVE) {
        FZ_CHECK(lm_queue_count(&R.queue, &n) == LM_OK, 0);
        FZ_CHECK(n <= R.queue_cap, n);
    }
    for (unsigned m = 0; m < 2u; m++) {
        if (R.state[K_MUTEX0 + m] != OBJ_LIVE) {
            continue;
        }
        lm_thread_t *o = lm_mutex_owner(&R.mutex[m]);
        FZ_CHECK(o == NULL || live_worker(o), m);
        FZ_CHECK((o == NULL) == (R.mutex[m].depth == 0u), R.mutex[m].depth);
    }
    if (R.state[K_POOL] == OBJ_LIVE) {
        FZ_CHECK(lm_pool_available(&R.pool, &n) == LM_OK, 0);
        FZ_CHECK(n <= R.pool_count, n);
        uint32_t held = 0;
        for (int c = 0; c <= WORKERS; c++) {
            for (unsigned i = 0; i < TRACK; i++) {
                void *b = R.blk[c][i];
                if (b == NULL || R.blk_gen[c][i] != R.pool_gen) {
                    continue;
                }
                held++;
                /* never handed out twice */
                for (int c2 = 0; c2 <= WORKERS; c2++) {
                    for (unsigned j = 0; j < TRACK; j++) {
                        if ((c2 != c || j != i) && R.blk_gen[c2][j] == R.pool_gen) {
                            FZ_CHECK(R.blk[c2][j] != b, i);
                        }
                    }
                }
            }
        }
        FZ_CHECK(held + n <= R.pool_count, held);
    }
    for (int i = 0; i < WORKERS; i++) {
        lm_thread_t *t = R.w[i];
        lm_thread_state_t s = lm_thread_state(t);
        if (s == LM_THREAD_INACTIVE || (unsigned)s > LM_THREAD_TERMINATED) {
            FZ_CHECK((unsigned)s <= LM_THREAD_TERMINATED, s);
            continue;
        }
        /* R9.1: a delete that has returned has woken every waiter, so a
         * worker still blocked on an object must be blocked on the same
         * incarnation of it, alive or with its delete still under way. */
        int k = R.waits_on[i];
        if (s == LM_THREAD_BLOCKED && k >= 0) {
            FZ_CHECK(R.state[k] != OBJ_DEAD && R.gen[k] == R.waits_gen[i], k);
        }
        unsigned eff = lm_thread_priority(t);
        unsigned base = lm_thread_base_priority(t);
        FZ_CHECK(eff <= base && base < LM_CFG_PRIORITIES, eff);
        FZ_CHECK(lm_thread_threshold(t) <= base, lm_thread_threshold(t));
        bool owns_inheriting = false;
        for (unsigned m = 0; m < 2u; m++) {
            if (R.state[K_MUTEX0 + m] != OBJ_DEAD && R.mutex[m].owner == t &&
                (R.mutex[m].options & LM_MUTEX_INHERIT) != 0u) {
                owns_inheriting = true;
            }
        }
        if (!owns_inheriting) {
            /* R5: nothing to inherit from, so the base priority applies */
            FZ_CHECK(eff == base, (long long)eff * 100 + base);
        }
    }
}

/* ---- the fuzz target ---- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Debug aid: keep the input being run, for crashes that corrupt the
     * process too badly for libFuzzer to write its crash file. */
    static const char *last_path;
    static bool last_checked;
    if (!last_checked) {
        last_checked = true;
        last_path = getenv("LIMEN_FUZZ_LAST");
    }
    if (last_path != NULL) {
        FILE *f = fopen(last_path, "wb");
        if (f != NULL) {
            (void)fwrite(data, 1, size, f);
            (void)fclose(f);
        }
    }
    uint8_t h[HDR_BYTES] = {0};
    memcpy(h, data, size < HDR_BYTES ? size : HDR_BYTES);
    const uint8_t *body = size > HDR_BYTES ? data + HDR_BYTES : data + size;
    size_t blen = size > HDR_BYTES ? size - HDR_BYTES : 0u;

    memset(&R, 0, sizeof R);
    memset(&never_sem, 0, sizeof never_sem);
    memset(&never_thread, 0, sizeof never_thread);
    memset(&never_mutex, 0, sizeof never_mutex);
    lmt_begin_at((h[15] & 1u) ? 0xFFFFFF80u : 0u); /* sometimes across the wrap */

    R.sem_max = 1u + (h[12] >> 4) % 4u;
    R.sem_initial = (h[12] & 0x0Fu) % (R.sem_max + 1u);
    R.mutex_opt[0] = (h[13] & 1u) ? 0u : LM_MUTEX_INHERIT;
    R.mutex_opt[1] = (h[13] & 2u) ? LM_MUTEX_INHERIT : 0u;
    R.queue_cap = 1u + (size_t)((h[13] >> 2) % QUEUE_CAP_MAX);
    R.pool_count = 1u + (size_t)(h[14] % POOL_MAX);
    R.flags_initial = (uint32_t)(h[14] >> 4);
    for (unsigned k = 0; k < K_COUNT; k++) {
        R.state[k] = OBJ_DEAD;
        obj_create(k, 0);
    }

    size_t chunk = blen / WORKERS;
    for (unsigned i = 0; i < WORKERS; i++) {
        R.stream[i] = body + chunk * i;
        R.stream_len[i] = (i + 1u == WORKERS) ? blen - chunk * i : chunk;
    }
    static const char *const names[WORKERS] = {"T0", "T1", "T2", "T3"};
    for (unsigned i = 0; i < WORKERS; i++) {
        unsigned prio = h[i] % 8u;
        unsigned th = (h[4 + i] & 0x80u) ? LM_THRESHOLD_NONE : (h[4 + i] % 8u);
        if (th != LM_THRESHOLD_NONE && th > prio) {
            th = prio;
        }
        lm_tick_t slice = (lm_tick_t)(h[8 + i] % 4u);
        /* Start a worker later (by another) when its header byte says so. */
        bool start = (h[8 + i] & 0x80u) == 0u || i == 0u;
        R.w[i] = lmt_spawn_ex(names[i], prio, th, slice, worker, (void *)(uintptr_t)i, start);
    }
    lm_tick_t limit = 100u + (lm_tick_t)(h[15] >> 1) * 8u;
    R.watchdog = lmt_spawn_ex("W", 0, LM_THRESHOLD_NONE, 0, watchdog,
                              (void *)(uintptr_t)limit, true);
    lmt_run();
    check_after_run();
    return 0;
}
