/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Simulation controls of the hosted port (tests and examples only).
 *
 * Virtual time advances only when the program says so: when every thread is
 * idle the clock jumps to the next deadline, and lm_hosted_work() lets the
 * running thread consume ticks of CPU time (so time-slicing can be tested).
 * The same program therefore produces the same events, bit for bit.
 *
 * Simulated interrupts run in interrupt context as the kernel sees it
 * (lm_port_in_isr() is true) at a single priority level: one handler does
 * not interrupt another, but handlers do interrupt the deferred tick work
 * and the context-switch handler, which sit at the lowest level as PendSV
 * does on Cortex-M. Pending interrupts are delivered whenever the kernel
 * unmasks interrupts outside a handler.
 */
#ifndef LIMEN_HOSTED_H
#define LIMEN_HOSTED_H

#include <stdint.h>
#include "limen/base.h"
#include "limen/thread.h"

typedef void (*lm_hosted_irq_fn_t)(void *arg);

/* Raise an interrupt now: it runs at once if interrupts are unmasked in
 * thread context, else at the next unmask outside a handler.
 * @return 0, or -1 if too many interrupts are pending. */
int lm_hosted_irq_raise(lm_hosted_irq_fn_t fn, void *arg);
/* Raise an interrupt when virtual time reaches `tick` (absolute). */
int lm_hosted_irq_at_tick(lm_tick_t tick, lm_hosted_irq_fn_t fn, void *arg);
/* Raise an interrupt at the n-th (n >= 1) kernel unmask from now, so a test
 * can hit every window between the kernel's masked steps. */
int lm_hosted_irq_at_unmask(uint64_t n, lm_hosted_irq_fn_t fn, void *arg);
/* Raise an interrupt just before the n-th (n >= 1) kernel lock a thread
 * takes from now, while still unmasked: the window between what a call
 * checks without the lock and the lock itself, which interrupts at unmasks
 * never reach. A switch the handler pends happens there too. */
int lm_hosted_irq_at_lock(uint64_t n, lm_hosted_irq_fn_t fn, void *arg);

/* The running thread computes for `ticks` ticks of virtual time; tick
 * interrupts (and any time-slice switch) happen as each tick passes. */
void lm_hosted_work(lm_tick_t ticks);

/* Ticks of virtual time that have passed but that the tick interrupt has
 * not announced yet (lm_tick_now() does not count them). */
lm_tick_t lm_hosted_ticks_pending(void);

#if LM_CFG_TRACE
/* Write the trace buffer (lm_trace_buffer) to the file at path, as it is:
 * what `limen trace` reads. Returns 0, or -1 if there is no trace or the
 * file cannot be written. Call it after lm_kernel_start() returned. */
int lm_hosted_trace_save(const char *path);
#endif

/* End the simulation now: lm_kernel_start() returns. From a thread. */
_Noreturn void lm_hosted_stop(void);

/* The lowest address thread t may use for its stack: below it lie the
 * guard page (made inaccessible while t runs) and the guard pattern, at the
 * stack's low end (docs/hosted.md "Stack overflow"). A thread whose stack
 * reaches below it is reported with lm_fatal(LM_FATAL_STACK, name). */
const void *lm_hosted_stack_limit(const lm_thread_t *t);
/* True if the guard page is in force: Linux on x86-64 or AArch64, and the
 * port's SIGSEGV handler can be installed (not under ASAN_OPTIONS with
 * allow_user_segv_handler=0). Otherwise only the pattern check runs. */
bool lm_hosted_stack_guard_page(void);

/* Unmasks so far (transitions from masked to unmasked). */
uint64_t lm_hosted_unmask_count(void);
/* Interrupts delivered so far (tick interrupts included). */
uint64_t lm_hosted_irq_count(void);

/*
 * Masked-stretch instrumentation. Code compiled with
 * -fsanitize-coverage=trace-pc (the `limen_kernel_bbcount` library) reports
 * every basic block it executes; the port counts those executed while
 * interrupts are masked, per stretch (lock to unlock). The counts are taken
 * by the compiler's instrumentation, outside the kernel's data structures.
 */
typedef struct lm_hosted_mask_stats {
    uint64_t stretches;   /* masked stretches ended since the reset */
    uint64_t max_blocks;  /* longest stretch, in basic blocks */
    uint64_t last_blocks; /* the last stretch */
    uint64_t total_blocks;
} lm_hosted_mask_stats_t;
void lm_hosted_mask_stats_reset(void);
void lm_hosted_mask_stats(lm_hosted_mask_stats_t *out);

/*
 * Interrupts between any two basic blocks (same instrumented kernel). The
 * port also counts the kernel's basic blocks run in thread context with
 * interrupts unmasked: the argument checks before a call takes the lock,
 * the gaps between the masked steps of a delete, a flush or a flags set,
 * the stack fill of lm_thread_start. lm_hosted_irq_at_block raises `fn` just
 * before the n-th (n >= 1) such block from now; it runs there as a handler,
 * followed by the switch it pended, as on Cortex-M an interrupt taken
 * between two instructions. One such interrupt is armed at a time; it is
 * forgotten at the end of a simulation. Blocks of handlers, of the switch
 * and of masked stretches are not counted (those windows are reached with
 * lm_hosted_irq_at_unmask). With a kernel built without the
 * instrumentation, the interrupt never fires (docs/hosted.md).
 * @return 0, or -1 if one is armed already (or fn is NULL). */
int lm_hosted_irq_at_block(uint64_t n, lm_hosted_irq_fn_t fn, void *arg);
/* True while an lm_hosted_irq_at_block interrupt waits for its block. */
bool lm_hosted_irq_at_block_pending(void);
/* Kernel basic blocks run so far in thread context, unmasked. */
uint64_t lm_hosted_block_count(void);

#endif
