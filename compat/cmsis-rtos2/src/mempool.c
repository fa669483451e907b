/* SPDX-License-Identifier: Apache-2.0 */
/* Memory pools: the kernel's block pools. */
#include <string.h>
#include "lmc.h"

#define LMC_MP_DATA_BYTES \
    ((LM_CMSIS_MEMPOOL_DATA_SIZE + sizeof(void *) - 1u) / sizeof(void *) * sizeof(void *))
#define LMC_NO_DATA_SLOT 0xFFu

static lm_cmsis_mempool_t mp_pool[LM_CMSIS_MEMPOOL_COUNT];
static uint8_t mp_used[LM_CMSIS_MEMPOOL_COUNT];
static _Alignas(sizeof(void *)) uint8_t mp_data[LM_CMSIS_MEMPOOL_COUNT][LMC_MP_DATA_BYTES];
static uint8_t mp_data_used[LM_CMSIS_MEMPOOL_COUNT];

void lmc_mempools_reset(void);
void lmc_mempools_reset(void)
{
    memset(mp_used, 0, sizeof mp_used);
    memset(mp_data_used, 0, sizeof mp_data_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(mp_pool, 0, sizeof mp_pool);
}

static lm_cmsis_mempool_t *lmc_mp(osMemoryPoolId_t id)
{
    return lmc_valid(id, LMC_MAGIC_MPOOL) ? (lm_cmsis_mempool_t *)id : NULL;
}

osMemoryPoolId_t osMemoryPoolNew(uint32_t block_count, uint32_t block_size,
                                 const osMemoryPoolAttr_t *attr)
{
    if (lmc_isr() || lmc_kernel_state == osKernelInactive || block_count == 0u ||
        block_size == 0u) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    uint8_t cls;
    if (!lmc_class_new(attr != NULL ? attr->attr_bits : 0u, &cls)) {
        return NULL;
    }
#endif
    uint64_t need = (uint64_t)block_count * LM_POOL_BLOCK_SIZE((uint64_t)block_size);
    void *mem = attr != NULL ? attr->mp_mem : NULL;
    uint32_t mem_size = attr != NULL ? attr->mp_size : 0u;
    if (mem != NULL ? (mem_size < need || ((uintptr_t)mem % sizeof(void *)) != 0u)
                    : (mem_size != 0u || need > LMC_MP_DATA_BYTES)) {
        return NULL;
    }
    uint8_t pooled;
    lm_cmsis_mempool_t *cp =
        lmc_cb_take(attr != NULL ? attr->cb_mem : NULL, attr != NULL ? attr->cb_size : 0u,
                    sizeof *cp, mp_pool, mp_used, LM_CMSIS_MEMPOOL_COUNT, &pooled);
    if (cp == NULL) {
        return NULL;
    }
    cp->data_slot = LMC_NO_DATA_SLOT;
    if (mem == NULL) {
        int slot = lmc_slot_take(mp_data_used, LM_CMSIS_MEMPOOL_COUNT);
        if (slot < 0) {
            if (pooled != 0u) {
                lmc_cb_give(cp, sizeof *cp, mp_pool, mp_used);
            }
            return NULL;
        }
        cp->data_slot = (uint8_t)slot;
        mem = mp_data[slot];
        mem_size = (uint32_t)need;
    }
    cp->pooled = pooled;
#if LM_CMSIS_FUSA
    cp->sclass = cls;
#endif
    cp->name = attr != NULL ? attr->name : NULL;
    cp->block_size = block_size;
    (void)lm_pool_create(&cp->pool, mem, mem_size, block_size, block_count);
    cp->magic = LMC_MAGIC_MPOOL;
    return cp;
}

const char *osMemoryPoolGetName(osMemoryPoolId_t mp_id)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    return cp != NULL ? cp->name : NULL;
}

void *osMemoryPoolAlloc(osMemoryPoolId_t mp_id, uint32_t timeout)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    void *block = NULL;
    if (cp == NULL || (timeout != 0u && lmc_isr())) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cp->sclass)) {
        return NULL;
    }
#endif
    return lm_pool_alloc(&cp->pool, &block, timeout) == LM_OK ? block : NULL;
}

osStatus_t osMemoryPoolFree(osMemoryPoolId_t mp_id, void *block)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    if (cp == NULL || block == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cp->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    return lmc_st(lm_pool_free(&cp->pool, block));
}

uint32_t osMemoryPoolGetCapacity(osMemoryPoolId_t mp_id)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    return cp != NULL ? cp->pool.block_count : 0u;
}

uint32_t osMemoryPoolGetBlockSize(osMemoryPoolId_t mp_id)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    return cp != NULL ? cp->block_size : 0u;
}

uint32_t osMemoryPoolGetCount(osMemoryPoolId_t mp_id)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    uint32_t free_blocks = 0;
    if (cp == NULL || lm_pool_available(&cp->pool, &free_blocks) != LM_OK) {
        return 0u;
    }
    return cp->pool.block_count - free_blocks;
}

uint32_t osMemoryPoolGetSpace(osMemoryPoolId_t mp_id)
{
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    uint32_t free_blocks = 0;
    if (cp == NULL || lm_pool_available(&cp->pool, &free_blocks) != LM_OK) {
        return 0u;
    }
    return free_blocks;
}

osStatus_t osMemoryPoolDelete(osMemoryPoolId_t mp_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_mempool_t *cp = lmc_mp(mp_id);
    if (cp == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(cp->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    cp->magic = 0u;
    (void)lm_pool_delete(&cp->pool);
    if (cp->data_slot != LMC_NO_DATA_SLOT) {
        lmc_slot_give(mp_data_used, cp->data_slot);
    }
    if (cp->pooled != 0u) {
        lmc_cb_give(cp, sizeof *cp, mp_pool, mp_used);
    }
    return osOK;
}
