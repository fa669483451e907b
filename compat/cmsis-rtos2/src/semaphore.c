/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Semaphores: the kernel's counting semaphores. The id is the kernel
 * semaphore (the first member): the acquire and the release hand it to the
 * kernel, whose checks stand for the layer's (as message queues do,
 * msgqueue.c).
 */
#include <stddef.h>
#include <string.h>
#include "lmc.h"

static lm_cmsis_semaphore_t sem_pool[LM_CMSIS_SEMAPHORE_COUNT];
static uint8_t sem_used[LM_CMSIS_SEMAPHORE_COUNT];

void lmc_semaphores_reset(void);
void lmc_semaphores_reset(void)
{
    memset(sem_used, 0, sizeof sem_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(sem_pool, 0, sizeof sem_pool);
}

_Static_assert(offsetof(lm_cmsis_semaphore_t, sem) == 0u, "an id is its kernel semaphore");

static lm_cmsis_semaphore_t *lmc_sem(osSemaphoreId_t id)
{
    return lmc_valid_kobj(id, LM_MAGIC_SEM) &&
                   ((const lm_cmsis_semaphore_t *)id)->magic == LMC_MAGIC_SEM
               ? (lm_cmsis_semaphore_t *)id
               : NULL;
}

osSemaphoreId_t osSemaphoreNew(uint32_t max_count, uint32_t initial_count,
                               const osSemaphoreAttr_t *attr)
{
    if (lmc_isr() || lmc_kernel_state == osKernelInactive || max_count == 0u ||
        initial_count > max_count) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    uint8_t cls;
    if (!lmc_class_new(attr != NULL ? attr->attr_bits : 0u, &cls)) {
        return NULL;
    }
#endif
    uint8_t pooled;
    lm_cmsis_semaphore_t *cs =
        lmc_cb_take(attr != NULL ? attr->cb_mem : NULL, attr != NULL ? attr->cb_size : 0u,
                    sizeof *cs, sem_pool, sem_used, LM_CMSIS_SEMAPHORE_COUNT, &pooled);
    if (cs == NULL) {
        return NULL;
    }
    cs->pooled = pooled;
#if LM_CMSIS_FUSA
    cs->sclass = cls;
#endif
    cs->name = attr != NULL ? attr->name : NULL;
    (void)lm_sem_create(&cs->sem, initial_count, max_count);
    cs->magic = LMC_MAGIC_SEM;
    return cs;
}

const char *osSemaphoreGetName(osSemaphoreId_t semaphore_id)
{
    lm_cmsis_semaphore_t *cs = lmc_sem(semaphore_id);
    return cs != NULL ? cs->name : NULL;
}

/* A wait from a handler is the kernel's LM_ERR_ISR, osErrorParameter
 * here; a count at its maximum is LM_ERR_OVERFLOW, osErrorResource. */
osStatus_t osSemaphoreAcquire(osSemaphoreId_t semaphore_id, uint32_t timeout)
{
#if LM_CMSIS_FUSA
    lm_cmsis_semaphore_t *cs = lmc_sem(semaphore_id);
    if (cs == NULL) {
        return osErrorParameter;
    }
    if (lmc_class_denied(cs->sclass)) {
        return osErrorSafetyClass;
    }
#else
    if (lmc_misaligned(semaphore_id)) {
        return osErrorParameter;
    }
#endif
    lm_status_t s = lm_sem_take(semaphore_id, timeout);
    return s == LM_OK ? osOK : lmc_status_wait(s);
}

osStatus_t osSemaphoreRelease(osSemaphoreId_t semaphore_id)
{
#if LM_CMSIS_FUSA
    lm_cmsis_semaphore_t *cs = lmc_sem(semaphore_id);
    if (cs == NULL) {
        return osErrorParameter;
    }
    if (lmc_class_denied(cs->sclass)) {
        return osErrorSafetyClass;
    }
#else
    if (lmc_misaligned(semaphore_id)) {
        return osErrorParameter;
    }
#endif
    return lmc_st(lm_sem_give(semaphore_id));
}

uint32_t osSemaphoreGetCount(osSemaphoreId_t semaphore_id)
{
    lm_cmsis_semaphore_t *cs = lmc_sem(semaphore_id);
    uint32_t count = 0;
    if (cs == NULL) {
        return 0u;
    }
    (void)lm_sem_count(&cs->sem, &count);
    return count;
}

osStatus_t osSemaphoreDelete(osSemaphoreId_t semaphore_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_semaphore_t *cs = lmc_sem(semaphore_id);
    if (cs == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cs->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    cs->magic = 0u;
    (void)lm_sem_delete(&cs->sem);
    if (cs->pooled != 0u) {
        lmc_cb_give(cs, sizeof *cs, sem_pool, sem_used);
    }
    return osOK;
}
