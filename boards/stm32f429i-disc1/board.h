/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on the STM32F429I-DISC1:
 * STM32F429ZI, Cortex-M4F, console on USART1 (PA9 TX, PA10 RX) = the ST-LINK
 * virtual COM port, 115200 8N1. lm_board_exit() prints the exit code on the
 * console, then stops (a debugger, if one is attached, sees a breakpoint).
 * lm_board_timestamp() counts up at the core clock (DWT cycle counter):
 * core cycles, not the 25 MHz timer of the MPS2 boards. */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include "board_services.h"
#include "clock.h"

/* Core clock, set by board.cmake (LIMEN_STM32_SYSCLK_MHZ). The port's
 * SysTick (LM_PORT_CPU_HZ) is given the same value. */
#ifndef STM32_SYSCLK_HZ
#define STM32_SYSCLK_HZ 84000000u
#endif
#define STM32_HSE_HZ 8000000u
#define STM32_CONSOLE_BAUD 115200u

/* The rate of lm_board_timestamp(): the core clock. */
#define LM_BOARD_TIMESTAMP_HZ STM32_SYSCLK_HZ
/* What a timestamp count measures, for reports: one core clock cycle. */
#define LM_BOARD_TIME_UNIT "cycles"
#define LM_BOARD_TIME_UNIT_SHORT "cycles"
#define LM_BOARD_UNITS_PER_COUNT 1u

/* The clock tree the start-up code set up, and where its PLL input came
 * from: "HSE" (crystal), "HSE-bypass" (external clock, e.g. the ST-LINK
 * MCO), "HSI" (internal RC: no HSE found), or "HSI-no-PLL" (the PLL did not
 * lock; SYSCLK is 16 MHz and the kernel tick runs slow). */
const stm32_clock_plan_t *stm32_board_clock(void);
const char *stm32_board_clock_source(void);

#endif
