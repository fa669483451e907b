/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 4, a blocking semaphore take (the seed-003 pattern). WPP threads
 * wait forever on the semaphore at each priority 2..14 (13 * WPP waiters);
 * a newcomer of priority NEWCOMER_PRIO (15: least urgent of them, 1: most
 * urgent) takes it with count 0 and blocks. X (priority X_PRIO, 16 unless
 * set; seed 003's series sets 20, below its newcomers 1..19) then runs: it
 * returns from its previous call, an abort of the newcomer's wait, reads
 * the timer and aborts the newcomer's new wait, which starts the next
 * sample. The periodic tick is stopped.
 * Interval: from the newcomer's call instruction to, not including, X's
 * first instruction after its call returns: the timed span less the read.
 */
#include "lmb.h"

#ifndef WPP
#error "WPP: waiters per priority"
#endif
#ifndef NEWCOMER_PRIO
#error "NEWCOMER_PRIO: 15 or 1"
#endif

#ifndef X_PRIO
#define X_PRIO 16u
#endif

#define NWAITERS (13u * WPP)

static lm_thread_t waiters[NWAITERS + 1u], newcomer, x_thread;
static uint64_t stacks[NWAITERS + 2u][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_sem_t sem;
static volatile uint32_t x_at;

static void waiter_entry(void *arg)
{
    (void)arg;
    for (;;) {
        (void)lm_sem_take(&sem, LM_WAIT_FOREVER);
    }
}

static void x_entry(void *arg)
{
    (void)arg;
    for (;;) {
        x_at = lmb_call_stamp(LMB_FN(lm_thread_wait_abort), (uintptr_t)&newcomer, 0u);
    }
}

static void newcomer_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            uint32_t t0 = lmb_sync_call(k, LMB_FN(lm_sem_take), (uintptr_t)&sem, LM_WAIT_FOREVER);
            lmb_sweep_add(&sw, t0 - x_at);
        }
    }
    lmb_begin("m4");
    lmb_value("waiters", NWAITERS);
    lmb_value("newcomer", NEWCOMER_PRIO);
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
        for (unsigned j = 0u; j + 1u <= WPP; j++, n++) {
            lmb_thread(&waiters[n], waiter_entry, 0, stacks[n], p, p);
        }
    }
    lmb_thread(&newcomer, newcomer_entry, 0, stacks[NWAITERS], NEWCOMER_PRIO, NEWCOMER_PRIO);
    lmb_thread(&x_thread, x_entry, 0, stacks[NWAITERS + 1u], X_PRIO, X_PRIO);
}
