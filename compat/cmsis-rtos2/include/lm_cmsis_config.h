/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Configuration of the CMSIS-RTOS2 layer: the fixed pools that objects
 * created without cb_mem / stack_mem come from, and the timer service
 * thread. Override any option in the header named by LM_CONFIG_HEADER (the
 * kernel's configuration header, so one header configures both).
 */
#ifndef LM_CMSIS_CONFIG_H
#define LM_CMSIS_CONFIG_H

#include "limen/config.h"
#include "limen_port.h"

/* Control blocks of each kind the layer can hand out when cb_mem is NULL.
 * A request beyond them returns NULL. Memory: count * the control block's
 * size (LM_CMSIS_*_CB_SIZE in lm_cmsis.h). */
#ifndef LM_CMSIS_THREAD_COUNT
#define LM_CMSIS_THREAD_COUNT 8
#endif
#ifndef LM_CMSIS_TIMER_COUNT
#define LM_CMSIS_TIMER_COUNT 8
#endif
#ifndef LM_CMSIS_EVENT_FLAGS_COUNT
#define LM_CMSIS_EVENT_FLAGS_COUNT 8
#endif
#ifndef LM_CMSIS_MUTEX_COUNT
#define LM_CMSIS_MUTEX_COUNT 8
#endif
#ifndef LM_CMSIS_SEMAPHORE_COUNT
#define LM_CMSIS_SEMAPHORE_COUNT 8
#endif
#ifndef LM_CMSIS_MEMPOOL_COUNT
#define LM_CMSIS_MEMPOOL_COUNT 4
#endif
#ifndef LM_CMSIS_MSGQUEUE_COUNT
#define LM_CMSIS_MSGQUEUE_COUNT 4
#endif

/* Thread stacks handed out when stack_mem is NULL: LM_CMSIS_STACK_COUNT
 * stacks of LM_CMSIS_STACK_SIZE bytes. A thread asking for more than
 * LM_CMSIS_STACK_SIZE without stack_mem gets NULL; stack_size 0 means
 * LM_CMSIS_STACK_SIZE. */
#ifndef LM_CMSIS_STACK_COUNT
#define LM_CMSIS_STACK_COUNT LM_CMSIS_THREAD_COUNT
#endif
#ifndef LM_CMSIS_STACK_SIZE
#if LM_PORT_MIN_STACK > 1024u
#define LM_CMSIS_STACK_SIZE (2u * LM_PORT_MIN_STACK)
#else
#define LM_CMSIS_STACK_SIZE 1024u
#endif
#endif

/* Data memory of a memory pool or message queue created without mp_mem /
 * mq_mem: each pooled object owns a buffer of this many bytes, so a pool's
 * blocks (LM_CMSIS_MEMPOOL_MEM_SIZE) or a queue's messages
 * (LM_CMSIS_MSGQUEUE_MEM_SIZE) must fit in it, else NULL. */
#ifndef LM_CMSIS_MEMPOOL_DATA_SIZE
#define LM_CMSIS_MEMPOOL_DATA_SIZE 512u
#endif
#ifndef LM_CMSIS_MSGQUEUE_DATA_SIZE
#define LM_CMSIS_MSGQUEUE_DATA_SIZE 512u
#endif

/* The timer service thread, which runs the timers' callbacks in thread
 * context: its CMSIS priority, its stack size in bytes, and how many expiries
 * may wait for it (an expiry beyond them is dropped and counted,
 * lm_cmsis_timer_dropped()). */
#ifndef LM_CMSIS_TIMER_THREAD_PRIO
#define LM_CMSIS_TIMER_THREAD_PRIO 40 /* osPriorityHigh */
#endif
#ifndef LM_CMSIS_TIMER_STACK_SIZE
#define LM_CMSIS_TIMER_STACK_SIZE LM_CMSIS_STACK_SIZE
#endif
#ifndef LM_CMSIS_TIMER_QUEUE
#define LM_CMSIS_TIMER_QUEUE 8
#endif

/* The API 2.3 functional-safety calls (docs/cmsis-rtos2.md, "Functional
 * safety"): safety classes on threads and objects and their checks,
 * osKernelProtect, thread watchdogs, MPU zones (osZoneSetup_Callback from
 * the switch hook, which the layer then owns). 0: the calls exist and
 * return osError (osErrorId), the class and zone attribute bits are
 * ignored, and no object grows. */
#ifndef LM_CMSIS_FUSA
#define LM_CMSIS_FUSA 0
#endif
/* The safety class of the timer service thread, and so of the timer
 * callbacks' calls (LM_CMSIS_FUSA). It has no MPU zone of its own. */
#ifndef LM_CMSIS_TIMER_THREAD_CLASS
#define LM_CMSIS_TIMER_THREAD_CLASS 0
#endif
#if LM_CMSIS_FUSA && !LM_CFG_SWITCH_HOOK
#error "LM_CMSIS_FUSA needs LM_CFG_SWITCH_HOOK (MPU zones are set up at switches)"
#endif

#if LM_CMSIS_THREAD_COUNT > 255 || LM_CMSIS_STACK_COUNT > 255 || LM_CMSIS_TIMER_COUNT > 255 || \
    LM_CMSIS_EVENT_FLAGS_COUNT > 255 || LM_CMSIS_MUTEX_COUNT > 255 ||                      \
    LM_CMSIS_SEMAPHORE_COUNT > 255 || LM_CMSIS_MEMPOOL_COUNT > 255 ||                      \
    LM_CMSIS_MSGQUEUE_COUNT > 255
#error "LM_CMSIS_*_COUNT must be at most 255"
#endif
#if LM_CMSIS_TIMER_THREAD_PRIO < 1 || LM_CMSIS_TIMER_THREAD_PRIO > 55
#error "LM_CMSIS_TIMER_THREAD_PRIO must be a thread priority (osPriorityIdle..osPriorityRealtime7)"
#endif
#if !LM_CFG_SEM || !LM_CFG_MUTEX || !LM_CFG_FLAGS || !LM_CFG_POOL || !LM_CFG_TIMER
#error "the CMSIS-RTOS2 layer needs every kernel object (LM_CFG_SEM, _MUTEX, _FLAGS, _POOL, _TIMER)"
#endif

#endif /* LM_CMSIS_CONFIG_H */
