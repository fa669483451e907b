/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Wait queues against a reference (R8.2: most urgent first, first come
 * among equals; R4.3: a waiter whose priority changes goes to the tail of
 * its new priority). Runs on every representation (tests/variants.cmake:
 * table and compact, 32 and 64 priorities).
 *
 * White-box part: the queue operations of kernel/include/waitq.h driven
 * directly on many more threads than priorities, arrivals in orders chosen
 * to be hard for a trie over the priority bits (ascending, descending,
 * bit-reversed, all at one priority, random), removals from anywhere, and
 * the whole order compared with a sorted reference after every operation.
 * Black-box part: real threads blocked on a semaphore, some leaving through
 * a timeout, an abort or a change of priority, the wake order asserted.
 */
#include <string.h>
#include "harness.h"
#include "lmk.h"

/* ---- white-box: the operations against a sorted reference ---- */

#define NT 300u

static lm_thread_t th[NT];
static struct lm_waitq wq;
static bool queued[NT];
static uint32_t seq[NT]; /* arrival stamp: order among equal priorities */
static uint32_t clock_;
static uint32_t rng = 12345u;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

/* Does a come before b (R8.2)? */
static bool before(unsigned a, unsigned b)
{
    return th[a].prio != th[b].prio ? th[a].prio < th[b].prio : seq[a] < seq[b];
}

/* The queue in wake order, as indices into th[]; the count. */
static unsigned listing(unsigned *out)
{
    unsigned n = 0;
#if LM_CFG_WAIT_QUEUE_COMPACT
    const lm_thread_t *h = wq.head;
    if (h != NULL) {
        const lm_thread_t *t = h;
        do {
            LMT_CHECK(n < NT);
            out[n++] = (unsigned)(t - th);
            t = LMK_CONTAINER_OF(t->qlink.next, lm_thread_t, qlink);
        } while (t != h);
    }
#else
    for (unsigned p = 0; p < LM_CFG_PRIORITIES; p++) {
        if (!lmk_prioset_contains(&wq.table.busy, p)) {
            continue;
        }
        const struct lm_dnode *h = wq.table.ring[p];
        const struct lm_dnode *d = h;
        do {
            LMT_CHECK(n < NT);
            out[n++] = (unsigned)(LMK_CONTAINER_OF(d, lm_thread_t, qlink) - th);
            d = d->next;
        } while (d != h);
    }
#endif
    return n;
}

/* The reference: the queued threads sorted by (priority, arrival), kept
 * sorted as they come and go. */
static unsigned ref[NT];
static unsigned nref;

/* The queue holds exactly the reference's threads in its order, and its
 * first waiter and best priority say so. O(waiters). */
static void check_order(void)
{
    static unsigned got[NT];
    unsigned ng = listing(got);
    LMT_EQ(ng, nref);
    for (unsigned k = 0; k < nref; k++) {
        LMT_EQ(got[k], ref[k]);
    }
    LMT_CHECK(lmk_waitq_empty(&wq) == (nref == 0u));
    LMT_CHECK(lmk_waitq_first(&wq) == (nref == 0u ? NULL : &th[ref[0]]));
    LMT_EQ(lmk_waitq_best_prio(&wq), nref == 0u ? LMK_PRIO_NONE : th[ref[0]].prio);
}

static void push(unsigned i, unsigned prio)
{
    LMT_CHECK(!queued[i]);
    th[i].prio = (uint16_t)prio;
    lmk_waitq_push_back(&wq, &th[i]);
    queued[i] = true;
    seq[i] = clock_++;
    unsigned k = nref++;
    while (k > 0u && before(i, ref[k - 1u])) {
        ref[k] = ref[k - 1u];
        k--;
    }
    ref[k] = i;
}

static void pull(unsigned i)
{
    LMT_CHECK(queued[i]);
    lmk_waitq_remove(&wq, &th[i]);
    queued[i] = false;
    LMT_CHECK(th[i].qlink.next == NULL && th[i].qlink.prev == NULL);
    unsigned k = 0;
    while (ref[k] != i) {
        k++;
    }
    nref--;
    memmove(&ref[k], &ref[k + 1u], (nref - k) * sizeof ref[0]);
}

/* The most urgent waiter leaves (a wake). */
static void pull_first(void)
{
    lm_thread_t *t = lmk_waitq_first(&wq);
    LMT_CHECK(t != NULL);
    pull((unsigned)(t - th));
}

static void reset_queue(void)
{
    memset(th, 0, sizeof th);
    memset(queued, 0, sizeof queued);
    clock_ = 0;
    nref = 0;
    lmk_waitq_init(&wq);
}

static unsigned bitrev(unsigned v, unsigned bits)
{
    unsigned r = 0;
    for (unsigned b = 0; b < bits; b++) {
        r = (r << 1) | ((v >> b) & 1u);
    }
    return r;
}

static unsigned prio_bits(void)
{
    unsigned b = 0;
    while ((1u << b) < (unsigned)LM_CFG_PRIORITIES) {
        b++;
    }
    return b;
}

enum arrival { ASCENDING, DESCENDING, BITREV, ONE_PRIO, RANDOM, NARRIVAL };

/* The priority of the i-th arrival of n in the given order. */
static unsigned arrival_prio(enum arrival a, unsigned i)
{
    unsigned P = LM_CFG_PRIORITIES;
    switch (a) {
    case ASCENDING:
        return i % P;
    case DESCENDING:
        return P - 1u - (i % P);
    case BITREV: {
        unsigned v = bitrev(i % (1u << prio_bits()), prio_bits());
        return v < P ? v : P - 1u;
    }
    case ONE_PRIO:
        return P / 2u;
    default:
        return rnd(P);
    }
}

/* Every waiter at every priority (several per priority), arriving in each
 * adversarial order, then drained from the front, the middle and the back
 * alternately; the order checked after each step. */
LMT_CASE(waitq_fill_and_drain_in_every_arrival_order)
{
    for (unsigned a = 0; a < NARRIVAL; a++) {
        reset_queue();
        for (unsigned i = 0; i < NT; i++) {
            push(i, arrival_prio((enum arrival)a, i));
            check_order();
        }
        for (unsigned k = 0; k < NT; k++) {
            unsigned got[NT];
            unsigned n = listing(got);
            switch (k % 3u) {
            case 0:
                pull_first();
                break;
            case 1:
                pull(got[n / 2u]); /* the middle */
                break;
            default:
                pull(got[n - 1u]); /* the last of the least urgent */
                break;
            }
            check_order();
        }
        LMT_CHECK(lmk_waitq_empty(&wq));
    }
}

/* Random arrivals, wakes, removals from anywhere (a timeout, an abort) and
 * changes of priority (out, then in at the tail of the new priority, as
 * lmk_thread_move_prio_locked does), against the reference at each step. */
LMT_CASE(waitq_random_operations_match_reference)
{
    reset_queue();
    unsigned P = LM_CFG_PRIORITIES;
    /* Few priorities in use at first (long groups, leaders changing hands),
     * then all of them. */
    for (unsigned round = 0; round < 2u; round++) {
        unsigned span = round == 0u ? (P < 3u ? P : 3u) : P;
        for (unsigned step = 0; step < 20000u; step++) {
            unsigned i = rnd(NT);
            unsigned op = rnd(10);
            if (!queued[i]) {
                push(i, rnd(span));
            } else if (op < 3u) {
                pull(i);
            } else if (op < 5u) {
                pull_first();
            } else if (op < 7u) {
                pull(i);
                push(i, rnd(span));
            }
            check_order();
        }
    }
}

/* ---- black-box: real waiters on a semaphore ---- */

#define NW 16u

static lm_sem_t sem;
static lm_thread_t *wt[NW];
static unsigned woke[NW];
static lm_status_t wstatus[NW];
static unsigned nwoke;

static void waiter(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    /* Waiters 3 and 9 give up after 5 ticks: removals from the middle. */
    lm_tick_t tmo = (i == 3u || i == 9u) ? 5u : LM_WAIT_FOREVER;
    wstatus[i] = lm_sem_take(&sem, tmo);
    if (wstatus[i] == LM_OK) {
        woke[nwoke++] = i;
    }
}

/* Arrival priorities: most urgent last, equals apart, so that every group
 * is entered out of order. */
static const uint8_t wprio[NW] = {9, 4, 9, 6, 2, 4, 7, 9, 2, 5, 6, 3, 4, 8, 2, 6};

static void controller(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < NW; i++) {
        LMT_ST(lm_thread_start(wt[i]), LM_OK);
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_BLOCKED);
    }
    /* R4.3: 7 moves from 9 to 4 and goes after 1, 5, 12; 14 from 2 to 6,
     * after 3, 10, 15; 0 from 9 to 9 is no change and keeps its place. */
    LMT_ST(lm_thread_set_priority(wt[7], 4), LM_OK);
    LMT_ST(lm_thread_set_priority(wt[14], 6), LM_OK);
    LMT_ST(lm_thread_set_priority(wt[0], 9), LM_OK);
    LMT_ST(lm_thread_wait_abort(wt[5]), LM_OK); /* out of the middle of 4 */
    LMT_ST(lm_thread_sleep(10), LM_OK);         /* 3 and 9 time out */
    for (unsigned i = 0; i < NW; i++) {
        LMT_ST(lm_sem_give(&sem), LM_OK);
    }
}

LMT_CASE(waitq_wake_order_with_timeouts_aborts_and_priority_changes)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 100), LM_OK);
    nwoke = 0;
    for (unsigned i = 0; i < NW; i++) {
        wt[i] = lmt_spawn_ex("w", wprio[i], LM_THRESHOLD_NONE, 0, waiter,
                             (void *)(uintptr_t)i, false);
    }
    lmt_spawn("C", 10, controller, NULL); /* less urgent than every waiter */
    lmt_run();
    /* 2: 4, 8 (14 left); 3: 11; 4: 1, 12, 7 (5 aborted); 5: none (9 timed
     * out); 6: 10, 15, 14 (3 timed out); 7: 6; 8: 13; 9: 0, 2. */
    static const unsigned expect[] = {4, 8, 11, 1, 12, 7, 10, 15, 14, 6, 13, 0, 2};
    LMT_EQ(nwoke, sizeof expect / sizeof expect[0]);
    for (unsigned k = 0; k < nwoke; k++) {
        LMT_EQ(woke[k], expect[k]);
    }
    LMT_ST(wstatus[3], LM_ERR_TIMEOUT);
    LMT_ST(wstatus[9], LM_ERR_TIMEOUT);
    LMT_ST(wstatus[5], LM_ERR_ABORTED);
}

LMT_MAIN(LMT_RUN(waitq_fill_and_drain_in_every_arrival_order),
         LMT_RUN(waitq_random_operations_match_reference),
         LMT_RUN(waitq_wake_order_with_timeouts_aborts_and_priority_changes))
