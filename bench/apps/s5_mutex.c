/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 003's series, a mutex release that restores the owner's priority.
 * Owner L (priority 20) holds NMUTEX inheriting mutexes; on mutex i waits
 * W_i of priority 2 + i, so L runs at priority 2. L releases mutex 0: W_0
 * gets it and runs, and L falls back to priority 3 (or 20 with one mutex).
 * W_0 stamps the time, notes L's priority (reported: 3, or 20 with one
 * mutex), releases mutex 0 and waits for L's next sample on a
 * semaphore; L locks mutex 0 again and gives the semaphore, and W_0 blocks
 * on mutex 0 once more. The periodic tick is stopped.
 * Interval: from L's unlock call instruction to, not including, W_0's
 * first instruction after its lock returns.
 */
#include "lmb.h"

#ifndef NMUTEX
#error "NMUTEX: 1, 2, 4 or 8"
#endif

static lm_thread_t waiters[NMUTEX], owner;
static uint64_t stacks[NMUTEX + 1u][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_mutex_t mutexes[NMUTEX];
static lm_sem_t again;
static volatile uint32_t woke_at, restored;

static void first_entry(void *arg)
{
    (void)arg;
    for (;;) {
        woke_at = lmb_call_stamp(LMB_FN(lm_mutex_lock), (uintptr_t)&mutexes[0], LM_WAIT_FOREVER);
        restored = lm_thread_priority(&owner);
        (void)lm_mutex_unlock(&mutexes[0]);
        (void)lm_sem_take(&again, LM_WAIT_FOREVER);
    }
}

static void other_entry(void *arg)
{
    (void)lm_mutex_lock(&mutexes[(uintptr_t)arg], LM_WAIT_FOREVER);
    lmb_fail("a waiter other than the first got its mutex");
}

static void owner_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    for (unsigned i = 0u; i < NMUTEX; i++) {
        (void)lm_mutex_lock(&mutexes[i], LM_WAIT_FOREVER);
    }
    for (unsigned i = 0u; i < NMUTEX; i++) {
        (void)lm_thread_start(&waiters[i]); /* each preempts L and blocks */
    }
    if (lm_thread_priority(&owner) != 2u) {
        lmb_fail("no inheritance");
    }
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            uint32_t t0 = lmb_sync_call(k, LMB_FN(lm_mutex_unlock), (uintptr_t)&mutexes[0], 0u);
            lmb_sweep_add(&sw, t0 - woke_at);
            (void)lm_mutex_lock(&mutexes[0], LM_WAIT_FOREVER);
            (void)lm_sem_give(&again); /* W_0 runs, blocks on mutex 0 */
        }
    }
    lmb_begin("s5");
    lmb_value("mutexes", NMUTEX);
    lmb_value("restored", restored);
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 1u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

void lmb_app_setup(void)
{
    for (unsigned i = 0u; i < NMUTEX; i++) {
        if (lm_mutex_create(&mutexes[i], LM_MUTEX_INHERIT) != LM_OK) {
            lmb_fail("mutex");
        }
    }
    if (lm_sem_create(&again, 0u, 1u) != LM_OK) {
        lmb_fail("sem");
    }
    for (unsigned i = 0u; i < NMUTEX; i++) {
        lm_thread_attr_t a;
        lm_thread_attr_init(&a);
        a.entry = i == 0u ? first_entry : other_entry;
        a.arg = (void *)(uintptr_t)i;
        a.stack = stacks[i];
        a.stack_size = LMB_STACK_BYTES;
        a.priority = (uint16_t)(2u + i);
        if (lm_thread_create(&waiters[i], &a) != LM_OK) {
            lmb_fail("thread");
        }
    }
    lmb_thread(&owner, owner_entry, 0, stacks[NMUTEX], 20u, 20u);
}
