/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The port contract: what an architecture folder (ports/<arch>/) provides.
 *
 * A port supplies a header "limen_port.h" defining
 *   lm_port_context_t     per-thread switch state (first field of lm_thread_t)
 *   lm_irqstate_t         what lm_port_irq_lock() returns
 *   LM_PORT_STACK_ALIGN   stack alignment in bytes
 *   LM_PORT_MIN_STACK     smallest stack lm_thread_create() accepts
 * and the eight functions below. kernel/include/port_check.h fails the build
 * if any macro is missing.
 *
 * The kernel in turn gives the port these entry points (kernel/include/lmk.h):
 *   lmk_tick_announce(n)  from the tick interrupt, n ticks elapsed
 *   lmk_switch_work()     from the context-switch handler, when deferred work
 *                         is pending (see below); returns with the lock held
 *   lmk_switch_commit_locked()  from the context-switch handler, lock held:
 *                         makes the chosen thread current, counts the switch,
 *                         calls the switch hook; returns the thread to run
 *   lmk_thread_exit()     where a thread's entry function returns to
 *   lmk_fatal(r, w, t)    lm_fatal naming thread t, or none (NULL) when the
 *                         running thread's control block cannot be trusted
 *
 * The context switch. The kernel decides at the event: the call that
 * readies, blocks or yields chooses the next thread and, if it is not the
 * running one, calls lm_port_switch_pend(). The port's handler then:
 *   1. if the work bytes are not zero, calls lmk_switch_work() (lock not
 *      held), which returns with the lock held and no work left; the port
 *      withdraws its own pending request (the work's wakes made it, and the
 *      decision already has their result), and drops the lock;
 *   2. saves the running thread's registers;
 *   3. under the lock, makes `next` current: either lmk_switch_commit_locked()
 *      or, in assembly, what it does: when next is not current, the counts
 *      (statistics) and the hook (switch hook); then current = next,
 *      bar = bar_next and next's `yielded` cleared (the event trace, CPU
 *      time and the unbounded-inversion count need the C function);
 *   4. restores the registers of the new current thread.
 * For step 3 in assembly, the first fields of the kernel's state (the
 * symbol `lmk`) are, at these byte offsets: */
#define LMK_SWITCH_CURRENT 0u                     /* lm_thread_t *: running */
#define LMK_SWITCH_NEXT (sizeof(void *))           /* lm_thread_t *: chosen */
#define LMK_SWITCH_WORK (2u * sizeof(void *))      /* two bytes: work pending */
#define LMK_SWITCH_BAR (2u * sizeof(void *) + 2u)  /* uint16_t bar, bar_next */
/* With LM_CFG_SWITCH_HOOK: the hook to call, if not NULL, as
 * hook(current, next), before current changes. */
#define LMK_SWITCH_HOOK (2u * sizeof(void *) + 8u) /* lm_switch_hook_t */
/* With LM_CFG_STATS: two uint32_t counts, context switches and preemptions
 * (R7.2: the thread switched out is still ready, did not yield, is not the
 * idle thread), kept with each thread's own (lm_thread_t's stats). */
#define LMK_SWITCH_STATS (LMK_SWITCH_HOOK + (LM_CFG_SWITCH_HOOK ? sizeof(void *) : 0u))
#ifndef LIMEN_PORT_H
#define LIMEN_PORT_H

#include "limen/base.h"
#include "limen_port.h"

struct lm_thread;

/* A port may define the next four as static inline functions in its header
 * instead, and define LM_PORT_INLINE; the contract is the same. */
#if !defined(LM_PORT_INLINE)
/* Mask kernel-aware interrupts; returns the previous state. Nestable. */
lm_irqstate_t lm_port_irq_lock(void);
/* Restore the state lm_port_irq_lock() returned. Pending interrupts, and a
 * pended context switch, are taken when the mask drops. */
void lm_port_irq_unlock(lm_irqstate_t state);
/* True in an interrupt handler (including the deferred tick context). */
bool lm_port_in_isr(void);
/* Request a context switch at the lowest interrupt priority: it happens when
 * the kernel lock is released and no handler is active. */
void lm_port_switch_pend(void);
#endif
/* Prepare t's stack so that the first switch to t calls
 * entry(arg) and a return from entry lands in lmk_thread_exit(). */
void lm_port_stack_init(struct lm_thread *t);
/* Run `first` and never come back (the hosted port returns at the end of
 * the simulation). Called by lm_kernel_start() with the kernel lock held
 * (lm_port_irq_lock() from an unmasked state), `first` already current.
 * The port sets up everything the first context switch and the tick need
 * (stack pointers, timer, priorities) and only then drops the lock, to the
 * unmasked state: an interrupt taken at that unlock may ready a thread and
 * pend a switch, which must find the port ready. Interrupts pending then
 * are taken before the first switch. */
void lm_port_start(struct lm_thread *first);
/* Called by the idle thread: wait for an interrupt. */
void lm_port_idle(void);
/* Tickless support: the next tick interrupt is needed in `ticks` ticks
 * (LM_WAIT_FOREVER: none needed). A port with a periodic tick ignores it. */
void lm_port_timer_arm(lm_tick_t ticks);
/* Does this port, in this configuration, use what lm_port_timer_arm is
 * told? 0: the idle thread does not work it out (the kernel's scan of its
 * timeout wheel, about 150 bytes, is then left out of the image). A port
 * that does not say is told. */
#ifndef LM_PORT_IDLE_TIMER
#define LM_PORT_IDLE_TIMER 1
#endif

/* Write s on the console, if the port has one (the default fatal report,
 * fault dumps). Called with interrupts in any state, from any context,
 * fault handlers included; must not call the kernel. */
void lm_port_fatal_print(const char *s);

/* Stop the system after the fatal hook returned. */
_Noreturn void lm_port_fatal_halt(void);

#if LM_PORT_TIMESTAMP
/* Event trace and CPU time (LM_CFG_STATS_CPU_TIME): a free-running 32-bit
 * count for record timestamps, read with
 * interrupts masked, from any context; it must be cheap (a register read).
 * Armv7-M: the DWT cycle counter, unless the board supplies its own (the
 * MPS2 boards: CMSDK timer 1, as QEMU models no cycle counter). Hosted:
 * virtual microseconds (docs/trace.md). */
uint32_t lm_port_timestamp(void);
/* Start the count if it needs starting; returns its rate in Hz. Called by
 * lm_trace_start() and, with CPU time, lm_kernel_start(). */
uint32_t lm_port_timestamp_start(void);
#endif

/* Tests and benchmarks: end scheduling from a thread, so that
 * lm_kernel_start() returns to its caller and the kernel can be initialised
 * and started again. */
_Noreturn void lm_port_stop(void);

#endif /* LIMEN_PORT_H */
