/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Port for Armv7-M: Cortex-M3, Cortex-M4/M4F, Cortex-M7 (GNU toolchain),
 * and for Armv8-M Mainline (Cortex-M33, M55) with LM_PORT_ARMV8M, which
 * ports/armv8m/port.cmake defines. docs/porting.md describes stack sizing
 * and the fatal-error hook.
 */
#ifndef LIMEN_PORT_ARMV7M_H
#define LIMEN_PORT_ARMV7M_H

#include <stdbool.h>
#include <stdint.h>

#include "limen/armv7m.h"

#include "limen/config.h"

/* 1: Armv8-M Mainline (ports/armv8m): the stack limit registers. */
#ifndef LM_PORT_ARMV8M
#define LM_PORT_ARMV8M 0
#endif

struct _reent;

/* A switched-out thread's registers live on its own stack; the control block
 * keeps the stack pointer, what the stack check needs (below), and, with
 * LM_CFG_NEWLIB, where the thread's newlib state is: at the top of its
 * stack, ports/armv7m/newlib.c. */
typedef struct lm_port_context {
    void *sp;
    /* The address of the top guard word at the stack's bottom (the one an
     * overflow reaches first; a saved stack pointer must lie above it:
     * PendSV compares with both as they are), a copy of the thread's name,
     * and a check word (ports/common/stack_check.h)
     * over them and the control block's address, set when the thread
     * starts. The stack check at each switch trusts these, not the control
     * block's own fields: placed just below its stack, a control block is
     * overwritten by an overflow from its top down, and these first fields
     * are the last it reaches (ports/armv7m/fault.c, docs/porting.md). */
    void *guard_top;
    const char *name;
    uint32_t check;
#if LM_CFG_NEWLIB
    struct _reent *reent;
#endif
} lm_port_context_t;

/* The BASEPRI value to restore. */
typedef uint32_t lm_irqstate_t;

#define LM_PORT_STACK_ALIGN 8u

/* Room for the exception frame with the FPU (26 words), the registers the
 * switch saves (9 words, 16 more with the FPU) and a little C: 512 bytes is
 * the floor, real threads need their own frames on top (docs/porting.md). */
#define LM_PORT_MIN_STACK 512u

/* Interrupts with a priority value below this (more urgent) are never masked
 * by the kernel and must not call it ("zero-latency" interrupts). Only the
 * implemented high bits of a priority count: with 3 bits, 0x20 leaves
 * priority 0 unmasked. */
#ifndef LM_PORT_BASEPRI
#define LM_PORT_BASEPRI 0x20u
#endif

/* SysTick input clock and tick interrupt priority. */
#ifndef LM_PORT_CPU_HZ
#define LM_PORT_CPU_HZ 25000000u
#endif
#ifndef LM_PORT_SYSTICK_PRIO
#define LM_PORT_SYSTICK_PRIO 0xE0u
#endif

/* Cortex-M7 r0p1 erratum 837070 (docs/porting.md): masking with PRIMASK
 * around the BASEPRI raise.
 *   0  never (not a Cortex-M7, or r1p0 and later known at build time);
 *   1  always (the core is known to be r0p1: LM_PORT_CORTEX_M7_R0P1);
 *   2  as the core's CPUID says at run time (the default where the board
 *      says the core is a Cortex-M7, LM_PORT_CORTEX_M7): every lock then
 *      loads a flag and branches on it, 3 instructions more than 0, and on
 *      an r0p1 core pays the workaround's 3 instructions as well.
 * Until the port has read CPUID (a constructor, before main) the flag says
 * "apply it", so no lock goes without. */
#ifndef LM_PORT_ERRATUM_837070
#if defined(LM_PORT_CORTEX_M7_R0P1)
#define LM_PORT_ERRATUM_837070 1
#elif defined(LM_PORT_CORTEX_M7)
#define LM_PORT_ERRATUM_837070 2
#else
#define LM_PORT_ERRATUM_837070 0
#endif
#endif
#if LM_PORT_ERRATUM_837070 < 0 || LM_PORT_ERRATUM_837070 > 2
#error "LM_PORT_ERRATUM_837070 must be 0, 1 or 2"
#endif

/* Interrupt priority check (docs/porting.md, "Interrupt priorities"): a
 * kernel call from a handler the kernel lock does not mask ends in
 * lm_fatal(LM_FATAL_PORT). Off by default: a development aid, like a debug
 * build's asserts. Every kernel lock then reads IPSR and branches, and in
 * a handler other than PendSV and SysTick calls the check: about 5
 * instructions a kernel call in a thread, 111 a producer-consumer cycle
 * (docs/porting.md). The priority grouping is checked at lm_kernel_start()
 * with the kernel's asserts too (LM_CFG_ASSERT): once, at no cost afterwards. */
#ifndef LM_PORT_CHECK_PRIORITY
#define LM_PORT_CHECK_PRIORITY 0
#endif

/* The four calls on every kernel path are inline here (LM_PORT_INLINE tells
 * include/limen/port.h not to declare them as functions): each is one to
 * three instructions, and a call would cost as much again. */
#define LM_PORT_INLINE 1

/* Only the tickless configuration programs the timer from the idle thread
 * (lm_port_timer_arm); a periodic tick needs no next deadline. */
#define LM_PORT_IDLE_TIMER LM_CFG_TICKLESS

/* Cortex-M7 r0p1 erratum 837070: the raise may not take effect at the next
 * instruction, so an interrupt the new BASEPRI masks could still be taken
 * just after it. PRIMASK closes that window; it is restored rather than
 * cleared, so a caller that had PRIMASK set keeps it. */
static inline void lm_armv7m_basepri_raise_837070(void)
{
    uint32_t primask;
    __asm volatile("mrs %0, primask\n"
                   "cpsid i\n"
                   "msr basepri_max, %1\n"
                   "msr primask, %0\n"
                   : "=&r"(primask)
                   : "r"(LM_PORT_BASEPRI)
                   : "memory");
}

static inline void lm_armv7m_basepri_raise(void)
{
    __asm volatile("msr basepri_max, %0" ::"r"(LM_PORT_BASEPRI) : "memory");
}

/* The active exception's number, 0 in a thread. Not volatile: it cannot
 * change while the code that reads it runs (a handler that preempts returns
 * with it restored), so the compiler may read it once for the priority
 * check of a lock and a call's own handler test. */
static inline uint32_t lm_armv7m_ipsr(void)
{
    uint32_t ipsr;
    __asm("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr;
}

static inline lm_irqstate_t lm_port_irq_lock(void)
{
    uint32_t old;
    __asm volatile("mrs %0, basepri" : "=r"(old));
#if LM_PORT_ERRATUM_837070 == 1
    lm_armv7m_basepri_raise_837070();
#elif LM_PORT_ERRATUM_837070 == 2
    if (lm_armv7m_erratum_837070) {
        lm_armv7m_basepri_raise_837070();
    } else {
        lm_armv7m_basepri_raise();
    }
#else
    lm_armv7m_basepri_raise();
#endif
#if LM_PORT_CHECK_PRIORITY
    uint32_t ipsr = lm_armv7m_ipsr();
    /* Not in a thread, nor in PendSV or SysTick (14, 15), whose priorities
     * the port sets itself from constants checked at compile time. */
    if (ipsr != 0u && ipsr - 14u > 1u) {
        lm_armv7m_check_caller_priority(ipsr);
    }
#endif
    return old;
}

static inline void lm_port_irq_unlock(lm_irqstate_t state)
{
    __asm volatile("msr basepri, %0\n isb" ::"r"(state) : "memory");
}

static inline bool lm_port_in_isr(void)
{
    return lm_armv7m_ipsr() != 0u;
}

static inline void lm_port_switch_pend(void)
{
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSVSET;
}

#endif
