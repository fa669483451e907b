/* SPDX-License-Identifier: Apache-2.0 */
/* The services every Limen board provides (console, exit, timestamp), as
 * the tests and examples call them. Each board's board.h includes this
 * header, says what the services do on that board, and adds its own
 * definitions, among them the units of lm_board_timestamp() for reports:
 * LM_BOARD_TIME_UNIT, LM_BOARD_TIME_UNIT_SHORT and LM_BOARD_UNITS_PER_COUNT. */
#ifndef LIMEN_BOARD_SERVICES_H
#define LIMEN_BOARD_SERVICES_H

#include <stdint.h>

/* Console and timestamp set-up; the start-up code calls it before main. */
void lm_board_init(void);
void lm_board_putc(char c);
void lm_board_puts(const char *s);
/* End the program with `code` (main's return value, or exit's). */
_Noreturn void lm_board_exit(int code);
/* A free-running count up; board.h says at what rate. */
uint32_t lm_board_timestamp(void);

#endif
