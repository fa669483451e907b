/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up code every Cortex-M board shares (reset.c), and the names of the
 * system exception handlers its vector table holds. A board's startup.c
 * keeps what is its own: the vector table, Reset_Handler (which calls the
 * steps below in the order the board needs), Default_Handler, and whatever
 * its hardware must have before main (clocks, extra RAM). */
#ifndef LIMEN_BOARD_RESET_H
#define LIMEN_BOARD_RESET_H

#include <stdint.h>

/* Copy .data from its load address and zero .bss, as the linker script's
 * __data_load, __data_start, __data_end, __bss_start and __bss_end say. */
void lm_board_memory_init(void);
/* On a core with an FPU (__ARM_FP): CP10/CP11 enabled, with automatic and
 * lazy state preservation, which the Armv7-M port relies on (limen_port.h).
 * Nothing on a core without one. */
void lm_board_fpu_init(void);
/* The end of every reset: lm_board_init(), newlib's constructors, main, and
 * lm_board_exit() with main's status. */
_Noreturn void lm_board_run_main(void);

typedef void (*lm_board_vector_t)(void);

void Reset_Handler(void);
void Default_Handler(void);   /* the board's: every handler not defined */
void NMI_Handler(void);
/* The Armv7-M port defines the four fault handlers (ports/armv7m/fault.c):
 * a dump of the fault, then lm_fatal(LM_FATAL_FAULT, ...). */
void HardFault_Handler(void);
void MemManage_Handler(void);
void BusFault_Handler(void);
void UsageFault_Handler(void);
void SVC_Handler(void);
void DebugMon_Handler(void);
void PendSV_Handler(void);  /* the Armv7-M port defines it */
void SysTick_Handler(void); /* the Armv7-M port defines it */

/* A handler that is Default_Handler unless something else defines it. An
 * alias must name a function of the same file: use these where the board
 * defines Default_Handler. */
#define LM_BOARD_WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
#define LM_BOARD_WEAK_SYSTEM_HANDLERS()        \
    LM_BOARD_WEAK_HANDLER(NMI_Handler);        \
    LM_BOARD_WEAK_HANDLER(MemManage_Handler);  \
    LM_BOARD_WEAK_HANDLER(BusFault_Handler);   \
    LM_BOARD_WEAK_HANDLER(UsageFault_Handler); \
    LM_BOARD_WEAK_HANDLER(SVC_Handler);        \
    LM_BOARD_WEAK_HANDLER(DebugMon_Handler);   \
    LM_BOARD_WEAK_HANDLER(PendSV_Handler);     \
    LM_BOARD_WEAK_HANDLER(SysTick_Handler)

/* The 16 system entries that start every Armv7-M vector table: the initial
 * main stack pointer, then the handlers (0 where the architecture reserves
 * the entry). The board's interrupts follow. */
#define LM_BOARD_SYSTEM_VECTORS(stack_top)                                                  \
    (lm_board_vector_t)(uintptr_t)(stack_top), Reset_Handler, NMI_Handler,                  \
        HardFault_Handler, MemManage_Handler, BusFault_Handler, UsageFault_Handler, 0, 0, 0, \
        0, SVC_Handler, DebugMon_Handler, 0, PendSV_Handler, SysTick_Handler

/* Armv6-M's 16 system entries: MemManage, BusFault, UsageFault and
 * DebugMonitor do not exist there, and their entries are reserved (0). */
#define LM_BOARD_SYSTEM_VECTORS_ARMV6M(stack_top)                                    \
    (lm_board_vector_t)(uintptr_t)(stack_top), Reset_Handler, NMI_Handler,           \
        HardFault_Handler, 0, 0, 0, 0, 0, 0, 0, SVC_Handler, 0, 0, PendSV_Handler, \
        SysTick_Handler

#endif
