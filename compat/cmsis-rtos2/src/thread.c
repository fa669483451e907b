/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Threads: a CMSIS thread is a Limen thread with the layer's fields around
 * it (registry link, thread flags, join flag, stack size, CMSIS priority).
 * A thread that ends frees its pooled control block and stack only once no
 * other thread can run before it is gone: it first takes Limen's most
 * urgent priority, so no thread created meanwhile can be handed its stack.
 */
#include <string.h>
#include "lmc.h"

#define LMC_STACK_BYTES                                                        \
    ((LM_CMSIS_STACK_SIZE + LM_PORT_STACK_ALIGN - 1u) / LM_PORT_STACK_ALIGN * \
     LM_PORT_STACK_ALIGN)

static lm_cmsis_thread_t thread_pool[LM_CMSIS_THREAD_COUNT];
static uint8_t thread_used[LM_CMSIS_THREAD_COUNT];
static _Alignas(LM_PORT_STACK_ALIGN) uint8_t stack_pool[LM_CMSIS_STACK_COUNT][LMC_STACK_BYTES];
static uint8_t stack_used[LM_CMSIS_STACK_COUNT];
#define LMC_NO_STACK_SLOT 0xFFu

/* Threads created and not yet forgotten (detached and ended, or joined),
 * newest first. Changed with interrupts masked. */
static lm_cmsis_thread_t *registry;

void lmc_threads_reset(void)
{
    memset(thread_used, 0, sizeof thread_used);
    memset(stack_used, 0, sizeof stack_used);
    /* Objects of an earlier run (the hosted port restarts the kernel)
     * are forgotten, not deleted: the kernel they lived in is gone. */
    memset(thread_pool, 0, sizeof thread_pool);
    registry = NULL;
}

static lm_cmsis_thread_t *lmc_thread(osThreadId_t id)
{
    return id != NULL && lmc_valid((const uint8_t *)id + offsetof(lm_cmsis_thread_t, magic), LMC_MAGIC_THREAD)
               ? (lm_cmsis_thread_t *)id
               : NULL;
}

static void entry(void *arg);

lm_cmsis_thread_t *lmc_thread_of(osThreadId_t id)
{
    return lmc_thread(id);
}

lm_cmsis_thread_t *lmc_threads_first(void)
{
    return registry;
}

/* A kernel thread is one of the layer's when it runs the layer's entry:
 * checked before anything past the kernel's control block is read, so a
 * native thread calling the API is told apart without reading beyond its
 * own control block. */
static bool is_cmsis(const lm_thread_t *t)
{
    return t->entry == entry;
}

bool lmc_is_thread(const lm_thread_t *t)
{
    return is_cmsis(t) && ((const lm_cmsis_thread_t *)t)->magic == LMC_MAGIC_THREAD;
}

lm_thread_t *lm_cmsis_thread(void *thread_id)
{
    if (thread_id == NULL) {
        return NULL;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    return ct != NULL ? &ct->thread : NULL;
}

lm_cmsis_thread_t *lmc_self(void)
{
    lm_thread_t *t = lm_thread_self();
    if (t == NULL || !is_cmsis(t)) {
        return NULL;
    }
    lm_cmsis_thread_t *ct = (lm_cmsis_thread_t *)t;
    return ct->magic == LMC_MAGIC_THREAD ? ct : NULL;
}

static void registry_add(lm_cmsis_thread_t *ct)
{
    lm_irqstate_t st = lm_port_irq_lock();
    ct->next = registry;
    registry = ct;
    lm_port_irq_unlock(st);
}

/* Cost: O(threads registered). */
static void registry_remove(lm_cmsis_thread_t *ct)
{
    lm_irqstate_t st = lm_port_irq_lock();
    for (lm_cmsis_thread_t **p = &registry; *p != NULL; p = &(*p)->next) {
        if (*p == ct) {
            *p = ct->next;
            break;
        }
    }
    lm_port_irq_unlock(st);
}

/* Give back what a forgotten thread held. The caller has made sure the
 * thread does not run again, or runs at the most urgent priority until it
 * deletes itself. */
static void release(lm_cmsis_thread_t *ct)
{
    ct->magic = 0u;
#if LM_CMSIS_FUSA
    (void)lm_timer_delete(&ct->wdog);
#endif
    (void)lm_flags_delete(&ct->flags);
    (void)lm_flags_delete(&ct->ended);
    if ((ct->pooled & LMC_POOLED_STACK) != 0u) {
        lmc_slot_give(stack_used, ct->stack_slot);
    }
    if ((ct->pooled & LMC_POOLED_CB) != 0u) {
        lmc_cb_give(ct, sizeof *ct, thread_pool, thread_used);
    }
}

static void entry(void *arg)
{
    lm_cmsis_thread_t *ct = arg;
    ct->func(ct->arg);
    osThreadExit();
}

/* Fill a control block and start its thread; the layer's own timer
 * service thread comes here too, without the registry. */
static lm_status_t start(lm_cmsis_thread_t *ct, const char *name, void *stack, uint32_t size,
                         unsigned prio, bool registered, uint32_t attr_bits)
{
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = name;
    a.entry = entry;
    a.arg = ct;
    a.stack = stack;
    a.stack_size = size;
    a.priority = (uint16_t)lmc_prio_to_lm(prio);
    ct->stack_bytes = size;
    ct->prio = (uint8_t)prio;
    ct->done = 0u;
    ct->joining = 0u;
    ct->affinity = 0u;
    ct->next = NULL;
    ct->joins = NULL;
    lm_status_t s = lm_flags_create(&ct->flags, 0u);
    if (s == LM_OK) {
        s = lm_flags_create(&ct->ended, 0u);
    }
#if LM_CMSIS_FUSA
    if (s == LM_OK) {
        s = lmc_fusa_thread_init(ct, attr_bits, !registered);
    }
#else
    (void)attr_bits;
#endif
    if (s == LM_OK) {
        s = lm_thread_create(&ct->thread, &a);
    }
    if (s != LM_OK) {
        return s;
    }
    ct->magic = LMC_MAGIC_THREAD;
    if (registered) {
        registry_add(ct);
    }
    s = lm_thread_start(&ct->thread);
    if (s != LM_OK) {
        if (registered) {
            registry_remove(ct);
        }
        ct->magic = 0u;
        (void)lm_thread_delete(&ct->thread);
    }
    return s;
}

lm_status_t lmc_thread_start_system(lm_cmsis_thread_t *ct, const char *name, void *stack,
                                    uint32_t size, unsigned prio, void (*func)(void *),
                                    void *arg);
lm_status_t lmc_thread_start_system(lm_cmsis_thread_t *ct, const char *name, void *stack,
                                    uint32_t size, unsigned prio, void (*func)(void *),
                                    void *arg)
{
    ct->func = func;
    ct->arg = arg;
    ct->joinable = 0u;
    ct->pooled = 0u;
    ct->stack_slot = LMC_NO_STACK_SLOT;
    ct->stack_size = size;
    return start(ct, name, stack, size, prio, false, 0u);
}

static bool thread_prio_valid(osPriority_t p)
{
    return p >= osPriorityIdle && p <= osPriorityRealtime7;
}

osThreadId_t osThreadNew(osThreadFunc_t func, void *argument, const osThreadAttr_t *attr)
{
    static const osThreadAttr_t none;
    if (lmc_isr() || func == NULL || lmc_kernel_state == osKernelInactive) {
        return NULL;
    }
    if (attr == NULL) {
        attr = &none;
    }
    osPriority_t prio = attr->priority == osPriorityNone ? osPriorityNormal : attr->priority;
    if (!thread_prio_valid(prio) ||
        (attr->affinity_mask != 0u && attr->affinity_mask != 1u)) {
        return NULL;
    }
#if LM_CMSIS_FUSA
    if (!lmc_class_new(attr->attr_bits, NULL) ||
        ((attr->attr_bits & osThreadPrivileged) != 0u && lmc_privileged_protected != 0u)) {
        return NULL;
    }
#endif
    void *stack = attr->stack_mem;
    uint32_t size = attr->stack_size;
    uint32_t asked = size;
    if (stack != NULL) {
        if (size < LM_PORT_MIN_STACK || ((uintptr_t)stack % LM_PORT_STACK_ALIGN) != 0u) {
            return NULL;
        }
        size -= size % LM_PORT_STACK_ALIGN;
        asked = size;
    } else if (size > LMC_STACK_BYTES) {
        return NULL;
    }
    uint8_t pooled;
    lm_cmsis_thread_t *ct = lmc_cb_take(attr->cb_mem, attr->cb_size, sizeof *ct, thread_pool,
                                        thread_used, LM_CMSIS_THREAD_COUNT, &pooled);
    if (ct == NULL || ((uintptr_t)ct % _Alignof(lm_cmsis_thread_t)) != 0u) {
        return NULL;
    }
    if (ct->magic == LMC_MAGIC_THREAD) {
        return NULL; /* cb_mem holds a thread that is not forgotten yet */
    }
    ct->pooled = pooled;
    ct->stack_slot = LMC_NO_STACK_SLOT;
    if (stack == NULL) {
        int slot = lmc_slot_take(stack_used, LM_CMSIS_STACK_COUNT);
        if (slot < 0) {
            release(ct);
            return NULL;
        }
        ct->stack_slot = (uint8_t)slot;
        ct->pooled |= LMC_POOLED_STACK;
        stack = stack_pool[slot];
        size = LMC_STACK_BYTES;
    }
    ct->func = func;
    ct->arg = argument;
    ct->joinable = (attr->attr_bits & osThreadJoinable) != 0u ? 1u : 0u;
    ct->stack_size = asked != 0u ? asked : size;
    if (start(ct, attr->name, stack, size, (unsigned)prio, true, attr->attr_bits) != LM_OK) {
        release(ct);
        return NULL;
    }
    ct->affinity = attr->affinity_mask;
    return ct;
}

const char *osThreadGetName(osThreadId_t thread_id)
{
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL) {
        return NULL;
    }
    const char *name = lm_thread_name(&ct->thread);
    return name[0] != '\0' ? name : NULL; /* the kernel names a nameless thread "" */
}

osThreadId_t osThreadGetId(void)
{
    return lmc_self();
}

osThreadState_t osThreadGetState(osThreadId_t thread_id)
{
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (lmc_isr() || ct == NULL) {
        return osThreadError;
    }
    if (ct->done != 0u) {
        return osThreadTerminated;
    }
    switch (lm_thread_state(&ct->thread)) {
    case LM_THREAD_INACTIVE:
        return osThreadInactive;
    case LM_THREAD_READY:
        return &ct->thread == lm_thread_self() ? osThreadRunning : osThreadReady;
    case LM_THREAD_TERMINATED:
        return osThreadTerminated;
    default:
        return osThreadBlocked;
    }
}

uint32_t osThreadGetStackSize(osThreadId_t thread_id)
{
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    return lmc_isr() || ct == NULL ? 0u : ct->stack_size;
}

uint32_t osThreadGetStackSpace(osThreadId_t thread_id)
{
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    size_t unused = 0;
    if (lmc_isr() || ct == NULL || lm_thread_stack_unused(&ct->thread, &unused) != LM_OK) {
        return 0u;
    }
    /* A pooled stack may be larger than asked for: report what is left of
     * the size asked for (osThreadGetStackSize). */
    size_t extra = ct->stack_bytes - ct->stack_size;
    return unused > extra ? (uint32_t)(unused - extra) : 0u;
}

osStatus_t osThreadSetPriority(osThreadId_t thread_id, osPriority_t priority)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL || !thread_prio_valid(priority)) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if (ct->done != 0u) {
        return osErrorResource;
    }
    ct->prio = (uint8_t)priority;
    return lmc_st(lm_thread_set_priority(&ct->thread, lmc_prio_to_lm((unsigned)priority)));
}

osPriority_t osThreadGetPriority(osThreadId_t thread_id)
{
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (lmc_isr() || ct == NULL || ct->done != 0u) {
        return osPriorityError;
    }
    unsigned eff = lm_thread_priority(&ct->thread);
    if (eff == lmc_prio_to_lm(ct->prio)) {
        return (osPriority_t)ct->prio;
    }
    return (osPriority_t)lmc_prio_from_lm(eff); /* inherited from a mutex */
}

/* The kernel refuses a handler (LM_ERR_ISR, osErrorISR) itself. */
osStatus_t osThreadYield(void)
{
    return lmc_st(lm_thread_yield());
}

osStatus_t osThreadSuspend(osThreadId_t thread_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if (ct->done != 0u) {
        return osErrorResource;
    }
    return lmc_st(lm_thread_suspend(&ct->thread));
}

osStatus_t osThreadResume(osThreadId_t thread_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if (ct->done != 0u) {
        return osErrorResource;
    }
    /* The API resumes a blocked thread too: a thread waiting (not
     * suspended) has its wait ended, as by a timeout; osDelay returns osOK. */
    lm_status_t s = lm_thread_resume(&ct->thread);
    if (s == LM_ERR_STATE) {
        lm_thread_state_t st = lm_thread_state(&ct->thread);
        if (st == LM_THREAD_BLOCKED || st == LM_THREAD_SLEEPING) {
            s = lm_thread_wait_abort(&ct->thread);
        }
    }
    return lmc_st(s);
}

/* Forget a thread that has ended and that no thread will join. */
static void forget(lm_cmsis_thread_t *ct)
{
    registry_remove(ct);
    (void)lm_thread_delete(&ct->thread);
    release(ct);
}

osStatus_t osThreadDetach(osThreadId_t thread_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if (ct->joinable == 0u || ct->joining != 0u) {
        return osErrorResource;
    }
    ct->joinable = 0u;
    if (ct->done != 0u) {
        forget(ct);
    }
    return osOK;
}

osStatus_t osThreadJoin(osThreadId_t thread_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if (ct->joinable == 0u || ct->joining != 0u || ct == lmc_self()) {
        return osErrorResource;
    }
    lm_cmsis_thread_t *self = lmc_self();
    ct->joining = 1u;
    if (self != NULL) {
        self->joins = ct;
    }
    lm_status_t s = lm_flags_wait(&ct->ended, 1u, LM_FLAGS_ANY, NULL, LM_WAIT_FOREVER);
    if (self != NULL) {
        self->joins = NULL;
    }
    if (s != LM_OK) {
        ct->joining = 0u;
        return lmc_st(s);
    }
    forget(ct);
    return osOK;
}

/* The end of a thread that is not the caller: it is terminated already. */
static void ended_other(lm_cmsis_thread_t *ct)
{
    ct->done = 1u;
#if LM_CMSIS_FUSA
    lmc_fusa_thread_end(ct);
#endif
    if (ct->joins != NULL) {
        ct->joins->joining = 0u; /* it was joining: another thread may */
        ct->joins = NULL;
    }
    /* The running thread, ended from a fault handler (osThreadTerminateZone),
     * cannot be deleted from there: it stays registered, as a joinable one. */
    if (ct->joinable != 0u || &ct->thread == lm_thread_self()) {
        (void)lm_flags_set(&ct->ended, 1u);
    } else {
        forget(ct);
    }
}

void lmc_thread_end_other(lm_cmsis_thread_t *ct)
{
    lm_status_t s = lm_thread_terminate(&ct->thread);
    if (s == LM_OK || s == LM_ERR_STATE) {
        ended_other(ct);
    }
}

_Noreturn void osThreadExit(void)
{
    lm_cmsis_thread_t *ct = lmc_self();
    lm_thread_t *t = lm_thread_self();
    if (ct != NULL && !lmc_isr()) {
#if LM_CMSIS_FUSA
        lmc_fusa_thread_end(ct);
#endif
        /* Most urgent from here on: a joiner woken below, or a thread
         * created in the slots given back, runs only once this one is
         * gone (Limen's priority 0 is osPriorityISR's, no thread's). */
        (void)lm_thread_set_priority(t, 0u);
        ct->done = 1u;
        if (ct->joinable != 0u) {
            (void)lm_flags_set(&ct->ended, 1u);
            (void)lm_thread_terminate(t);
        } else {
            registry_remove(ct);
            release(ct);
            (void)lm_thread_delete(t);
        }
    } else if (!lmc_isr()) {
        (void)lm_thread_terminate(t);
    }
    for (;;) {
        /* not reached from a thread; from an interrupt the call is illegal */
    }
}

osStatus_t osThreadTerminate(osThreadId_t thread_id)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL) {
        return osErrorParameter;
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    if (ct->done != 0u) {
        return osErrorResource;
    }
    if (ct == lmc_self()) {
        osThreadExit();
    }
    lm_status_t s = lm_thread_terminate(&ct->thread);
    if (s != LM_OK && s != LM_ERR_STATE) {
        return lmc_st(s);
    }
    ended_other(ct);
    return osOK;
}

osStatus_t osThreadSetAffinityMask(osThreadId_t thread_id, uint32_t affinity_mask)
{
    if (lmc_isr()) {
        return osErrorISR;
    }
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    if (ct == NULL || (affinity_mask != 0u && affinity_mask != 1u)) {
        return osErrorParameter; /* one processor: 0 (any) or processor 0 */
    }
#if LM_CMSIS_FUSA
    if (lmc_class_denied(ct->sclass)) {
        return osErrorSafetyClass;
    }
#endif
    ct->affinity = affinity_mask;
    return osOK;
}

uint32_t osThreadGetAffinityMask(osThreadId_t thread_id)
{
    lm_cmsis_thread_t *ct = lmc_thread(thread_id);
    return lmc_isr() || ct == NULL ? 0u : ct->affinity;
}

/* Cost of the next two: O(threads registered), interrupts masked. */
uint32_t osThreadGetCount(void)
{
    if (lmc_isr()) {
        return 0u;
    }
    uint32_t n = 0;
    lm_irqstate_t st = lm_port_irq_lock();
    for (const lm_cmsis_thread_t *ct = registry; ct != NULL; ct = ct->next) {
        n += ct->done == 0u ? 1u : 0u;
    }
    lm_port_irq_unlock(st);
    return n;
}

uint32_t osThreadEnumerate(osThreadId_t *thread_array, uint32_t array_items)
{
    if (lmc_isr() || thread_array == NULL || array_items == 0u) {
        return 0u;
    }
    uint32_t n = 0;
    lm_irqstate_t st = lm_port_irq_lock();
    for (lm_cmsis_thread_t *ct = registry; ct != NULL && n < array_items; ct = ct->next) {
        if (ct->done == 0u) {
            thread_array[n++] = ct;
        }
    }
    lm_port_irq_unlock(st);
    return n;
}
