/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Timers. The kernel's timer expires in the deferred tick context; the API
 * wants callbacks in a thread, so each expiry is queued (a pointer) for the
 * timer service thread, which calls the callbacks in expiry order at
 * LM_CMSIS_TIMER_THREAD_PRIO.
 */
#include <string.h>
#include "lmc.h"

lm_status_t lmc_thread_start_system(lm_cmsis_thread_t *ct, const char *name, void *stack,
                                    uint32_t size, unsigned prio, void (*func)(void *),
                                    void *arg);

#define LMC_TIMER_STACK_BYTES                                                        \
    ((LM_CMSIS_TIMER_STACK_SIZE + LM_PORT_STACK_ALIGN - 1u) / LM_PORT_STACK_ALIGN * \
     LM_PORT_STACK_ALIGN)

static lm_cmsis_timer_t timer_pool[LM_CMSIS_TIMER_COUNT];
static uint8_t timer_used[LM_CMSIS_TIMER_COUNT];
static lm_cmsis_thread_t service;
static _Alignas(LM_PORT_STACK_ALIGN) uint8_t service_stack[LMC_TIMER_STACK_BYTES];
static lm_queue_t expiries;
static LM_QUEUE_BUFFER_DEFINE(expiries_buf, sizeof(lm_cmsis_timer_t *), LM_CMSIS_TIMER_QUEUE);
static volatile uint32_t dropped;

void lmc_timers_reset(void)
{
    memset(timer_used, 0, sizeof timer_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(timer_pool, 0, sizeof timer_pool);
    dropped = 0u;
}

uint32_t lm_cmsis_timer_dropped(void)
{
    return dropped;
}

static lm_cmsis_timer_t *lmc_timer(osTimerId_t id)
{
    return lmc_valid(id, LMC_MAGIC_TIMER) ? (lm_cmsis_timer_t *)id : NULL;
}

/* The kernel's callback, in the deferred tick context. */
static void expired(void *arg)
{
    lm_cmsis_timer_t *ct = arg;
    lm_irqstate_t st = lm_port_irq_lock();
    ct->queued++;
    if (lm_queue_send(&expiries, &ct, sizeof(lm_cmsis_timer_t *), LM_NO_WAIT) != LM_OK) {
        ct->queued--;
        dropped++;
    }
    lm_port_irq_unlock(st);
}

static void service_loop(void *arg)
{
    (void)arg;
    for (;;) {
        lm_cmsis_timer_t *ct;
        if (lm_queue_receive(&expiries, &ct, sizeof(lm_cmsis_timer_t *), LM_WAIT_FOREVER) != LM_OK) {
            continue;
        }
        /* A timer deleted since its expiry was queued has no magic (or, its
         * memory reused, nothing queued): nothing to call. */
        void (*fn)(void *) = NULL;
        void *fn_arg = NULL;
        lm_irqstate_t st = lm_port_irq_lock();
        if (ct->magic == LMC_MAGIC_TIMER && ct->queued != 0u) {
            ct->queued--;
            fn = ct->func;
            fn_arg = ct->arg;
        }
        lm_port_irq_unlock(st);
        if (fn != NULL) {
            fn(fn_arg);
        }
    }
}

osStatus_t lmc_timer_service_start(void)
{
    memset(&expiries, 0, sizeof expiries);
    memset(&service, 0, sizeof service);
    if (lm_queue_create(&expiries, expiries_buf, sizeof(lm_cmsis_timer_t *),
                        LM_CMSIS_TIMER_QUEUE) != LM_OK) {
        return osError;
    }
    return lmc_thread_start_system(&service, "timer", service_stack, sizeof service_stack,
                                   LM_CMSIS_TIMER_THREAD_PRIO, service_loop, NULL) == LM_OK
               ? osOK
               : osError;
}

osTimerId_t osTimerNew(osTimerFunc_t func, osTimerType_t type, void *argument,
                       const osTimerAttr_t *attr)
{
    if (lmc_isr() || func == NULL || (type != osTimerOnce && type != osTimerPeriodic) ||
        lmc_kernel_state == osKernelInactive) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    uint8_t cls;
    if (!lmc_class_new(attr != NULL ? attr->attr_bits : 0u, &cls)) {
        return NULL;
    }
#endif
    uint8_t pooled;
    lm_cmsis_timer_t *ct = lmc_cb_take(attr != NULL ? attr->cb_mem : NULL,
                                       attr != NULL ? attr->cb_size : 0u, sizeof *ct,
                                       timer_pool, timer_used, LM_CMSIS_TIMER_COUNT, &pooled);
    if (ct == NULL) {
        return NULL;
    }
    ct->pooled = pooled;
#if LM_CMSIS_FUSA
    ct->sclass = cls;
#endif
    ct->func = func;
    ct->arg = argument;
    ct->name = attr != NULL ? attr->name : NULL;
    ct->queued = 0u;
    ct->periodic = type == osTimerPeriodic ? 1u : 0u;
    (void)lm_timer_create(&ct->timer, expired, ct);
    ct->magic = LMC_MAGIC_TIMER;
    return ct;
}

const char *osTimerGetName(osTimerId_t timer_id)
{
    lm_cmsis_timer_t *ct = lmc_timer(timer_id);
    return ct != NULL ? ct->name : NULL;
}

osStatus_t osTimerStart(osTimerId_t timer_id, uint32_t ticks)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_timer_t *ct = lmc_timer(timer_id);
    if (ct == NULL || ticks == 0u || ticks > LM_TICK_MAX_TIMEOUT) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    return lmc_st(lm_timer_start(&ct->timer, ticks, ct->periodic != 0u ? ticks : 0u));
}

osStatus_t osTimerStop(osTimerId_t timer_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_timer_t *ct = lmc_timer(timer_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    return lmc_st(lm_timer_stop(&ct->timer));
}

uint32_t osTimerIsRunning(osTimerId_t timer_id)
{
    lm_cmsis_timer_t *ct = lmc_timer(timer_id);
    if (lmc_isr() || ct == NULL) {
        return 0u;
    }
    return lm_timer_active(&ct->timer) ? 1u : 0u;
}

osStatus_t osTimerDelete(osTimerId_t timer_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_timer_t *ct = lmc_timer(timer_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    (void)lm_timer_delete(&ct->timer);
    ct->magic = 0u;
    if (ct->pooled != 0u) {
        lmc_cb_give(ct, sizeof *ct, timer_pool, timer_used);
    }
    return osOK;
}
