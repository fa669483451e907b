/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Message queues with message priority. The kernel's queue is FIFO (with
 * send-to-front); the API orders messages by priority, FIFO among equals.
 * So a queue here is a list of message slots kept in that order and two
 * kernel semaphores: `slots` counts free slots a sender may claim, `items`
 * messages a receiver may claim. Waiting, timeouts, the waiters' order and
 * interrupt rules are the semaphores'; the list is changed with interrupts
 * masked, the message copied outside.
 */
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

static lm_cmsis_msgqueue_t *lmc_mq(osMessageQueueId_t id)
{
    return lmc_valid(id, LMC_MAGIC_MQUEUE) ? (lm_cmsis_msgqueue_t *)id : NULL;
}

static uint8_t *payload(struct lm_cmsis_msg *m)
{
    return (uint8_t *)m + sizeof *m;
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
    cq->pooled = pooled;
#if LM_CMSIS_FUSA
    cq->sclass = cls;
#endif
    cq->name = attr != NULL ? attr->name : NULL;
    cq->msg_size = msg_size;
    cq->capacity = msg_count;
    cq->count = 0u;
    cq->head = NULL;
    cq->free = NULL;
    for (uint32_t i = msg_count; i-- > 0u;) {
        struct lm_cmsis_msg *m = (struct lm_cmsis_msg *)(void *)(mem + (size_t)i * slot);
        m->next = cq->free;
        cq->free = m;
    }
    (void)lm_sem_create(&cq->items, 0u, msg_count);
    (void)lm_sem_create(&cq->slots, msg_count, msg_count);
    cq->magic = LMC_MAGIC_MQUEUE;
    return cq;
}

const char *osMessageQueueGetName(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->name : NULL;
}

osStatus_t osMessageQueuePut(osMessageQueueId_t mq_id, const void *msg_ptr, uint8_t msg_prio,
                             uint32_t timeout)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    if (cq == NULL || msg_ptr == NULL || (timeout != 0u && lmc_isr())) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cq->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    lm_status_t s = lm_sem_take(&cq->slots, timeout);
    if (s != LM_OK) {
        return lmc_st(s);
    }
    lm_irqstate_t st = lm_port_irq_lock();
    struct lm_cmsis_msg *m = cq->free;
    cq->free = m->next;
    lm_port_irq_unlock(st);
    memcpy(payload(m), msg_ptr, cq->msg_size);
    m->prio = msg_prio;
    /* After the last message of higher or equal priority. Cost: O(messages
     * queued), masked. */
    st = lm_port_irq_lock();
    struct lm_cmsis_msg **p = &cq->head;
    while (*p != NULL && (*p)->prio >= msg_prio) {
        p = &(*p)->next;
    }
    m->next = *p;
    *p = m;
    cq->count++;
    lm_port_irq_unlock(st);
    (void)lm_sem_give(&cq->items);
    return osOK;
}

osStatus_t osMessageQueueGet(osMessageQueueId_t mq_id, void *msg_ptr, uint8_t *msg_prio,
                             uint32_t timeout)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    if (cq == NULL || msg_ptr == NULL || (timeout != 0u && lmc_isr())) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cq->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    lm_status_t s = lm_sem_take(&cq->items, timeout);
    if (s != LM_OK) {
        return lmc_st(s);
    }
    lm_irqstate_t st = lm_port_irq_lock();
    struct lm_cmsis_msg *m = cq->head;
    cq->head = m->next;
    cq->count--;
    lm_port_irq_unlock(st);
    memcpy(msg_ptr, payload(m), cq->msg_size);
    if (msg_prio != NULL) {
        *msg_prio = m->prio;
    }
    st = lm_port_irq_lock();
    m->next = cq->free;
    cq->free = m;
    lm_port_irq_unlock(st);
    (void)lm_sem_give(&cq->slots);
    return osOK;
}

uint32_t osMessageQueueGetCapacity(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->capacity : 0u;
}

uint32_t osMessageQueueGetMsgSize(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->msg_size : 0u;
}

uint32_t osMessageQueueGetCount(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    return cq != NULL ? cq->count : 0u;
}

uint32_t osMessageQueueGetSpace(osMessageQueueId_t mq_id)
{
    lm_cmsis_msgqueue_t *cq = lmc_mq(mq_id);
    uint32_t n = 0;
    if (cq == NULL) {
        return 0u;
    }
    (void)lm_sem_count(&cq->slots, &n);
    return n;
}

/* Each message removed is one `items` unit claimed and one `slots` unit
 * given: a sender waiting for room gets it, in priority order. Messages
 * already claimed by a woken receiver stay for it. */
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
    while (lm_sem_take(&cq->items, LM_NO_WAIT) == LM_OK) {
        lm_irqstate_t st = lm_port_irq_lock();
        struct lm_cmsis_msg *m = cq->head;
        cq->head = m->next;
        cq->count--;
        m->next = cq->free;
        cq->free = m;
        lm_port_irq_unlock(st);
        (void)lm_sem_give(&cq->slots);
    }
    return osOK;
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
    (void)lm_sem_delete(&cq->items);
    (void)lm_sem_delete(&cq->slots);
    if (cq->data_slot != LMC_NO_DATA_SLOT) {
        lmc_slot_give(mq_data_used, cq->data_slot);
    }
    if (cq->pooled != 0u) {
        lmc_cb_give(cq, sizeof *cq, mq_pool, mq_used);
    }
    return osOK;
}
