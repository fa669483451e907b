/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Message queues with message priority: the kernel's priority queue
 * (lm_pqueue_t, R10.7), one kernel call per put and per get. CMSIS's
 * msg_prio is higher-first, the kernel's 0-first: the kernel sees
 * 255 - msg_prio. Waiting, timeouts, the waiters' order and interrupt
 * rules are the kernel's, and so are the put's and get's checks: the id
 * is the kernel queue (its first member), whose magic word the kernel
 * reads under its lock, so the layer adds none of its own on those two
 * calls (docs/cmsis-rtos2.md, "Where Limen is stricter").
 */
#include <stddef.h>
#include <string.h>
#include "lmc.h"

#define LMC_MQ_DATA_BYTES \
    ((LM_CMSIS_MSGQUEUE_DATA_SIZE + sizeof(void *) - 1u) / sizeof(void *) * sizeof(void *))
#define LMC_NO_DATA_SLOT 0xFFu

static lm_cmsis_msgqueue_t mq_pool[LM_CMSIS_MSGQUEUE_COUNT];
static uint8_t mq_used[LM_CMSIS_MSGQUEUE_COUNT];
static _Alignas(sizeof(void *)) uint8_t mq_data[LM_CMSIS_MSGQUEUE_COUNT][LMC_MQ_DATA_BYTES];
static uint8_t mq_data_used[LM_CMSIS_MSGQUEUE_COUNT];

void lmc_msgqueues_reset(void);
void lmc_msgqueues_reset(void)
{
    memset(mq_used, 0, sizeof mq_used);
    memset(mq_data_used, 0, sizeof mq_data_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(mq_pool, 0, sizeof mq_pool);
}

_Static_assert(offsetof(lm_cmsis_msgqueue_t, queue) == 0u, "an id is its kernel queue");

static lm_cmsis_msgqueue_t *lmc_mq(osMessageQueueId_t id)
{
    return lmc_valid_kobj(id, LM_MAGIC_PQUEUE) &&
                   ((const lm_cmsis_msgqueue_t *)id)->magic == LMC_MAGIC_MQUEUE
               ? (lm_cmsis_msgqueue_t *)id
               : NULL;
}

osMessageQueueId_t osMessageQueueNew(uint32_t msg_count, uint32_t msg_size,
                                     const osMessageQueueAttr_t *attr)
{
    if (lmc_isr() || lmc_kernel_state == osKernelInactive || msg_count == 0u ||
        msg_size == 0u) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    uint8_t cls;
    if (!lmc_class_new(attr != NULL ? attr->attr_bits : 0u, &cls)) {
        return NULL;
    }
#endif
    uint64_t slot = LM_CMSIS_MSG_SLOT_SIZE((uint64_t)msg_size);
    uint64_t need = (uint64_t)msg_count * slot;
    uint8_t *mem = attr != NULL ? attr->mq_mem : NULL;
    uint32_t mem_size = attr != NULL ? attr->mq_size : 0u;
    if (mem != NULL ? (mem_size < need || ((uintptr_t)mem % sizeof(void *)) != 0u)
                    : (mem_size != 0u || need > LMC_MQ_DATA_BYTES)) {
        return NULL;
    }
    uint8_t pooled;
    lm_cmsis_msgqueue_t *cq =
        lmc_cb_take(attr != NULL ? attr->cb_mem : NULL, attr != NULL ? attr->cb_size : 0u,
                    sizeof *cq, mq_pool, mq_used, LM_CMSIS_MSGQUEUE_COUNT, &pooled);
    if (cq == NULL) {
        return NULL;
    }
    cq->data_slot = LMC_NO_DATA_SLOT;
    if (mem == NULL) {
        int ds = lmc_slot_take(mq_data_used, LM_CMSIS_MSGQUEUE_COUNT);
        if (ds < 0) {
            if (pooled != 0u) {
                lmc_cb_give(cq, sizeof *cq, mq_pool, mq_used);
            }
            return NULL;
        }
        cq->data_slot = (uint8_t)ds;
        mem = mq_data[ds];
    }
    if (lm_pqueue_create(&cq->queue, mem, msg_size, msg_count) != LM_OK) {
        if (cq->data_slot != LMC_NO_DATA_SLOT) {
            lmc_slot_give(mq_data_used, cq->data_slot);
        }
        if (pooled != 0u) {
            lmc_cb_give(cq, sizeof *cq, mq_pool, mq_used);
        }
        return NULL;
    }
    cq->pooled = pooled;
#if LM_CMSIS_FUSA
    cq->sclass = cls;
#endif
    cq->name = attr != NULL ? attr->name : NULL;
    cq->magic = LMC_MAGIC_MQUEUE;
    return cq;
}

const char *osMessageQueueGetName(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->name : NULL;
}

/* Both calls hand their arguments to the kernel as they are: a NULL,
 * dead or foreign id (LM_ERR_PARAM, LM_ERR_OBJECT), a NULL pointer
 * (LM_ERR_PARAM) and a wait from a handler (LM_ERR_ISR) come back as
 * osErrorParameter through lmc_status_wait, out of line; success is 0 in
 * both enumerations. With LM_CMSIS_FUSA the safety class is read first,
 * so the id is checked here before it. */
osStatus_t osMessageQueuePut(osMessageQueueId_t mq_id, const void *msg_ptr, uint8_t msg_prio,
                             uint32_t timeout)
{
#if LM_CMSIS_FUSA
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    if (cq == NULL) {
        return osErrorParameter;
    }
    if (lmc_class_denied(cq->sclass)) {
        return osErrorSafetyClass;
    }
#else
    if (lmc_misaligned(mq_id)) {
        return osErrorParameter;
    }
#endif
    lm_status_t s = lm_pqueue_put(mq_id, msg_ptr, LM_PQUEUE_PRIO_MAX - msg_prio, timeout);
    return s == LM_OK ? osOK : lmc_status_wait(s);
}

osStatus_t osMessageQueueGet(osMessageQueueId_t mq_id, void *msg_ptr, uint8_t *msg_prio,
                             uint32_t timeout)
{
#if LM_CMSIS_FUSA
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    if (cq == NULL) {
        return osErrorParameter;
    }
    if (lmc_class_denied(cq->sclass)) {
        return osErrorSafetyClass;
    }
#else
    if (lmc_misaligned(mq_id)) {
        return osErrorParameter;
    }
#endif
    /* The kernel stores the priority (only on success); it is turned
     * round in place. */
    lm_status_t s = lm_pqueue_get(mq_id, msg_ptr, msg_prio, timeout);
    if (s != LM_OK) {
        return lmc_status_wait(s);
    }
    if (msg_prio != NULL) {
        *msg_prio = (uint8_t)(LM_PQUEUE_PRIO_MAX - *msg_prio);
    }
    return osOK;
}

uint32_t osMessageQueueGetCapacity(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->queue.capacity : 0u;
}

uint32_t osMessageQueueGetMsgSize(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->queue.msg_size : 0u;
}

uint32_t osMessageQueueGetCount(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->queue.count : 0u;
}

uint32_t osMessageQueueGetSpace(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->queue.capacity - cq->queue.count : 0u;
}

/* The queued messages are discarded; blocked senders then put theirs, in
 * priority order, while there is room (R9.2). */
osStatus_t osMessageQueueReset(osMessageQueueId_t mq_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    if (cq == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cq->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    return lmc_st(lm_pqueue_flush(&cq->queue));
}

osStatus_t osMessageQueueDelete(osMessageQueueId_t mq_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    if (cq == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cq->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    cq->magic = 0u;
    (void)lm_pqueue_delete(&cq->queue);
    if (cq->data_slot != LMC_NO_DATA_SLOT) {
        lmc_slot_give(mq_data_used, cq->data_slot);
    }
    if (cq->pooled != 0u) {
        lmc_cb_give(cq, sizeof *cq, mq_pool, mq_used);
    }
    return osOK;
}
