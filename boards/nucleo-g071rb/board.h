/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on the NUCLEO-G071RB: console on
 * USART2 (PA2, the ST-LINK virtual COM port) at 115200 baud; lm_board_exit()
 * prints the code and sleeps with interrupts masked;
 * lm_board_timestamp() counts core cycles (TIM2, 32 bits, at 64 MHz: the
 * Cortex-M0+ has no cycle counter). */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include "board_services.h"

#define STM32G0_CONSOLE_BAUD 115200u

#define LM_BOARD_TIME_UNIT "cycles"
#define LM_BOARD_TIME_UNIT_SHORT "cycles"
#define LM_BOARD_UNITS_PER_COUNT 1u

#endif
