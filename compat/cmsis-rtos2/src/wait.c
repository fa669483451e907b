/* SPDX-License-Identifier: Apache-2.0 */
/* Generic wait functions. */
#include "lmc.h"

osStatus_t osDelay(uint32_t ticks)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    if (ticks == 0u) {
        return osOK;
    }
    return lmc_status(lm_thread_sleep(ticks));
}

/* The time left is computed, then slept: a tick between the two makes the
 * wait end one tick late (docs/cmsis-rtos2.md). */
osStatus_t osDelayUntil(uint32_t ticks)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    uint32_t left = ticks - lm_tick_now();
    if (left == 0u || left > LM_TICK_MAX_TIMEOUT) {
        return osErrorParameter;
    }
    return lmc_status(lm_thread_sleep(left));
}
