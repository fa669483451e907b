/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread watchdogs (LM_CMSIS_FUSA): each thread's is a one-shot kernel
 * timer in its control block, so a feed is one timer start, O(1), and no
 * tick looks at the threads. osWatchdogAlarm_Handler runs in the timer's
 * context, the kernel's deferred tick context: an interrupt handler for
 * the API (lowest interrupt priority, kernel lock not held).
 */
#include "lmc.h"

#if LM_CMSIS_FUSA

volatile uint8_t lmc_in_alarm;

static bool due(const lm_cmsis_thread_t *ct, lm_tick_t now)
{
    return ct->wdog_on != 0u && now - ct->wdog_due <= LM_TICK_MAX_TIMEOUT;
}

/* Cost: O(1). */
static lm_status_t arm(lm_cmsis_thread_t *ct, uint32_t ticks)
{
    lm_irqstate_t st = lm_port_irq_lock();
    lm_status_t s = lm_timer_start(&ct->wdog, ticks, 0u);
    if (s == LM_OK) {
        ct->wdog_due = lm_tick_now() + ticks;
        ct->wdog_on = 1u;
    }
    lm_port_irq_unlock(st);
    return s;
}

osStatus_t osThreadFeedWatchdog(uint32_t ticks)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *self = lmc_self();
    osKernelState_t k = osKernelGetState();
    if (self == NULL || (k != osKernelRunning && k != osKernelLocked)) {
        return osError;
    }
    if (ticks == 0u) {
        lmc_fusa_thread_end(self);
        return osOK;
    }
    return lmc_st(arm(self, ticks));
}

/* A watchdog timer expired. Every watchdog due by now is reported here,
 * the highest class first (the API's order for expiries on one tick): the
 * timers of the others are stopped, so their own expiries find nothing.
 * Cost: O(threads registered) per watchdog reported, on this path only. */
void lmc_watchdog_expired(void *arg)
{
    lm_cmsis_thread_t *mine = arg; /* the timer service thread is not registered */
    for (;;) {
        lm_irqstate_t st = lm_port_irq_lock();
        lm_tick_t now = lm_tick_now();
        lm_cmsis_thread_t *pick = due(mine, now) ? mine : NULL;
        for (lm_cmsis_thread_t *ct = lmc_threads_first(); ct != NULL; ct = ct->next) {
            if (due(ct, now) && (pick == NULL || ct->sclass > pick->sclass)) {
                pick = ct;
            }
        }
        if (pick != NULL) {
            pick->wdog_on = 0u;
            (void)lm_timer_stop(&pick->wdog);
        }
        lm_port_irq_unlock(st);
        if (pick == NULL) {
            return;
        }
        lmc_in_alarm = 1u;
        uint32_t again = osWatchdogAlarm_Handler(pick);
        lmc_in_alarm = 0u;
        /* The handler may have ended or destroyed the thread. */
        if (again != 0u && pick->magic == LMC_MAGIC_THREAD && pick->done == 0u) {
            (void)arm(pick, again);
        }
    }
}

__attribute__((weak)) uint32_t osWatchdogAlarm_Handler(osThreadId_t thread_id)
{
    (void)thread_id;
    return 0u; /* the application's; by default the watchdog stops */
}

#else

osStatus_t osThreadFeedWatchdog(uint32_t ticks)
{
    (void)ticks;
    return osError;
}

#endif
