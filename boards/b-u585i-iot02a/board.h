/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on the B-U585I-IOT02A Discovery
 * kit: STM32U585AII6Q, Cortex-M33 with FPU, TrustZone disabled (Non-secure
 * state); console on USART1 (PA9 TX, PA10 RX) = the STLINK-V3E virtual COM
 * port, 115200 8N1. lm_board_exit() prints the exit code on the console,
 * then stops (a debugger, if one is attached, sees a breakpoint).
 * lm_board_timestamp() counts core cycles (DWT cycle counter). */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include <stdbool.h>

#include "board_services.h"

/* Core clock: PLL1 from the 4 MHz MSIS (startup.c). The port's SysTick
 * (LM_PORT_CPU_HZ, board.cmake) is given the same value. */
#define STM32_SYSCLK_HZ 160000000u
#define STM32_MSIS_HZ 4000000u
#define STM32_CONSOLE_BAUD 115200u
#define STM32_IRQ_COUNT 125u

/* The rate of lm_board_timestamp(): the core clock. */
#define LM_BOARD_TIMESTAMP_HZ STM32_SYSCLK_HZ
#define LM_BOARD_TIME_UNIT "cycles"
#define LM_BOARD_TIME_UNIT_SHORT "cycles"
#define LM_BOARD_UNITS_PER_COUNT 1u

/* Whether the start-up code reached the 160 MHz clock (false: the PLL or
 * the booster did not become ready, and the core stays on the 4 MHz MSIS,
 * with the kernel tick 40 times too slow; lm_board_init says so). */
bool stm32_board_clock_ok(void);

#endif
