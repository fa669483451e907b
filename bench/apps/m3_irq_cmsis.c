/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 3 (m3_irq.c) written against the CMSIS-RTOS2 API on Limen: W
 * waits in osSemaphoreAcquire, the handler calls osSemaphoreRelease; the
 * same interval, from the handler's first instruction to W's first
 * instruction after its acquire returns. App priority p is the CMSIS
 * priority that maps to Limen priority p, as in m1_pc_cmsis.c.
 */
#include "lmb.h"
#include "cmsis_os2.h"
#include "lm_cmsis.h"

#define OS_PRIO(p) ((osPriority_t)lm_cmsis_from_lm_priority(p))

void IRQ_Handler(void);

static lm_cmsis_thread_t waiter, driver;
static uint64_t stacks[2][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_cmsis_semaphore_t sem;
static volatile uint32_t woke_at;

void IRQ_Handler(void)
{
    (void)osSemaphoreRelease(&sem);
}

static void waiter_entry(void *arg)
{
    (void)arg;
    for (;;) {
        woke_at = lmb_call_stamp(LMB_FN(osSemaphoreAcquire), (uintptr_t)&sem, osWaitForever);
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
    lmb_text("api", "cmsis-rtos2");
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum - 2u);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

static void thread(lm_cmsis_thread_t *t, void (*entry)(void *), void *stack, unsigned prio)
{
    const osThreadAttr_t a = {.name = "b", .cb_mem = t, .cb_size = sizeof *t,
                              .stack_mem = stack, .stack_size = LMB_STACK_BYTES,
                              .priority = OS_PRIO(prio)};
    if (osThreadNew(entry, NULL, &a) != (osThreadId_t)t ||
        lm_thread_base_priority(&t->thread) != prio) {
        lmb_fail("thread");
    }
}

void lmb_app_setup(void)
{
    if (osKernelInitialize() != osOK) {
        lmb_fail("osKernelInitialize");
    }
    const osSemaphoreAttr_t sa = {.cb_mem = &sem, .cb_size = sizeof sem};
    if (osSemaphoreNew(1000u, 0u, &sa) != (osSemaphoreId_t)&sem) {
        lmb_fail("sem");
    }
    thread(&waiter, waiter_entry, stacks[0], 3u);
    thread(&driver, driver_entry, stacks[1], 20u);
}
