/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on the MPS2 boards under QEMU:
 * console on CMSDK UART0; lm_board_exit() ends QEMU with the code through
 * semihosting; lm_board_timestamp() counts up at MPS2_SYSCLK_HZ (CMSDK
 * timer 1). */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include <stddef.h>

#include "board_services.h"

/* Write a host file through semihosting (QEMU: relative to its working
 * directory). Returns 0, or -1. For getting a trace out (docs/trace.md). */
int lm_board_file_write(const char *path, const void *data, size_t bytes);

#define MPS2_IRQ_COUNT 32u
#define MPS2_SYSCLK_HZ 25000000u
#define MPS2_IRQ_TIMER0 8u
#define MPS2_IRQ_TIMER1 9u
#define MPS2_IRQ_DUALTIMER 10u
#define MPS2_TIMER0_BASE 0x40000000u
#define MPS2_TIMER1_BASE 0x40001000u
#define MPS2_DUALTIMER_BASE 0x40002000u
/* Lines MPS2_IRQ_SPARE0 and the two after it: no device drives them, tests
 * trigger them by software (IRQ_Handler). */
#define MPS2_IRQ_SPARE0 5u

/* What a timestamp count measures, for reports: under QEMU -icount shift=0
 * one count is 40 instructions (docs/measuring.md). */
#define LM_BOARD_TIME_UNIT "instructions"
#define LM_BOARD_TIME_UNIT_SHORT "instr."
#define LM_BOARD_UNITS_PER_COUNT 40u

#endif
