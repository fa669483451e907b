/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 003's series, the tick on which no timeout expires (measure 5 gives
 * 1, 8 and 16). 4 threads (priority 6) sleep with a far timeout, armed 16
 * ticks earlier, as in measure 5; the driver (priority 20) pends SysTick
 * with the periodic tick stopped, and the tick returns to it. As in measure
 * 5, 31 ticks pass between measured ticks, so every measured tick falls on
 * the same kind of wheel slot (never the far threads').
 * Interval: from the tick handler's first instruction to, not including,
 * the driver's first instruction after the pending store.
 */
#include "lmb.h"

#define NFAR 4u
#define FAR 100000u

static lm_thread_t far[NFAR], driver;
static uint64_t stacks[NFAR + 1u][LMB_STACK_BYTES / sizeof(uint64_t)];

static void far_entry(void *arg)
{
    (void)arg;
    for (;;) {
        (void)lm_thread_sleep(FAR);
    }
}

static void driver_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    for (unsigned i = 0u; i < 16u; i++) {
        LMB_ICSR = LMB_ICSR_PENDSTSET;
    }
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            for (unsigned i = 0u; i < 31u; i++) {
                LMB_ICSR = LMB_ICSR_PENDSTSET;
            }
            lmb_sweep_add(&sw, lmb_sync_store_span(k, &LMB_ICSR, LMB_ICSR_PENDSTSET));
        }
    }
    lmb_begin("s4");
    lmb_value("expiring", 0u);
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 2u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

void lmb_app_setup(void)
{
    for (unsigned i = 0u; i < NFAR; i++) {
        lmb_thread(&far[i], far_entry, 0, stacks[i], 6u, 6u);
    }
    lmb_thread(&driver, driver_entry, 0, stacks[NFAR], 20u, 20u);
}
