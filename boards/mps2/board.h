/* Board services every Limen board provides (console, exit, timestamp). */
#ifndef LIMEN_BOARD_H
#define LIMEN_BOARD_H

#include <stdint.h>

#define MPS2_IRQ_COUNT 32u
#define MPS2_SYSCLK_HZ 25000000u
#define MPS2_IRQ_TIMER0 8u
#define MPS2_IRQ_TIMER1 9u

void lm_board_init(void);
void lm_board_putc(char c);
void lm_board_puts(const char *s);
/* End the program: under QEMU, exit with `code` through semihosting. */
_Noreturn void lm_board_exit(int code);
/* Free-running count up at MPS2_SYSCLK_HZ (CMSDK timer 1). Under QEMU with
 * -icount shift=0, one count is 40 instructions. */
uint32_t lm_board_timestamp(void);
/* What a timestamp count measures, for reports: under QEMU -icount shift=0
 * one count is 40 instructions (docs/measuring.md). */
#define LM_BOARD_TIME_UNIT "instructions"
#define LM_BOARD_TIME_UNIT_SHORT "instr."
#define LM_BOARD_UNITS_PER_COUNT 40u

#endif
