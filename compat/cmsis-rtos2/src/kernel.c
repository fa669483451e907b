/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel information and control. */
#include <string.h>
#include "lmc.h"
#include "lmc_systimer.h"
#include "limen/version.h"

/* The kernel's tick entry (the one a port calls). osKernelResume uses it to
 * account for ticks that passed while the tick was not counting. */
void lmk_tick_announce(lm_tick_t n);

volatile osKernelState_t lmc_kernel_state = osKernelInactive;
static lm_tick_t suspended_at;

#define LMC_API_VERSION 20030000u /* 2.3.0 */

void lm_cmsis_reset(void)
{
    lmc_kernel_state = osKernelInactive;
}

/* The state, with a kernel started through the native API (lm_kernel_start)
 * running too. */
static osKernelState_t state(void)
{
    osKernelState_t s = lmc_kernel_state;
    if (s == osKernelReady && lm_kernel_running()) {
        lmc_kernel_state = osKernelRunning;
        s = osKernelRunning;
    }
    return s;
}

osStatus_t osKernelInitialize(void)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    osKernelState_t s = state();
    if (s == osKernelReady) {
        return osOK;
    }
    if (s != osKernelInactive) {
        return osError;
    }
    lm_kernel_init();
    lmc_threads_reset();
    lmc_timers_reset();
    lmc_objects_reset();
#if LM_CMSIS_FUSA
    lmc_fusa_reset();
#endif
    if (lmc_timer_service_start() != osOK) {
        return osError;
    }
    lmc_kernel_state = osKernelReady;
    return osOK;
}

osStatus_t osKernelGetInfo(osVersion_t *version, char *id_buf, uint32_t id_size)
{
    if (version != NULL) {
        version->api = LMC_API_VERSION;
        version->kernel = (uint32_t)LM_VERSION_MAJOR * 10000000u +
                          (uint32_t)LM_VERSION_MINOR * 10000u + (uint32_t)LM_VERSION_PATCH;
    }
    if (id_buf != NULL && id_size != 0u) {
        static const char id[] = "Limen V" LM_VERSION_STRING;
        size_t n = sizeof id <= id_size ? sizeof id : id_size;
        memcpy(id_buf, id, n - 1u);
        id_buf[n - 1u] = '\0';
    }
    return osOK;
}

osKernelState_t osKernelGetState(void)
{
    osKernelState_t s = state();
    if (s == osKernelRunning && lm_sched_lock_depth() != 0u) {
        return osKernelLocked;
    }
    return s;
}

osStatus_t osKernelStart(void)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    if (state() != osKernelReady) {
        return osError;
    }
    lmc_kernel_state = osKernelRunning;
    lm_kernel_start();
    return osOK; /* the hosted port: the simulation ended */
}

/* The API's lock is one level, not a count: it is the kernel's nestable
 * lock held once or not at all. */
int32_t osKernelLock(void)
{
    if (lmc_isr()) {
        return (int32_t)osErrorISR;
    }
    if (state() != osKernelRunning) {
        return (int32_t)osError;
    }
#if LM_CMSIS_FUSA
    if (lmc_kernel_denied()) {
        return (int32_t)osErrorSafetyClass;
    }
#endif
    if (lm_sched_lock_depth() != 0u) {
        return 1;
    }
    return lm_sched_lock() == LM_OK ? 0 : (int32_t)osError;
}

int32_t osKernelUnlock(void)
{
    if (lmc_isr()) {
        return (int32_t)osErrorISR;
    }
    if (state() != osKernelRunning) {
        return (int32_t)osError;
    }
#if LM_CMSIS_FUSA
    if (lmc_kernel_denied()) {
        return (int32_t)osErrorSafetyClass;
    }
#endif
    if (lm_sched_lock_depth() == 0u) {
        return 0;
    }
    return lm_sched_unlock() == LM_OK ? 1 : (int32_t)osError;
}

int32_t osKernelRestoreLock(int32_t lock)
{
    if (lmc_isr()) {
        return (int32_t)osErrorISR;
    }
    if (state() != osKernelRunning || (lock != 0 && lock != 1)) {
        return (int32_t)osError;
    }
#if LM_CMSIS_FUSA
    if (lmc_kernel_denied()) {
        return (int32_t)osErrorSafetyClass;
    }
#endif
    bool locked = lm_sched_lock_depth() != 0u;
    if (lock == 1 && !locked) {
        if (lm_sched_lock() != LM_OK) {
            return (int32_t)osError;
        }
    } else if (lock == 0 && locked) {
        if (lm_sched_unlock() != LM_OK) {
            return (int32_t)osError;
        }
    }
    return lock;
}

/* No thread switch until osKernelResume: the scheduler lock. The tick keeps
 * counting (the kernel's tick is never stopped here), so osKernelResume
 * adds only the part of sleep_ticks that the tick did not count. */
uint32_t osKernelSuspend(void)
{
    if (lmc_isr() || state() != osKernelRunning || lm_sched_lock_depth() != 0u) {
        return 0u;
    }
#if LM_CMSIS_FUSA
    if (lmc_kernel_denied()) {
        return 0u;
    }
#endif
    if (lm_sched_lock() != LM_OK) {
        return 0u;
    }
    suspended_at = lm_tick_now();
    lmc_kernel_state = osKernelSuspended;
    return lm_tick_next_deadline();
}

void osKernelResume(uint32_t sleep_ticks)
{
    if (lmc_isr() || lmc_kernel_state != osKernelSuspended) {
        return;
    }
#if LM_CMSIS_FUSA
    if (lmc_kernel_denied()) {
        return;
    }
#endif
    lm_tick_t counted = lm_tick_now() - suspended_at;
    if (sleep_ticks > counted) {
        lmk_tick_announce(sleep_ticks - counted);
    }
    lmc_kernel_state = osKernelRunning;
    (void)lm_sched_unlock();
}

uint32_t osKernelGetTickCount(void)
{
    return lm_tick_now();
}

uint32_t osKernelGetTickFreq(void)
{
    return LM_CFG_TICK_HZ;
}

uint32_t osKernelGetSysTimerCount(void)
{
    return lmc_systimer_count();
}

uint32_t osKernelGetSysTimerFreq(void)
{
    return lmc_systimer_freq();
}
