/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric's per-target header: how a test raises an interrupt. On
 * mps2-an386 a real NVIC interrupt, not a trap: the thread writes the line
 * number to the NVIC's Software Trigger Interrupt Register (STIR). The line
 * (TM_IRQ_LINE) has no device on the board; the porting layer enables it at
 * a priority the kernel masks (0xC0, as measure 3's), and its handler calls
 * the test's tm_interrupt_handler or tm_interrupt_preemption_handler.
 *
 * DSB then ISB make the pended interrupt be taken before the next
 * instruction on a real core, as the tests assume (the handler has run by
 * the time the thread reads what it did). Under QEMU the interrupt is taken
 * right after the store anyway; the barriers cost 2 instructions per
 * interrupt in the figures.
 *
 * The suite's tests print with printf and do not include <stdio.h>
 * themselves, so this header does.
 */
#ifndef TM_PORTING_LAYER_H
#define TM_PORTING_LAYER_H

#include <stdio.h>
#include <stdint.h>

#define TM_IRQ_LINE 30u
#define TM_NVIC_STIR (*(volatile uint32_t *)0xE000EF00u)

static inline void tm_cause_interrupt(void)
{
    TM_NVIC_STIR = TM_IRQ_LINE;
    __asm volatile("dsb\n\tisb" ::: "memory");
}

/* Used as a statement without a semicolon by the tests. */
#define TM_CAUSE_INTERRUPT tm_cause_interrupt();

#endif
