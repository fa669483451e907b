/*
 * Port for Armv7-M: Cortex-M3, Cortex-M4/M4F, Cortex-M7 (GNU toolchain).
 * docs/porting.md describes stack sizing and the fatal-error hook.
 */
#ifndef LIMEN_PORT_ARMV7M_H
#define LIMEN_PORT_ARMV7M_H

#include <stdbool.h>
#include <stdint.h>

#include "limen/armv7m.h"

#include "limen/config.h"

struct _reent;

/* A switched-out thread's registers live on its own stack; the control block
 * keeps the stack pointer, what the stack check needs (below), and, with
 * LM_CFG_NEWLIB, where the thread's newlib state is: at the top of its
 * stack, ports/armv7m/newlib.c. */
typedef struct lm_port_context {
    void *sp;
    /* Copies of the stack's bottom and the thread's name, and a check word
     * over them and the control block's address, set when the thread
     * starts. The stack check at each switch trusts these, not the control
     * block's own fields: placed just below its stack, a control block is
     * overwritten by an overflow from its top down, and these first fields
     * are the last it reaches (ports/armv7m/fault.c, docs/porting.md). */
    void *stack_bottom;
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
 * around the BASEPRI raise. On by default where the board says the core is a
 * Cortex-M7 (LM_PORT_CORTEX_M7); define it to 0 for r1p0 and later parts. */
#ifndef LM_PORT_ERRATUM_837070
#if defined(LM_PORT_CORTEX_M7) || defined(LM_PORT_CORTEX_M7_R0P1)
#define LM_PORT_ERRATUM_837070 1
#else
#define LM_PORT_ERRATUM_837070 0
#endif
#endif

/* The four calls on every kernel path are inline here (LM_PORT_INLINE tells
 * include/limen/port.h not to declare them as functions): each is one to
 * three instructions, and a call would cost as much again. */
#define LM_PORT_INLINE 1

static inline lm_irqstate_t lm_port_irq_lock(void)
{
    uint32_t old;
    __asm volatile("mrs %0, basepri" : "=r"(old));
#if LM_PORT_ERRATUM_837070
    /* Cortex-M7 r0p1 erratum 837070: the raise may not take effect at the
     * next instruction, so an interrupt the new BASEPRI masks could still be
     * taken just after it. PRIMASK closes that window; it is restored rather
     * than cleared, so a caller that had PRIMASK set keeps it. */
    uint32_t primask;
    __asm volatile("mrs %0, primask\n"
                   "cpsid i\n"
                   "msr basepri_max, %1\n"
                   "msr primask, %0\n"
                   : "=&r"(primask)
                   : "r"(LM_PORT_BASEPRI)
                   : "memory");
#else
    __asm volatile("msr basepri_max, %0" ::"r"(LM_PORT_BASEPRI) : "memory");
#endif
    return old;
}

static inline void lm_port_irq_unlock(lm_irqstate_t state)
{
    __asm volatile("msr basepri, %0\n isb" ::"r"(state) : "memory");
}

static inline bool lm_port_in_isr(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr != 0u;
}

static inline void lm_port_switch_pend(void)
{
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSVSET;
}

#endif
