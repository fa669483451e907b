/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The API 2.3 functional-safety calls (LM_CMSIS_FUSA): safety classes and
 * their checks, kernel protection, suspending, resuming and destroying by
 * class, MPU zones (osZoneSetup_Callback from the kernel's switch hook),
 * terminating a zone, the protection of privileged threads. Thread
 * watchdogs: watchdog.c. What is and is not enforced: docs/cmsis-rtos2.md.
 * Without LM_CMSIS_FUSA every call refuses (osError, osErrorId).
 */
#include "lmc.h"
#include "lmc_fault.h"

#if LM_CMSIS_FUSA

/* The class osKernelProtect set: a thread of a lower class may not use the
 * kernel control calls. */
static uint8_t kernel_class;
uint8_t lmc_privileged_protected;
/* The zone the application last set up (osZoneSetup_Callback). */
static uint8_t zone_current = LMC_ZONE_NONE;

/* The caller's class, or -1 for a caller without one (not checked). */
static int caller_class(void)
{
    if (lmc_isr()) {
        return -1;
    }
    const lm_cmsis_thread_t *self = lmc_self();
    return self != NULL ? (int)self->sclass : -1;
}

bool lmc_class_denied(unsigned obj_class)
{
    int c = caller_class();
    return c >= 0 && obj_class > (unsigned)c;
}

bool lmc_kernel_denied(void)
{
    return lmc_class_denied(kernel_class);
}

bool lmc_class_new(uint32_t attr_bits, uint8_t *obj_class)
{
    int c = caller_class();
    unsigned cls = c >= 0 ? (unsigned)c : 0u;
    if ((attr_bits & osSafetyClass_Valid) != 0u) {
        cls = (unsigned)((attr_bits & osSafetyClass_Msk) >> osSafetyClass_Pos);
        /* Before osKernelStart main() sets up objects of any class. */
        if (lmc_class_denied(cls)) {
            return false;
        }
    }
    if (obj_class != NULL) {
        *obj_class = (uint8_t)cls;
    }
    return true;
}

lm_status_t lmc_fusa_thread_init(lm_cmsis_thread_t *ct, uint32_t attr_bits, bool system)
{
    const lm_cmsis_thread_t *self = lmc_isr() ? NULL : lmc_self();
    (void)lmc_class_new(attr_bits, &ct->sclass); /* osThreadNew checked it */
    if (system) {
        ct->sclass = (uint8_t)LM_CMSIS_TIMER_THREAD_CLASS;
        ct->zone = LMC_ZONE_NONE;
    } else if ((attr_bits & osThreadZone_Valid) != 0u) {
        ct->zone = (uint8_t)((attr_bits & osThreadZone_Msk) >> osThreadZone_Pos);
    } else {
        ct->zone = self != NULL && self->zone != LMC_ZONE_NONE ? self->zone : 0u;
    }
    ct->wdog_on = 0u;
    return lm_timer_create(&ct->wdog, lmc_watchdog_expired, ct);
}

void lmc_fusa_thread_end(lm_cmsis_thread_t *ct)
{
    ct->wdog_on = 0u;
    (void)lm_timer_stop(&ct->wdog);
}

/* The switch hook: the kernel lock is held; no kernel call. A thread
 * without a zone (the idle thread, native threads, the timer service
 * thread) runs with the zone set up last. */
static void zone_switch(const lm_thread_t *from, const lm_thread_t *to)
{
    (void)from;
    if (!lmc_is_thread(to)) {
        return;
    }
    uint8_t z = ((const lm_cmsis_thread_t *)to)->zone;
    if (z != LMC_ZONE_NONE && z != zone_current) {
        zone_current = z;
        osZoneSetup_Callback(z);
    }
}

void lmc_fusa_reset(void)
{
    kernel_class = 0u;
    lmc_privileged_protected = 0u;
    zone_current = LMC_ZONE_NONE;
    lmc_in_alarm = 0u;
    (void)lm_switch_hook_set(zone_switch);
}

__attribute__((weak)) void osZoneSetup_Callback(uint32_t zone)
{
    (void)zone; /* the application's: Limen does not program the MPU for zones */
}

osStatus_t osKernelProtect(uint32_t safety_class)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    if (safety_class > LMC_CLASS_MAX) {
        return osErrorParameter;
    }
    osKernelState_t s = osKernelGetState();
    if (s != osKernelReady && s != osKernelRunning && s != osKernelLocked) {
        return osError;
    }
    if (lmc_kernel_denied()) {
        return osErrorSafetyClass;
    }
    kernel_class = (uint8_t)safety_class;
    return osOK;
}

/* The classes `mode` selects around `safety_class`: [lo, hi], empty when
 * lo > hi. False for a bad class or mode. */
static bool class_range(uint32_t safety_class, uint32_t mode, unsigned *lo, unsigned *hi)
{
    if (safety_class > LMC_CLASS_MAX ||
        (mode & ~(osSafetyWithSameClass | osSafetyWithLowerClass)) != 0u || mode == 0u) {
        return false;
    }
    *lo = (mode & osSafetyWithLowerClass) != 0u ? 0u : safety_class;
    *hi = safety_class;
    if ((mode & osSafetyWithSameClass) == 0u) {
        if (safety_class == 0u) {
            *lo = 1u; /* no class is lower than 0 */
        } else {
            *hi = safety_class - 1u;
        }
    }
    return true;
}

/* The context the class calls share: a thread, or an interrupt handler
 * only while it is osWatchdogAlarm_Handler. */
static osStatus_t class_call_check(uint32_t safety_class, uint32_t mode, unsigned *lo,
                                   unsigned *hi)
{
    if (lmc_isr() && lmc_in_alarm == 0u) {
        return osErrorISR;
    }
    if (!class_range(safety_class, mode, lo, hi)) {
        return osErrorParameter;
    }
    return osOK;
}

enum class_op { OP_SUSPEND, OP_RESUME, OP_DESTROY };

/* Apply op to every registered thread of a class in [lo, hi] but the
 * caller; with the scheduler locked from a thread, so that no thread woken
 * meanwhile changes the registry under the walk. Returns whether the caller
 * is among them. Cost: O(threads registered). */
static bool for_class(unsigned lo, unsigned hi, enum class_op op)
{
    lm_cmsis_thread_t *self = lmc_isr() ? NULL : lmc_self();
    bool locked = !lmc_isr() && lm_sched_lock() == LM_OK;
    bool mine = false;
    lm_cmsis_thread_t *next;
    for (lm_cmsis_thread_t *ct = lmc_threads_first(); ct != NULL; ct = next) {
        next = ct->next;
        if (ct->done != 0u || ct->sclass < lo || ct->sclass > hi) {
            continue;
        }
        if (ct == self) {
            mine = true;
        } else if (op == OP_SUSPEND) {
            (void)lm_thread_suspend(&ct->thread); /* already suspended: stays */
        } else if (op == OP_RESUME) {
            (void)lm_thread_resume(&ct->thread); /* not suspended: unchanged */
        } else {
            lmc_thread_end_other(ct);
        }
    }
    if (locked) {
        (void)lm_sched_unlock();
    }
    return mine;
}

osStatus_t osThreadSuspendClass(uint32_t safety_class, uint32_t mode)
{
    unsigned lo;
    unsigned hi;
    osStatus_t st = class_call_check(safety_class, mode, &lo, &hi);
    if (st != osOK) {
        return st;
    }
    if (lo <= hi && lmc_class_denied(hi)) {
        return osErrorSafetyClass;
    }
    if (lo <= hi && for_class(lo, hi, OP_SUSPEND)) {
        (void)lm_thread_suspend(lm_thread_self()); /* the caller last */
    }
    return osOK;
}

osStatus_t osThreadResumeClass(uint32_t safety_class, uint32_t mode)
{
    unsigned lo;
    unsigned hi;
    osStatus_t st = class_call_check(safety_class, mode, &lo, &hi);
    if (st != osOK) {
        return st;
    }
    if (lo <= hi && lmc_class_denied(hi)) {
        return osErrorSafetyClass;
    }
    if (lo <= hi) {
        (void)for_class(lo, hi, OP_RESUME);
    }
    return osOK;
}

osStatus_t osKernelDestroyClass(uint32_t safety_class, uint32_t mode)
{
    unsigned lo;
    unsigned hi;
    osStatus_t st = class_call_check(safety_class, mode, &lo, &hi);
    if (st != osOK) {
        return st;
    }
    if (lmc_kernel_denied() || (lo <= hi && lmc_class_denied(hi))) {
        return osErrorSafetyClass;
    }
    if (lo <= hi && for_class(lo, hi, OP_DESTROY)) {
        osThreadExit(); /* the caller last */
    }
    return osOK;
}

/* Cost: O(threads registered). */
static osStatus_t terminate_zone(uint32_t zone)
{
    if (zone > LMC_ZONE_MAX) {
        return osErrorParameter;
    }
    lm_cmsis_thread_t *self = lmc_isr() ? NULL : lmc_self();
    bool locked = !lmc_isr() && lm_sched_lock() == LM_OK;
    bool mine = false;
    lm_cmsis_thread_t *next;
    for (lm_cmsis_thread_t *ct = lmc_threads_first(); ct != NULL; ct = next) {
        next = ct->next;
        if (ct->done != 0u || ct->zone != zone) {
            continue;
        }
        if (ct == self) {
            mine = true;
        } else {
            lmc_thread_end_other(ct);
        }
    }
    if (locked) {
        (void)lm_sched_unlock();
    }
    if (mine) {
        osThreadExit();
    }
    return osOK;
}

osStatus_t osThreadTerminateZone(uint32_t zone)
{
    if (!lmc_isr()) {
        return osError;
    }
    if (!lmc_in_fault()) {
        return osErrorISR;
    }
    return terminate_zone(zone);
}

osStatus_t lm_cmsis_terminate_zone(uint32_t zone)
{
    if (lmc_isr() && !lmc_in_fault()) {
        return osErrorISR;
    }
    return terminate_zone(zone);
}

uint32_t osThreadGetClass(osThreadId_t thread_id)
{
    const lm_cmsis_thread_t *ct = lmc_thread_of(thread_id);
    return ct != NULL ? ct->sclass : osErrorId;
}

uint32_t osThreadGetZone(osThreadId_t thread_id)
{
    const lm_cmsis_thread_t *ct = lmc_thread_of(thread_id);
    return ct != NULL && ct->zone != LMC_ZONE_NONE ? ct->zone : osErrorId;
}

osStatus_t osThreadProtectPrivileged(void)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    osKernelState_t s = osKernelGetState();
    if (s != osKernelReady && s != osKernelRunning && s != osKernelLocked) {
        return osError;
    }
    lmc_privileged_protected = 1u;
    return osOK;
}

#else /* !LM_CMSIS_FUSA: the calls refuse */

osStatus_t osKernelProtect(uint32_t safety_class)
{
    (void)safety_class;
    return osError;
}

osStatus_t osKernelDestroyClass(uint32_t safety_class, uint32_t mode)
{
    (void)safety_class;
    (void)mode;
    return osError;
}

osStatus_t osThreadSuspendClass(uint32_t safety_class, uint32_t mode)
{
    (void)safety_class;
    (void)mode;
    return osError;
}

osStatus_t osThreadResumeClass(uint32_t safety_class, uint32_t mode)
{
    (void)safety_class;
    (void)mode;
    return osError;
}

osStatus_t osThreadTerminateZone(uint32_t zone)
{
    (void)zone;
    return osError;
}

osStatus_t lm_cmsis_terminate_zone(uint32_t zone)
{
    (void)zone;
    return osError;
}

uint32_t osThreadGetClass(osThreadId_t thread_id)
{
    (void)thread_id;
    return osErrorId;
}

uint32_t osThreadGetZone(osThreadId_t thread_id)
{
    (void)thread_id;
    return osErrorId;
}

osStatus_t osThreadProtectPrivileged(void)
{
    return osError;
}

#endif

/* Limen cannot return from a fault into the scheduler other than by the
 * handler's own exception return (docs/cmsis-rtos2.md): the call returns,
 * and that return lets a switch that osThreadTerminateZone pended run. */
void osFaultResume(void)
{
}
