/* SPDX-License-Identifier: Apache-2.0 */
/* What the CMSIS-RTOS2 layer's files share. */
#ifndef LMC_H
#define LMC_H

#include "cmsis_os2.h"
#include "lm_cmsis.h"
#include "limen/port.h"

/* Magic words of the layer's control blocks: an id is checked against its
 * kind before anything reads it. */
#define LMC_MAGIC_THREAD 0x43325468u /* "C2Th" */
#define LMC_MAGIC_TIMER 0x43325469u
#define LMC_MAGIC_EFLAGS 0x4332466Cu
#define LMC_MAGIC_MUTEX 0x43324D75u
#define LMC_MAGIC_SEM 0x43325365u
#define LMC_MAGIC_MPOOL 0x4332506Fu
#define LMC_MAGIC_MQUEUE 0x43325175u

#define LMC_POOLED_CB 0x1u
#define LMC_POOLED_STACK 0x2u

static inline bool lmc_isr(void)
{
    return lm_port_in_isr();
}

/* An id is a live object of the kind `magic`: not NULL, aligned, magic. */
static inline bool lmc_valid(const void *id, uint32_t magic)
{
    return id != NULL && ((uintptr_t)id % sizeof(uint32_t)) == 0u &&
           *(const uint32_t *)id == magic;
}

/* An id whose control block begins with its kernel object (semaphores,
 * message queues): not NULL, aligned and, where the kernel keeps magic
 * words (LM_CFG_ARG_CHECKS), the kernel object's `kmagic` in its first
 * word, so that nothing beyond that word is read from memory that is no
 * such object. The layer's own magic word follows the kernel object. */
static inline bool lmc_valid_kobj(const void *id, uint32_t kmagic)
{
#if LM_CFG_ARG_CHECKS
    return lmc_valid(id, kmagic);
#else
    (void)kmagic;
    return id != NULL && ((uintptr_t)id % sizeof(uint32_t)) == 0u;
#endif
}

/* The one check the kernel leaves to a hot call's wrapper: with argument
 * checks on, an id the kernel could not read its magic word through
 * (misaligned; Armv6-M has no unaligned loads) is refused here. Without
 * them nothing is checked, as in the native API. */
static inline bool lmc_misaligned(const void *id)
{
#if LM_CFG_ARG_CHECKS
    return ((uintptr_t)id % sizeof(void *)) != 0u; /* a control block's alignment */
#else
    (void)id;
    return false;
#endif
}

/* A kernel status as the API names it. */
osStatus_t lmc_status(lm_status_t s);
/* The same, with the common case (LM_OK) decided inline. */
static inline osStatus_t lmc_st(lm_status_t s)
{
    return s == LM_OK ? osOK : lmc_status(s);
}

/* The same for a call that may wait (a semaphore's acquire, a message
 * queue's put and get): a wait asked from a handler is a parameter error
 * there (the API's rule), not osErrorISR. */
osStatus_t lmc_status_wait(lm_status_t s);

/* Fixed pools: the first free slot of `used[0..n)`, marked used; -1 if none. */
int lmc_slot_take(uint8_t *used, unsigned n);
void lmc_slot_give(uint8_t *used, unsigned i);

/* Caller memory or a pool slot for a control block. */
void *lmc_cb_take(void *cb_mem, uint32_t cb_size, size_t need, void *pool, uint8_t *used,
                  unsigned n, uint8_t *pooled);
void lmc_cb_give(void *cb, size_t size, void *pool, uint8_t *used);

/* Priority mapping (lm_cmsis.h). Inline: osThreadSetPriority's path. */
static inline unsigned lmc_prio_to_lm(unsigned p)
{
    unsigned k = LM_CMSIS_PRIO_LEVELS - p; /* 0 for osPriorityISR .. 55 for Idle */
#if LM_CFG_PRIORITIES >= 56
    return k;
#else
    return k * (LM_CFG_PRIORITIES - 1u) / (LM_CMSIS_PRIO_LEVELS - 1u);
#endif
}
unsigned lmc_prio_from_lm(unsigned lm);

/* True if t is one of the layer's threads (a CMSIS thread id). */
bool lmc_is_thread(const lm_thread_t *t);

/* The calling CMSIS thread, or NULL (an interrupt, the idle thread). */
lm_cmsis_thread_t *lmc_self(void);

/* The kernel layer's state (kernel.c). */
extern volatile osKernelState_t lmc_kernel_state;
void lmc_threads_reset(void);
void lmc_timers_reset(void);
void lmc_objects_reset(void);
osStatus_t lmc_timer_service_start(void);

/* Threads (thread.c) for the functional-safety calls: the thread of an
 * id (NULL if none), the newest registered thread, and the end of a thread
 * that is not the caller (terminated, then kept for a joiner or forgotten). */
lm_cmsis_thread_t *lmc_thread_of(osThreadId_t id);
lm_cmsis_thread_t *lmc_threads_first(void);
void lmc_thread_end_other(lm_cmsis_thread_t *ct);

#if LM_CMSIS_FUSA
#define LMC_CLASS_MAX 15u
#define LMC_ZONE_MAX 63u
#define LMC_ZONE_NONE 0xFFu /* the timer service thread: no zone of its own */

/* Safety classes (fusa.c). A call is checked when a CMSIS thread makes it:
 * neither main() before osKernelStart, nor an interrupt handler, nor a
 * native thread has a class, and none is refused. */
bool lmc_class_denied(unsigned obj_class);
/* The class of an object created with attr_bits: its osSafetyClass, else
 * the creating thread's (0 without one). False if the caller may not
 * create an object of that class. */
bool lmc_class_new(uint32_t attr_bits, uint8_t *obj_class);
/* The kernel control calls' check (osKernelProtect). */
bool lmc_kernel_denied(void);
/* A thread's safety fields, before it first runs; its watchdog stopped. */
lm_status_t lmc_fusa_thread_init(lm_cmsis_thread_t *ct, uint32_t attr_bits, bool system);
void lmc_fusa_thread_end(lm_cmsis_thread_t *ct);
void lmc_fusa_reset(void);
/* osWatchdogAlarm_Handler is running (watchdog.c): the class calls it may
 * make are allowed in it. */
extern volatile uint8_t lmc_in_alarm;
/* osThreadProtectPrivileged was called. */
extern uint8_t lmc_privileged_protected;
void lmc_watchdog_expired(void *arg);
#endif

#endif /* LMC_H */
