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
    lm_status_t s = lm_thread_sleep(ticks);
    return s == LM_ERR_ABORTED ? osOK : lmc_st(s); /* osThreadResume ends a delay */
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
    lm_status_t s = lm_thread_sleep(left);
    return s == LM_ERR_ABORTED ? osOK : lmc_st(s);
}
