/* SPDX-License-Identifier: Apache-2.0 */
/* Block pools: every call of limen/pool.h, exhaustion, refused frees,
 * hand-over to the most urgent waiter, timeouts, deletion and calls from
 * interrupt handlers (docs/rules.md R8, R9.1, R10.4, R10.6, R12;
 * docs/errors.md). */
#include <string.h>
#include "harness.h"

#define USER 20u                        /* bytes the user asks for */
#define BS LM_POOL_BLOCK_SIZE(USER)     /* bytes the pool uses per block */
#define NB 5u

#define NW 5
static const char *const wname[NW] = {"a", "b", "c", "d", "e"};
static const unsigned wprio[NW] = {5, 3, 5, 1, 3};
static lm_thread_t *wt[NW];
#define CTRL_PRIO 10u

static lm_pool_t pool, pool2;
static LM_POOL_BUFFER_DEFINE(pbuf, USER, NB);
static LM_POOL_BUFFER_DEFINE(pbuf2, USER, NB);
static LM_POOL_BUFFER_DEFINE(pbig, USER, NB + 1u);
static void *held[NB];
static lm_tick_t t0;
/* Sentinel a failed alloc must leave in place. */
static uint8_t sentinel_obj;
#define SENTINEL ((void *)&sentinel_obj)

static unsigned since_t0(void)
{
    return (unsigned)(lm_tick_t)(lm_tick_now() - t0);
}

static uint32_t avail(const lm_pool_t *p)
{
    uint32_t n = 0xDEADu;
    LMT_ST(lm_pool_available(p, &n), LM_OK);
    return n;
}

static void fresh_pool(void)
{
    memset(&pool, 0, sizeof pool);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, USER, NB), LM_OK);
}

/* Which of the controller's held blocks b is (NB if none). */
static unsigned held_index(const void *b)
{
    for (unsigned i = 0; i < NB; i++) {
        if (held[i] == b) {
            return i;
        }
    }
    return NB;
}

/* Take every block of the pool into held[]. */
static void alloc_all(void)
{
    for (unsigned i = 0; i < NB; i++) {
        held[i] = SENTINEL;
        LMT_ST(lm_pool_alloc(&pool, &held[i], LM_NO_WAIT), LM_OK);
    }
    LMT_EQ(avail(&pool), 0);
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

/* docs/errors.md: NULL pointers, a misaligned buffer, zero sizes, a buffer
 * too small and dead objects are refused and change nothing. */
LMT_CASE(pool_bad_arguments)
{
    lmt_begin();
    void *b = SENTINEL;
    uint32_t n = 77u;
    memset(&pool, 0, sizeof pool);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pool_free(&pool, pbuf), LM_ERR_OBJECT);
    LMT_ST(lm_pool_available(&pool, &n), LM_ERR_OBJECT);
    LMT_ST(lm_pool_delete(&pool), LM_ERR_OBJECT);
    LMT_CHECK(b == SENTINEL);
    LMT_EQ(n, 77u);

    LMT_ST(lm_pool_create(NULL, pbuf, sizeof pbuf, USER, NB), LM_ERR_PARAM);
    LMT_ST(lm_pool_create(&pool, NULL, sizeof pbuf, USER, NB), LM_ERR_PARAM);
    /* Misaligned, though the rest would still hold NB blocks. */
    LMT_ST(lm_pool_create(&pool, pbig + 1, sizeof pbig - 1u, USER, NB), LM_ERR_PARAM);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, 0, NB), LM_ERR_PARAM);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, USER, 0), LM_ERR_PARAM);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, USER, NB + 1u), LM_ERR_PARAM);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf - 1u, USER, NB), LM_ERR_PARAM);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_OBJECT);

    LMT_ST(lm_pool_alloc(NULL, &b, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(NULL, pbuf), LM_ERR_PARAM);
    LMT_ST(lm_pool_available(NULL, &n), LM_ERR_PARAM);
    LMT_ST(lm_pool_delete(NULL), LM_ERR_PARAM);

    fresh_pool();
    LMT_ST(lm_pool_alloc(&pool, NULL, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(&pool, NULL), LM_ERR_PARAM);
    LMT_ST(lm_pool_available(&pool, NULL), LM_ERR_PARAM);
    LMT_CHECK(b == SENTINEL);
    LMT_EQ(avail(&pool), NB);
    /* An exact-fit buffer is enough. */
    memset(&pool2, 0, sizeof pool2);
    LMT_ST(lm_pool_create(&pool2, pbuf2, (size_t)BS * NB, USER, NB), LM_OK);
    LMT_EQ(avail(&pool2), NB);
}

/* R10.4: alloc hands out distinct, aligned, non-overlapping blocks of the
 * pool until it is empty; then LM_NO_WAIT fails and leaves *block alone.
 * Every block comes back after the frees. */
static void exhaust_thread(void *arg)
{
    (void)arg;
    fresh_pool();
    for (unsigned i = 0; i < NB; i++) {
        held[i] = SENTINEL;
        LMT_ST(lm_pool_alloc(&pool, &held[i], LM_NO_WAIT), LM_OK);
        uintptr_t off = (uintptr_t)held[i] - (uintptr_t)pbuf;
        LMT_CHECK((uintptr_t)held[i] >= (uintptr_t)pbuf);
        LMT_CHECK(off < sizeof pbuf);
        LMT_EQ(off % BS, 0);
        LMT_EQ((uintptr_t)held[i] % sizeof(void *), 0);
        LMT_EQ(held_index(held[i]), i); /* distinct */
        memset(held[i], (int)(0xA0u + i), USER); /* the whole user size */
        LMT_EQ(avail(&pool), NB - 1u - i);
    }
    void *b = SENTINEL;
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(b == SENTINEL);
    LMT_EQ(avail(&pool), 0);
    /* No block overlaps another. */
    for (unsigned i = 0; i < NB; i++) {
        const uint8_t *p = held[i];
        for (unsigned k = 0; k < USER; k++) {
            LMT_EQ(p[k], 0xA0u + i);
        }
    }
    for (unsigned i = 0; i < NB; i++) {
        LMT_ST(lm_pool_free(&pool, held[i]), LM_OK);
        LMT_EQ(avail(&pool), i + 1u);
    }
    /* The same blocks again, in some order. */
    void *again[NB];
    for (unsigned i = 0; i < NB; i++) {
        LMT_ST(lm_pool_alloc(&pool, &again[i], LM_NO_WAIT), LM_OK);
        LMT_CHECK(held_index(again[i]) < NB);
        for (unsigned j = 0; j < i; j++) {
            LMT_CHECK(again[j] != again[i]);
        }
    }
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    lmt_log("done");
}

LMT_CASE(pool_alloc_until_empty)
{
    lmt_begin();
    lmt_spawn("T", 4, exhaust_thread, NULL);
    lmt_run();
    lmt_expect("done");
}

/* docs/errors.md, R10.4: a block from elsewhere, inside a block or past
 * the end is LM_ERR_PARAM; a block already free is LM_ERR_STATE. Each
 * changes nothing: the count stays and no waiter is woken. */
static void bad_free_waiter(void *arg)
{
    (void)arg;
    void *b = SENTINEL;
    lm_status_t st = lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER);
    lmt_log("W:%s=%u", lmt_sn(st), held_index(b));
}

static void bad_freer(void *arg)
{
    (void)arg;
    static uint8_t elsewhere[64] __attribute__((aligned(16)));
    memset(&pool2, 0, sizeof pool2);
    LMT_ST(lm_pool_create(&pool2, pbuf2, sizeof pbuf2, USER, NB), LM_OK);
    void *other = NULL;
    LMT_ST(lm_pool_alloc(&pool2, &other, LM_NO_WAIT), LM_OK);

    /* Two blocks held, three free. */
    for (unsigned i = 0; i < NB; i++) {
        held[i] = SENTINEL;
    }
    LMT_ST(lm_pool_alloc(&pool, &held[0], LM_NO_WAIT), LM_OK);
    LMT_ST(lm_pool_alloc(&pool, &held[1], LM_NO_WAIT), LM_OK);
    LMT_EQ(avail(&pool), NB - 2u);
    uint8_t *b0 = held[0];
    LMT_ST(lm_pool_free(&pool, other), LM_ERR_PARAM);   /* another pool's */
    LMT_ST(lm_pool_free(&pool, elsewhere), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(&pool, b0 + sizeof(void *)), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(&pool, b0 + 1), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(&pool, b0 + BS - 1u), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(&pool, pbuf + sizeof pbuf), LM_ERR_PARAM); /* one past */
    LMT_EQ(avail(&pool), NB - 2u);
    LMT_EQ(avail(&pool2), NB - 1u);
    /* Double free, and a free of a block never handed out. */
    LMT_ST(lm_pool_free(&pool, held[0]), LM_OK);
    LMT_EQ(avail(&pool), NB - 1u);
    LMT_ST(lm_pool_free(&pool, held[0]), LM_ERR_STATE);
    LMT_EQ(avail(&pool), NB - 1u);
    void *b = NULL, *b1 = NULL, *b2 = NULL;
    LMT_ST(lm_pool_alloc(&pool, &b1, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_pool_alloc(&pool, &b2, LM_NO_WAIT), LM_OK);
    LMT_EQ(avail(&pool), NB - 3u);
    /* Every block not handed out is free: freeing it is refused. */
    unsigned refused = 0;
    for (unsigned i = 0; i < NB; i++) {
        void *cand = pbuf + (size_t)i * BS;
        if (cand != held[1] && cand != b1 && cand != b2) {
            LMT_ST(lm_pool_free(&pool, cand), LM_ERR_STATE);
            refused++;
        }
    }
    LMT_EQ(refused, NB - 3u);
    LMT_EQ(avail(&pool), NB - 3u);
    /* The free list is intact: exactly NB-3 more allocs work. */
    void *rest[NB];
    for (unsigned i = 0; i < NB - 3u; i++) {
        LMT_ST(lm_pool_alloc(&pool, &rest[i], LM_NO_WAIT), LM_OK);
    }
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);

    /* Empty with a waiter: refused frees do not wake it. */
    LMT_ST(lm_thread_sleep(1), LM_OK); /* W blocks */
    LMT_ST(lm_pool_free(&pool, other), LM_ERR_PARAM);
    LMT_ST(lm_pool_free(&pool, b0 + 1), LM_ERR_PARAM);
    LMT_EQ(lm_thread_state(wt[0]), LM_THREAD_BLOCKED);
    LMT_EQ(avail(&pool), 0);
    held[2] = rest[0];
    lmt_log("free");
    LMT_ST(lm_pool_free(&pool, rest[0]), LM_OK);
    LMT_EQ(avail(&pool), 0);
    LMT_ST(lm_pool_free(&pool2, other), LM_OK);
    LMT_EQ(avail(&pool2), NB);
}

LMT_CASE(pool_bad_free)
{
    lmt_begin();
    fresh_pool();
    wt[0] = lmt_spawn("W", 8, bad_free_waiter, NULL);
    lmt_spawn("F", 4, bad_freer, NULL);
    lmt_run();
    lmt_expect("free W:OK=2");
}

/* R10.4, R10.6: with waiters at 5,3,5,1,3 each free goes directly to the
 * most urgent (FIFO among equals): that exact block, not the free list. */
static void alloc_forever(void *arg)
{
    (void)arg;
    void *b = SENTINEL;
    lm_status_t st = lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER);
    if (st == LM_OK) {
        lmt_log("%s:%u", lmt_me(), held_index(b));
    } else {
        LMT_CHECK(b == SENTINEL);
        lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    }
}

static void free_in_turn(void *arg)
{
    (void)arg;
    alloc_all();
    start_waiters();
    for (unsigned i = 0; i < NB; i++) {
        lmt_log("f%u", i);
        LMT_ST(lm_pool_free(&pool, held[i]), LM_OK);
        LMT_EQ(avail(&pool), 0);
    }
}

LMT_CASE(pool_free_to_most_urgent_waiter)
{
    lmt_begin();
    fresh_pool();
    make_waiters(alloc_forever);
    lmt_spawn("C", CTRL_PRIO, free_in_turn, NULL);
    lmt_run();
    lmt_expect("f0 d:0 f1 b:1 f2 e:2 f3 a:3 f4 c:4");
}

/* R10.4, R2.2: a free to a less urgent waiter hands the block over at once
 * (available stays 0) without preempting the freer. */
static void late_allocator(void *arg)
{
    (void)arg;
    void *b = SENTINEL;
    LMT_ST(lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER), LM_OK);
    lmt_log("W:%u", held_index(b));
}

static void urgent_freer(void *arg)
{
    (void)arg;
    alloc_all();
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_pool_free(&pool, held[3]), LM_OK);
    lmt_log("F:avail=%u", (unsigned)avail(&pool));
    LMT_ST(lm_pool_free(&pool, held[1]), LM_OK);
    lmt_log("F:avail=%u", (unsigned)avail(&pool));
}

LMT_CASE(pool_free_to_less_urgent_waiter)
{
    lmt_begin();
    fresh_pool();
    lmt_spawn("W", 8, late_allocator, NULL);
    lmt_spawn("F", 4, urgent_freer, NULL);
    lmt_run();
    lmt_expect("F:avail=0 F:avail=1 W:3");
}

/* R8.2, R8.3, R8.4: LM_NO_WAIT fails at once, a timeout of n ticks expires
 * at exactly the n-th tick (across the wrap) leaving *block alone, and
 * LM_WAIT_FOREVER waits for the free. A block freed after a timeout goes
 * to the pool. */
static void timed_allocator(void *arg)
{
    (void)arg;
    alloc_all();
    void *b = SENTINEL;
    lm_status_t st = lm_pool_alloc(&pool, &b, LM_NO_WAIT);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    st = lm_pool_alloc(&pool, &b, 9);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    LMT_CHECK(b == SENTINEL);
    st = lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER);
    lmt_log("A:%s=%u@%u", lmt_sn(st), held_index(b), since_t0());
    st = lm_pool_alloc(&pool, &b, 100); /* B frees at 3100, after this */
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
}

static void timed_freer(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(3000), LM_OK);
    LMT_ST(lm_pool_free(&pool, held[2]), LM_OK);
    LMT_ST(lm_thread_sleep(100), LM_OK);
    LMT_EQ(lm_thread_state(wt[0]), LM_THREAD_TERMINATED);
    LMT_ST(lm_pool_free(&pool, held[4]), LM_OK);
    lmt_log("B:avail=%u@%u", (unsigned)avail(&pool), since_t0());
}

LMT_CASE(pool_alloc_timeouts)
{
    lmt_begin_at(0xFFFFFFFEu);
    t0 = lm_tick_now();
    fresh_pool();
    wt[0] = lmt_spawn("A", 3, timed_allocator, NULL);
    lmt_spawn("B", 6, timed_freer, NULL);
    lmt_run();
    lmt_expect("A:WOULD_BLOCK@0 A:TIMEOUT@9 A:OK=2@3000 A:TIMEOUT@3100 B:avail=1@3100");
}

/* R9.1: delete marks the pool dead, then wakes its waiters with
 * LM_ERR_DELETED, most urgent first, one per step; *block is untouched. */
static void alloc_then_probe(void *arg)
{
    (void)arg;
    void *b = SENTINEL;
    lm_status_t st = lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER);
    LMT_CHECK(b == SENTINEL);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    if (lm_thread_self() == wt[3]) {
        uint32_t n = 5u;
        LMT_ST(lm_pool_free(&pool, held[0]), LM_ERR_OBJECT);
        LMT_ST(lm_pool_available(&pool, &n), LM_ERR_OBJECT);
        LMT_EQ(n, 5u);
        /* R9.1: no thread runs until the walk ends: the others are woken. */
        LMT_EQ(lm_thread_state(wt[1]), LM_THREAD_READY);
        LMT_EQ(lm_thread_state(wt[2]), LM_THREAD_READY);
    }
}

static void pool_deleter(void *arg)
{
    (void)arg;
    alloc_all();
    start_waiters();
    lmt_log("del");
    LMT_ST(lm_pool_delete(&pool), LM_OK);
    lmt_log("deleted");
    void *b = SENTINEL;
    uint32_t n = 5u;
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    LMT_ST(lm_pool_free(&pool, held[1]), LM_ERR_OBJECT);
    LMT_ST(lm_pool_available(&pool, &n), LM_ERR_OBJECT);
    LMT_ST(lm_pool_delete(&pool), LM_ERR_OBJECT);
    LMT_CHECK(b == SENTINEL);
    LMT_EQ(n, 5u);
    fresh_pool();
    LMT_EQ(avail(&pool), NB);
}

LMT_CASE(pool_delete_wakes_waiters)
{
    lmt_begin();
    fresh_pool();
    make_waiters(alloc_then_probe);
    lmt_spawn("C", CTRL_PRIO, pool_deleter, NULL);
    lmt_run();
    lmt_expect("del d:DELETED b:DELETED e:DELETED a:DELETED c:DELETED deleted");
}

#if defined(LM_PORT_HOSTED)

/* R12.1, R12.2, R10.4: from a handler, free and alloc with LM_NO_WAIT work
 * (a free goes to the waiting thread, which runs when the handler returns);
 * alloc with any other timeout returns LM_ERR_ISR and changes nothing,
 * whether or not a block is free. */
static lm_thread_t *isr_waiter;

static void pool_isr(void *arg)
{
    (void)arg;
    void *b = SENTINEL;
    LMT_ST(lm_pool_alloc(&pool, &b, 5), LM_ERR_ISR);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(b == SENTINEL);
    LMT_EQ(lm_thread_state(isr_waiter), LM_THREAD_BLOCKED);
    LMT_ST(lm_pool_free(&pool, held[0]), LM_OK); /* to H */
    LMT_EQ(lm_thread_state(isr_waiter), LM_THREAD_READY);
    LMT_EQ(avail(&pool), 0);
    LMT_ST(lm_pool_free(&pool, held[1]), LM_OK);
    LMT_EQ(avail(&pool), 1);
    LMT_ST(lm_pool_free(&pool, held[1]), LM_ERR_STATE);
    LMT_ST(lm_pool_free(&pool, (uint8_t *)held[2] + 1), LM_ERR_PARAM);
    /* A block is free, but blocking forms are refused all the same. */
    LMT_ST(lm_pool_alloc(&pool, &b, 5), LM_ERR_ISR);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_CHECK(b == SENTINEL);
    LMT_EQ(avail(&pool), 1);
    LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_OK);
    LMT_EQ(held_index(b), 1);
    LMT_EQ(avail(&pool), 0);
    LMT_ST(lm_pool_free(&pool, b), LM_OK);
    lmt_log("isr:end");
}

static void isr_alloc(void *arg)
{
    (void)arg;
    void *b = SENTINEL;
    LMT_ST(lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H:%u", held_index(b));
}

static void isr_raiser(void *arg)
{
    (void)arg;
    lmt_log("L:raise");
    LMT_EQ(lm_hosted_irq_raise(pool_isr, NULL), 0);
    lmt_log("L:after avail=%u", (unsigned)avail(&pool));
}

LMT_CASE(pool_calls_from_isr)
{
    lmt_begin();
    fresh_pool();
    alloc_all(); /* H blocks at once */
    isr_waiter = lmt_spawn("H", 2, isr_alloc, NULL);
    lmt_spawn("L", CTRL_PRIO, isr_raiser, NULL);
    lmt_run();
    lmt_expect("L:raise isr:end H:0 L:after avail=1");
}

#define HOSTED_CASES , LMT_RUN(pool_calls_from_isr)
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(pool_bad_arguments), LMT_RUN(pool_alloc_until_empty), LMT_RUN(pool_bad_free),
         LMT_RUN(pool_free_to_most_urgent_waiter), LMT_RUN(pool_free_to_less_urgent_waiter),
         LMT_RUN(pool_alloc_timeouts), LMT_RUN(pool_delete_wakes_waiters) HOSTED_CASES)
