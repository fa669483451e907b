/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 002's periodicity: how close to its deadline does a periodic thread
 * start? P (priority 2) wakes every PERIOD ticks (1 ms each) with
 * lm_thread_sleep_until, for the number of periods on the command line
 * ("periods=<n>", after one period of warm-up). At each wake-up its first
 * instructions read SysTick's current value and timer 1:
 *
 *   latency   the instructions from the tick that is the deadline (SysTick's
 *             reload) to P's first instruction after its call returns:
 *             (reload value - current value) counts of SysTick, each 1 ms /
 *             (reload + 1) of virtual time (40 instructions at 25 MHz);
 *   interval  the instructions between two consecutive wake-ups (timer 1),
 *             whose error is interval - PERIOD x 1,000,000;
 *   drift     |time from the first wake-up to the last - periods x PERIOD
 *             x 1,000,000|: no more than the two wake-ups' latencies differ
 *             when no period is lost or gained.
 *
 * With LOAD 1, two less urgent threads (priorities 10 and 11) pass a
 * message back and forth through two one-place queues without a pause, so the tick
 * often arrives while the kernel serves them, with interrupts masked or in
 * the switch handler. With LOAD 0 a thread of priority 20 spins without
 * calling the kernel: the core never waits in WFI, because under QEMU 7.2
 * with -icount sleep=off a WFI woken by SysTick resumes one tick period
 * late (CAVEATS.md), which would add a period of virtual time per idle tick
 * to every interval. Each wake-up also checks that the call returned LM_OK
 * on the very tick it computed (`bad` counts those that did not).
 */
#include "lmb.h"
#include "s2_args.h"

#ifndef PERIOD
#error "PERIOD"
#endif
#ifndef LOAD
#error "LOAD"
#endif

#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define TICK_INSTRUCTIONS 1000000u /* 1 ms at 1 instruction per ns */

static lm_thread_t periodic, load_a, load_b;
static uint64_t stacks[3][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_queue_t ping, pong;
static LM_QUEUE_BUFFER_DEFINE(ping_buf, sizeof(uint32_t), 1u);
static LM_QUEUE_BUFFER_DEFINE(pong_buf, sizeof(uint32_t), 1u);
static volatile uint32_t load_rounds;

static void load_a_entry(void *arg)
{
    (void)arg;
    for (uint32_t v = 0u;; v++) {
        (void)lm_queue_send(&ping, &v, sizeof v, LM_WAIT_FOREVER);
        (void)lm_queue_receive(&pong, &v, sizeof v, LM_WAIT_FOREVER);
        load_rounds++;
    }
}

static void load_b_entry(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t v;
        (void)lm_queue_receive(&ping, &v, sizeof v, LM_WAIT_FOREVER);
        (void)lm_queue_send(&pong, &v, sizeof v, LM_WAIT_FOREVER);
    }
}

static void spin_entry(void *arg)
{
    (void)arg;
    for (;;) {
        load_rounds++;
    }
}

static uint32_t absdiff(uint64_t a, uint64_t b)
{
    return (uint32_t)(a > b ? a - b : b - a);
}

static void periodic_entry(void *arg)
{
    (void)arg;
    uint32_t periods = s2_arg("periods", 20u);
    uint32_t rvr = SYST_RVR;
    uint64_t lat_sum = 0u, err_sum = 0u;
    uint32_t lat_min = UINT32_MAX, lat_max = 0u, err_max = 0u, bad = 0u;
    int32_t err_lo = INT32_MAX, err_hi = INT32_MIN;
    uint32_t first = 0u, prev = 0u;
    lm_tick_t wake = lm_tick_now();
    for (uint32_t k = 0u; k <= periods; k++) {
        lm_status_t st = lm_thread_sleep_until(&wake, PERIOD);
        uint32_t cvr = SYST_CVR;
        uint32_t now = lmb_now();
        bad += (st != LM_OK || lm_tick_now() != wake) ? 1u : 0u;
        if (k == 0u) { /* warm-up: the first wake-up only sets the origin */
            first = prev = now;
            continue;
        }
        uint32_t lat = (uint32_t)(((uint64_t)(rvr - cvr) * TICK_INSTRUCTIONS) / (rvr + 1u));
        lat_sum += lat;
        lat_min = lat < lat_min ? lat : lat_min;
        lat_max = lat > lat_max ? lat : lat_max;
        uint64_t interval = (uint64_t)(prev - now) * LMB_INSTR_PER_COUNT;
        int32_t err = (int32_t)(int64_t)(interval - (uint64_t)PERIOD * TICK_INSTRUCTIONS);
        uint32_t abs_err = absdiff(interval, (uint64_t)PERIOD * TICK_INSTRUCTIONS);
        err_sum += abs_err;
        err_max = abs_err > err_max ? abs_err : err_max;
        err_lo = err < err_lo ? err : err_lo;
        err_hi = err > err_hi ? err : err_hi;
        prev = now;
    }
    uint64_t span = (uint64_t)(first - prev) * LMB_INSTR_PER_COUNT;
    uint64_t ideal = (uint64_t)periods * PERIOD * TICK_INSTRUCTIONS;
    lmb_begin("s2_period");
    lmb_value("period_ticks", PERIOD);
    lmb_value("load", LOAD);
    lmb_value("periods", periods);
    lmb_value("bad", bad);
    lmb_value("latency_mean_x100", (uint32_t)(lat_sum * 100u / periods));
    lmb_value("latency_min", lat_min);
    lmb_value("latency_max", lat_max);
    lmb_value("error_mean_x100", (uint32_t)(err_sum * 100u / periods));
    lmb_value("error_max", err_max);
    /* Signed extremes, offset by 2^31 so the line holds only digits. */
    lmb_value("error_lo_biased", (uint32_t)((int64_t)err_lo + 0x80000000LL));
    lmb_value("error_hi_biased", (uint32_t)((int64_t)err_hi + 0x80000000LL));
    lmb_value("drift", absdiff(span, ideal));
    lmb_value("load_rounds", load_rounds);
    lmb_end();
}

void lmb_app_setup(void)
{
    lmb_thread(&periodic, periodic_entry, 0, stacks[0], 2u, 2u);
    if (LOAD != 0) {
        if (lm_queue_create(&ping, ping_buf, sizeof(uint32_t), 1u) != LM_OK ||
            lm_queue_create(&pong, pong_buf, sizeof(uint32_t), 1u) != LM_OK) {
            lmb_fail("queue");
        }
        lmb_thread(&load_a, load_a_entry, 0, stacks[1], 10u, 10u);
        lmb_thread(&load_b, load_b_entry, 0, stacks[2], 11u, 11u);
    } else {
        lmb_thread(&load_a, spin_entry, 0, stacks[1], 20u, 20u);
    }
}
