/* SPDX-License-Identifier: Apache-2.0 */
/* Mutexes: the kernel's (recursive, owner-checked, optionally inheriting);
 * a non-recursive one refuses a second acquire by its owner here. */
#include <string.h>
#include "lmc.h"

static lm_cmsis_mutex_t mutex_pool[LM_CMSIS_MUTEX_COUNT];
static uint8_t mutex_used[LM_CMSIS_MUTEX_COUNT];

void lmc_mutexes_reset(void);
void lmc_mutexes_reset(void)
{
    memset(mutex_used, 0, sizeof mutex_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(mutex_pool, 0, sizeof mutex_pool);
}

static lm_cmsis_mutex_t *lmc_mutex(osMutexId_t id)
{
    return lmc_valid(id, LMC_MAGIC_MUTEX) ? (lm_cmsis_mutex_t *)id : NULL;
}

osMutexId_t osMutexNew(const osMutexAttr_t *attr)
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
    uint32_t bits = attr != NULL ? attr->attr_bits : 0u;
    bits &= ~(uint32_t)(osSafetyClass_Msk | osSafetyClass_Valid); /* the class (fusa.c) */
    if ((bits & ~(osMutexRecursive | osMutexPrioInherit | osMutexRobust)) != 0u) {
        return NULL;
    }
    uint8_t pooled;
    lm_cmsis_mutex_t *cm =
        lmc_cb_take(attr != NULL ? attr->cb_mem : NULL, attr != NULL ? attr->cb_size : 0u,
                    sizeof *cm, mutex_pool, mutex_used, LM_CMSIS_MUTEX_COUNT, &pooled);
    if (cm == NULL) {
        return NULL;
    }
    cm->pooled = pooled;
#if LM_CMSIS_FUSA
    cm->sclass = cls;
#endif
    cm->name = attr != NULL ? attr->name : NULL;
    cm->attr = (uint8_t)bits;
    (void)lm_mutex_create(&cm->mutex,
                          (bits & osMutexPrioInherit) != 0u ? LM_MUTEX_INHERIT : 0u);
    cm->magic = LMC_MAGIC_MUTEX;
    return cm;
}

const char *osMutexGetName(osMutexId_t mutex_id)
{
    lm_cmsis_mutex_t *cm = lmc_mutex(mutex_id);
    return cm != NULL ? cm->name : NULL;
}

osStatus_t osMutexAcquire(osMutexId_t mutex_id, uint32_t timeout)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_mutex_t *cm = lmc_mutex(mutex_id);
    if (cm == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cm->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if ((cm->attr & osMutexRecursive) == 0u && lm_mutex_owner(&cm->mutex) == lm_thread_self()) {
        return osErrorResource;
    }
    return lmc_st(lm_mutex_lock(&cm->mutex, timeout));
}

osStatus_t osMutexRelease(osMutexId_t mutex_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_mutex_t *cm = lmc_mutex(mutex_id);
    if (cm == NULL) {
        return osErrorParameter;
    }
    return lmc_st(lm_mutex_unlock(&cm->mutex));
}

osThreadId_t osMutexGetOwner(osMutexId_t mutex_id)
{
    lm_cmsis_mutex_t *cm = lmc_mutex(mutex_id);
    if (lmc_isr() || cm == NULL) {
        return NULL;
    }
    lm_thread_t *owner = lm_mutex_owner(&cm->mutex);
    return owner != NULL && lmc_is_thread(owner) ? (osThreadId_t)owner : NULL;
}

osStatus_t osMutexDelete(osMutexId_t mutex_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_mutex_t *cm = lmc_mutex(mutex_id);
    if (cm == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cm->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    cm->magic = 0u;
    (void)lm_mutex_delete(&cm->mutex);
    if (cm->pooled != 0u) {
        lmc_cb_give(cm, sizeof *cm, mutex_pool, mutex_used);
    }
    return osOK;
}
