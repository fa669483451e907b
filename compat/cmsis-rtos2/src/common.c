/* SPDX-License-Identifier: Apache-2.0 */
/* The layer's shared pieces: results, fixed pools, priorities. */
#include <string.h>
#include "lmc.h"

osStatus_t lmc_status(lm_status_t s)
{
    switch (s) {
    case LM_OK:
    case LM_ERR_ABANDONED: /* acquired all the same */
        return osOK;
    case LM_ERR_TIMEOUT:
    case LM_ERR_ABORTED: /* osThreadResume ended the wait */
        return osErrorTimeout;
    case LM_ERR_WOULD_BLOCK:
    case LM_ERR_DELETED:
    case LM_ERR_OVERFLOW:
    case LM_ERR_NOT_OWNER:
    case LM_ERR_STATE:
    case LM_ERR_DEADLOCK:
        return osErrorResource;
    case LM_ERR_PARAM:
    case LM_ERR_OBJECT:
    case LM_ERR_PRIORITY:
    case LM_ERR_SIZE:
        return osErrorParameter;
    case LM_ERR_ISR:
        return osErrorISR;
    default: /* LM_ERR_LOCKED, LM_ERR_INIT */
        return osError;
    }
}

osStatus_t lmc_status_wait(lm_status_t s)
{
    return s == LM_ERR_ISR ? osErrorParameter : lmc_status(s);
}

/* Slots are taken and given from threads and before the kernel starts;
 * the interrupt mask makes each one atomic. Cost: O(n). */
int lmc_slot_take(uint8_t *used, unsigned n)
{
    lm_irqstate_t st = lm_port_irq_lock();
    for (unsigned i = 0; i < n; i++) {
        if (used[i] == 0u) {
            used[i] = 1u;
            lm_port_irq_unlock(st);
            return (int)i;
        }
    }
    lm_port_irq_unlock(st);
    return -1;
}

void lmc_slot_give(uint8_t *used, unsigned i)
{
    lm_irqstate_t st = lm_port_irq_lock();
    used[i] = 0u;
    lm_port_irq_unlock(st);
}

void *lmc_cb_take(void *cb_mem, uint32_t cb_size, size_t need, void *pool, uint8_t *used,
                  unsigned n, uint8_t *pooled)
{
    *pooled = 0u;
    if (cb_mem != NULL) {
        if (cb_size < need || ((uintptr_t)cb_mem % sizeof(void *)) != 0u) {
            return NULL;
        }
        return cb_mem;
    }
    if (cb_size != 0u) {
        return NULL; /* a size without memory is a mistake */
    }
    int i = lmc_slot_take(used, n);
    if (i < 0) {
        return NULL;
    }
    *pooled = LMC_POOLED_CB;
    return (uint8_t *)pool + (size_t)i * need;
}

void lmc_cb_give(void *cb, size_t size, void *pool, uint8_t *used)
{
    size_t i = (size_t)((uint8_t *)cb - (uint8_t *)pool) / size;
    lmc_slot_give(used, (unsigned)i);
}

unsigned lmc_prio_from_lm(unsigned lm)
{
#if LM_CFG_PRIORITIES >= 56
    unsigned k = lm;
#else
    /* The most urgent CMSIS level that maps onto lm. */
    unsigned k = (lm * (LM_CMSIS_PRIO_LEVELS - 1u) + LM_CFG_PRIORITIES - 2u) /
                 (LM_CFG_PRIORITIES - 1u);
#endif
    return k >= LM_CMSIS_PRIO_LEVELS ? 1u : LM_CMSIS_PRIO_LEVELS - k;
}

unsigned lm_cmsis_to_lm_priority(unsigned p)
{
    return lmc_prio_to_lm(p);
}

unsigned lm_cmsis_from_lm_priority(unsigned lm)
{
    return lmc_prio_from_lm(lm);
}
