/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tickless idle (LM_CFG_TICKLESS=1, this image's kernel): while the idle
 * thread waits, SysTick expires only at the next timeout, and the ticks that
 * passed are announced on wake. Time must stay exact: every wake on the
 * right tick (lm_tick_now) and at the right virtual time, measured against
 * an independent clock, the test timer's free-running count (lmt_timer.h),
 * which counts SysTick's own clock.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/armv7m.h"
#include "lmt_timer.h"

#if !LM_CFG_TICKLESS
#error "build this test with LM_CFG_TICKLESS=1"
#endif

/* One tick in timestamp counts (same 25 MHz clock as SysTick). */
#define P (MPS2_SYSCLK_HZ / LM_CFG_TICK_HZ)
/* How late after its tick boundary a woken thread may read the timestamp:
 * interrupt, tick processing and the switch, a few hundred instructions
 * (each 1/40 count). */
#define LATE (P / 50u)

static uint32_t stamp(void)
{
    return lmt_timer_now();
}

/* ---- sleeps ---- */

static const lm_tick_t sleeps[] = {1, 7, 100, 1000, 3};

static void sleeper(void *arg)
{
    (void)arg;
    lm_kernel_stats_t k0, k1;
    lm_kernel_stats(&k0);
    uint32_t irq0 = lm_armv7m_tick_interrupts();
    lm_tick_t start = lm_tick_now();
    uint32_t ts_start = stamp();
    for (unsigned i = 0; i < sizeof sleeps / sizeof sleeps[0]; i++) {
        lm_tick_t k = sleeps[i];
        lm_tick_t t0 = lm_tick_now();
        uint32_t ts0 = stamp();
        LMT_ST(lm_thread_sleep(k), LM_OK);
        uint32_t dts = stamp() - ts0;
        LMT_EQ(lm_tick_now() - t0, k); /* R8.2: the k-th tick after the call */
        /* R8.2: between k-1 and k tick periods of virtual time. */
        LMT_CHECK(dts > (k - 1u) * P && dts <= k * P + LATE);
        lmt_log("%u", (unsigned)k);
    }
    lm_kernel_stats(&k1);
    lm_tick_t ticks = lm_tick_now() - start;
    uint32_t irqs = lm_armv7m_tick_interrupts() - irq0;
    uint32_t dts = stamp() - ts_start;
    printf("# %u ticks, %u SysTick expiries, %u timestamp counts (%u per tick)\n",
           (unsigned)ticks, (unsigned)irqs, (unsigned)dts, (unsigned)P);
    LMT_EQ(ticks, 1111);
    LMT_EQ(k1.ticks - k0.ticks, 1111);
    /* Far fewer timer interrupts than ticks: one per sleep, plus one per
     * revolution of the timeout wheel for the long ones. */
    LMT_CHECK(irqs * 20u < ticks);
    /* The tick count has not drifted from the free-running clock. */
    LMT_CHECK(dts >= ticks * P && dts <= ticks * P + LATE);
}

/* R8.2 with tickless idle: each sleep ends on exactly its tick. */
LMT_CASE(sleeps_wake_on_their_tick)
{
    lmt_begin();
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_run();
    lmt_expect("1 7 100 1000 3");
}

/* ---- periodic timer ---- */

#define FIRES 20u
#define PERIOD 13u
#define DELAY 5u

static lm_timer_t timer;
static lm_sem_t done;
static lm_tick_t fire_tick[FIRES];
static uint32_t fire_stamp[FIRES];
static volatile unsigned fires;

static void on_timer(void *arg)
{
    (void)arg;
    fire_tick[fires] = lm_tick_now();
    fire_stamp[fires] = stamp();
    if (++fires == FIRES) {
        LMT_ST(lm_timer_stop(&timer), LM_OK);
        LMT_ST(lm_sem_give(&done), LM_OK);
    }
}

static void timer_owner(void *arg)
{
    (void)arg;
    uint32_t irq0 = lm_armv7m_tick_interrupts();
    lm_tick_t t0 = lm_tick_now();
    LMT_ST(lm_timer_start(&timer, DELAY, PERIOD), LM_OK);
    LMT_ST(lm_sem_take(&done, LM_WAIT_FOREVER), LM_OK);
    uint32_t irqs = lm_armv7m_tick_interrupts() - irq0;
    for (unsigned i = 0; i < FIRES; i++) {
        LMT_EQ(fire_tick[i] - t0, DELAY + PERIOD * i); /* R10.2: no drift */
        if (i > 0u) {
            uint32_t d = fire_stamp[i] - fire_stamp[i - 1u];
            LMT_CHECK(d + LATE >= PERIOD * P && d <= PERIOD * P + LATE);
        }
    }
    /* One expiry per period (the wheel's 64 slots exceed the period). */
    LMT_EQ(irqs, FIRES);
    lmt_log("done");
}

/* R10.2 with tickless idle: a periodic timer keeps its exact period, in
 * ticks and in virtual time, with one timer interrupt per period. */
LMT_CASE(periodic_timer_keeps_its_period)
{
    lmt_begin();
    memset(&timer, 0, sizeof timer);
    memset(&done, 0, sizeof done);
    fires = 0;
    memset(&timer, 0, sizeof timer);
    LMT_ST(lm_timer_create(&timer, on_timer, NULL), LM_OK);
    memset(&done, 0, sizeof done);
    LMT_ST(lm_sem_create(&done, 0, 1), LM_OK);
    lmt_spawn("T", 3, timer_owner, NULL);
    lmt_run();
    lmt_expect("done");
}

/* ---- another interrupt ends a tickless sleep early ---- */

static lm_sem_t irq_sem;

/* The test timer's channel 1: unrelated interrupts (below). */
static volatile uint32_t noise_counts; /* 0: the noise is off */
static volatile uint32_t noise_irqs;

static void noise_next(void)
{
    lmt_timer_start(1u, noise_counts, false);
}

void DUALTIMER_Handler(void);
void DUALTIMER_Handler(void)
{
    if (lmt_timer_fired(1u)) {
        if (noise_counts != 0u) { /* one-shot, re-armed: wakes WFI on time */
            noise_irqs++;
            noise_next();
        }
    }
    if (lmt_timer_fired(0u)) {
        LMT_ST(lm_sem_give(&irq_sem), LM_OK);
    }
}

static void dualtimer_fire_in(uint32_t counts)
{
    lmt_timer_start(0u, counts, false);
}

/* When the interrupts come, in tick periods after the case's tick 0 (well
 * away from tick boundaries, so that which tick has passed is clear). */
static const uint32_t early_at[][2] = {{123, P / 2u}, {200, P / 4u}, {333, 3u * P / 4u}};
static lm_tick_t case_t0;
static uint32_t case_ts0;

static void early_waiter(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < sizeof early_at / sizeof early_at[0]; i++) {
        uint32_t at = early_at[i][0] * P + early_at[i][1];
        dualtimer_fire_in(at - (stamp() - case_ts0));
        LMT_ST(lm_sem_take(&irq_sem, LM_WAIT_FOREVER), LM_OK);
        LMT_EQ(lm_tick_now() - case_t0, early_at[i][0]);
        /* The ticks after the early wake are still in phase: a sleep of
         * 10 ends on the boundary of tick at + 10, in virtual time too. */
        LMT_ST(lm_thread_sleep(10), LM_OK);
        lm_tick_t t = lm_tick_now() - case_t0;
        LMT_EQ(t, early_at[i][0] + 10u);
        uint32_t dts = stamp() - case_ts0;
        LMT_CHECK(dts >= t * P && dts <= t * P + LATE);
        lmt_log("W%u", (unsigned)early_at[i][0]);
    }
}

static void long_sleeper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(500), LM_OK);
    LMT_EQ(lm_tick_now() - case_t0, 500);
    uint32_t dts = stamp() - case_ts0;
    LMT_CHECK(dts >= 500u * P && dts <= 500u * P + LATE);
    lmt_log("S500");
}

static void starter(void *arg)
{
    (void)arg;
    /* Start both on a fresh tick boundary, the reference of the case. */
    LMT_ST(lm_thread_sleep(1), LM_OK);
    case_t0 = lm_tick_now();
    case_ts0 = stamp();
    lmt_spawn("W", 1, early_waiter, NULL);
    lmt_spawn("S", 2, long_sleeper, NULL);
}

/* R8.2, R12.2: an interrupt that ends a tickless sleep early is served at
 * once, sees the ticks that passed until then, and the following ticks keep
 * their phase. */
LMT_CASE(early_wake_keeps_ticks_in_phase)
{
    lmt_begin();
    memset(&irq_sem, 0, sizeof irq_sem);
    LMT_ST(lm_sem_create(&irq_sem, 0, 1), LM_OK);
    lmt_timer_enable();
    lmt_spawn("0", 0, starter, NULL);
    lmt_run();
    lmt_expect("W123 W200 W333 S500");
}

/* ---- unrelated interrupts at a high rate during a long sleep ---- */

static const uint32_t noise_hz[] = {500, 5000, 25000};
#define LONG_SLEEP 1000u

static void noisy_sleeper(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < sizeof noise_hz / sizeof noise_hz[0]; i++) {
        LMT_ST(lm_thread_sleep(1), LM_OK); /* start on a tick boundary */
        noise_irqs = 0;
        noise_counts = MPS2_SYSCLK_HZ / noise_hz[i];
        noise_next();
        lm_tick_t t0 = lm_tick_now();
        uint32_t ts0 = stamp();
        LMT_ST(lm_thread_sleep(LONG_SLEEP), LM_OK);
        uint32_t dts = stamp() - ts0;
        noise_counts = 0;
        lmt_timer_stop(1u);
        LMT_EQ(lm_tick_now() - t0, LONG_SLEEP);
        int32_t drift = (int32_t)(dts - LONG_SLEEP * P);
        printf("# %u Hz: %u interrupts in the sleep, it ended %ld counts (%ld.%03ld ticks) "
               "after %u tick periods of the timestamp\n",
               (unsigned)noise_hz[i], (unsigned)noise_irqs, (long)drift, (long)(drift / (int32_t)P),
               (long)((drift % (int32_t)P) * 1000 / (int32_t)P), LONG_SLEEP);
        /* The interrupts did come, about as often as asked. */
        LMT_CHECK(noise_irqs * 10u >= noise_hz[i] * (LONG_SLEEP / LM_CFG_TICK_HZ) * 9u);
        /* R8.2, against the free-running clock: the 1,000th boundary, no
         * earlier and no later than the wake-up's own latency. */
        LMT_CHECK(dts >= LONG_SLEEP * P && dts <= LONG_SLEEP * P + LATE);
        lmt_log("%u", (unsigned)noise_hz[i]);
    }
}

/* R8.2 with tickless idle: interrupts that end the idle wait without
 * readying a thread cost the tick count nothing, at any rate. */
LMT_CASE(unrelated_interrupts_keep_ticks_exact)
{
    lmt_begin();
    noise_counts = 0;
    lmt_timer_enable();
    lmt_spawn("N", 1, noisy_sleeper, NULL);
    lmt_run();
    lmt_expect("500 5000 25000");
}

/* ---- an interrupt just before a tickless period's end ---- */

#define NEAR_SLEEP 3u
#define NEAR_OFFSETS 48u

/* The idle thread, woken by an unrelated interrupt d counts before the end
 * of its tickless period, lets the counter go on with the periodic tick and
 * waits again; for small d the period ends in between, and the SysTick
 * handler that follows must count that end, although by then the counter
 * has reloaded and the pending bit is gone. Once, it did not: the sleep
 * ended a tick late. Every d from 0 to NEAR_OFFSETS - 1 counts, one sleep
 * each, the interrupt placed against SysTick's own count (every fourth d
 * on mps3-an547, whose timer places in granules of four counts). */
static void near_end_sleeper(void *arg)
{
    (void)arg;
    unsigned late = 0;
    for (uint32_t d = 0; d < NEAR_OFFSETS; d += LMT_TIMER_GRANULE_COUNTS) {
        LMT_ST(lm_thread_sleep(1), LM_OK); /* just after a boundary */
        lm_tick_t t0 = lm_tick_now();
        uint32_t ts0 = stamp();
        /* SysTick and the test timer count the same clock: CVR more counts
         * to this tick's end, then NEAR_SLEEP - 1 whole ticks. */
        noise_counts = 0u; /* one interrupt */
        lmt_timer_start_after_systick(1u, (NEAR_SLEEP - 1u) * P - d);
        LMT_ST(lm_thread_sleep(NEAR_SLEEP), LM_OK);
        uint32_t dts = stamp() - ts0;
        LMT_EQ(lm_tick_now() - t0, NEAR_SLEEP);
        if (dts > NEAR_SLEEP * P + LATE) {
            printf("# interrupt %lu counts before the end: the sleep took %lu counts\n",
                   (unsigned long)d, (unsigned long)dts);
            late++;
        }
    }
    LMT_EQ(late, 0u);
    lmt_log("near");
}

/* R8.2 with tickless idle: a period's end right after an unrelated
 * interrupt woke the idle thread is counted on time. */
LMT_CASE(period_end_just_after_a_wake_is_counted)
{
    lmt_begin();
    lmt_timer_enable();
    lmt_spawn("N", 1, near_end_sleeper, NULL);
    lmt_run();
    lmt_expect("near");
}

LMT_MAIN(LMT_RUN(sleeps_wake_on_their_tick), LMT_RUN(periodic_timer_keeps_its_period),
         LMT_RUN(early_wake_keeps_ticks_in_phase), LMT_RUN(unrelated_interrupts_keep_ticks_exact),
         LMT_RUN(period_end_just_after_a_wake_is_counted))
