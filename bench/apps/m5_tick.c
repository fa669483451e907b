/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 5, the tick on which NEXPIRE threads time out. NEXPIRE threads
 * (priority 5) block with the same TIMEOUT and block again as soon as it
 * expires; NFAR threads (priority 6) block with a far timeout, armed 16
 * ticks earlier so that the measured tick never visits their wheel slot.
 * M5_SEM 0: the blocking call is lm_thread_sleep; 1: a take of a semaphore
 * nobody gives, with that timeout. The periodic tick is stopped; the
 * driver (priority 20) makes every tick by pending SysTick, so the kernel's
 * own tick handler runs and nothing else meanwhile.
 * Interval: from the tick handler's first instruction to, not including,
 * the first woken thread's first instruction after its call returns (the
 * timed span less its timer read and the pending store). Every sample
 * checks that exactly NEXPIRE threads woke, on that tick.
 */
#include "lmb.h"

#ifndef NEXPIRE
#error "NEXPIRE"
#endif
#ifndef M5_SEM
#define M5_SEM 0
#endif

#define NFAR 4u
#define TIMEOUT 32u
#define FAR 100000u

static lm_thread_t expiring[NEXPIRE], far[NFAR], driver;
static uint64_t stacks[NEXPIRE + NFAR + 1u][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_sem_t never, never_far, go;
static volatile uint32_t first_at, first_taken, wakes;

static void expiring_entry(void *arg)
{
    (void)arg;
    (void)lm_sem_take(&go, LM_WAIT_FOREVER);
    for (;;) {
#if M5_SEM
        uint32_t t = lmb_call_stamp(LMB_FN(lm_sem_take), (uintptr_t)&never, TIMEOUT);
#else
        uint32_t t = lmb_call_stamp(LMB_FN(lm_thread_sleep), TIMEOUT, 0u);
#endif
        if (first_taken == 0u) {
            first_taken = 1u;
            first_at = t;
        }
        wakes++;
    }
}

static void far_entry(void *arg)
{
    (void)arg;
    for (;;) {
#if M5_SEM
        (void)lm_sem_take(&never_far, FAR);
#else
        (void)lm_thread_sleep(FAR);
#endif
    }
}

static void pend_tick(void)
{
    LMB_ICSR = LMB_ICSR_PENDSTSET;
}

static void driver_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    for (unsigned i = 0u; i < 16u; i++) {
        pend_tick();
    }
    for (unsigned i = 0u; i < NEXPIRE; i++) {
        (void)lm_sem_give(&go);
    }
    lmb_sweep_t sw;
    uint32_t bad = 0u;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            for (unsigned i = 0u; i + 1u < TIMEOUT; i++) {
                pend_tick();
            }
            first_taken = 0u;
            wakes = 0u;
            uint32_t t0 = lmb_sync_store(k, &LMB_ICSR, LMB_ICSR_PENDSTSET);
            if (first_taken == 0u || wakes != NEXPIRE) {
                bad++;
            }
            lmb_sweep_add(&sw, t0 - first_at);
        }
    }
    lmb_begin(M5_SEM ? "m5s" : "m5");
    lmb_value("expiring", NEXPIRE);
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 2u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_value("bad_samples", bad);
    lmb_end();
}

void lmb_app_setup(void)
{
    if (lm_sem_create(&never, 0u, 1000u) != LM_OK || lm_sem_create(&never_far, 0u, 1000u) != LM_OK ||
        lm_sem_create(&go, 0u, 1000u) != LM_OK) {
        lmb_fail("sem");
    }
    for (unsigned i = 0u; i < NEXPIRE; i++) {
        lmb_thread(&expiring[i], expiring_entry, 0, stacks[i], 5u, 5u);
    }
    for (unsigned i = 0u; i < NFAR; i++) {
        lmb_thread(&far[i], far_entry, 0, stacks[NEXPIRE + i], 6u, 6u);
    }
    lmb_thread(&driver, driver_entry, 0, stacks[NEXPIRE + NFAR], 20u, 20u);
}
