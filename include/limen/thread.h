/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Threads.
 *
 * Context column: "thread" = legal from a thread; "isr" = legal from an
 * interrupt handler (and timer callbacks). Calls that would block from an
 * interrupt return LM_ERR_ISR and change nothing.
 */
#ifndef LIMEN_THREAD_H
#define LIMEN_THREAD_H

#include "limen/base.h"
#include "limen_port.h"

typedef void (*lm_thread_entry_t)(void *arg);

typedef enum lm_thread_state {
    LM_THREAD_INACTIVE = 0, /* created, never started */
    LM_THREAD_READY,        /* ready or running */
    LM_THREAD_BLOCKED,      /* waiting on an object */
    LM_THREAD_SLEEPING,     /* in lm_thread_sleep() or lm_thread_sleep_until() */
    LM_THREAD_SUSPENDED,    /* suspended, not waiting */
    LM_THREAD_TERMINATED    /* ended (returned, terminated) */
} lm_thread_state_t;

/* Use the thread's priority as its preemption-threshold (fully preemptive). */
#define LM_THRESHOLD_NONE 0xFFFFu

typedef struct lm_thread_attr {
    const char *name;        /* kept by pointer, may be NULL */
    lm_thread_entry_t entry; /* runs the thread; returning ends it */
    void *arg;
    void *stack;             /* caller-allocated, see LM_STACK_DEFINE */
    size_t stack_size;       /* bytes, >= LM_PORT_MIN_STACK */
    uint16_t priority;       /* 0 (most urgent) .. LM_CFG_PRIORITIES-1 */
    uint16_t threshold;      /* <= priority, or LM_THRESHOLD_NONE */
    lm_tick_t time_slice;    /* ticks before yielding to equals; 0 = none */
} lm_thread_attr_t;

/* Statistics kept per thread (LM_CFG_STATS), each defined in docs/trace.md
 * ("Kernel statistics") with docs/rules.md. Counts wrap at 2^32. */
typedef struct lm_thread_stats {
    uint32_t switches_in;    /* times it was given the CPU */
    uint32_t preemptions;    /* times it lost the CPU to preemption (R7.2) */
    uint32_t slice_expiries; /* times its time-slice ran out (R2.4) */
    uint32_t relinquishes;   /* its calls of lm_thread_yield (R2.3) */
    uint32_t resumptions;    /* times it was made ready: started, woken, resumed */
    uint32_t suspensions;    /* times it blocked, slept or was suspended */
    uint32_t wait_timeouts;  /* waits of it that timed out (R8.4) */
    uint32_t inversions_bounded; /* its waits that were bounded inversions (R5.2) */
#if LM_STATS_INVERSIONS
    uint32_t inversions_unbounded; /* switches to it that were unbounded
                                      inversions (LM_CFG_STATS_INVERSIONS) */
#endif
#if LM_CFG_STATS_CPU_TIME
    /* Timestamp counts it ran (lm_port_timestamp: from a switch to it to the
     * next switch away, interrupts included), the current run included. */
    uint64_t cpu_time;
#endif
} lm_thread_stats_t;

/* Thread control block. Fields are private. */
typedef struct lm_thread {
    lm_port_context_t ctx;      /* first: the port's switch code finds it here */
#if LM_CFG_ARG_CHECKS
    uint32_t magic;             /* early, so a check on a smaller control block
                                   passed by mistake reads inside it on ports
                                   whose context is small (docs/errors.md) */
#endif
    struct lm_dnode qlink;      /* ready ring, or the wait queue it is in */
    struct lm_timeout timeout;  /* sleep / wait timeout */
    uint16_t prio;              /* effective priority (with inheritance) */
    uint16_t base_prio;         /* priority set by the application */
    uint16_t threshold;         /* preemption-threshold set by the application */
    uint16_t preempt_limit;     /* min(threshold, prio): preempted only by < */
    /* state, wait_kind, yielded and wait_status in one word, in this
     * order: a block writes all four and a wake the first two, each in as
     * few stores as the compiler can merge them into. */
    uint8_t state;              /* lm_thread_state_t */
    uint8_t wait_kind;          /* what kind of object it waits on */
    uint8_t yielded;            /* gave up the CPU (relinquish, slice end) */
    lm_status_t wait_status;    /* result handed over by the waker */
    uint8_t suspended;          /* suspension requested while waiting */
    uint8_t starting;           /* lm_thread_start is filling its stack */
    void *wait_obj;             /* object waited on */
    void *wait_data;            /* message buffer, block pointer, ... */
    uint32_t wait_flags;        /* event-flag request / result */
    uint32_t wait_opt;          /* event-flag options, send-to-front */
    lm_tick_t time_slice;
    lm_tick_t slice_left;
    struct lm_dnode held;       /* mutexes owned (sentinel) */
#if LM_CFG_WAIT_QUEUE_COMPACT
    /* In a compact wait queue (kernel/waitq.c): the first waiter of each
     * priority is a node of the queue's trie and knows its group's last. */
    struct lm_thread *wq_child[2];
    struct lm_thread *wq_last;  /* NULL when not the first of its priority */
#endif
#if LM_CFG_MUTEX
    /* What the thread inherits (R5.2), in O(1): pi_count[p] inheriting
     * mutexes it owns have their most urgent waiter at p, and pi_set holds
     * the p whose count is not zero (kernel/mutex.c). */
    struct lm_prio_set pi_set;
    struct lm_thread *pi_next;  /* in the kernel's list of deferred links */
    uint8_t pi_queued;          /* on that list */
    uint8_t releasing;          /* ended; its mutexes are being released */
#endif
#if LM_STATS_INVERSIONS
    /* Unbounded inversions (kernel/stats.c): inv_count[p] mutexes it owns
     * have their most urgent waiter at p, inheriting or not; inv_set holds
     * those p, inv_lo the most urgent. While inv_lo is more urgent than the
     * thread it is on the kernel's list of such owners (lmk.inv_owners). */
    struct lm_prio_set inv_set;
    struct lm_thread *inv_next;
    struct lm_thread **inv_pprev; /* NULL: not on the list */
    uint16_t inv_lo;
#endif
    lm_thread_entry_t entry;
    void *arg;
    void *stack;
    size_t stack_size;
    const char *name;
#if LM_CFG_STATS
    lm_thread_stats_t stats;
#endif
    /* In the kernel's list of live threads, from its start to its end (for
     * debuggers: tools/gdb/limen_gdb.py). */
    struct lm_dnode live;
#if LM_CFG_MUTEX
    /* Last, and not cleared by lm_thread_create: pi_count[p] is read only
     * while pi_set has bit p, and set when the bit is (kernel/mutex.c). */
    uint16_t pi_count[LM_CFG_PRIORITIES];
#endif
#if LM_STATS_INVERSIONS
    /* After pi_count, not cleared either: read only while inv_set has p. */
    uint16_t inv_count[LM_CFG_PRIORITIES];
#endif
} lm_thread_t;

/* Define a stack of at least `bytes` bytes with the port's alignment. */
#define LM_STACK_DEFINE(name, bytes)                                      \
    _Alignas(LM_PORT_STACK_ALIGN) uint8_t name[((bytes) + LM_PORT_STACK_ALIGN - 1) / \
                                               LM_PORT_STACK_ALIGN * LM_PORT_STACK_ALIGN]

/* Fill attr with defaults: no name, priority LM_CFG_PRIORITIES/2, threshold
 * none, no time-slice. The caller then sets entry, stack and stack_size. */
void lm_thread_attr_init(lm_thread_attr_t *attr);

/* Initialise t from attr; the thread stays INACTIVE until lm_thread_start().
 * Context: thread or before lm_kernel_start(). Cost: O(1), one masked step
 * (the control block's fixed part is cleared under the kernel lock, so a
 * handler never sees it half made; the inheritance counts need no clearing).
 * @retval LM_ERR_INIT   before lm_kernel_init() (checks on)
 * @retval LM_OK
 * @retval LM_ERR_PARAM  t, attr, entry or stack NULL; stack misaligned or
 *                       smaller than LM_PORT_MIN_STACK
 * @retval LM_ERR_STATE  t is a live thread (created and not deleted)
 * @retval LM_ERR_PRIORITY priority >= LM_CFG_PRIORITIES, or threshold less
 *                       urgent than priority
 * @retval LM_ERR_ISR    from an interrupt */
lm_status_t lm_thread_create(lm_thread_t *t, const lm_thread_attr_t *attr);

/* Make an INACTIVE or TERMINATED thread ready, from the start of its entry.
 * Context: thread, isr. Cost: O(stack size) with LM_CFG_STACK_WATERMARK,
 * else O(1). @retval LM_OK, LM_ERR_OBJECT, LM_ERR_STATE (already started) */
lm_status_t lm_thread_start(lm_thread_t *t);

/* End t. Mutexes it owns pass to their next waiters (LM_ERR_ABANDONED).
 * Terminating the calling thread does not return.
 * Context: thread, isr (not the running thread from an isr).
 * Cost: O(1) per masked step: the first mutex owned passes on in the call,
 * the others one per step in the context-switch handler, before any thread
 * runs (R5.6, R9.6); O(mutexes owned + chain depth) in all.
 * @retval LM_OK, LM_ERR_OBJECT, LM_ERR_STATE (inactive/terminated),
 *         LM_ERR_LOCKED (t holds the scheduler lock, called from an isr) */
lm_status_t lm_thread_terminate(lm_thread_t *t);

/* Terminate t if needed and forget it: the control block and stack may be
 * reused. A thread may delete itself (the call does not return).
 * Context: thread, isr (not the running thread from an isr).
 * Cost: as lm_thread_terminate. */
lm_status_t lm_thread_delete(lm_thread_t *t);

/* Suspend t. A waiting thread finishes its wait and then stays suspended.
 * Context: thread, isr. Cost: O(1).
 * @retval LM_OK, LM_ERR_OBJECT, LM_ERR_STATE (inactive, terminated, already
 *         suspended), LM_ERR_LOCKED (would stop the scheduler-lock holder) */
lm_status_t lm_thread_suspend(lm_thread_t *t);

/* Resume a suspended thread. Context: thread, isr. Cost: O(1).
 * @retval LM_OK, LM_ERR_OBJECT, LM_ERR_STATE (not suspended) */
lm_status_t lm_thread_resume(lm_thread_t *t);

/* Block the calling thread for `ticks` ticks (0 returns at once).
 * Context: thread. @retval LM_OK, LM_ERR_ISR, LM_ERR_LOCKED, LM_ERR_PARAM
 * (ticks > LM_TICK_MAX_TIMEOUT and not LM_WAIT_FOREVER), LM_ERR_ABORTED */
lm_status_t lm_thread_sleep(lm_tick_t ticks);

/* Periodic sleep on a fixed grid (R8.6): block the calling thread until the
 * tick *wake + period, and set *wake to that tick. *wake holds the previous
 * deadline (set it once to lm_tick_now() before the first call); since each
 * deadline is computed from the last, the period never drifts, whatever the
 * thread does between calls. A deadline that is the current tick returns
 * LM_OK at once; one that has passed (by the wrap-safe comparison of R8.3)
 * returns LM_ERR_TIMEOUT at once. In both cases, and on LM_ERR_ABORTED,
 * *wake has still advanced by one period: a late thread keeps its grid and
 * catches up one period per call (to skip the missed periods, set *wake to
 * lm_tick_now()). Refusals leave *wake unchanged.
 * Context: thread. Cost: O(1), one masked step.
 * @retval LM_OK          woke at tick *wake, or it is that tick now
 * @retval LM_ERR_TIMEOUT the deadline had passed; did not block
 * @retval LM_ERR_ABORTED lm_thread_wait_abort() ended the sleep
 * @retval LM_ERR_PARAM   wake NULL; period 0 or above LM_TICK_MAX_TIMEOUT
 * @retval LM_ERR_ISR     from an interrupt handler
 * @retval LM_ERR_LOCKED  it would block holding the scheduler lock
 * @retval LM_ERR_STATE   it would block before lm_kernel_start() or in the
 *                        idle hook */
lm_status_t lm_thread_sleep_until(lm_tick_t *wake, lm_tick_t period);

/* Give the CPU to the next ready thread of the same priority, and to any
 * more urgent thread held back by the caller's preemption-threshold
 * (rules R3.x). Context: thread. Cost: O(1).
 * @retval LM_OK, LM_ERR_ISR, LM_ERR_LOCKED (scheduler lock held) */
lm_status_t lm_thread_yield(void);

/* Change the base priority. The effective priority is the more urgent of it
 * and what the thread inherits from mutexes it owns. If the new priority is
 * more urgent than the threshold, the threshold follows it; a thread without
 * a threshold stays without one (R4.5). An INACTIVE or TERMINATED thread
 * keeps the new priority for its next start.
 * Context: thread, isr. Cost: O(1) per masked step; for a thread waiting on
 * or owning an inheriting mutex, the change passes down its chain of owners
 * three threads per step (R9.6): O(chain depth) in all.
 * @retval LM_OK, LM_ERR_OBJECT, LM_ERR_PRIORITY, LM_ERR_STATE (the idle
 *         thread) */
lm_status_t lm_thread_set_priority(lm_thread_t *t, unsigned priority);

/* Change the preemption-threshold (LM_THRESHOLD_NONE = the priority).
 * Context: thread, isr. Cost: O(1).
 * @retval LM_OK, LM_ERR_OBJECT, LM_ERR_PRIORITY (out of range, or less urgent
 *         than the base priority) */
lm_status_t lm_thread_set_threshold(lm_thread_t *t, unsigned threshold);

/* End the wait or sleep of t early; its call returns LM_ERR_ABORTED.
 * Context: thread, isr. @retval LM_OK, LM_ERR_OBJECT, LM_ERR_STATE (not
 * waiting) */
lm_status_t lm_thread_wait_abort(lm_thread_t *t);

/* The running thread (the idle thread when nothing else runs). */
lm_thread_t *lm_thread_self(void);

lm_thread_state_t lm_thread_state(const lm_thread_t *t);
unsigned lm_thread_priority(const lm_thread_t *t);      /* effective */
unsigned lm_thread_base_priority(const lm_thread_t *t);
unsigned lm_thread_threshold(const lm_thread_t *t);
const char *lm_thread_name(const lm_thread_t *t);

/* Bytes of stack never used so far (high-water mark), into *unused.
 * Context: thread, isr. Cost: O(stack size).
 * @retval LM_OK, LM_ERR_OBJECT, LM_ERR_PARAM */
lm_status_t lm_thread_stack_unused(const lm_thread_t *t, size_t *unused);

#if LM_CFG_STATS
/* Copy t's statistics (the idle thread's too: lm_kernel_idle_thread). With
 * LM_CFG_STATS_CPU_TIME the running thread's cpu_time includes its run so
 * far. Context: thread, isr. Cost: O(1), one masked copy.
 * @retval LM_OK, LM_ERR_PARAM (t or out NULL), LM_ERR_OBJECT (not a thread) */
lm_status_t lm_thread_stats(const lm_thread_t *t, lm_thread_stats_t *out);
/* Set t's statistics to zero (a thread's stack high-water mark is its
 * stack's, and stays). Context: thread, isr. Cost: O(1), one masked step.
 * @retval LM_OK, LM_ERR_PARAM (t NULL), LM_ERR_OBJECT (not a thread) */
lm_status_t lm_thread_stats_reset(lm_thread_t *t);
#endif

#endif /* LIMEN_THREAD_H */
