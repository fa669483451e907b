/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Control blocks of the CMSIS-RTOS2 layer, public so that the application
 * can give cb_mem of the right size (LM_CMSIS_*_CB_SIZE) and alignment
 * (LM_CMSIS_CB_ALIGN); their fields are private. Also the memory a pool or
 * a queue needs for its data, and the layer's own extras.
 */
#ifndef LM_CMSIS_H
#define LM_CMSIS_H

#include "limen/limen.h"
#include "cmsis_os2.h"
#include "lm_cmsis_config.h"

/* CMSIS priorities (1..56, higher is more urgent) onto Limen's (0 most
 * urgent): with 56 or more kernel priorities each CMSIS level has its own,
 * 56 - p; with fewer, the 56 levels are spread over them in order, so some
 * neighbours share one (docs/cmsis-rtos2.md). */
#define LM_CMSIS_PRIO_LEVELS 56u

typedef struct lm_cmsis_thread {
    lm_thread_t thread;              /* first: the kernel's thread */
    uint32_t magic;
    struct lm_cmsis_thread *next;    /* in the registry of live threads */
    struct lm_cmsis_thread *joins;   /* the thread it waits for in osThreadJoin */
    lm_flags_t flags;                /* the thread's flags */
    lm_flags_t ended;                /* bit 0 once it ended, for the joiner */
    void (*func)(void *arg);
    void *arg;
    uint32_t stack_size;             /* as asked (osThreadGetStackSize) */
    uint32_t stack_bytes;            /* as given to the kernel */
    uint32_t affinity;
    uint8_t prio;                    /* CMSIS base priority */
    uint8_t joinable;
    uint8_t done;                    /* ended (returned, exited, terminated) */
    uint8_t pooled;                  /* LMC_POOLED_CB | LMC_POOLED_STACK */
    uint8_t joining;                 /* a thread waits in osThreadJoin */
    uint8_t stack_slot;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class, 0..15 */
    uint8_t zone;                    /* MPU protected zone, 0..63 */
    uint8_t wdog_on;                 /* its watchdog is armed */
    lm_tick_t wdog_due;              /* the tick it expires on */
    lm_timer_t wdog;                 /* the watchdog */
#endif
} lm_cmsis_thread_t;

typedef struct lm_cmsis_timer {
    uint32_t magic;
    lm_timer_t timer;
    void (*func)(void *arg);
    void *arg;
    const char *name;
    uint32_t queued;                 /* expiries waiting for the service thread */
    uint8_t periodic;
    uint8_t pooled;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class (in what was padding) */
#endif
} lm_cmsis_timer_t;

typedef struct lm_cmsis_event_flags {
    uint32_t magic;
    lm_flags_t flags;
    const char *name;
    uint8_t pooled;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class (in what was padding) */
#endif
} lm_cmsis_event_flags_t;

typedef struct lm_cmsis_mutex {
    uint32_t magic;
    lm_mutex_t mutex;
    const char *name;
    uint8_t attr;                    /* osMutexRecursive | PrioInherit | Robust */
    uint8_t pooled;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class (in what was padding) */
#endif
} lm_cmsis_mutex_t;

typedef struct lm_cmsis_semaphore {
    lm_sem_t sem;                    /* first: the id is the kernel's semaphore */
    uint32_t magic;
    const char *name;
    uint8_t pooled;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class (in what was padding) */
#endif
} lm_cmsis_semaphore_t;

typedef struct lm_cmsis_mempool {
    uint32_t magic;
    lm_pool_t pool;
    const char *name;
    uint32_t block_size;             /* as asked */
    uint8_t pooled;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class (in what was padding) */
#endif
    uint8_t data_slot;
} lm_cmsis_mempool_t;

typedef struct lm_cmsis_msgqueue {
    lm_pqueue_t queue;               /* first: the id is the kernel's priority queue */
    uint32_t magic;
    const char *name;
    uint8_t pooled;
#if LM_CMSIS_FUSA
    uint8_t sclass;                  /* safety class (in what was padding) */
#endif
    uint8_t data_slot;
} lm_cmsis_msgqueue_t;

#define LM_CMSIS_CB_ALIGN _Alignof(lm_cmsis_thread_t)
#define LM_CMSIS_THREAD_CB_SIZE sizeof(lm_cmsis_thread_t)
#define LM_CMSIS_TIMER_CB_SIZE sizeof(lm_cmsis_timer_t)
#define LM_CMSIS_EVENT_FLAGS_CB_SIZE sizeof(lm_cmsis_event_flags_t)
#define LM_CMSIS_MUTEX_CB_SIZE sizeof(lm_cmsis_mutex_t)
#define LM_CMSIS_SEMAPHORE_CB_SIZE sizeof(lm_cmsis_semaphore_t)
#define LM_CMSIS_MEMPOOL_CB_SIZE sizeof(lm_cmsis_mempool_t)
#define LM_CMSIS_MSGQUEUE_CB_SIZE sizeof(lm_cmsis_msgqueue_t)

/* Bytes of mp_mem a pool of `count` blocks of `size` bytes needs. */
#define LM_CMSIS_MEMPOOL_MEM_SIZE(count, size) ((count) * LM_POOL_BLOCK_SIZE(size))
/* Bytes of mq_mem a queue of `count` messages of `size` bytes needs. */
#define LM_CMSIS_MSG_SLOT_SIZE(size) LM_PQUEUE_SLOT_SIZE(size)
#define LM_CMSIS_MSGQUEUE_MEM_SIZE(count, size) ((count) * LM_CMSIS_MSG_SLOT_SIZE(size))

/* The priority mapping (docs/cmsis-rtos2.md): the Limen priority of CMSIS
 * priority p (1..56), and the most urgent CMSIS priority whose Limen
 * priority is lm (0..LM_CFG_PRIORITIES-1). Context: any. Cost: O(1). */
unsigned lm_cmsis_to_lm_priority(unsigned p);
unsigned lm_cmsis_from_lm_priority(unsigned lm);

/* Timer expiries dropped because the service thread's queue was full. */
uint32_t lm_cmsis_timer_dropped(void);

/* Back to osKernelInactive, for a system (or a test) that initialises the
 * kernel again after lm_kernel_start() returned (the hosted port). */
void lm_cmsis_reset(void);

/* Terminate the threads of MPU protected zone `zone` (0..63) as
 * osThreadTerminateZone does, from a thread as well (a supervisor), where
 * the API's call is for fault handlers only: the caller, if in the zone,
 * last. LM_CMSIS_FUSA only. Context: thread, fault handler.
 * Cost: O(threads registered). */
osStatus_t lm_cmsis_terminate_zone(uint32_t zone);

/* The Limen thread of a CMSIS thread id, and back (NULL if it is none). */
lm_thread_t *lm_cmsis_thread(void *thread_id);

#endif /* LM_CMSIS_H */
