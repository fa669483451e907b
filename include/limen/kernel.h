/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel start-up, scheduler lock, time and statistics. */
#ifndef LIMEN_KERNEL_H
#define LIMEN_KERNEL_H

#include "limen/base.h"
#include "limen/thread.h"

/* Reset every kernel structure and create the idle thread. Call once before
 * creating objects (the hosted port allows calling it again between runs).
 * Context: before lm_kernel_start(). Cost: O(idle stack size) with
 * LM_CFG_STACK_WATERMARK (its stack is filled), else O(1) beyond the
 * reset. */
void lm_kernel_init(void);
/* As lm_kernel_init, with the tick counter starting at `origin` (tests start
 * near 2^32 to exercise wrap-around; a system may restore a saved time). */
void lm_kernel_init_tick(lm_tick_t origin);

/* Start scheduling: the most urgent ready thread runs. On hardware it does
 * not return; the hosted port returns when the simulation ends. */
void lm_kernel_start(void);

/* True once lm_kernel_start() has been called. */
bool lm_kernel_running(void);
/* True once lm_kernel_init() has been called. A board's start-up code uses
 * it with lm_kernel_running() to report a main() that initialised the
 * kernel and returned without starting it. */
bool lm_kernel_initialised(void);

/* Scheduler lock: nestable; while held no other thread runs, interrupts still
 * do. A thread holding it may not block or stop (LM_ERR_LOCKED). Unlocking
 * the outermost level lets a more urgent ready thread run at once.
 * Context: thread. Cost: O(1).
 * @retval LM_OK, LM_ERR_ISR, LM_ERR_OVERFLOW (nesting > 255) */
lm_status_t lm_sched_lock(void);
/* @retval LM_OK, LM_ERR_ISR, LM_ERR_STATE (not locked) */
lm_status_t lm_sched_unlock(void);
/* Current nesting depth (0 = unlocked). */
unsigned lm_sched_lock_depth(void);

/* Ticks until the next armed timeout could expire, LM_WAIT_FOREVER when
 * none is armed (may be early, never late). For tickless idle hooks and for
 * tests that stop when nothing is left to happen. Cost: O(wheel slots). */
lm_tick_t lm_tick_next_deadline(void);

/* Ticks since lm_kernel_init() (plus the hosted port's start offset). Wraps. */
lm_tick_t lm_tick_now(void);

/* Called by the idle thread before the port waits for an interrupt.
 * Runs in thread context at the lowest priority; must not block. */
typedef void (*lm_idle_hook_t)(void);
void lm_idle_hook_set(lm_idle_hook_t hook);

/* Called with the kernel lock held at every change of running thread,
 * `from` may be NULL at start. Must be short and must not call the kernel.
 * @retval LM_OK, LM_ERR_STATE (a hook given while LM_CFG_SWITCH_HOOK is 0) */
typedef void (*lm_switch_hook_t)(const lm_thread_t *from, const lm_thread_t *to);
lm_status_t lm_switch_hook_set(lm_switch_hook_t hook);

/* Called whenever a call is refused (LM_CFG_ERROR_HOOK): `status` is
 * LM_ERR_PARAM or below (docs/errors.md), `call` the refused call's name
 * ("lm_sem_give"), `caller` the return address into the code that called
 * it. The outcomes of legal requests (timeouts, LM_ERR_WOULD_BLOCK, ...)
 * are not reported. Runs in the caller's context (a handler's, too), with
 * the kernel lock not held; it may log, stop in a debugger or call
 * lm_fatal, and must not block.
 * @retval LM_OK, LM_ERR_STATE (a hook given while LM_CFG_ERROR_HOOK is 0) */
typedef void (*lm_error_hook_t)(lm_status_t status, const char *call, const void *caller);
lm_status_t lm_error_hook_set(lm_error_hook_t hook);

/* Global statistics (LM_CFG_STATS), each defined in docs/trace.md ("Kernel
 * statistics") with docs/rules.md. Counts wrap at 2^32. The first two stay
 * first: the port's switch counts them (LMK_SWITCH_STATS). */
typedef struct lm_kernel_stats {
    uint32_t context_switches; /* any change of running thread, idle included (R7.3) */
    uint32_t preemptions;      /* R7.2 */
    uint32_t slice_expiries;   /* time-slice expiries (R2.4) */
    uint32_t ticks;            /* ticks announced */
    uint32_t relinquishes;     /* calls of lm_thread_yield (R2.3) */
    uint32_t resumptions;      /* threads made ready: started, woken, resumed */
    uint32_t suspensions;      /* threads that blocked, slept or were suspended */
    uint32_t interrupts;       /* lm_trace_isr_enter calls (include/limen/trace.h) */
    uint32_t wait_timeouts;    /* waits that timed out (R8.4) */
    uint32_t inversions_bounded; /* waits on an inheriting mutex with a less
                                    urgent owner, which R5.2 raises */
#if LM_STATS_INVERSIONS
    uint32_t inversions_unbounded; /* switches to a thread between a mutex's
                                      waiter and its less urgent owner
                                      (LM_CFG_STATS_INVERSIONS) */
#endif
#if LM_CFG_STATS_CPU_TIME
    uint32_t timestamp_hz;     /* the rate of cpu_time and lm_kernel_elapsed */
#endif
} lm_kernel_stats_t;
/* Copy the global statistics; all zero without LM_CFG_STATS, nothing with
 * out NULL. Context: any. Cost: O(1), one masked copy. */
void lm_kernel_stats(lm_kernel_stats_t *out);
/* Set the global statistics and the idle thread's to zero (every other
 * thread's stay: lm_thread_stats_reset). Context: any. Cost: O(1), one
 * masked step. */
void lm_kernel_stats_reset(void);
#if LM_CFG_STATS && LM_CFG_STATS_CPU_TIME
/* Timestamp counts since lm_kernel_start or the last lm_kernel_stats_reset
 * (LM_CFG_STATS_CPU_TIME): a thread's load is its cpu_time over this. Not
 * in lm_kernel_stats_t, whose layout the ports' switch code knows.
 * Context: any. Cost: O(1), one masked step. */
uint64_t lm_kernel_elapsed(void);
#endif

/* The idle thread, for reading its statistics and stack high-water mark
 * (lm_thread_stats, lm_thread_stack_unused, lm_thread_name). Every call that
 * would change it returns LM_ERR_STATE. Valid after lm_kernel_init().
 * Context: any. Cost: O(1). */
const lm_thread_t *lm_kernel_idle_thread(void);

/* Reasons passed to the fatal-error hook (docs/errors.md, "Fatal errors"). */
typedef enum lm_fatal {
    LM_FATAL_ASSERT = 1,     /* a kernel invariant failed */
    LM_FATAL_STACK = 2,      /* a thread's stack overflowed */
    LM_FATAL_PORT = 3,       /* the port met an impossible situation */
    LM_FATAL_FAULT = 4       /* the processor raised a fault (Armv7-M: hard
                                fault, MemManage, BusFault, UsageFault) */
} lm_fatal_t;
/* Called on a fatal error; `thread` is the running thread, or NULL (before
 * the kernel runs, or when its control block can no longer be trusted, as
 * after a stack overflow that ran into it). If it returns, the port halts
 * the system. Without a hook, lm_fatal prints
 *     limen: fatal error <reason name> at <where>[, thread <name>]
 * on the port's console (Armv7-M: the board's lm_board_puts; hosted: stderr)
 * before halting. */
typedef void (*lm_fatal_hook_t)(lm_fatal_t reason, const char *where,
                                const lm_thread_t *thread);
void lm_fatal_hook_set(lm_fatal_hook_t hook);

/* Report a fatal error (kernel and ports). Does not return. */
_Noreturn void lm_fatal(lm_fatal_t reason, const char *where);

/* The reason's name, "LM_FATAL_STACK" for example; "LM_FATAL_?" for a value
 * that is none of them. Context: any. Cost: O(1). */
const char *lm_fatal_name(lm_fatal_t reason);

#endif /* LIMEN_KERNEL_H */
