/* SPDX-License-Identifier: Apache-2.0 */
/* Event flags: every call of limen/flags.h, any/all/consume, waiters checked
 * in arrival order, the flags each waiter reports, sets and clears between
 * the steps of a set, timeouts, deletion and calls from interrupt handlers
 * (docs/rules.md R8, R9.1, R9.3, R10.1, R12; docs/errors.md). */
#include <string.h>
#include "harness.h"

#define NW 5
static const char *const wname[NW] = {"a", "b", "c", "d", "e"};
static const unsigned wprio[NW] = {5, 3, 5, 1, 3};
static lm_thread_t *wt[NW];
#define CTRL_PRIO 10u

static lm_flags_t fl;
static lm_tick_t t0;

/* What each waiter thread waits for (indexed like wt[]). */
struct want {
    uint32_t bits;
    unsigned options;
    lm_tick_t timeout;
};
static struct want want[NW];

static unsigned since_t0(void)
{
    return (unsigned)(lm_tick_t)(lm_tick_now() - t0);
}

static uint32_t bits_now(void)
{
    uint32_t b = 0xDEADu;
    LMT_ST(lm_flags_get(&fl, &b), LM_OK);
    return b;
}

static void fresh_flags(uint32_t initial)
{
    memset(&fl, 0, sizeof fl);
    LMT_ST(lm_flags_create(&fl, initial), LM_OK);
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

/* Wait as want[] says, once; log "name:STATUS=0xflags" ("name:STATUS" when
 * the wait failed, after checking *actual was left alone). */
static void waiter(void *arg)
{
    (void)arg;
    const struct want *w = &want[widx()];
    uint32_t actual = 0xAAAAAAAAu;
    lm_status_t st = lm_flags_wait(&fl, w->bits, w->options, &actual, w->timeout);
    if (st == LM_OK) {
        lmt_log("%s:OK=0x%x", lmt_me(), (unsigned)actual);
    } else {
        LMT_EQ(actual, 0xAAAAAAAAu);
        lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    }
}

/* Create n waiters with the given names and priorities, INACTIVE. */
static void make_waiters_n(unsigned n, const char *const *names, const unsigned *prios)
{
    for (unsigned i = 0; i < n; i++) {
        wt[i] = lmt_spawn_ex(names[i], prios[i], LM_THRESHOLD_NONE, 0, waiter, NULL, false);
    }
    for (unsigned i = n; i < NW; i++) {
        wt[i] = NULL;
    }
}

/* The controller starts them in index order: that is the arrival order. */
static void start_waiters(void)
{
    for (unsigned i = 0; i < NW && wt[i] != NULL; i++) {
        LMT_ST(lm_thread_start(wt[i]), LM_OK);
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_BLOCKED);
    }
}

static void set_want(unsigned i, uint32_t bits, unsigned options)
{
    want[i].bits = bits;
    want[i].options = options;
    want[i].timeout = LM_WAIT_FOREVER;
}

/* ---------------------------------------------------------------------- */

/* docs/errors.md: NULL pointers, no bits, unknown options, bad timeouts and
 * dead objects are refused and change nothing. */
LMT_CASE(flags_bad_arguments)
{
    lmt_begin();
    uint32_t b = 77u;
    memset(&fl, 0, sizeof fl);
    LMT_ST(lm_flags_set(&fl, 1), LM_ERR_OBJECT);
    LMT_ST(lm_flags_clear(&fl, 1), LM_ERR_OBJECT);
    LMT_ST(lm_flags_wait(&fl, 1, LM_FLAGS_ANY, &b, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_flags_get(&fl, &b), LM_ERR_OBJECT);
    LMT_ST(lm_flags_delete(&fl), LM_ERR_OBJECT);
    LMT_EQ(b, 77u);
    LMT_ST(lm_flags_create(NULL, 0), LM_ERR_PARAM);
    LMT_ST(lm_flags_set(NULL, 1), LM_ERR_PARAM);
    LMT_ST(lm_flags_clear(NULL, 1), LM_ERR_PARAM);
    LMT_ST(lm_flags_wait(NULL, 1, LM_FLAGS_ANY, &b, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_flags_get(NULL, &b), LM_ERR_PARAM);
    LMT_ST(lm_flags_delete(NULL), LM_ERR_PARAM);

    fresh_flags(0x3u);
    LMT_ST(lm_flags_get(&fl, NULL), LM_ERR_PARAM);
    LMT_ST(lm_flags_wait(&fl, 0, LM_FLAGS_ANY, &b, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_flags_wait(&fl, 0x1, 0x4u, &b, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_flags_wait(&fl, 0x1, LM_FLAGS_CONSUME | 0x80u, &b, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_flags_wait(&fl, 0x1, LM_FLAGS_CONSUME, &b, LM_TICK_MAX_TIMEOUT + 1u),
           LM_ERR_PARAM);
    LMT_EQ(b, 77u);
    LMT_EQ(bits_now(), 0x3u); /* nothing consumed by a refused wait */
    /* R11.7: blocking before lm_kernel_start. */
    LMT_ST(lm_flags_wait(&fl, 0x4, LM_FLAGS_ANY, &b, 5), LM_ERR_STATE);
    LMT_EQ(b, 77u);
}

/* R10.1: set ORs, clear masks, get reads; a wait that is already satisfied
 * returns at once with the flags before its consumption; ANY vs ALL; consume
 * clears only the requested bits. */
static void no_block_thread(void *arg)
{
    (void)arg;
    uint32_t a = 0;
    fresh_flags(0x5u);
    LMT_EQ(bits_now(), 0x5u);
    LMT_ST(lm_flags_set(&fl, 0x30u), LM_OK);
    LMT_EQ(bits_now(), 0x35u);
    LMT_ST(lm_flags_set(&fl, 0), LM_OK);
    LMT_EQ(bits_now(), 0x35u);
    LMT_ST(lm_flags_clear(&fl, 0x14u), LM_OK);
    LMT_EQ(bits_now(), 0x21u);
    LMT_ST(lm_flags_clear(&fl, 0), LM_OK);
    LMT_EQ(bits_now(), 0x21u);
    LMT_ST(lm_flags_clear(&fl, 0xFFFFFFFFu), LM_OK);
    LMT_EQ(bits_now(), 0);
    LMT_ST(lm_flags_set(&fl, 0x80000003u), LM_OK);
    LMT_EQ(bits_now(), 0x80000003u);

    a = 0xAAu;
    LMT_ST(lm_flags_wait(&fl, 0x6u, LM_FLAGS_ANY, &a, LM_NO_WAIT), LM_OK);
    LMT_EQ(a, 0x80000003u);
    a = 0xAAu;
    LMT_ST(lm_flags_wait(&fl, 0x6u, LM_FLAGS_ALL, &a, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_EQ(a, 0xAAu);
    LMT_ST(lm_flags_wait(&fl, 0x6u, LM_FLAGS_ALL | LM_FLAGS_CONSUME, &a, LM_NO_WAIT),
           LM_ERR_WOULD_BLOCK);
    LMT_EQ(bits_now(), 0x80000003u); /* a failed consuming wait takes nothing */
    LMT_ST(lm_flags_wait(&fl, 0x80000001u, LM_FLAGS_ALL, &a, LM_NO_WAIT), LM_OK);
    LMT_EQ(a, 0x80000003u);
    LMT_EQ(bits_now(), 0x80000003u);
    LMT_ST(lm_flags_wait(&fl, 0x80000001u, LM_FLAGS_ALL | LM_FLAGS_CONSUME, &a, 10), LM_OK);
    LMT_EQ(a, 0x80000003u); /* before its own consumption */
    LMT_EQ(bits_now(), 0x2u);
    LMT_ST(lm_flags_set(&fl, 0xF0u), LM_OK);
    /* ANY + consume clears all requested bits, set or not; others stay. */
    LMT_ST(lm_flags_wait(&fl, 0x1Cu | 0x100u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a, LM_NO_WAIT),
           LM_OK);
    LMT_EQ(a, 0xF2u);
    LMT_EQ(bits_now(), 0xE2u);
    /* actual may be NULL. */
    LMT_ST(lm_flags_wait(&fl, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, NULL, LM_WAIT_FOREVER),
           LM_OK);
    LMT_EQ(bits_now(), 0xE0u);
    lmt_log("done");
}

LMT_CASE(flags_set_clear_get_and_ready_waits)
{
    lmt_begin();
    lmt_spawn("T", 4, no_block_thread, NULL);
    lmt_run();
    lmt_expect("done");
}

/* R9.3, R10.1: ANY wakes on one requested bit, ALL only on all of them;
 * waiters are checked in arrival order, and a consuming waiter clears bits
 * before the next one is checked. */
static void any_all_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    lmt_log("set1");
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    lmt_log("set2");
    LMT_ST(lm_flags_set(&fl, 0x2u), LM_OK);
    lmt_log("flags=0x%x", (unsigned)bits_now());
}

LMT_CASE(flags_any_versus_all)
{
    static const char *const names[] = {"A", "B", "C"};
    static const unsigned prios[] = {3, 4, 5};
    lmt_begin();
    fresh_flags(0);
    set_want(0, 0x3u, LM_FLAGS_ALL);
    set_want(1, 0x3u, LM_FLAGS_ANY);
    set_want(2, 0x3u, LM_FLAGS_ALL | LM_FLAGS_CONSUME);
    make_waiters_n(3, names, prios);
    lmt_spawn("K", CTRL_PRIO, any_all_ctrl, NULL);
    lmt_run();
    lmt_expect("set1 B:OK=0x1 set2 A:OK=0x3 C:OK=0x3 flags=0x0");
}

/* R10.1, R9.3: arrival order, not priority: the least urgent waiter came
 * first and takes the consumed bit; the next set serves the next waiter; a
 * non-consuming waiter leaves the bit set. */
static void order_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    for (unsigned k = 0; k < 3u; k++) {
        lmt_log("set");
        LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
        lmt_log("flags=0x%x", (unsigned)bits_now());
    }
}

LMT_CASE(flags_arrival_order_and_consume)
{
    static const char *const names[] = {"W1", "W2", "W3"};
    static const unsigned prios[] = {5, 1, 3};
    lmt_begin();
    fresh_flags(0);
    set_want(0, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    set_want(1, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    set_want(2, 0x1u, LM_FLAGS_ANY);
    make_waiters_n(3, names, prios);
    lmt_spawn("K", CTRL_PRIO, order_ctrl, NULL);
    lmt_run();
    lmt_expect("set W1:OK=0x1 flags=0x0 set W2:OK=0x1 flags=0x0 set W3:OK=0x1 flags=0x1");
}

/* R10.1, R9.3: each satisfied waiter reports the flags as they were before
 * its own consumption, after earlier waiters' consumption; a later waiter
 * may find the bits it needs gone. */
static void report_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    lmt_log("set7");
    LMT_ST(lm_flags_set(&fl, 0x7u), LM_OK);
    lmt_log("flags=0x%x", (unsigned)bits_now());
    LMT_EQ(lm_thread_state(wt[2]), LM_THREAD_BLOCKED);
    lmt_log("set1");
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    lmt_log("flags=0x%x", (unsigned)bits_now());
}

LMT_CASE(flags_reported_before_own_consumption)
{
    static const char *const names[] = {"A", "B", "C", "D"};
    static const unsigned prios[] = {4, 4, 4, 4};
    lmt_begin();
    fresh_flags(0x8u);
    set_want(0, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    set_want(1, 0x2u, LM_FLAGS_ANY);
    set_want(2, 0x3u, LM_FLAGS_ALL);
    set_want(3, 0x4u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    make_waiters_n(4, names, prios);
    lmt_spawn("K", CTRL_PRIO, report_ctrl, NULL);
    lmt_run();
    /* Each woken waiter is more urgent than K and runs at once. */
    lmt_expect("set7 A:OK=0xf B:OK=0xe D:OK=0xe flags=0xa set1 C:OK=0xb flags=0xb");
}

/* R10.1: a waiter woken during a set's scan that waits again has arrived
 * after the waiters not yet checked, so they come first at the next set. */
static lm_thread_t *rewaiter;

static void rewait(void *arg)
{
    (void)arg;
    uint32_t a = 0;
    LMT_ST(lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a, LM_WAIT_FOREVER),
           LM_OK);
    lmt_log("H:OK=0x%x", (unsigned)a);
    lm_status_t st = lm_flags_wait(&fl, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a,
                                   LM_WAIT_FOREVER);
    lmt_log("H:%s=0x%x", lmt_sn(st), (unsigned)a);
}

static void rewait_ctrl(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_start(rewaiter), LM_OK);
    start_waiters();
    lmt_log("set1");
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK); /* H wakes mid-scan and waits again */
    LMT_EQ(lm_thread_state(rewaiter), LM_THREAD_BLOCKED);
    lmt_log("set2");
    LMT_ST(lm_flags_set(&fl, 0x2u), LM_OK);
    lmt_log("flags=0x%x", (unsigned)bits_now());
    LMT_EQ(lm_thread_state(rewaiter), LM_THREAD_BLOCKED);
}

LMT_CASE(flags_rewait_during_scan_keeps_arrival_order)
{
    static const char *const names[] = {"W", "X"};
    static const unsigned prios[] = {3, 6};
    lmt_begin();
    fresh_flags(0);
    rewaiter = lmt_spawn_ex("H", 1, LM_THRESHOLD_NONE, 0, rewait, NULL, false);
    set_want(0, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    set_want(1, 0x8u, LM_FLAGS_ANY);
    make_waiters_n(2, names, prios);
    lmt_spawn("K", CTRL_PRIO, rewait_ctrl, NULL);
    lmt_run();
    lmt_expect("set1 H:OK=0x1 set2 W:OK=0x2 flags=0x0");
}

/* R8.2, R8.4, R11.6: timeouts and aborts take a waiter out of the arrival
 * order without disturbing the others. */
static void leave_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    LMT_ST(lm_thread_wait_abort(wt[1]), LM_OK);
    LMT_ST(lm_thread_sleep(10), LM_OK); /* c times out at 5 */
    for (unsigned k = 0; k < 3u; k++) {
        lmt_log("set@%u", since_t0());
        LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    }
    lmt_log("flags=0x%x", (unsigned)bits_now());
}

LMT_CASE(flags_timeout_and_abort_keep_order)
{
    static const unsigned prios[] = {4, 4, 4, 4, 4};
    lmt_begin();
    t0 = lm_tick_now();
    fresh_flags(0);
    for (unsigned i = 0; i < NW; i++) {
        set_want(i, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    }
    want[2].timeout = 5;
    make_waiters_n(NW, wname, prios);
    lmt_spawn("K", CTRL_PRIO, leave_ctrl, NULL);
    lmt_run();
    lmt_expect("b:ABORTED c:TIMEOUT set@10 a:OK=0x1 set@10 d:OK=0x1 set@10 e:OK=0x1 flags=0x0");
}

/* R8.2, R8.3, R8.4: LM_NO_WAIT fails at once; a timeout of n ticks expires
 * at exactly the n-th tick (across the wrap) and leaves *actual alone;
 * LM_WAIT_FOREVER waits for the set. */
static void timed_waiter(void *arg)
{
    (void)arg;
    uint32_t a = 0xAAu;
    lm_status_t st = lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &a, LM_NO_WAIT);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    st = lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &a, 5);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    st = lm_flags_wait(&fl, 0x3u, LM_FLAGS_ALL | LM_FLAGS_CONSUME, &a, 6);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    LMT_EQ(a, 0xAAu);
    LMT_EQ(bits_now(), 0x1u);
    st = lm_flags_wait(&fl, 0x3u, LM_FLAGS_ALL | LM_FLAGS_CONSUME, &a, LM_WAIT_FOREVER);
    lmt_log("A:%s=0x%x@%u", lmt_sn(st), (unsigned)a, since_t0());
    LMT_EQ(bits_now(), 0);
}

static void timed_setter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(4000), LM_OK);
    LMT_ST(lm_flags_set(&fl, 0x2u), LM_OK);
}

LMT_CASE(flags_wait_timeouts)
{
    lmt_begin_at(0xFFFFFFFBu);
    t0 = lm_tick_now();
    fresh_flags(0);
    lmt_spawn("A", 3, timed_waiter, NULL);
    lmt_spawn("B", 6, timed_setter, NULL);
    lmt_run();
    lmt_expect("A:WOULD_BLOCK@0 A:TIMEOUT@5 A:TIMEOUT@11 A:OK=0x3@4000");
}

/* R9.1: delete marks the flags dead, then wakes the waiters with
 * LM_ERR_DELETED one per step, in arrival order (not priority order). */
static void flags_deleter(void *arg)
{
    (void)arg;
    start_waiters();
    lmt_log("del");
    LMT_ST(lm_flags_delete(&fl), LM_OK);
    lmt_log("deleted");
    uint32_t b = 5u;
    LMT_ST(lm_flags_set(&fl, 1), LM_ERR_OBJECT);
    LMT_ST(lm_flags_clear(&fl, 1), LM_ERR_OBJECT);
    LMT_ST(lm_flags_wait(&fl, 1, LM_FLAGS_ANY, &b, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_flags_wait(&fl, 1, LM_FLAGS_ANY, &b, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    LMT_ST(lm_flags_get(&fl, &b), LM_ERR_OBJECT);
    LMT_ST(lm_flags_delete(&fl), LM_ERR_OBJECT);
    LMT_EQ(b, 5u);
    fresh_flags(0x1u);
    LMT_EQ(bits_now(), 0x1u);
}

static void probe_after_delete(void *arg)
{
    uint32_t a = 0xAAAAAAAAu;
    lm_status_t st = lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &a, LM_WAIT_FOREVER);
    LMT_EQ(a, 0xAAAAAAAAu);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    if (arg != NULL) { /* the first one woken */
        uint32_t b = 5u;
        LMT_ST(lm_flags_set(&fl, 1), LM_ERR_OBJECT);
        LMT_ST(lm_flags_get(&fl, &b), LM_ERR_OBJECT);
        LMT_EQ(b, 5u);
        /* R9.1: no thread runs until the walk ends: the others are woken
         * (and the more urgent of them have already run). */
        LMT_CHECK(lm_thread_state(wt[1]) != LM_THREAD_BLOCKED);
        LMT_CHECK(lm_thread_state(wt[3]) != LM_THREAD_BLOCKED);
    }
}

LMT_CASE(flags_delete_wakes_in_arrival_order)
{
    lmt_begin();
    fresh_flags(0);
    for (unsigned i = 0; i < NW; i++) {
        wt[i] = lmt_spawn_ex(wname[i], wprio[i], LM_THRESHOLD_NONE, 0, probe_after_delete,
                             i == 0u ? (void *)&fl : NULL, false);
    }
    lmt_spawn("K", CTRL_PRIO, flags_deleter, NULL);
    lmt_run();
    /* Woken in arrival order, one per step (test_races checks each step
     * from an interrupt); they run by priority once the delete is over. */
    lmt_expect("del d:DELETED b:DELETED e:DELETED a:DELETED c:DELETED deleted");
}

/* R9.1, R10.1: a delete that comes between the steps of a set (here from
 * the waiter that set woke) still wakes the rest in arrival order: X, which
 * the scan had checked already, before B, which it had not reached. */
static void deleting_waiter(void *arg)
{
    (void)arg;
    uint32_t a = 0;
    LMT_ST(lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &a, LM_WAIT_FOREVER), LM_OK);
    lmt_log("A:del");
    LMT_ST(lm_flags_delete(&fl), LM_OK);
    lmt_log("A:deleted");
}

static void delete_scan_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    lmt_log("K:set");
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    lmt_log("K:end");
}

LMT_CASE(flags_delete_during_scan)
{
    lmt_begin();
    fresh_flags(0);
    set_want(0, 0x8u, LM_FLAGS_ANY);
    set_want(2, 0x8u, LM_FLAGS_ANY);
    /* Arrival order X, A, B (start_waiters); X and B wait for a bit never
     * set and are more urgent than A, so each runs as soon as it is woken. */
    wt[0] = lmt_spawn_ex("X", 1, LM_THRESHOLD_NONE, 0, waiter, NULL, false);
    wt[1] = lmt_spawn_ex("A", 2, LM_THRESHOLD_NONE, 0, deleting_waiter, NULL, false);
    wt[2] = lmt_spawn_ex("B", 1, LM_THRESHOLD_NONE, 0, waiter, NULL, false);
    wt[3] = wt[4] = NULL;
    lmt_spawn("K", CTRL_PRIO, delete_scan_ctrl, NULL);
    lmt_run();
    lmt_expect("K:set A:del X:DELETED B:DELETED A:deleted K:end");
}

/* R9.1, R9.3: no other thread runs during a set or a delete. K's set wakes
 * A, which runs only once the set is over (B checked and left waiting) and
 * deletes the flags; X and B, woken by the delete, run only once the delete
 * is over, and X then suspends A, which is no longer in the middle of
 * anything. (An interrupt that deletes the flags during a set: test_races.) */
static void suspending_waiter(void *arg)
{
    (void)arg;
    uint32_t a = 0;
    LMT_ST(lm_flags_wait(&fl, 0x8u, LM_FLAGS_ANY, &a, LM_WAIT_FOREVER), LM_ERR_DELETED);
    lmt_log("X:DELETED");
    LMT_ST(lm_thread_suspend(wt[1]), LM_OK); /* A, in the middle of its delete */
}

static void set_across_delete_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    lmt_log("K:set");
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    lmt_log("K:set-returned B=%s", lm_thread_state(wt[2]) == LM_THREAD_BLOCKED ? "blocked" : "woken");
    LMT_ST(lm_thread_resume(wt[1]), LM_OK);
    lmt_log("K:end");
}

LMT_CASE(flags_set_resumed_during_delete)
{
    lmt_begin();
    fresh_flags(0);
    set_want(2, 0x4u, LM_FLAGS_ANY);
    /* Arrival order X, A, B. The set of 0x1 checks X (no), wakes A, which
     * preempts K before B is checked. */
    wt[0] = lmt_spawn_ex("X", 1, LM_THRESHOLD_NONE, 0, suspending_waiter, NULL, false);
    wt[1] = lmt_spawn_ex("A", 2, LM_THRESHOLD_NONE, 0, deleting_waiter, NULL, false);
    wt[2] = lmt_spawn_ex("B", 3, LM_THRESHOLD_NONE, 0, waiter, NULL, false);
    wt[3] = wt[4] = NULL;
    lmt_spawn("K", CTRL_PRIO, set_across_delete_ctrl, NULL);
    lmt_run();
    lmt_expect("K:set A:del X:DELETED B:DELETED K:set-returned B=woken A:deleted K:end");
}

#if defined(LM_PORT_HOSTED)

/* R9.3, R10.1: a set arriving during another set's scan has every waiter
 * checked again, in arrival order: A (checked already by the first scan)
 * comes before B. */
static void set2_isr(void *arg)
{
    (void)arg;
    lmt_log("isr:set");
    LMT_ST(lm_flags_set(&fl, 0x2u), LM_OK);
}

static void scan_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    /* unmask 1: the OR step; unmask 2: A checked (not satisfied). */
    LMT_EQ(lm_hosted_irq_at_unmask(2, set2_isr, NULL), 0);
    LMT_ST(lm_flags_set(&fl, 0x4u), LM_OK);
    lmt_log("K:set flags=0x%x", (unsigned)bits_now());
    LMT_EQ(lm_thread_state(wt[1]), LM_THREAD_BLOCKED);
}

LMT_CASE(flags_set_during_scan)
{
    static const char *const names[] = {"A", "B", "C"};
    static const unsigned prios[] = {5, 4, 3};
    lmt_begin();
    fresh_flags(0);
    set_want(0, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    set_want(1, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME);
    set_want(2, 0x4u, LM_FLAGS_ANY);
    make_waiters_n(3, names, prios);
    lmt_spawn("K", CTRL_PRIO, scan_ctrl, NULL);
    lmt_run();
    lmt_expect("isr:set C:OK=0x4 A:OK=0x6 K:set flags=0x4");
}

/* R9.3: a clear between the steps of a set affects the waiters not yet
 * checked. */
static void clear_isr(void *arg)
{
    (void)arg;
    lmt_log("isr:clear");
    LMT_ST(lm_flags_clear(&fl, 0x1u), LM_OK);
}

static void clear_ctrl(void *arg)
{
    (void)arg;
    start_waiters();
    LMT_EQ(lm_hosted_irq_at_unmask(2, clear_isr, NULL), 0); /* after A's check */
    LMT_ST(lm_flags_set(&fl, 0x1u), LM_OK);
    lmt_log("K:set flags=0x%x", (unsigned)bits_now());
    LMT_EQ(lm_thread_state(wt[1]), LM_THREAD_BLOCKED);
}

LMT_CASE(flags_clear_during_scan)
{
    static const char *const names[] = {"A", "B"};
    static const unsigned prios[] = {5, 4};
    lmt_begin();
    fresh_flags(0);
    set_want(0, 0x1u, LM_FLAGS_ANY);
    set_want(1, 0x1u, LM_FLAGS_ANY);
    make_waiters_n(2, names, prios);
    lmt_spawn("K", CTRL_PRIO, clear_ctrl, NULL);
    lmt_run();
    lmt_expect("isr:clear A:OK=0x1 K:set flags=0x0");
}

/* R12.1, R12.2: from a handler, set, clear, get and wait with LM_NO_WAIT
 * work; a wait with any other timeout returns LM_ERR_ISR and changes
 * nothing, even when the flags would satisfy it. The waiter the handler's
 * set wakes runs when the handler returns. */
static lm_thread_t *isr_waiter;

static void flags_isr(void *arg)
{
    (void)arg;
    uint32_t a = 0xAAu;
    LMT_ST(lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &a, 5), LM_ERR_ISR);
    LMT_ST(lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &a, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_flags_set(&fl, 0x3u), LM_OK); /* H consumes 0x1 */
    LMT_EQ(lm_thread_state(isr_waiter), LM_THREAD_READY);
    LMT_EQ(bits_now(), 0x2u);
    LMT_ST(lm_flags_wait(&fl, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a, 5), LM_ERR_ISR);
    LMT_ST(lm_flags_wait(&fl, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a, LM_WAIT_FOREVER),
           LM_ERR_ISR);
    LMT_EQ(a, 0xAAu);
    LMT_EQ(bits_now(), 0x2u);
    LMT_ST(lm_flags_wait(&fl, 0x2u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a, LM_NO_WAIT), LM_OK);
    LMT_EQ(a, 0x2u);
    LMT_EQ(bits_now(), 0);
    LMT_ST(lm_flags_set(&fl, 0x30u), LM_OK);
    LMT_ST(lm_flags_clear(&fl, 0x10u), LM_OK);
    lmt_log("isr:end");
}

static void isr_wait(void *arg)
{
    (void)arg;
    uint32_t a = 0;
    LMT_ST(lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &a, LM_WAIT_FOREVER),
           LM_OK);
    lmt_log("H:OK=0x%x", (unsigned)a);
}

static void isr_raiser(void *arg)
{
    (void)arg;
    lmt_log("L:raise");
    LMT_EQ(lm_hosted_irq_raise(flags_isr, NULL), 0);
    lmt_log("L:after flags=0x%x", (unsigned)bits_now());
}

LMT_CASE(flags_calls_from_isr)
{
    lmt_begin();
    fresh_flags(0);
    isr_waiter = lmt_spawn("H", 2, isr_wait, NULL);
    lmt_spawn("L", CTRL_PRIO, isr_raiser, NULL);
    lmt_run();
    lmt_expect("L:raise isr:end H:OK=0x3 L:after flags=0x20");
}

#define HOSTED_CASES                                                        \
    , LMT_RUN(flags_set_during_scan), LMT_RUN(flags_clear_during_scan),     \
        LMT_RUN(flags_calls_from_isr)
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(flags_bad_arguments), LMT_RUN(flags_set_clear_get_and_ready_waits),
         LMT_RUN(flags_any_versus_all), LMT_RUN(flags_arrival_order_and_consume),
         LMT_RUN(flags_reported_before_own_consumption),
         LMT_RUN(flags_rewait_during_scan_keeps_arrival_order),
         LMT_RUN(flags_timeout_and_abort_keep_order), LMT_RUN(flags_wait_timeouts),
         LMT_RUN(flags_delete_wakes_in_arrival_order), LMT_RUN(flags_delete_during_scan),
         LMT_RUN(flags_set_resumed_during_delete) HOSTED_CASES)
