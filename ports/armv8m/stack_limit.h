/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv8-M Mainline: the stack limit registers (PSPLIM, MSPLIM), the one
 * difference of the switch from Armv7-M. Included by ../armv7m/fault.h
 * when LM_PORT_ARMV8M is set; not part of the API.
 *
 * Every thread runs with PSPLIM at the bottom of its stack, raised by the
 * guard words and by the room its switch-out needs (the registers PendSV
 * saves below the exception frame). A push, a frame allocation or an
 * exception frame that would go below it faults at once: UsageFault with
 * CFSR.STKOF, escalated to HardFault unless the application enables
 * UsageFault. The thread's limit is saved with its registers, so that the
 * switch loads it with one MSR (2 instructions and one word more per
 * switch than Armv7-M).
 */
#ifndef LIMEN_ARMV8M_STACK_LIMIT_H
#define LIMEN_ARMV8M_STACK_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "limen/limen.h"

#if !defined(__ARM_ARCH_8M_MAIN__) && !defined(__ARM_ARCH_8_1M_MAIN__)
#error "LM_PORT_ARMV8M: build for an Armv8-M Mainline core (-mcpu=cortex-m33, cortex-m55)"
#endif
#if LM_CFG_MPU_STACK_GUARD
#error "LM_CFG_MPU_STACK_GUARD is for Armv7-M: on Armv8-M, PSPLIM stops an overflow at once"
#endif

/* PendSV's save and load of a thread's registers: PSPLIM (in r2) below
 * R4-R11 and EXC_RETURN. The load sets the limit before PSP moves. Cost
 * over Armv7-M's: one MRS, one MSR, one word stored and loaded. */
#define LMP_REGS_SAVE "mrs r2, psplim\n stmdb r0!, {r2, r4-r11, lr}\n"
#define LMP_REGS_LOAD "ldmia r0!, {r2, r4-r11, lr}\n msr psplim, r2\n"

/* The fault handler's first instructions: MSPLIM is kept for the report
 * (lmp_stack_limit_frame_lost) and lifted, so that a report of a main
 * stack overflow can run on what lies below it rather than lock up. */
#define LMP_FAULT_ENTRY                         \
    "mrs r2, msplim\n"                          \
    "ldr r3, =lmp_main_stack_limit_at_fault\n"  \
    "str r2, [r3]\n"                            \
    "movs r2, #0\n"                             \
    "msr msplim, r2\n"
extern uint32_t lmp_main_stack_limit_at_fault;

/* UsageFault status: a stack limit was hit. */
#define LMP_CFSR_STKOF (1u << 20)

/* The limit a thread runs with: its stack's bottom, above the guard words
 * and the room PendSV needs to save its registers there. Cost: 4
 * instructions, once per thread start (lm_port_stack_init). */
uint32_t lmp_stack_limit(const lm_thread_t *t);

/* In the fault handler: the fault is a stack limit violation. Cost: 3
 * instructions. */
bool lmp_stack_limit_hit(uint32_t cfsr);

/* In the fault handler, `frame` being the stack pointer the exception
 * frame was pushed to: true if the violation came while pushing it, so
 * that no frame was written (the core leaves the stack pointer at its
 * limit). Cost: about 10 instructions. */
bool lmp_stack_limit_frame_lost(uint32_t cfsr, const uint32_t *frame, uint32_t exc_return);

/* security.c: whether the kernel runs in the Secure state, and the
 * EXC_RETURN value that returns to a thread there (on its process stack,
 * no FPU frame). Cost: 6 instructions. */
bool lmp_secure_state(void);
uint32_t lmp_exc_return_thread(void);

#endif
