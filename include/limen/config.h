/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Limen configuration: every option, its default and what it costs.
 *
 * An application overrides options by defining LM_CONFIG_HEADER (for example
 * -DLM_CONFIG_HEADER=\"my_limen_config.h\") naming a header that #defines the
 * options it wants; everything it leaves out takes the default below. The
 * kernel and the application must see the same configuration because control
 * blocks are laid out from it; the CMake target `limen` propagates it.
 */
#ifndef LIMEN_CONFIG_H
#define LIMEN_CONFIG_H

#ifdef LM_CONFIG_HEADER
#include LM_CONFIG_HEADER
#endif

/* Number of thread priorities, 0 (most urgent) to LM_CFG_PRIORITIES - 1.
 * Cost: the ready queue holds one list head per priority plus a bitmap, and
 * so does every wait queue unless LM_CFG_WAIT_QUEUE_COMPACT (see
 * docs/design.md for sizes); selecting a thread is two bit
 * scans above 32 priorities and one at or below. Range 1..1024. */
#ifndef LM_CFG_PRIORITIES
#define LM_CFG_PRIORITIES 32
#endif

/* Wait-queue representation (docs/design.md, "Wait queues").
 * 0: a table, one ring pointer per priority plus the bitmap: 4*P + 4*P/32
 * bytes in every semaphore, mutex, message queue and pool (132 at 32
 * priorities, 264 at 64); every operation is one or two bit scans.
 * 1: compact, two pointers whatever P: the waiters on one sorted ring, the
 * first of each priority in a bitwise trie over the priority's B =
 * ceil(log2(P)) bits; an insertion visits at most 2B trie nodes, a removal
 * 2B+1 (10 and 11 at 32 priorities, 12 and 13 at 64), never more with more
 * waiters, and the first waiter is one load. Costs 12 bytes per thread.
 * Default: compact above 32 priorities, where the table would double and
 * is the slower on most waits; at 32 and below the table, which keeps a
 * newcomer's blocking take among other waiters at its cheapest and the code
 * smaller (docs/design.md, "Wait queues", has the measurements). */
#ifndef LM_CFG_WAIT_QUEUE_COMPACT
#define LM_CFG_WAIT_QUEUE_COMPACT (LM_CFG_PRIORITIES > 32)
#endif

/* Tick rate in Hz. Only used to convert between ticks and milliseconds. */
#ifndef LM_CFG_TICK_HZ
#define LM_CFG_TICK_HZ 1000
#endif

/* Argument checking: NULL pointers, object magic words, ranges and calling
 * context. 1 (default) adds a magic word to every control block and the
 * checks listed in docs/errors.md; 0 removes both for production builds. */
#ifndef LM_CFG_ARG_CHECKS
#define LM_CFG_ARG_CHECKS 1
#endif

/* Kernel self-checks (LM_ASSERT on internal invariants). */
#ifndef LM_CFG_ASSERT
#define LM_CFG_ASSERT 1
#endif

/* Which objects are compiled in (1) or out (0). */
#ifndef LM_CFG_SEM
#define LM_CFG_SEM 1
#endif
#ifndef LM_CFG_MUTEX
#define LM_CFG_MUTEX 1
#endif
#ifndef LM_CFG_QUEUE
#define LM_CFG_QUEUE 1
#endif
#ifndef LM_CFG_FLAGS
#define LM_CFG_FLAGS 1
#endif
#ifndef LM_CFG_POOL
#define LM_CFG_POOL 1
#endif
#ifndef LM_CFG_TIMER
#define LM_CFG_TIMER 1
#endif

/* Slots of the timeout wheel (power of two, 8..4096). Arming and cancelling
 * cost O(1) whatever the value; a tick visits one slot, and a timeout more
 * than LM_CFG_TIMER_WHEEL_SLOTS ticks away is looked at once per revolution
 * (one bounded step each time). Memory: 2 pointers per slot + 1 bit. */
#ifndef LM_CFG_TIMER_WHEEL_SLOTS
#define LM_CFG_TIMER_WHEEL_SLOTS 64
#endif

/* Due sleeps, or due waits on semaphores, queues and pools, processed per
 * masked step of the tick's expiry work (R9.4, 1..16); a mutex or flags
 * wait and a timer take a step each. More amortise each step's entry and
 * exit over more expiries; the
 * longest masked stretch grows with the value, never with the number of
 * timeouts due (docs/design.md, "Timeouts", gives both for Armv7-M). */
#ifndef LM_CFG_EXPIRIES_PER_STEP
#define LM_CFG_EXPIRIES_PER_STEP 4
#endif

/* Kernel statistics (lm_kernel_stats, lm_thread_stats; docs/trace.md,
 * "Kernel statistics"): context switches, preemptions, time-slice expiries,
 * relinquishes, resumptions, suspensions, interrupts, wait timeouts and
 * bounded priority inversions, globally and per thread. Costs about 12
 * instructions a context switch, 18 when it is a preemption (Armv7-M,
 * docs/design.md), and two counts (about 6 instructions) at each block,
 * wake, start, suspend, resume, relinquish and hooked interrupt. */
#ifndef LM_CFG_STATS
#define LM_CFG_STATS 1
#endif

/* With LM_CFG_STATS: each thread's CPU time from the port's timestamp
 * (lm_port_timestamp), for its load. 0 (default): not kept. 1: every
 * context switch reads the timestamp and adds the time since the last
 * switch to the thread leaving; on Armv7-M the switch then commits in C:
 * 30 more instructions a switch (measure 2 on mps2-an386: 118 -> 148,
 * docs/trace.md). */
#ifndef LM_CFG_STATS_CPU_TIME
#define LM_CFG_STATS_CPU_TIME 0
#endif

/* With LM_CFG_STATS and LM_CFG_MUTEX: unbounded priority inversions
 * (inversions_unbounded in lm_kernel_stats_t and lm_thread_stats_t;
 * docs/trace.md, "Kernel statistics"): switches to a thread M while a
 * thread H waits on a mutex whose owner is less urgent than M, and M is
 * less urgent than H, counted as the trace's analysis counts them.
 * 0 (default): not kept; the kernel is the same as without the option.
 * 1: the kernel keeps, per owner, the priorities of its mutexes' most
 * urgent waiters (as the inheritance counts are kept: per thread 2 bytes a
 * priority and 16 more, 84 bytes at 32 priorities on Cortex-M; 2 bytes a
 * mutex, padding on Cortex-M) and a list of the owners with a waiter more
 * urgent than themselves; each change of a mutex's waiters, owner or
 * owner's priority updates them in O(1). At a switch: one test while that
 * list is empty, else two compares per owner on it until one counts
 * (O(owners with an inverted wait), under the lock). On Armv7-M the switch
 * then commits in C (lmk_switch_commit_locked), as with
 * LM_CFG_STATS_CPU_TIME: measure 2 on mps2-an386 115 -> 124 instructions,
 * a contended unlock that hands a mutex over 390 -> 456 (docs/trace.md). */
#ifndef LM_CFG_STATS_INVERSIONS
#define LM_CFG_STATS_INVERSIONS 0
#endif
/* Not an option: the kernel counts unbounded inversions. */
#define LM_STATS_INVERSIONS (LM_CFG_STATS && LM_CFG_STATS_INVERSIONS && LM_CFG_MUTEX)

/* A hook called at every context switch (tests, tracing), as
 * hook(from, to) with the kernel lock held. One load and one branch per
 * switch when no hook is set. */
#ifndef LM_CFG_SWITCH_HOOK
#define LM_CFG_SWITCH_HOOK 1
#endif

/* A hook called whenever a call is refused (a status of LM_ERR_PARAM or
 * below: the application's mistakes, docs/errors.md), with the status, the
 * call's name and the caller's return address (lm_error_hook_set). Off by
 * default. Costs nothing on a call that succeeds; on a refused call, a
 * compare, a load and, with a hook set, the hook. Adds a reference to each
 * call's name string (about 1.2 KiB of names). */
#ifndef LM_CFG_ERROR_HOOK
#define LM_CFG_ERROR_HOOK 0
#endif

/* Not an option: where the argument checks of the most frequent calls (queue
 * send and receive, semaphore take and give) run. 1: in an inline function
 * of the public header, before the call into the kernel. The compiler
 * decides each check at compile time when it knows the argument (an
 * object's address, a local buffer, a constant timeout: the usual call), so
 * such a call pays nothing for them; others pay what they would in the
 * kernel. 0: in the kernel, as every other call's: with the error hook,
 * which reports the refused call by name and call site, or the event trace,
 * which records refusals too (docs/errors.md, "Where the checks run"). */
#define LM_ARG_CHECKS_INLINE (LM_CFG_ARG_CHECKS && !LM_CFG_ERROR_HOOK && !LM_CFG_TRACE)

/* Event trace (include/limen/trace.h, docs/trace.md). 0 (default): no
 * recorder; the kernel's code is the same as without the option. 1: the
 * kernel records thread, scheduling, interrupt and object events into a
 * ring buffer the application gives lm_trace_start(), stamped with the
 * port's timestamp. Costs about 1.5 KiB of code and one record per event
 * (docs/trace.md gives the instructions a record takes); nothing is
 * recorded until lm_trace_start(). */
#ifndef LM_CFG_TRACE
#define LM_CFG_TRACE 0
#endif

/* Not an option: the port supplies lm_port_timestamp (include/limen/port.h)
 * for the trace's records or the statistics' CPU time. */
#define LM_PORT_TIMESTAMP (LM_CFG_TRACE || (LM_CFG_STATS && LM_CFG_STATS_CPU_TIME))

/* Check the outgoing thread's stack at every context switch: its saved
 * stack pointer above the guard words at the bottom of its stack, and the
 * guard word an overflow reaches first intact. When either fails, the full
 * check (the other guard words, the control block's stack fields against
 * the port's copies) decides and reports LM_FATAL_STACK. Costs 6
 * instructions a switch on Armv7-M (docs/errors.md). */
#ifndef LM_CFG_STACK_CHECK
#define LM_CFG_STACK_CHECK 1
#endif

/* Fill new stacks with a pattern so lm_thread_stack_unused() can report the
 * high-water mark. Costs O(stack size) at thread start. */
#ifndef LM_CFG_STACK_WATERMARK
#define LM_CFG_STACK_WATERMARK 1
#endif

/* MPU stack guard (Armv7-M port; the hosted port has its own guard page
 * and ignores it). 0 (default): stack overflows are caught at the next
 * switch away from the thread (guard words, stack pointer). 1: the port
 * also makes 32 bytes at the bottom of the running thread's stack read-only
 * with one MPU region (the highest-numbered), moved at every switch, so an
 * overflow faults at its first store there and is reported at once as
 * LM_FATAL_STACK. The region starts at the first 32-byte boundary at or
 * above the stack's bottom, so up to 56 bytes at the bottom are guard, not
 * stack; no stack alignment beyond LM_PORT_STACK_ALIGN is needed. Costs one
 * MPU region, about 500 bytes of code, 23 instructions per switch (two MPU
 * register stores and a DSB among them). A core without an MPU stops with LM_FATAL_PORT
 * at the first switch. docs/porting.md. */
#ifndef LM_CFG_MPU_STACK_GUARD
#define LM_CFG_MPU_STACK_GUARD 0
#endif

/* Idle thread stack size in bytes; 0 means the port's minimum. */
#ifndef LM_CFG_IDLE_STACK_SIZE
#define LM_CFG_IDLE_STACK_SIZE 0
#endif

/* Tickless idle (Armv7-M port; the hosted port ignores it). 0 (default):
 * a periodic tick interrupt, also while idle. 1: while the idle thread
 * waits, the port programs one timer interrupt for the tick of the next
 * timeout instead, and on wake announces exactly the ticks that passed
 * (also when another interrupt wakes it first); SysTick never stops
 * counting, so no time is lost to wakes. Costs about 800 bytes of code
 * and a timer reprogramming per idle wait; saves every tick interrupt in
 * between. docs/porting.md. */
#ifndef LM_CFG_TICKLESS
#define LM_CFG_TICKLESS 0
#endif

/* newlib support (Armv7-M port). 0 (default): newlib (errno, stdio, malloc)
 * is shared by all threads unprotected. 1: each thread has its own newlib
 * state (struct _reent: errno, stdio streams), switched with the thread,
 * and newlib's locks are recursive kernel mutexes, so printf and malloc may
 * be called from any thread. Costs about 700 bytes of code and four
 * mutexes; per thread 96 bytes at the top of its stack and its three stdio
 * streams on the heap; one store per context switch; a mutex lock and
 * unlock per malloc/free. Needs LM_CFG_MUTEX. docs/porting.md. */
#ifndef LM_CFG_NEWLIB
#define LM_CFG_NEWLIB 0
#endif

/* With LM_CFG_NEWLIB and a newlib built with retargetable locking: how many
 * locks newlib may create at run time (one per open FILE). */
#ifndef LM_CFG_NEWLIB_LOCKS
#define LM_CFG_NEWLIB_LOCKS 16
#endif

/* Compile-time validation. */
#if LM_CFG_PRIORITIES < 1 || LM_CFG_PRIORITIES > 1024
#error "LM_CFG_PRIORITIES must be in 1..1024"
#endif
#if LM_CFG_TIMER_WHEEL_SLOTS < 8 || LM_CFG_TIMER_WHEEL_SLOTS > 4096 || \
    (LM_CFG_TIMER_WHEEL_SLOTS & (LM_CFG_TIMER_WHEEL_SLOTS - 1)) != 0
#error "LM_CFG_TIMER_WHEEL_SLOTS must be a power of two in 8..4096"
#endif
#if LM_CFG_EXPIRIES_PER_STEP < 1 || LM_CFG_EXPIRIES_PER_STEP > 16
#error "LM_CFG_EXPIRIES_PER_STEP must be in 1..16"
#endif
#if LM_CFG_TICK_HZ < 1
#error "LM_CFG_TICK_HZ must be positive"
#endif

#endif /* LIMEN_CONFIG_H */
