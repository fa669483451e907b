/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 003's series, the give that wakes the most urgent waiter. WPP
 * threads wait forever on a semaphore at each priority 2..14; the giver
 * (priority 15) gives it. The first waiter of priority 2 wakes, preempts
 * the giver, stamps the time and takes again (blocking at the back of its
 * priority), which returns the CPU to the giver. The periodic tick is
 * stopped. Interval: from the giver's call instruction to, not including,
 * the woken thread's first instruction after its take returns.
 */
#include "lmb.h"

#ifndef WPP
#error "WPP: waiters per priority (1, 2 or 4)"
#endif

#define NWAITERS (13u * WPP)

static lm_thread_t waiters[NWAITERS], giver;
static uint64_t stacks[NWAITERS + 1u][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_sem_t sem;
static volatile uint32_t woke_at;

static void waiter_entry(void *arg)
{
    (void)arg;
    for (;;) {
        woke_at = lmb_call_stamp(LMB_FN(lm_sem_take), (uintptr_t)&sem, LM_WAIT_FOREVER);
    }
}

static void giver_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            uint32_t t0 = lmb_sync_call(k, LMB_FN(lm_sem_give), (uintptr_t)&sem, 0u);
            lmb_sweep_add(&sw, t0 - woke_at);
        }
    }
    lmb_begin("s2");
    lmb_value("waiters", NWAITERS);
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 1u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

void lmb_app_setup(void)
{
    if (lm_sem_create(&sem, 0u, 1000u) != LM_OK) {
        lmb_fail("sem");
    }
    unsigned n = 0u;
    for (unsigned p = 2u; p <= 14u; p++) {
        for (unsigned j = 0u; j < WPP; j++, n++) {
            lmb_thread(&waiters[n], waiter_entry, 0, stacks[n], p, p);
        }
    }
    lmb_thread(&giver, giver_entry, 0, stacks[NWAITERS], 15u, 15u);
}
