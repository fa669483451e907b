/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Periodic sleep (docs/rules.md R8.6): lm_thread_sleep_until wakes on the
 * grid wake0 + k * period to the tick, whatever the thread computes between
 * calls, across the wrap of the tick counter and under a competing load;
 * a deadline that is now returns LM_OK and one that has passed returns
 * LM_ERR_TIMEOUT, both without blocking or switching, and the grid is kept.
 * Bad input is in test_bad_input.c.
 */
#include "harness.h"
#include "limen/hosted.h"

static uint32_t switches(void)
{
    lm_kernel_stats_t st;
    lm_kernel_stats(&st);
    return st.context_switches;
}

/* One call, logged as "<status>@<tick>/<wake>" (hex when `hex`). */
static bool hex;
static void until(lm_tick_t *wake, lm_tick_t period)
{
    lm_status_t st = lm_thread_sleep_until(wake, period);
    if (hex) {
        lmt_log("%s@%08x/%08x", lmt_sn(st), (unsigned)lm_tick_now(), (unsigned)*wake);
    } else {
        lmt_log("%s@%u/%u", lmt_sn(st), (unsigned)lm_tick_now(), (unsigned)*wake);
    }
}

/* Work between the wake-ups, in ticks: none, some, all but one tick. */
static const lm_tick_t work[] = {0, 3, 9, 1, 0, 7};
#define NWORK (sizeof work / sizeof work[0])

static void periodic(void *arg)
{
    lm_tick_t period = (lm_tick_t)(uintptr_t)arg;
    lm_tick_t wake = lm_tick_now();
    for (unsigned i = 0; i < NWORK; i++) {
        lm_hosted_work(work[i] % period); /* less than a period */
        until(&wake, period);
    }
}

/* The grid holds to the tick: the work between calls (up to period - 1
 * ticks) never moves a wake-up, where lm_thread_sleep(period) would drift by
 * the work each time. */
LMT_CASE(wakes_on_the_grid)
{
    lmt_begin();
    hex = false;
    lmt_spawn("P", 3, periodic, (void *)(uintptr_t)10u);
    lmt_run();
    lmt_expect("OK@10/10 OK@20/20 OK@30/30 OK@40/40 OK@50/50 OK@60/60");
}

/* R8.3 and R8.6: the deadline wraps with the tick counter; the wake-ups
 * before, on and after 2^32 (and 2^31) are exact. */
LMT_CASE(wakes_on_the_grid_across_the_wrap)
{
    hex = true;
    lmt_begin_at(0xFFFFFFE0u);
    lmt_spawn("P", 3, periodic, (void *)(uintptr_t)10u);
    lmt_run();
    lmt_expect("OK@ffffffea/ffffffea OK@fffffff4/fffffff4 OK@fffffffe/fffffffe "
               "OK@00000008/00000008 OK@00000012/00000012 OK@0000001c/0000001c");
    lmt_begin_at(0x7FFFFFF6u);
    lmt_spawn("P", 3, periodic, (void *)(uintptr_t)4u);
    lmt_run();
    lmt_expect("OK@7ffffffa/7ffffffa OK@7ffffffe/7ffffffe OK@80000002/80000002 "
               "OK@80000006/80000006 OK@8000000a/8000000a OK@8000000e/8000000e");
    lmt_begin_at(0xFFFFFFFFu);
    lmt_spawn("P", 3, periodic, (void *)(uintptr_t)1u);
    lmt_run();
    lmt_expect("OK@00000000/00000000 OK@00000001/00000001 OK@00000002/00000002 "
               "OK@00000003/00000003 OK@00000004/00000004 OK@00000005/00000005");
}

static void late(void *arg)
{
    (void)arg;
    lm_tick_t wake = lm_tick_now();
    until(&wake, 10);    /* on time: tick 10 */
    lm_hosted_work(25); /* overruns into the third period: tick 35 */
    uint32_t sw = switches();
    until(&wake, 10);    /* 20 has passed */
    until(&wake, 10);    /* 30 has passed */
    LMT_EQ(switches(), sw); /* neither blocked nor switched */
    until(&wake, 10);    /* 40 is ahead: back on the grid */
    lm_hosted_work(10); /* exactly one period: the next deadline is now */
    sw = switches();
    until(&wake, 10);    /* 50 is now */
    LMT_EQ(switches(), sw);
    until(&wake, 10);    /* 60 */
}

static void lower(void *arg)
{
    (void)arg;
    lmt_log("L@%u", (unsigned)lm_tick_now());
}

/* Missed deadlines: each passed one returns LM_ERR_TIMEOUT at once and
 * still counts its period; a deadline that is the current tick returns
 * LM_OK at once. A lower-priority thread ready all along runs only when the
 * periodic thread blocks (tick 35's calls did not give it the CPU). */
LMT_CASE(missed_deadlines_keep_the_grid)
{
    lmt_begin();
    hex = false;
    lmt_spawn("P", 3, late, NULL);
    lmt_run();
    lmt_expect("OK@10/10 TIMEOUT@35/20 TIMEOUT@35/30 OK@40/40 OK@50/50 OK@60/60");
    lmt_begin();
    lmt_spawn("P", 3, late, NULL);
    lmt_spawn("L", 9, lower, NULL);
    lmt_run();
    lmt_expect("L@0 OK@10/10 TIMEOUT@35/20 TIMEOUT@35/30 OK@40/40 OK@50/50 OK@60/60");
}

/* A less urgent thread that computes without a break for 100 ticks. */
static void load(void *arg)
{
    (void)arg;
    lm_hosted_work(100);
    lmt_log("L-done@%u", (unsigned)lm_tick_now());
}

static void periodic_state(void *arg)
{
    lm_tick_t *wake = arg;
    *wake = lm_tick_now();
    for (unsigned i = 0; i < 4; i++) {
        lm_hosted_work(2);
        until(wake, 25);
    }
}

/* Under a load that never blocks, the periodic thread still wakes on its
 * ticks (it preempts the load at each one), and sleeps in state SLEEPING. */
LMT_CASE(competing_load_moves_nothing)
{
    static lm_tick_t wake;
    lmt_begin();
    hex = false;
    lm_thread_t *p = lmt_spawn("P", 3, periodic_state, &wake);
    lmt_spawn("L", 9, load, NULL);
    lmt_run();
    lmt_expect("OK@25/25 OK@50/50 OK@75/75 OK@100/100 L-done@108");
    LMT_EQ(lm_thread_state(p), LM_THREAD_TERMINATED);
}

static lm_thread_t *sleeper;

static void far_sleeper(void *arg)
{
    (void)arg;
    lm_tick_t wake = lm_tick_now();
    until(&wake, 100); /* aborted at tick 30: wake still advanced to 100 */
    until(&wake, 100); /* 200 */
    /* The farthest deadline that is still ahead (2^31 - 1 ticks) sleeps;
     * one tick farther reads as passed (R8.3). */
    wake = lm_tick_now() + 0x7FFFFFFFu - 5u;
    until(&wake, 5);
    wake = lm_tick_now() + 0x80000000u - 5u;
    until(&wake, 5);
}

static void aborter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(30), LM_OK);
    LMT_EQ(lm_thread_state(sleeper), LM_THREAD_SLEEPING);
    LMT_ST(lm_thread_wait_abort(sleeper), LM_OK);
    LMT_ST(lm_thread_sleep(200), LM_OK); /* tick 230: in the far sleep */
    LMT_EQ(lm_thread_state(sleeper), LM_THREAD_SLEEPING);
    LMT_ST(lm_thread_wait_abort(sleeper), LM_OK);
}

/* An abort ends the sleep with LM_ERR_ABORTED and the period counts; the
 * farthest deadline ahead sleeps, the next one returns at once. */
LMT_CASE(abort_and_far_deadlines)
{
    lmt_begin();
    hex = true;
    sleeper = lmt_spawn("P", 3, far_sleeper, NULL);
    lmt_spawn("A", 5, aborter, NULL);
    lmt_run();
    lmt_expect("ABORTED@0000001e/00000064 OK@000000c8/000000c8 "
               "ABORTED@000000e6/800000c7 TIMEOUT@000000e6/800000e6");
}

LMT_MAIN(LMT_RUN(wakes_on_the_grid), LMT_RUN(wakes_on_the_grid_across_the_wrap),
         LMT_RUN(missed_deadlines_keep_the_grid), LMT_RUN(competing_load_moves_nothing),
         LMT_RUN(abort_and_far_deadlines))
