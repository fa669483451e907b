/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Port for Armv6-M: Cortex-M0, Cortex-M0+, Cortex-M1 (GNU toolchain). It also
 * runs on any Armv7-M core, which executes Armv6-M code (the mps2-an385-v6m
 * board). docs/porting.md describes what the architecture costs.
 */
#ifndef LIMEN_PORT_ARMV6M_H
#define LIMEN_PORT_ARMV6M_H

#include <stdbool.h>
#include <stdint.h>

#include "limen/armv6m.h"

#include "limen/config.h"

/* A switched-out thread's registers live on its own stack; the control block
 * keeps the stack pointer and what the stack check needs: the address of
 * the top guard word at the stack's bottom, a copy of the thread's name,
 * and a check word over them and the
 * control block's address, which an overflow running down from the stack
 * into a control block placed below it reaches last (docs/porting.md). */
typedef struct lm_port_context {
    void *sp;
    void *guard_top;
    const char *name;
    uint32_t check;
} lm_port_context_t;

/* The PRIMASK value to restore. */
typedef uint32_t lm_irqstate_t;

#define LM_PORT_STACK_ALIGN 8u

/* The exception frame (8 words), the registers the switch saves (8 words),
 * an interrupt's frame on top and a little C: 256 bytes is the floor, real
 * threads need their own frames on top (docs/porting.md). Small, as the
 * parts are: an nRF51822 has 16 KiB of RAM. */
#define LM_PORT_MIN_STACK 256u

/* SysTick input clock and tick interrupt priority (the top two bits count:
 * 0x00, 0x40, 0x80, 0xC0). */
#ifndef LM_PORT_CPU_HZ
#define LM_PORT_CPU_HZ 25000000u
#endif
#ifndef LM_PORT_SYSTICK_PRIO
#define LM_PORT_SYSTICK_PRIO 0xC0u
#endif

/* 1: the board supplies the tick instead of SysTick, which Armv6-M makes
 * optional (the nRF51 has none). It then defines lm_board_tick_start(),
 * which starts an interrupt at LM_CFG_TICK_HZ whose handler calls
 * lm_armv6m_tick(), and lm_board_tick_stop(). */
#ifndef LM_PORT_BOARD_TICK
#define LM_PORT_BOARD_TICK 0
#endif
#if LM_PORT_BOARD_TICK
void lm_board_tick_start(void);
void lm_board_tick_stop(void);
#endif

/* What the Armv7-M port offers and Armv6-M cannot, refused at build time
 * rather than silently missing (docs/porting.md). */
#if LM_CFG_MPU_STACK_GUARD
#error "the Armv6-M port has no MPU stack guard (LM_CFG_MPU_STACK_GUARD)"
#endif
#if LM_CFG_TICKLESS
#error "the Armv6-M port has no tickless idle (LM_CFG_TICKLESS)"
#endif
#if LM_CFG_NEWLIB
#error "the Armv6-M port has no per-thread newlib state (LM_CFG_NEWLIB)"
#endif

/* The four calls on every kernel path are inline (LM_PORT_INLINE tells
 * include/limen/port.h not to declare them as functions). */
#define LM_PORT_INLINE 1

/* The periodic tick needs no next deadline from the idle thread
 * (lm_port_timer_arm ignores it). */
#define LM_PORT_IDLE_TIMER 0

/* Without BASEPRI the lock is PRIMASK: it masks every interrupt but NMI and
 * HardFault, so no interrupt runs while the kernel holds it, and any
 * handler (NMI aside) may call the kernel. Cost: 2 instructions to lock,
 * 2 to unlock. */
static inline lm_irqstate_t lm_port_irq_lock(void)
{
    uint32_t old;
    __asm volatile("mrs %0, primask\n cpsid i" : "=r"(old)::"memory");
    return old;
}

/* Restoring rather than clearing: a caller that had masked interrupts
 * itself keeps them masked. The ISB makes an interrupt (or switch) pending
 * at the unlock taken before the next instruction on every implementation,
 * as the Armv7-M port does. */
static inline void lm_port_irq_unlock(lm_irqstate_t state)
{
    __asm volatile("msr primask, %0\n isb" ::"r"(state) : "memory");
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
