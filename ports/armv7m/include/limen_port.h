/*
 * Port for Armv7-M: Cortex-M3, Cortex-M4/M4F, Cortex-M7 (GNU toolchain).
 * docs/porting.md describes stack sizing and the fatal-error hook.
 */
#ifndef LIMEN_PORT_ARMV7M_H
#define LIMEN_PORT_ARMV7M_H

#include <stdint.h>

/* A switched-out thread's registers live on its own stack; the control block
 * keeps only the stack pointer. */
typedef struct lm_port_context {
    void *sp;
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

#endif
