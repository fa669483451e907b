/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Time-slices: round-robin by slice expiry, weighted CPU shares, the slice a
 * preempted / blocked / sleeping / suspended thread gets back, slices with a
 * preemption-threshold and under the scheduler lock (docs/rules.md R2, R3.4,
 * R6.3, R7). Threads burn virtual time with lm_hosted_work, so nearly every
 * case is hosted-only; switch traces carry the tick ("A>B@25").
 */
#include <string.h>
#include "harness.h"

static lm_kernel_stats_t kstats(void)
{
    lm_kernel_stats_t s;
    lm_kernel_stats(&s);
    return s;
}

static lm_thread_stats_t tstats(const lm_thread_t *t)
{
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(t, &s), LM_OK);
    return s;
}

static const char *self_name(void)
{
    return lm_thread_name(lm_thread_self());
}

static void rr_yield(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        lmt_log("%s%d", self_name(), i);
        LMT_ST(lm_thread_yield(), LM_OK);
    }
}

/* R2.3, R2.4, R7.2: relinquishing before the slice runs out is neither a
 * slice expiry nor a preemption (slices far longer than the run). */
LMT_CASE(yield_is_not_slice_expiry)
{
    lmt_begin();
    lm_thread_t *a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 1000, rr_yield, NULL, true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 1000, rr_yield, NULL, true);
    lmt_run();
    lmt_expect("A0 B0 A1 B1 A2 B2");
    lm_kernel_stats_t k = kstats();
    LMT_EQ(k.slice_expiries, 0);
    LMT_EQ(k.preemptions, 0);
    LMT_EQ(k.context_switches, 8); /* 6 yields, A ends to B, B to idle */
    LMT_EQ(tstats(a).slice_expiries, 0);
}

#if defined(LM_PORT_HOSTED)

/* Switch trace with the tick of each switch. Runs with the kernel lock held:
 * it only reads the tick and the names. */
static void tick_logger(const lm_thread_t *from, const lm_thread_t *to)
{
    lmt_log("%s>%s@%u", from != NULL ? lm_thread_name(from) : "", lm_thread_name(to),
            (unsigned)lm_tick_now());
}

static void trace_ticks(void)
{
    LMT_ST(lm_switch_hook_set(tick_logger), LM_OK);
}

/* Computes for the number of ticks in arg, one tick at a time. */
static void work_n(void *arg)
{
    lm_tick_t n = (lm_tick_t)(uintptr_t)arg;
    for (lm_tick_t i = 0; i < n; i++) {
        lm_hosted_work(1);
    }
}

#define TICKS(n) ((void *)(uintptr_t)(n))

/* R2.4, R7.1(f), R7.2: equal threads with 3-tick slices take turns every
 * 3 ticks; each turn is a slice expiry, never a preemption. */
LMT_CASE(r2_4_slice_expiry_round_robin)
{
    lmt_begin();
    lm_thread_t *a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 3, work_n, TICKS(6), true);
    lm_thread_t *b = lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 3, work_n, TICKS(6), true);
    lmt_spawn_ex("C", 5, LM_THRESHOLD_NONE, 3, work_n, TICKS(6), true);
    trace_ticks();
    lmt_run();
    /* At 18 C's last tick expires its slice; A and B, whose work was done,
     * end as they get the CPU back. */
    lmt_expect(">A@0 A>B@3 B>C@6 C>A@9 A>B@12 B>C@15 C>A@18 A>B@18 B>C@18 C>idle@18");
    lm_kernel_stats_t k = kstats();
    LMT_EQ(k.slice_expiries, 6);
    LMT_EQ(k.preemptions, 0);
    LMT_EQ(k.context_switches, 9);
    LMT_EQ(k.ticks, 18);
    LMT_EQ(tstats(a).slice_expiries, 2);
    LMT_EQ(tstats(a).preemptions, 0);
    LMT_EQ(tstats(b).switches_in, 3);
}

static lm_kernel_stats_t snap;

static void work_after_snap(void *arg)
{
    lm_kernel_stats(&snap);
    work_n(arg);
}

static void log_delta(void *arg)
{
    (void)arg;
    lm_kernel_stats_t now;
    lm_kernel_stats(&now);
    lmt_log("sw%u/pre%u/exp%u", (unsigned)(now.context_switches - snap.context_switches),
            (unsigned)(now.preemptions - snap.preemptions),
            (unsigned)(now.slice_expiries - snap.slice_expiries));
}

/* R7.1(f), R7.2, R7.3: the switch at a slice expiry adds exactly one
 * context switch and one slice expiry, no preemption. */
LMT_CASE(r7_slice_expiry_counted)
{
    lmt_begin();
    lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 3, work_after_snap, TICKS(3), true);
    lmt_spawn("B", 5, log_delta, NULL);
    lmt_run();
    lmt_expect("sw1/pre0/exp1");
}

/* R2.3, R2.4: a slice that runs out with no peer is counted, the thread
 * continues without a switch (the less urgent L waits); slice 0 never ends. */
LMT_CASE(r2_4_expiry_without_peer_continues)
{
    lmt_begin();
    lm_thread_t *a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 3, work_n, TICKS(10), true);
    lmt_spawn_ex("L", 9, LM_THRESHOLD_NONE, 0, work_n, TICKS(2), true);
    trace_ticks();
    lmt_run();
    lmt_expect(">A@0 A>L@10 L>idle@12");
    LMT_EQ(kstats().slice_expiries, 3); /* at 3, 6, 9 */
    LMT_EQ(kstats().context_switches, 2);
    LMT_EQ(tstats(a).switches_in, 1);

    lmt_begin();
    lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 0, work_n, TICKS(10), true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 0, work_n, TICKS(10), true);
    trace_ticks();
    lmt_run();
    lmt_expect(">A@0 A>B@10 B>idle@20");
    LMT_EQ(kstats().slice_expiries, 0);
}

static void sleep_then_work(void *arg)
{
    LMT_ST(lm_thread_sleep(4), LM_OK);
    work_n(arg);
}

/* R2.1, R7.2: A, preempted at tick 4 with 6 of its 10 ticks left, resumes
 * ahead of B and keeps just those 6: its slice ends at 13 (7 + 6), not 17. */
LMT_CASE(r2_1_preempted_keeps_rest_of_slice)
{
    lmt_begin();
    lmt_spawn("H", 2, sleep_then_work, TICKS(3));
    lm_thread_t *a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 10, work_n, TICKS(16), true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 10, work_n, TICKS(10), true);
    trace_ticks();
    lmt_run();
    lmt_expect(">H@0 H>A@0 A>H@4 H>A@7 A>B@13 B>A@23 A>B@29 B>idle@29");
    LMT_EQ(kstats().preemptions, 1);
    LMT_EQ(kstats().slice_expiries, 2);
    LMT_EQ(tstats(a).preemptions, 1);
    LMT_EQ(tstats(a).slice_expiries, 1);
}

/* ---- R2.5: weighted shares (seed 000) ---- */

#define NW 4
static const lm_tick_t w_slice[NW] = {25, 10, 10, 55};
static const char *const w_name[NW] = {"A", "B", "C", "D"};
static lm_thread_t *w_thread[NW];
static uint32_t w_count[NW]; /* ticks of work each thread completed */
static uint32_t w_ran[NW];   /* ticks each thread held the CPU (switch hook) */
static lm_tick_t w_since;

static void w_hook(const lm_thread_t *from, const lm_thread_t *to)
{
    lm_tick_t now = lm_tick_now();
    for (int i = 0; i < NW; i++) {
        if (from == w_thread[i]) {
            w_ran[i] += now - w_since;
        }
    }
    w_since = now;
    if (now <= 200u) { /* the first two rounds, exactly */
        tick_logger(from, to);
    }
}

static void w_body(void *arg)
{
    uint32_t *count = (uint32_t *)arg;
    for (;;) {
        lm_hosted_work(1);
        (*count)++;
    }
}

#define W_TICKS 10000u

static void w_ctl(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(W_TICKS), LM_OK);
    lm_hosted_stop();
}

/* R2.4, R2.5: four always-ready equal threads with slices 25/10/10/55 take
 * turns in that order and, over 10,000 ticks, share the CPU 25/10/10/55 %. */
LMT_CASE(r2_5_weighted_shares)
{
    lmt_begin();
    memset(w_count, 0, sizeof w_count);
    memset(w_ran, 0, sizeof w_ran);
    w_since = 0;
    lmt_spawn("ctl", 1, w_ctl, NULL);
    for (int i = 0; i < NW; i++) {
        w_thread[i] = lmt_spawn_ex(w_name[i], 5, LM_THRESHOLD_NONE, w_slice[i], w_body,
                                   &w_count[i], true);
    }
    LMT_ST(lm_switch_hook_set(w_hook), LM_OK);
    lmt_run();
    lmt_expect(">ctl@0 ctl>A@0 A>B@25 B>C@35 C>D@45 D>A@100 A>B@125 B>C@135 C>D@145 "
               "D>A@200");
    LMT_EQ(lm_tick_now(), W_TICKS);
    uint32_t total = 0;
    for (int i = 0; i < NW; i++) {
        /* Within 1 % of the share: |count/ticks - slice/100| <= 1/100. */
        int64_t diff = (int64_t)w_count[i] * 100 - (int64_t)w_slice[i] * W_TICKS;
        LMT_CHECK(diff <= (int64_t)W_TICKS && diff >= -(int64_t)W_TICKS);
        total += w_count[i];
        /* 100 full rounds of 100 ticks: each slice ran out 100 times. */
        LMT_EQ(tstats(w_thread[i]).slice_expiries, 100);
        LMT_EQ(tstats(w_thread[i]).preemptions, 0);
    }
    /* By the switch hook, the shares are exact. Each thread loses the CPU
     * inside a lm_hosted_work(1) whose tick it was charged, so its last tick
     * of work had not returned when the run stopped. */
    LMT_EQ(w_ran[0], 2500);
    LMT_EQ(w_ran[1], 1000);
    LMT_EQ(w_ran[2], 1000);
    LMT_EQ(w_ran[3], 5500);
    LMT_EQ(total, W_TICKS - NW);
    LMT_EQ(kstats().slice_expiries, 400);
    LMT_EQ(kstats().preemptions, 0); /* ctl woke as D's slice ran out */
}

/* ---- R2.6: a full slice after blocking, sleeping, being suspended ---- */

static lm_sem_t sem;
static lm_thread_t *t_a, *t_b;

static void stop_a(void *arg)
{
    lm_hosted_work(4);
    switch ((int)(intptr_t)arg) {
    case 0:
        LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK);
        break;
    case 1:
        LMT_ST(lm_thread_sleep(2), LM_OK);
        break;
    default:
        LMT_ST(lm_thread_suspend(lm_thread_self()), LM_OK);
        break;
    }
    work_n(TICKS(12));
}

static void wake_a(void *arg)
{
    switch ((int)(intptr_t)arg) {
    case 0:
        LMT_ST(lm_sem_give(&sem), LM_OK);
        break;
    case 1:
        break; /* A's sleep ends at 6, B keeps the CPU (R2.2) */
    default:
        LMT_ST(lm_thread_resume(t_a), LM_OK);
        break;
    }
    work_n(TICKS(20));
}

static void h_suspends_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(4), LM_OK);
    LMT_ST(lm_thread_suspend(t_a), LM_OK);
    LMT_ST(lm_thread_resume(t_a), LM_OK);
}

/* R2.6, R2.2: A uses 4 of its 10 ticks, then blocks / sleeps / suspends
 * itself. Back, it gets a full slice: it ends at 24 (14 + 10), not 20. */
LMT_CASE(r2_6_full_slice_after_block_sleep_suspend)
{
    for (intptr_t how = 0; how < 3; how++) {
        lmt_begin();
        memset(&sem, 0, sizeof sem);
        LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
        t_a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 10, stop_a, (void *)how, true);
        t_b = lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 10, wake_a, (void *)how, true);
        trace_ticks();
        lmt_run();
        lmt_expect(">A@0 A>B@4 B>A@14 A>B@24 B>A@34 A>B@36 B>idle@36");
        LMT_EQ(kstats().slice_expiries, 3);
    }

    /* Suspended and resumed while preempted: A goes to the tail (R2.2) with a
     * full slice, instead of resuming first with what was left (R2.1). */
    lmt_begin();
    lmt_spawn("H", 2, h_suspends_a, NULL);
    t_a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 10, work_n, TICKS(16), true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 10, work_n, TICKS(10), true);
    trace_ticks();
    lmt_run();
    lmt_expect(">H@0 H>A@0 A>H@4 H>B@4 B>A@14 A>B@24 B>A@24 A>idle@26");
}

/* ---- R3.4: slice expiry with a threshold ---- */

static void a_with_threshold(void *arg)
{
    (void)arg;
    lm_hosted_work(1);
    LMT_ST(lm_thread_start(t_b), LM_OK); /* T3: held back by A's threshold 2 */
    work_n(TICKS(11));
}

/* R3.4, R3.3, R7.2: when A's slice runs out, the thread its threshold held
 * back runs first, then A's peer B (A went to the tail); no preemption. */
LMT_CASE(r3_4_slice_expiry_with_threshold)
{
    lmt_begin();
    t_a = lmt_spawn_ex("A", 5, 2, 5, a_with_threshold, NULL, true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 5, work_n, TICKS(5), true);
    t_b = lmt_spawn_ex("T3", 3, LM_THRESHOLD_NONE, 0, work_n, TICKS(2), false);
    trace_ticks();
    lmt_run();
    lmt_expect(">A@0 A>T3@5 T3>B@7 B>A@12 A>B@17 B>A@17 A>idle@19");
    LMT_EQ(kstats().preemptions, 0);
    LMT_EQ(kstats().slice_expiries, 3); /* A at 5 and 17, B at 12 */
    LMT_EQ(tstats(t_a).preemptions, 0);
}

/* ---- R6.3: a slice that runs out under the scheduler lock ---- */

static void locked_worker(void *arg)
{
    (void)arg;
    LMT_ST(lm_sched_lock(), LM_OK);
    lm_hosted_work(5); /* the slice of 3 runs out at 3, under the lock */
    lmt_log("exp%u", (unsigned)kstats().slice_expiries);
    LMT_ST(lm_sched_unlock(), LM_OK); /* B is an equal: no switch here */
    lmt_log("unlock@%u", (unsigned)lm_tick_now());
    work_n(TICKS(3));
}

/* R6.3, R2.4: the expiry waits for the first tick after the unlock (6),
 * and is counted once. */
LMT_CASE(r6_3_slice_expires_after_unlock)
{
    lmt_begin();
    t_a = lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 3, locked_worker, NULL, true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 3, work_n, TICKS(3), true);
    trace_ticks();
    lmt_run();
    lmt_expect(">A@0 exp0 unlock@5 A>B@6 B>A@9 A>B@11 B>idle@11");
    LMT_EQ(tstats(t_a).slice_expiries, 1);
    LMT_EQ(kstats().slice_expiries, 2);
    LMT_EQ(kstats().preemptions, 0);
}

#endif /* LM_PORT_HOSTED */

#if defined(LM_PORT_HOSTED)
#define HOSTED_CASES                                                                       \
    , LMT_RUN(r2_4_slice_expiry_round_robin), LMT_RUN(r7_slice_expiry_counted),            \
        LMT_RUN(r2_4_expiry_without_peer_continues), LMT_RUN(r2_1_preempted_keeps_rest_of_slice), \
        LMT_RUN(r2_5_weighted_shares), LMT_RUN(r2_6_full_slice_after_block_sleep_suspend), \
        LMT_RUN(r3_4_slice_expiry_with_threshold), LMT_RUN(r6_3_slice_expires_after_unlock)
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(yield_is_not_slice_expiry) HOSTED_CASES)
