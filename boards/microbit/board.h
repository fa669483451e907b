/* SPDX-License-Identifier: Apache-2.0 */
/* The board services (board_services.h) on the BBC micro:bit (nRF51822),
 * as QEMU 7.2 models it: console on UART0; lm_board_exit() ends QEMU with
 * the code through semihosting; lm_board_timestamp() counts up at
 * MICROBIT_TIMESTAMP_HZ (TIMER0, 32 bits, free-running). The kernel's tick
 * is TIMER1 (console.c): the nRF51 has no SysTick. */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include <stddef.h>

#include "board_services.h"

/* Write a host file through semihosting (QEMU: relative to its working
 * directory). Returns 0, or -1. */
int lm_board_file_write(const char *path, const void *data, size_t bytes);

#define MICROBIT_CPU_HZ 16000000u
/* TIMER0 at 16 MHz / 2: under QEMU's -icount shift=0 (1 ns per
 * instruction) one count is exactly 125 instructions, where 16 MHz would
 * make it 62.5. */
#define MICROBIT_TIMESTAMP_HZ 8000000u

/* TIMER0's compare channels: 0 reads the count (capture), 1 is the target
 * tests' watchdog (tests/target/support_microbit.c), 2 and 3 are free. */
#define MICROBIT_TIMESTAMP_CC 0u
#define MICROBIT_WATCHDOG_CC 1u

#define LM_BOARD_TIME_UNIT "instructions"
#define LM_BOARD_TIME_UNIT_SHORT "instr."
#define LM_BOARD_UNITS_PER_COUNT 125u

#endif
