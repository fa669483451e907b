/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The validation image's platform: main starts the suite (which initialises
 * and starts the kernel itself), the board's shared interrupt handler
 * routes lines 30 and 31 to the suite's handlers, the report goes to the
 * board's console, and the suite's end-of-test character ends the run.
 */
#include <stdint.h>
#include "board_services.h"

int cmsis_rv2(void);
int stdout_putchar(int ch);
void lmv_irq_a(void);
void lmv_irq_b(void);
void IRQ_Handler(void);

void IRQ_Handler(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    if (ipsr == 16u + 30u) {
        lmv_irq_a();
    } else if (ipsr == 16u + 31u) {
        lmv_irq_b();
    }
}

int stdout_putchar(int ch)
{
    if (ch == 0x04) {
        lm_board_puts("\nlimen: end of validation\n");
        lm_board_exit(0);
    }
    lm_board_putc((char)ch);
    return ch;
}

int main(void)
{
    return cmsis_rv2();
}
