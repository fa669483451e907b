/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on MPS3 AN547 under QEMU 7.2,
 * Secure state: console on CMSDK UART0; lm_board_exit() ends QEMU through
 * semihosting; lm_board_timestamp() is the FPGA's counter (FPGAIO
 * COUNTER, MPS_TZ_COUNTER_HZ). Every address is the Secure alias (bit 28
 * set). The SSE-300 has no CMSDK timer at the system clock; its system
 * timers count the system counter, which counts the system clock: timer 0
 * is the target tests' watchdog, timers 2 and 3 their test timer
 * (tests/target/lmt_timer.h), both on DUALTIMER_Handler. */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include <stddef.h>

#include "board_services.h"

int lm_board_file_write(const char *path, const void *data, size_t bytes);

#define MPS2_IRQ_COUNT 48u
#define MPS2_SYSCLK_HZ 32000000u
#define MPS_TZ_UART_CLK_HZ 25000000u
#define MPS_TZ_UART0_BASE 0x59303000u
#define MPS_TZ_UART0_IRQ_RX 32u
#define MPS_TZ_FPGAIO_BASE 0x59302000u
#define MPS_TZ_COUNTER_HZ 20000000u /* QEMU 7.2: the FPGAIO prescaler clock */
/* The SSE-300's system counter (control frame) and system timers. */
#define MPS_TZ_SYSCOUNTER_CTRL_BASE 0x58100000u
#define MPS_TZ_SYSTIMER0_BASE 0x58000000u
#define MPS_TZ_SYSTIMER2_BASE 0x58002000u
#define MPS_TZ_SYSTIMER3_BASE 0x58003000u
#define MPS2_IRQ_TIMER0 3u      /* system timer 0 */
#define MPS2_IRQ_DUALTIMER 5u   /* system timer 2: the line of AN505's dual timer */
#define MPS_TZ_IRQ_SYSTIMER3 27u
/* Lines no device drives: tests trigger them by software. */
#define MPS2_IRQ_SPARE0 16u

/* Under -icount shift=0 one count at 20 MHz is 50 instructions. */
#define LM_BOARD_TIME_UNIT "instructions"
#define LM_BOARD_TIME_UNIT_SHORT "instr."
#define LM_BOARD_UNITS_PER_COUNT 50u

#endif
