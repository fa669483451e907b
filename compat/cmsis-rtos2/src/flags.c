/* SPDX-License-Identifier: Apache-2.0 */
/* Thread flags and event flags: both are the kernel's event flags (a
 * thread's own in its control block), with the API's 31 usable bits. */
#include <string.h>
#include "lmc.h"

#define LMC_FLAGS_MASK 0x7FFFFFFFu

static lm_cmsis_event_flags_t ef_pool[LM_CMSIS_EVENT_FLAGS_COUNT];
static uint8_t ef_used[LM_CMSIS_EVENT_FLAGS_COUNT];

void lmc_event_flags_reset(void);
void lmc_event_flags_reset(void)
{
    memset(ef_used, 0, sizeof ef_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(ef_pool, 0, sizeof ef_pool);
}

/* Set, then read back: the waiters woken by the set have consumed their
 * bits by then, and the API returns the flags as they are after that. */
static uint32_t set(lm_flags_t *f, uint32_t flags)
{
    uint32_t now = 0;
    lm_irqstate_t st = lm_port_irq_lock();
    (void)lm_flags_set(f, flags);
    (void)lm_flags_get(f, &now);
    lm_port_irq_unlock(st);
    return now;
}

static uint32_t clear(lm_flags_t *f, uint32_t flags)
{
    uint32_t before = 0;
    lm_irqstate_t st = lm_port_irq_lock();
    (void)lm_flags_get(f, &before);
    (void)lm_flags_clear(f, flags);
    lm_port_irq_unlock(st);
    return before;
}

static uint32_t wait(lm_flags_t *f, uint32_t flags, uint32_t options, uint32_t timeout)
{
    if ((options & ~(osFlagsWaitAll | osFlagsNoClear)) != 0u) {
        return osFlagsErrorParameter;
    }
    unsigned opt = (options & osFlagsWaitAll) != 0u ? LM_FLAGS_ALL : LM_FLAGS_ANY;
    if ((options & osFlagsNoClear) == 0u) {
        opt |= LM_FLAGS_CONSUME;
    }
    uint32_t actual = 0;
    switch (lm_flags_wait(f, flags, opt, &actual, timeout)) {
    case LM_OK:
        return actual;
    case LM_ERR_WOULD_BLOCK:
    case LM_ERR_DELETED:
        return osFlagsErrorResource;
    case LM_ERR_TIMEOUT:
    case LM_ERR_ABORTED: /* osThreadResume ended the wait */
        return osFlagsErrorTimeout;
    case LM_ERR_ISR:
        return osFlagsErrorISR;
    case LM_ERR_PARAM:
    case LM_ERR_OBJECT:
        return osFlagsErrorParameter;
    default:
        return osFlagsErrorUnknown;
    }
}

/* ---- thread flags ---- */

uint32_t osThreadFlagsSet(osThreadId_t thread_id, uint32_t flags)
{
    lm_thread_t *t = lm_cmsis_thread(thread_id);
    if (t == NULL || (flags & ~LMC_FLAGS_MASK) != 0u || flags == 0u) {
        return osFlagsErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(((lm_cmsis_thread_t *)thread_id)->sclass)) {
        return osFlagsErrorSafetyClass;
    }
#endif
    return set(&((lm_cmsis_thread_t *)thread_id)->flags, flags);
}

uint32_t osThreadFlagsClear(uint32_t flags)
{
    if (lmc_isr()) {
        return osFlagsErrorISR;
    }
    lm_cmsis_thread_t *self = lmc_self();
    if (self == NULL) {
        return osFlagsErrorUnknown;
    }
    if ((flags & ~LMC_FLAGS_MASK) != 0u) {
        return osFlagsErrorParameter;
    }
    return clear(&self->flags, flags);
}

uint32_t osThreadFlagsGet(void)
{
    lm_cmsis_thread_t *self = lmc_self();
    uint32_t bits = 0;
    if (lmc_isr() || self == NULL) {
        return 0u;
    }
    (void)lm_flags_get(&self->flags, &bits);
    return bits;
}

uint32_t osThreadFlagsWait(uint32_t flags, uint32_t options, uint32_t timeout)
{
    if (lmc_isr()) {
        return osFlagsErrorISR;
    }
    lm_cmsis_thread_t *self = lmc_self();
    if (self == NULL) {
        return osFlagsErrorUnknown;
    }
    if ((flags & ~LMC_FLAGS_MASK) != 0u || flags == 0u) {
        return osFlagsErrorParameter;
    }
    return wait(&self->flags, flags, options, timeout);
}

/* ---- event flags ---- */

static lm_cmsis_event_flags_t *lmc_ef(osEventFlagsId_t id)
{
    return lmc_valid(id, LMC_MAGIC_EFLAGS) ? (lm_cmsis_event_flags_t *)id : NULL;
}

osEventFlagsId_t osEventFlagsNew(const osEventFlagsAttr_t *attr)
{
    if (lmc_isr() || lmc_kernel_state == osKernelInactive) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    uint8_t cls;
    if (!lmc_class_new(attr != NULL ? attr->attr_bits : 0u, &cls)) {
        return NULL;
    }
#endif
    uint8_t pooled;
    lm_cmsis_event_flags_t *ce =
        lmc_cb_take(attr != NULL ? attr->cb_mem : NULL, attr != NULL ? attr->cb_size : 0u,
                    sizeof *ce, ef_pool, ef_used, LM_CMSIS_EVENT_FLAGS_COUNT, &pooled);
    if (ce == NULL) {
        return NULL;
    }
    ce->pooled = pooled;
#if LM_CMSIS_FUSA
    ce->sclass = cls;
#endif
    ce->name = attr != NULL ? attr->name : NULL;
    (void)lm_flags_create(&ce->flags, 0u);
    ce->magic = LMC_MAGIC_EFLAGS;
    return ce;
}

const char *osEventFlagsGetName(osEventFlagsId_t ef_id)
{
    lm_cmsis_event_flags_t *ce = lmc_ef(ef_id);
    return ce != NULL ? ce->name : NULL;
}

uint32_t osEventFlagsSet(osEventFlagsId_t ef_id, uint32_t flags)
{
    lm_cmsis_event_flags_t *ce = lmc_ef(ef_id);
    if (ce == NULL || (flags & ~LMC_FLAGS_MASK) != 0u || flags == 0u) {
        return osFlagsErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ce->sclass)) {
        return osFlagsErrorSafetyClass;
    }
#endif
    return set(&ce->flags, flags);
}

uint32_t osEventFlagsClear(osEventFlagsId_t ef_id, uint32_t flags)
{
    lm_cmsis_event_flags_t *ce = lmc_ef(ef_id);
    if (ce == NULL || (flags & ~LMC_FLAGS_MASK) != 0u) {
        return osFlagsErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ce->sclass)) {
        return osFlagsErrorSafetyClass;
    }
#endif
    return clear(&ce->flags, flags);
}

uint32_t osEventFlagsGet(osEventFlagsId_t ef_id)
{
    lm_cmsis_event_flags_t *ce = lmc_ef(ef_id);
    uint32_t bits = 0;
    if (ce == NULL) {
        return 0u;
    }
    (void)lm_flags_get(&ce->flags, &bits);
    return bits;
}

uint32_t osEventFlagsWait(osEventFlagsId_t ef_id, uint32_t flags, uint32_t options,
                          uint32_t timeout)
{
    lm_cmsis_event_flags_t *ce = lmc_ef(ef_id);
    if (ce == NULL || (flags & ~LMC_FLAGS_MASK) != 0u || flags == 0u) {
        return osFlagsErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ce->sclass)) {
        return osFlagsErrorSafetyClass;
    }
#endif
    if (lmc_isr() && timeout != 0u) {
        return osFlagsErrorParameter;
    }
    return wait(&ce->flags, flags, options, timeout);
}

osStatus_t osEventFlagsDelete(osEventFlagsId_t ef_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_event_flags_t *ce = lmc_ef(ef_id);
    if (ce == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ce->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    ce->magic = 0u;
    (void)lm_flags_delete(&ce->flags);
    if (ce->pooled != 0u) {
        lmc_cb_give(ce, sizeof *ce, ef_pool, ef_used);
    }
    return osOK;
}
