/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Timeouts (docs/rules.md R8, R9.4): exact expiry ticks, sleep, LM_NO_WAIT /
 * LM_WAIT_FOREVER, the range check, the order of timeouts due on one tick,
 * timeouts far beyond the wheel, tick wrap-around, and a give racing a
 * timeout on the same tick.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

static lm_sem_t sem;

/* Far timeouts: 100000 ticks on the host; on a board every tick is real
 * (virtual) time under a 20 s watchdog, so the far cases are shorter. */
#if defined(LM_PORT_HOSTED)
#define FAR 100000u
#define BIG_REV 1000u
#else
#define FAR 1500u
#define BIG_REV 12u
#endif

/* "OK", "TIMEOUT", ...: short status names keep the traces readable. */
static void fresh_sem(uint32_t initial)
{
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, initial, 10), LM_OK);
}

static uint32_t sem_count(void)
{
    uint32_t c = 0;
    LMT_ST(lm_sem_count(&sem, &c), LM_OK);
    return c;
}

static uint32_t switches(void)
{
    lm_kernel_stats_t st;
    lm_kernel_stats(&st);
    return st.context_switches;
}

/* Timeouts that straddle every interesting wheel boundary. */
static const lm_tick_t spans[] = {1, 2, 3, LM_CFG_TIMER_WHEEL_SLOTS - 1, LM_CFG_TIMER_WHEEL_SLOTS,
                                  LM_CFG_TIMER_WHEEL_SLOTS + 1, 2 * LM_CFG_TIMER_WHEEL_SLOTS, 200};
#define NSPANS (sizeof spans / sizeof spans[0])

static lm_thread_t *waiter;

static void observe_blocked(void *arg)
{
    (void)arg;
    lmt_log("O:%d", (int)lm_thread_state(waiter));
}

static void take_each_span(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < NSPANS; i++) {
        lm_tick_t t0 = lm_tick_now();
        lm_status_t st = lm_sem_take(&sem, spans[i]);
        lmt_log("%u:%s:+%u", (unsigned)spans[i], lmt_sn(st), (unsigned)(lm_tick_now() - t0));
    }
}

static void expect_spans(const char *first, const char *what)
{
    char buf[512];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s", first);
    for (unsigned i = 0; i < NSPANS; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%u:%s:+%u", len != 0u ? " " : "",
                                (unsigned)spans[i], what, (unsigned)spans[i]);
    }
    lmt_expect(buf);
}

/* R8.2, R8.4: a timeout of n ticks expires exactly at the n-th tick, the
 * call returns LM_ERR_TIMEOUT and the waiter has left the wait queue (a
 * later give goes to the count). The waiter is BLOCKED meanwhile. */
LMT_CASE(timeout_expires_on_nth_tick)
{
    lmt_begin();
    fresh_sem(0);
    waiter = lmt_spawn("W", 5, take_each_span, NULL);
    lmt_spawn("O", 6, observe_blocked, NULL);
    lmt_run();
    char first[16];
    snprintf(first, sizeof first, "O:%d", (int)LM_THREAD_BLOCKED);
    expect_spans(first, "TIMEOUT");
    LMT_EQ(lm_tick_now(), 6 + 5 * LM_CFG_TIMER_WHEEL_SLOTS + 200); /* sum of spans */
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_EQ(sem_count(), 1);
}

static void sleep_each_span(void *arg)
{
    (void)arg;
    lm_tick_t t0 = lm_tick_now();
    uint32_t sw0 = switches();
    LMT_ST(lm_thread_sleep(0), LM_OK); /* returns at once, no switch */
    LMT_EQ(switches(), sw0);
    LMT_EQ(lm_tick_now(), t0);
    for (unsigned i = 0; i < NSPANS; i++) {
        t0 = lm_tick_now();
        lm_status_t st = lm_thread_sleep(spans[i]);
        lmt_log("%u:%s:+%u", (unsigned)spans[i], lmt_sn(st), (unsigned)(lm_tick_now() - t0));
    }
}

/* R8.2, R8.4: sleep(n) ends at the n-th tick with LM_OK; the sleeper is
 * SLEEPING meanwhile; sleep(0) neither blocks nor switches. */
LMT_CASE(sleep_lasts_n_ticks)
{
    lmt_begin();
    waiter = lmt_spawn("W", 5, sleep_each_span, NULL);
    lmt_spawn("O", 6, observe_blocked, NULL);
    lmt_run();
    char first[16];
    snprintf(first, sizeof first, "O:%d", (int)LM_THREAD_SLEEPING);
    expect_spans(first, "OK");
}

static void nowait_forever_taker(void *arg)
{
    (void)arg;
    uint32_t sw0 = switches();
    lm_tick_t t0 = lm_tick_now();
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_EQ(switches(), sw0);
    LMT_EQ(lm_tick_now(), t0);
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("W:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
    st = lm_sem_take(&sem, LM_WAIT_FOREVER); /* nobody gives again */
    lmt_log("W:never:%s", lmt_sn(st));
}

static void give_after_far(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(FAR), LM_OK);
    lmt_log("G@%u", (unsigned)lm_tick_now());
    LMT_ST(lm_sem_give(&sem), LM_OK);
}

/* R8.3: LM_NO_WAIT never blocks; LM_WAIT_FOREVER never expires, even while
 * while another timeout runs through the wheel for FAR ticks. */
LMT_CASE(no_wait_and_wait_forever)
{
    lmt_begin();
    fresh_sem(0);
    lm_thread_t *w = lmt_spawn("W", 2, nowait_forever_taker, NULL);
    lmt_spawn("G", 3, give_after_far, NULL);
    lmt_run();
    char buf[64];
    snprintf(buf, sizeof buf, "G@%u W:OK@%u", FAR, FAR);
    lmt_expect(buf);
    LMT_EQ(lm_thread_state(w), LM_THREAD_BLOCKED);
    LMT_EQ(lm_tick_now(), FAR);
    LMT_EQ(lm_tick_next_deadline(), LM_WAIT_FOREVER);
}

static lm_thread_t *sleeper;

static void range_checker(void *arg)
{
    (void)arg;
    uint32_t sw0 = switches();
    lm_tick_t t0 = lm_tick_now();
    /* Out of range: refused with the count untouched although it is 1. */
    LMT_ST(lm_sem_take(&sem, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_sem_take(&sem, 0xFFFFFFFEu), LM_ERR_PARAM);
    LMT_EQ(sem_count(), 1);
    LMT_ST(lm_thread_sleep(LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_thread_sleep(0xFFFFFFFEu), LM_ERR_PARAM);
    LMT_EQ(switches(), sw0);
    LMT_EQ(lm_tick_now(), t0);
    /* The largest finite timeout is legal. */
    LMT_ST(lm_sem_take(&sem, LM_TICK_MAX_TIMEOUT), LM_OK);
    lm_status_t st = lm_sem_take(&sem, LM_TICK_MAX_TIMEOUT);
    lmt_log("W:take:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
    st = lm_thread_sleep(LM_TICK_MAX_TIMEOUT);
    lmt_log("W:sleep:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
}

static void range_helper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(5), LM_OK);
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_ST(lm_thread_sleep(7), LM_OK);
    LMT_ST(lm_thread_wait_abort(sleeper), LM_OK);
}

/* R8.3, docs/errors.md: a finite timeout above 2^31-1 is LM_ERR_PARAM and
 * changes nothing; 2^31-1 itself is accepted and does not expire early. */
LMT_CASE(timeout_range)
{
    lmt_begin();
    fresh_sem(1);
    sleeper = lmt_spawn("W", 2, range_checker, NULL);
    lmt_spawn("H", 3, range_helper, NULL);
    lmt_run();
    lmt_expect("W:take:OK@5 W:sleep:ABORTED@12");
    LMT_EQ(lm_tick_next_deadline(), LM_WAIT_FOREVER);
}

/* A thread that first sleeps `pre` ticks, then arms a timeout of `span`
 * ticks (sem wait, or sleep when `sleep` is set), so arming order differs
 * from creation order and from priority order. */
struct armer {
    const char *name;
    lm_tick_t pre;
    lm_tick_t span;
    bool sleep;
};

static void arm_late(void *arg)
{
    const struct armer *a = arg;
    if (a->pre != 0u) {
        LMT_ST(lm_thread_sleep(a->pre), LM_OK);
    }
    lm_status_t st = a->sleep ? lm_thread_sleep(a->span) : lm_sem_take(&sem, a->span);
    lmt_log("%s:%s@%u", a->name, lmt_sn(st), (unsigned)lm_tick_now());
}

/* R8.5, R2.2: five timeouts due on tick 20, armed in the order b a m c h.
 * The woken threads run by priority (h, m), and the three of priority 4
 * in the order their timeouts were armed (b a c), not in creation order. */
LMT_CASE(same_tick_arming_order)
{
    static const struct armer as[] = {
        {"a", 5, 15, false}, {"b", 0, 20, false}, {"c", 12, 8, true},
        {"h", 15, 5, false}, {"m", 10, 10, true},
    };
    lmt_begin();
    fresh_sem(0);
    lmt_spawn("a", 4, arm_late, (void *)&as[0]);
    lmt_spawn("b", 4, arm_late, (void *)&as[1]);
    lmt_spawn("c", 4, arm_late, (void *)&as[2]);
    lmt_spawn("h", 2, arm_late, (void *)&as[3]);
    lmt_spawn("m", 3, arm_late, (void *)&as[4]);
    lmt_run();
    lmt_expect("h:TIMEOUT@20 m:OK@20 b:TIMEOUT@20 a:TIMEOUT@20 c:OK@20");
}

/* R8.5, R2.2: three threads of one priority, created x y z but started
 * z y x, all arm a 9-tick timeout on tick 0 in the order they run (z y x):
 * they wake and run in that arming order, not in creation order. */
LMT_CASE(same_tick_arming_order_equal_priority)
{
    static const struct armer as[] = {
        {"x", 0, 9, false}, {"y", 0, 9, true}, {"z", 0, 9, false},
    };
    lmt_begin();
    fresh_sem(0);
    lm_thread_t *x = lmt_spawn_ex("x", 4, LM_THRESHOLD_NONE, 0, arm_late, (void *)&as[0], false);
    lm_thread_t *y = lmt_spawn_ex("y", 4, LM_THRESHOLD_NONE, 0, arm_late, (void *)&as[1], false);
    lm_thread_t *z = lmt_spawn_ex("z", 4, LM_THRESHOLD_NONE, 0, arm_late, (void *)&as[2], false);
    LMT_ST(lm_thread_start(z), LM_OK);
    LMT_ST(lm_thread_start(y), LM_OK);
    LMT_ST(lm_thread_start(x), LM_OK);
    lmt_run();
    lmt_expect("z:TIMEOUT@9 y:OK@9 x:TIMEOUT@9");
}

#if LM_CFG_TIMER
static lm_timer_t tm_a, tm_b;
static lm_thread_t *watched;

static void log_watched_state(void *arg)
{
    lmt_log("%s:%s", (const char *)arg,
            lm_thread_state(watched) == LM_THREAD_BLOCKED ? "blocked" : "woken");
}

static void arm_timer_b(void *arg)
{
    (void)arg;
    LMT_ST(lm_timer_start(&tm_b, 10, 0), LM_OK);
    lmt_log("Y");
}

/* R8.5, R9.4: timeouts due on one tick are processed one by one in arming
 * order: timer A (armed before X's wait) still sees X blocked, timer B
 * (armed after) sees X already woken; X runs after both steps. */
LMT_CASE(same_tick_processing_order)
{
    lmt_begin();
    fresh_sem(0);
    memset(&tm_a, 0, sizeof tm_a);
    memset(&tm_b, 0, sizeof tm_b);
    LMT_ST(lm_timer_create(&tm_a, log_watched_state, "A"), LM_OK);
    LMT_ST(lm_timer_create(&tm_b, log_watched_state, "B"), LM_OK);
    LMT_ST(lm_timer_start(&tm_a, 10, 0), LM_OK);
    static const struct armer ax = {"X", 0, 10, false};
    watched = lmt_spawn("X", 4, arm_late, (void *)&ax);
    lmt_spawn("Y", 5, arm_timer_b, NULL);
    lmt_run();
    lmt_expect("Y A:blocked B:woken X:TIMEOUT@10");
}

static lm_timer_t tm_c;

static void rearm_into_slot(void *arg)
{
    (void)arg;
    /* Due one revolution later: the same slot the wheel is visiting now. */
    LMT_ST(lm_timer_start(&tm_b, LM_CFG_TIMER_WHEEL_SLOTS, 0), LM_OK);
    lmt_log("A@%u", (unsigned)lm_tick_now());
}

static void log_tick(void *arg)
{
    lmt_log("%s@%u", (const char *)arg, (unsigned)lm_tick_now());
}

/* R8.5 across revolutions: C is armed at tick 0 for tick 5+SLOTS; timer A
 * fires at tick 5, in C's slot, and arms B for the same tick 5+SLOTS. C was
 * armed first, so it must be processed first, although the wheel visited
 * (and set aside) C while A's callback armed B. */
LMT_CASE(arming_order_kept_across_revolutions)
{
    lmt_begin();
    memset(&tm_a, 0, sizeof tm_a);
    memset(&tm_b, 0, sizeof tm_b);
    memset(&tm_c, 0, sizeof tm_c);
    LMT_ST(lm_timer_create(&tm_a, rearm_into_slot, NULL), LM_OK);
    LMT_ST(lm_timer_create(&tm_b, log_tick, "B"), LM_OK);
    LMT_ST(lm_timer_create(&tm_c, log_tick, "C"), LM_OK);
    LMT_ST(lm_timer_start(&tm_a, 5, 0), LM_OK);
    LMT_ST(lm_timer_start(&tm_c, 5 + LM_CFG_TIMER_WHEEL_SLOTS, 0), LM_OK);
    lmt_run();
    char buf[64];
    snprintf(buf, sizeof buf, "A@5 C@%u B@%u", 5u + LM_CFG_TIMER_WHEEL_SLOTS,
             5u + LM_CFG_TIMER_WHEEL_SLOTS);
    lmt_expect(buf);
}
#endif

/* Deadlines all in one wheel slot, at different revolutions. */
#define SLOT_REVS 6
static const lm_tick_t revs[SLOT_REVS] = {5, 10, 2, 1, 0, BIG_REV};

struct far {
    lm_tick_t span;
    bool sleep;
};

static void far_waiter(void *arg)
{
    const struct far *f = arg;
    lm_tick_t t0 = lm_tick_now();
    lm_status_t st = f->sleep ? lm_thread_sleep(f->span) : lm_sem_take(&sem, f->span);
    lmt_log("%u:%s:+%u", (unsigned)f->span, lmt_sn(st), (unsigned)(lm_tick_now() - t0));
}

/* R8.2 for timeouts far beyond LM_CFG_TIMER_WHEEL_SLOTS: 1000 and FAR
 * (100000 on the host) ticks are exact; six timeouts in one slot, armed in
 * mixed order of revolution (0 .. BIG_REV), each expire at their own
 * revolution, never at an earlier visit of the slot. Equal deadlines
 * (1000 as sleep and as sem wait) expire in arming order (R8.5). */
LMT_CASE(far_timeouts_exact)
{
    static struct far fs[SLOT_REVS + 3];
    lmt_begin();
    fresh_sem(0);
    for (unsigned i = 0; i < SLOT_REVS; i++) {
        fs[i].span = 7u + revs[i] * LM_CFG_TIMER_WHEEL_SLOTS;
        fs[i].sleep = (i % 2u) == 0u;
        lmt_spawn("S", 4, far_waiter, &fs[i]);
    }
    fs[SLOT_REVS] = (struct far){1000, true};
    fs[SLOT_REVS + 1] = (struct far){FAR, false};
    fs[SLOT_REVS + 2] = (struct far){1000, false};
    for (unsigned i = SLOT_REVS; i < SLOT_REVS + 3u; i++) {
        lmt_spawn("F", 4, far_waiter, &fs[i]);
    }
    lmt_run();
    /* Expected: sorted by expiry; equal expiries in arming order. */
    struct { lm_tick_t t; const char *s; } ev[SLOT_REVS + 3];
    for (unsigned i = 0; i < SLOT_REVS + 3u; i++) {
        ev[i].t = fs[i].span;
        ev[i].s = fs[i].sleep ? "OK" : "TIMEOUT";
    }
    for (unsigned i = 1; i < SLOT_REVS + 3u; i++) { /* stable insertion sort */
        for (unsigned j = i; j > 0u && ev[j - 1u].t > ev[j].t; j--) {
            __typeof__(ev[0]) tmp = ev[j];
            ev[j] = ev[j - 1u];
            ev[j - 1u] = tmp;
        }
    }
    char buf[512];
    size_t len = 0;
    for (unsigned i = 0; i < SLOT_REVS + 3u; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%u:%s:+%u", i != 0u ? " " : "",
                                (unsigned)ev[i].t, ev[i].s, (unsigned)ev[i].t);
    }
    lmt_expect(buf);
    LMT_EQ(lm_tick_now(), ev[SLOT_REVS + 2].t);
}

struct wrap_arm {
    const char *name;
    lm_tick_t pre;
    lm_tick_t span;
};

static void wrap_waiter(void *arg)
{
    const struct wrap_arm *w = arg;
    if (w->pre != 0u) {
        LMT_ST(lm_thread_sleep(w->pre), LM_OK);
    }
    lm_tick_t t0 = lm_tick_now();
    lm_status_t st = lm_sem_take(&sem, w->span);
    lmt_log("%s:%s@%08x+%u", w->name, lmt_sn(st), (unsigned)lm_tick_now(),
            (unsigned)(lm_tick_now() - t0));
}

static void wrap_giver(void *arg)
{
    (void)arg;
    /* Must not look expired at once across the wrap: wait, then give. */
    LMT_ST(lm_thread_sleep(50), LM_OK);
    LMT_ST(lm_sem_give(&sem), LM_OK);
}

static void run_wrap(lm_tick_t origin)
{
    static const struct wrap_arm ws[] = {
        {"a", 0, 15},  {"b", 0, 16},   {"c", 0, 17},  {"d", 15, 1},
        {"e", 0, 100}, {"f", 0, 1000}, {"g", 3, FAR},
    };
    lmt_begin_at(origin);
    fresh_sem(0);
    for (unsigned i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        lmt_spawn(ws[i].name, 4, wrap_waiter, (void *)&ws[i]);
    }
    /* More urgent waiter with the largest timeout: must get the give. */
    static const struct wrap_arm big = {"M", 0, LM_TICK_MAX_TIMEOUT};
    lmt_spawn("M", 2, wrap_waiter, (void *)&big);
    lmt_spawn("G", 5, wrap_giver, NULL);
    lmt_run();
    char buf[512];
    lm_tick_t o = origin;
    snprintf(buf, sizeof buf,
             "a:TIMEOUT@%08x+15 b:TIMEOUT@%08x+16 d:TIMEOUT@%08x+1 c:TIMEOUT@%08x+17 "
             "M:OK@%08x+50 e:TIMEOUT@%08x+100 f:TIMEOUT@%08x+1000 g:TIMEOUT@%08x+%u",
             (unsigned)(o + 15u), (unsigned)(o + 16u), (unsigned)(o + 16u), (unsigned)(o + 17u),
             (unsigned)(o + 50u), (unsigned)(o + 100u), (unsigned)(o + 1000u),
             (unsigned)(o + FAR + 3u), FAR);
    lmt_expect(buf);
}

/* R8.3: ticks wrap at 2^32 and every comparison is wrap-safe: deadlines
 * before, on and after the wrap (and across the signed boundary 2^31) are
 * exact; a timeout armed just before the wrap for 1 tick expires on it;
 * the largest timeout near the wrap does not expire early. */
LMT_CASE(deadlines_exact_across_wrap)
{
    run_wrap(0xFFFFFFF0u);
    run_wrap(0x7FFFFFF0u);
    run_wrap(0xFFFFFFFFu);
}

#if defined(LM_PORT_HOSTED)
static void give_isr(void *arg)
{
    (void)arg;
    lmt_log("give@%u:%s", (unsigned)lm_tick_now(), lmt_sn(lm_sem_give(&sem)));
}

static void take10(void *arg)
{
    lm_status_t st = lm_sem_take(&sem, 10);
    lmt_log("%s:%s@%u", (const char *)arg, lmt_sn(st), (unsigned)lm_tick_now());
}

static void take_forever(void *arg)
{
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("%s:%s@%u", (const char *)arg, lmt_sn(st), (unsigned)lm_tick_now());
}

/* R8.1: an interrupt gives on the very tick the timeout falls due, before
 * the deferred expiry work runs: the give wins, the waiter gets LM_OK and
 * the count stays 0. */
LMT_CASE(give_before_timeout_on_same_tick)
{
    lmt_begin();
    fresh_sem(0);
    lmt_spawn("W", 2, take10, "W");
    LMT_CHECK(lm_hosted_irq_at_tick(10, give_isr, NULL) == 0);
    lmt_run();
    lmt_expect("give@10:OK W:OK@10");
    LMT_EQ(sem_count(), 0);
}

static void work_then_give(void *arg)
{
    (void)arg;
    lm_hosted_work(10); /* the tick-10 expiry runs before this returns */
    lmt_log("G:give@%u", (unsigned)lm_tick_now());
    lmt_log("G:%s", lmt_sn(lm_sem_give(&sem)));
}

/* R8.1, R8.4: the timeout is processed first (at the tick, before the
 * giving thread continues): W times out, and the give on that same tick
 * goes to the next waiter W2 ... */
LMT_CASE(timeout_before_give_goes_to_next_waiter)
{
    lmt_begin();
    fresh_sem(0);
    lmt_spawn("W", 1, take10, "W");
    lmt_spawn("W2", 2, take_forever, "W2");
    lmt_spawn("G", 3, work_then_give, NULL);
    lmt_run();
    lmt_expect("W:TIMEOUT@10 G:give@10 W2:OK@10 G:OK");
    LMT_EQ(sem_count(), 0);
}

/* ... or, with no other waiter, to the count: never lost. */
LMT_CASE(timeout_before_give_goes_to_count)
{
    lmt_begin();
    fresh_sem(0);
    lmt_spawn("W", 1, take10, "W");
    lmt_spawn("G", 3, work_then_give, NULL);
    lmt_run();
    lmt_expect("W:TIMEOUT@10 G:give@10 G:OK");
    LMT_EQ(sem_count(), 1);
}

static uint64_t sweep_k;
static lm_status_t sweep_w, sweep_w2;
static int sweep_gives;

static void sweep_give_isr(void *arg)
{
    (void)arg;
    LMT_EQ(lm_tick_now(), 10); /* the give lands on the timeout's tick */
    LMT_ST(lm_sem_give(&sem), LM_OK);
    sweep_gives++;
}

static void sweep_arm_isr(void *arg)
{
    (void)arg;
    /* Tick 10 has just been announced; its expiry work has not run yet. */
    LMT_CHECK(lm_hosted_irq_at_unmask(sweep_k, sweep_give_isr, NULL) == 0);
}

static void sweep_take10(void *arg)
{
    (void)arg;
    sweep_w = lm_sem_take(&sem, 10);
    LMT_EQ(lm_tick_now(), 10);
}

static void sweep_take_forever(void *arg)
{
    (void)arg;
    sweep_w2 = lm_sem_take(&sem, LM_WAIT_FOREVER);
}

/* R8.1, R9.4: sweep the give across every unmask of the tick-10 expiry
 * work (and past it). Whichever the kernel processes first wins: early
 * gives wake W with LM_OK, later ones find W timed out and go to W2 (or
 * the count). Each give is accounted for exactly once, both orders occur,
 * and the outcome switches once, from "give first" to "timeout first". */
static void sweep(bool second_waiter)
{
    int oks = 0, timeouts = 0;
    bool switched = false;
    for (sweep_k = 1; sweep_k <= 40u; sweep_k++) {
        lmt_begin();
        fresh_sem(0);
        sweep_w = sweep_w2 = LM_ERR_STATE; /* "did not return" */
        sweep_gives = 0;
        lm_thread_t *w2 = NULL;
        lmt_spawn("W", 2, sweep_take10, NULL);
        if (second_waiter) {
            w2 = lmt_spawn("W2", 3, sweep_take_forever, NULL);
        }
        LMT_CHECK(lm_hosted_irq_at_tick(10, sweep_arm_isr, NULL) == 0);
        lmt_run();
        LMT_EQ(sweep_gives, 1);
        int got = (sweep_w == LM_OK) + (sweep_w2 == LM_OK) + (int)sem_count();
        LMT_EQ(got, 1); /* the one give, exactly once */
        if (sweep_w == LM_OK) {
            LMT_CHECK(!switched); /* no "give first" after "timeout first" */
            oks++;
            if (second_waiter) {
                LMT_EQ(lm_thread_state(w2), LM_THREAD_BLOCKED);
            }
        } else {
            LMT_ST(sweep_w, LM_ERR_TIMEOUT);
            switched = true;
            timeouts++;
            if (second_waiter) {
                LMT_ST(sweep_w2, LM_OK);
            } else {
                LMT_EQ(sem_count(), 1);
            }
        }
    }
    LMT_CHECK(oks >= 1);
    LMT_CHECK(timeouts >= 1);
}

LMT_CASE(give_timeout_race_sweep_next_waiter)
{
    sweep(true);
}

LMT_CASE(give_timeout_race_sweep_count)
{
    sweep(false);
}

static void cancel_check_taker(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, 10);
    lmt_log("W:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
    /* The first wait's timeout was cancelled by the give: nothing armed. */
    LMT_EQ(lm_tick_next_deadline(), LM_WAIT_FOREVER);
    st = lm_sem_take(&sem, 10);
    lmt_log("W:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
}

/* R8.1: a give before the deadline cancels the timeout; a second wait
 * times out 10 ticks after it started, not at the first deadline. */
LMT_CASE(give_cancels_timeout)
{
    lmt_begin();
    fresh_sem(0);
    lmt_spawn("W", 2, cancel_check_taker, NULL);
    LMT_CHECK(lm_hosted_irq_at_tick(6, give_isr, NULL) == 0);
    lmt_run();
    lmt_expect("give@6:OK W:OK@6 W:TIMEOUT@16");
}
#endif /* LM_PORT_HOSTED */

#if LM_CFG_TIMER
#define TIMER_CASES \
    LMT_RUN(same_tick_processing_order), LMT_RUN(arming_order_kept_across_revolutions),
#else
#define TIMER_CASES
#endif

/* ---- R8.5: a full run of due sleeps, then a wait due on the same tick -- */

static void sleep5_log(void *arg)
{
    LMT_ST(lm_thread_sleep(5), LM_OK);
    lmt_log("%s@%u", (const char *)arg, (unsigned)lm_tick_now());
}

static void take5_log(void *arg)
{
    lm_status_t st = lm_sem_take(&sem, 5);
    lmt_log("%s:%s@%u", (const char *)arg, lmt_sn(st), (unsigned)lm_tick_now());
}

/* R8.5, R9.4: LM_CFG_EXPIRIES_PER_STEP sleeps (a whole step's run) and then
 * a take of a semaphore, all due on one tick: the take times out after
 * them, in the order they were armed, and the threads (all of one
 * priority) run in that order. */
LMT_CASE(full_run_of_sleeps_then_a_wait)
{
    static const char *const names[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
                                        "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                                        "s15"};
    _Static_assert(LM_CFG_EXPIRIES_PER_STEP <= sizeof names / sizeof names[0], "names");
    lmt_begin();
    fresh_sem(0);
    char want[24u * 8u] = "";
    for (unsigned i = 0; i < LM_CFG_EXPIRIES_PER_STEP; i++) {
        lmt_spawn(names[i], 4, sleep5_log, (void *)names[i]);
        size_t len = strlen(want);
        (void)snprintf(want + len, sizeof want - len, "%s@5 ", names[i]);
    }
    lmt_spawn("w", 4, take5_log, "w");
    lmt_run();
    size_t len = strlen(want);
    (void)snprintf(want + len, sizeof want - len, "w:TIMEOUT@5");
    lmt_expect(want);
}

#if defined(LM_PORT_HOSTED)
/* ---- R9.4, R8.5: due sleeps in runs of LM_CFG_EXPIRIES_PER_STEP ---------- */

#define RUN_K LM_CFG_EXPIRIES_PER_STEP
#define RUN_N (2u * RUN_K + 1u)
static lm_thread_t *run_s[RUN_N];
static unsigned run_seen[RUN_N + 1u], run_nseen, run_probes;

static unsigned run_n; /* threads of the case (at most RUN_N) */

static unsigned run_woken(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < run_n; i++) {
        lm_thread_state_t st = lm_thread_state(run_s[i]);
        n += (st != LM_THREAD_SLEEPING && st != LM_THREAD_BLOCKED) ? 1u : 0u;
    }
    return n;
}

/* At every unmask of the tick's expiry work: how many sleepers are awake,
 * each new figure once. */
static void run_probe(void *arg)
{
    (void)arg;
    unsigned n = run_woken();
    if (n == run_n || ++run_probes > 64u + 4u * RUN_N) {
        return; /* all awake (or the test is lost): stop probing */
    }
    if (n != 0u && (run_nseen == 0u || run_seen[run_nseen - 1u] != n)) {
        LMT_CHECK(run_nseen < RUN_N + 1u);
        run_seen[run_nseen++] = n;
    }
    LMT_EQ(lm_hosted_irq_at_unmask(1, run_probe, NULL), 0);
}

static void run_at_tick(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_unmask(1, run_probe, NULL), 0);
}

static void run_sleeper(void *arg)
{
    LMT_ST(lm_thread_sleep(5), LM_OK);
    lmt_log("%s@%u", (const char *)arg, (unsigned)lm_tick_now());
}

static char run_names[RUN_N][8];

/* 2K+1 threads of one priority, named <prefix>0, <prefix>1, ..., each
 * running `entry`, whose timeouts are all due at tick 5: between two steps
 * an interrupt sees K, then 2K of them awake, never a part of a run; the
 * last one in a step of its own; the threads run, and log, in the order
 * their timeouts were armed. */
static void expect_k_per_step(char prefix, void (*entry)(void *))
{
    _Static_assert(RUN_N < LMT_MAX_THREADS, "2K+1 threads");
    run_nseen = 0;
    run_probes = 0;
    run_n = RUN_N;
    for (unsigned i = 0; i < RUN_N; i++) {
        (void)snprintf(run_names[i], sizeof run_names[i], "%c%u", prefix, i);
        run_s[i] = lmt_spawn(run_names[i], 4, entry, run_names[i]);
    }
    LMT_EQ(lm_hosted_irq_at_tick(5, run_at_tick, NULL), 0);
    lmt_run();
    LMT_EQ(run_nseen, 2u);
    LMT_EQ(run_seen[0], RUN_K);
    LMT_EQ(run_seen[1], 2u * RUN_K);
    char want[RUN_N * 8u] = "";
    for (unsigned i = 0; i < RUN_N; i++) {
        size_t len = strlen(want);
        (void)snprintf(want + len, sizeof want - len, "%s%s@5", i ? " " : "", run_names[i]);
    }
    lmt_expect(want);
}

/* R9.4, R8.5: 2K+1 sleeps due on one tick (K = LM_CFG_EXPIRIES_PER_STEP)
 * wake K per masked step, in the order they were armed. */
LMT_CASE(due_sleeps_wake_k_per_step)
{
    lmt_begin();
    expect_k_per_step('s', run_sleeper);
}

static lm_sem_t run_sem;
static lm_mutex_t run_mutex;

static void run_taker(void *arg)
{
    LMT_ST(lm_sem_take(&run_sem, 5), LM_ERR_TIMEOUT);
    lmt_log("%s@%u", (const char *)arg, (unsigned)lm_tick_now());
}

static void run_locker(void *arg)
{
    LMT_ST(lm_mutex_lock(&run_mutex, 5), LM_ERR_TIMEOUT);
    lmt_log("%s@%u", (const char *)arg, (unsigned)lm_tick_now());
}

/* Owns run_mutex past the case's tick. */
static void run_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&run_mutex, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_sleep(50), LM_OK);
    LMT_ST(lm_mutex_unlock(&run_mutex), LM_OK);
}

/* R9.4, R8.5: 2K+1 takes of a semaphore due on one tick time out K per
 * masked step, as sleeps do, in the order they were armed. */
LMT_CASE(due_waits_time_out_k_per_step)
{
    lmt_begin();
    memset(&run_sem, 0, sizeof run_sem);
    LMT_ST(lm_sem_create(&run_sem, 0, 1), LM_OK);
    expect_k_per_step('w', run_taker);
}

#if LM_CFG_MUTEX && LM_CFG_EXPIRIES_PER_STEP >= 2
/* R9.4, R9.6: a mutex wait due between takes times out in a step of its
 * own (its owner's priority may have a chain to recompute): with takes a
 * and b, the lock m and the take c all due on one tick, an interrupt sees
 * a and b awake, then m, then (at the end) c; R8.5's order holds. */
LMT_CASE(mutex_wait_times_out_in_a_step_of_its_own)
{
    lmt_begin();
    memset(&run_sem, 0, sizeof run_sem);
    memset(&run_mutex, 0, sizeof run_mutex);
    LMT_ST(lm_sem_create(&run_sem, 0, 1), LM_OK);
    LMT_ST(lm_mutex_create(&run_mutex, 0u), LM_OK);
    run_nseen = 0;
    run_probes = 0;
    run_n = 4u;
    lmt_spawn("o", 3, run_owner, NULL);
    run_s[0] = lmt_spawn("a", 4, run_taker, "a");
    run_s[1] = lmt_spawn("b", 4, run_taker, "b");
    run_s[2] = lmt_spawn("m", 4, run_locker, "m");
    run_s[3] = lmt_spawn("c", 4, run_taker, "c");
    LMT_EQ(lm_hosted_irq_at_tick(5, run_at_tick, NULL), 0);
    lmt_run();
    LMT_EQ(run_nseen, 2u);
    LMT_EQ(run_seen[0], 2u);
    LMT_EQ(run_seen[1], 3u);
    lmt_expect("a@5 b@5 m@5 c@5");
}
#define MUTEX_RUN_CASE LMT_RUN(mutex_wait_times_out_in_a_step_of_its_own),
#else
#define MUTEX_RUN_CASE
#endif
#endif

#if defined(LM_PORT_HOSTED)
#define HOSTED_CASES                                                                      \
    LMT_RUN(give_before_timeout_on_same_tick), LMT_RUN(timeout_before_give_goes_to_next_waiter), \
        LMT_RUN(timeout_before_give_goes_to_count), LMT_RUN(give_timeout_race_sweep_next_waiter), \
        LMT_RUN(give_timeout_race_sweep_count), LMT_RUN(give_cancels_timeout), \
        LMT_RUN(due_sleeps_wake_k_per_step), LMT_RUN(due_waits_time_out_k_per_step), \
        MUTEX_RUN_CASE
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(timeout_expires_on_nth_tick), LMT_RUN(sleep_lasts_n_ticks),
         LMT_RUN(no_wait_and_wait_forever), LMT_RUN(timeout_range),
         LMT_RUN(same_tick_arming_order), LMT_RUN(same_tick_arming_order_equal_priority),
         LMT_RUN(full_run_of_sleeps_then_a_wait), TIMER_CASES HOSTED_CASES LMT_RUN(far_timeouts_exact),
         LMT_RUN(deadlines_exact_across_wrap))
