/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 003's series, an event-flag set with NWAIT waiters of different
 * masks. Waiter i (priority 2 + i / 4, so that equal priorities are few
 * and the FIFO order is the creation order) waits for its own bit i, any,
 * consumed on exit. The setter (priority 20) sets the bit of the last
 * waiter only: the set checks every waiter and wakes one. The woken waiter
 * stamps the time and waits again, which returns the CPU to the setter.
 * The periodic tick is stopped. Interval: from the setter's call
 * instruction to, not including, the woken waiter's first instruction
 * after its wait returns (through wait_bit, whose return is 3
 * instructions of it).
 */
#include "lmb.h"

#ifndef NWAIT
#error "NWAIT: 1..32 waiters"
#endif

static lm_thread_t waiters[NWAIT], setter;
static uint64_t stacks[NWAIT + 1u][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_flags_t flags;
static volatile uint32_t woke_at;

/* lm_flags_wait takes five arguments; the timing helpers call two. */
static uintptr_t wait_bit(uintptr_t bit, uintptr_t unused)
{
    (void)unused;
    uint32_t actual;
    return (uintptr_t)lm_flags_wait(&flags, (uint32_t)bit, LM_FLAGS_ANY | LM_FLAGS_CONSUME,
                                    &actual, LM_WAIT_FOREVER);
}

static void waiter_entry(void *arg)
{
    uintptr_t bit = (uintptr_t)1u << (uintptr_t)arg;
    for (;;) {
        woke_at = lmb_call_stamp(wait_bit, bit, 0u);
    }
}

static void setter_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            uint32_t t0 = lmb_sync_call(k, LMB_FN(lm_flags_set), (uintptr_t)&flags,
                                        (uintptr_t)1u << (NWAIT - 1u));
            lmb_sweep_add(&sw, t0 - woke_at);
        }
    }
    lmb_begin("s3");
    lmb_value("waiters", NWAIT);
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 1u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

void lmb_app_setup(void)
{
    if (lm_flags_create(&flags, 0u) != LM_OK) {
        lmb_fail("flags");
    }
    for (unsigned i = 0u; i < NWAIT; i++) {
        lmb_thread(&waiters[i], waiter_entry, (void *)(uintptr_t)i, stacks[i], 2u + i / 4u,
                   2u + i / 4u);
    }
    lmb_thread(&setter, setter_entry, 0, stacks[NWAIT], 20u, 20u);
}
