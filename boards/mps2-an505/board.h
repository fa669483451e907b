/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on MPS2 AN505 under QEMU 7.2:
 * console on CMSDK UART0; lm_board_exit() ends QEMU through semihosting;
 * lm_board_timestamp() counts up at MPS2_SYSCLK_HZ (the SSE-200's CMSDK
 * timer 1). In the Secure state (this board) every address is the Secure
 * alias (bit 28 set); in the Non-secure state (../mps2-an505-ns, which
 * defines MPS_TZ_NONSECURE) the Non-secure one. The names the target tests
 * use are those of ../mps2/board.h. */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include <stddef.h>

#include "board_services.h"

int lm_board_file_write(const char *path, const void *data, size_t bytes);

#if defined(MPS_TZ_NONSECURE)
#define MPS_TZ_ADDR(a) (a)
#else
#define MPS_TZ_ADDR(a) ((a) | 0x10000000u) /* the Secure alias */
#endif

#define MPS2_IRQ_COUNT 48u
#define MPS2_SYSCLK_HZ 20000000u
#define MPS_TZ_UART_CLK_HZ 20000000u
#define MPS_TZ_UART0_BASE MPS_TZ_ADDR(0x40200000u)
#define MPS_TZ_UART0_IRQ_RX 32u

/* The SSE-200's CMSDK timers and dual timer. */
#define MPS2_TIMER0_BASE MPS_TZ_ADDR(0x40000000u)
#define MPS2_TIMER1_BASE MPS_TZ_ADDR(0x40001000u)
#define MPS2_DUALTIMER_BASE MPS_TZ_ADDR(0x40002000u)
#define MPS2_IRQ_TIMER0 3u
#define MPS2_IRQ_TIMER1 4u
#define MPS2_IRQ_DUALTIMER 5u
/* Lines no device drives: tests trigger them by software. */
#define MPS2_IRQ_SPARE0 16u

/* Under -icount shift=0 one count at 20 MHz is 50 instructions. */
#define LM_BOARD_TIME_UNIT "instructions"
#define LM_BOARD_TIME_UNIT_SHORT "instr."
#define LM_BOARD_UNITS_PER_COUNT 50u

#endif
