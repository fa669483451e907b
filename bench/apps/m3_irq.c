/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 3, interrupt to waiting thread. W (priority 3) waits forever on a
 * semaphore; the driver (priority 20) pends line LMB_IRQ_LINE through STIR
 * and the handler gives the semaphore. The periodic tick is stopped.
 * Interval: from the handler's first instruction (the one after the STIR
 * store) to, not including, W's first instruction after its take returns:
 * the timed span less its timer read and the store.
 */
#include "lmb.h"

void IRQ_Handler(void);

static lm_thread_t waiter, driver;
static uint64_t stacks[2][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_sem_t sem;
static volatile uint32_t woke_at;

void IRQ_Handler(void)
{
    (void)lm_sem_give(&sem);
}

static void waiter_entry(void *arg)
{
    (void)arg;
    for (;;) {
        woke_at = lmb_call_stamp(LMB_FN(lm_sem_take), (uintptr_t)&sem, LM_WAIT_FOREVER);
    }
}

static void driver_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    LMB_NVIC_IPR(LMB_IRQ_LINE) = LMB_IRQ_PRIO;
    LMB_NVIC_ISER0 = 1u << LMB_IRQ_LINE;
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            woke_at = 0u;
            uint32_t t0 = lmb_sync_store(k, &LMB_STIR, LMB_IRQ_LINE);
            lmb_sweep_add(&sw, t0 - woke_at);
        }
    }
    lmb_begin("m3");
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 2u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

void lmb_app_setup(void)
{
    if (lm_sem_create(&sem, 0u, 1000u) != LM_OK) {
        lmb_fail("sem");
    }
    lmb_thread(&waiter, waiter_entry, 0, stacks[0], 3u, 3u);
    lmb_thread(&driver, driver_entry, 0, stacks[1], 20u, 20u);
}
