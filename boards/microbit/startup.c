/* SPDX-License-Identifier: Apache-2.0 */
/* micro:bit start-up: vector table, reset, default handler (semihosting
 * exit: ../common/semihosting.c). The steps every board shares (memory, main) are in
 * ../common/reset.c. */
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "nrf51.h"
#include "reset.h"

extern uint32_t __main_stack_top[];

LM_BOARD_WEAK_HANDLER(NMI_Handler);
LM_BOARD_WEAK_HANDLER(SVC_Handler);
LM_BOARD_WEAK_HANDLER(PendSV_Handler);
LM_BOARD_WEAK_HANDLER(SysTick_Handler);
LM_BOARD_WEAK_HANDLER(UART0_Handler);
LM_BOARD_WEAK_HANDLER(TIMER0_Handler);
LM_BOARD_WEAK_HANDLER(TIMER1_Handler);
LM_BOARD_WEAK_HANDLER(TIMER2_Handler);
LM_BOARD_WEAK_HANDLER(IRQ_Handler);

/* Armv6-M's system exceptions (reset.h), then the interrupts. Every
 * interrupt line the board does not name goes to IRQ_Handler, which tests
 * override (the software interrupts SWI0-SWI5 are lines 20-25). */
__attribute__((section(".vectors"), used)) static const lm_board_vector_t
    vectors[16 + NRF_IRQ_COUNT] = {
    LM_BOARD_SYSTEM_VECTORS_ARMV6M(__main_stack_top),
    [16 + 0] = IRQ_Handler, [16 + 1] = IRQ_Handler,
    [16 + NRF_IRQ_UART0] = UART0_Handler,
    [16 + 3] = IRQ_Handler, [16 + 4] = IRQ_Handler, [16 + 5] = IRQ_Handler,
    [16 + 6] = IRQ_Handler, [16 + 7] = IRQ_Handler,
    [16 + NRF_IRQ_TIMER0] = TIMER0_Handler,
    [16 + NRF_IRQ_TIMER1] = TIMER1_Handler,
    [16 + NRF_IRQ_TIMER2] = TIMER2_Handler,
    [16 + 11] = IRQ_Handler, [16 + 12] = IRQ_Handler, [16 + 13] = IRQ_Handler,
    [16 + 14] = IRQ_Handler, [16 + 15] = IRQ_Handler, [16 + 16] = IRQ_Handler,
    [16 + 17] = IRQ_Handler, [16 + 18] = IRQ_Handler, [16 + 19] = IRQ_Handler,
    [16 + 20] = IRQ_Handler, [16 + 21] = IRQ_Handler, [16 + 22] = IRQ_Handler,
    [16 + 23] = IRQ_Handler, [16 + 24] = IRQ_Handler, [16 + 25] = IRQ_Handler,
    [16 + 26] = IRQ_Handler, [16 + 27] = IRQ_Handler, [16 + 28] = IRQ_Handler,
    [16 + 29] = IRQ_Handler, [16 + 30] = IRQ_Handler, [16 + 31] = IRQ_Handler,
};

void Reset_Handler(void)
{
    lm_board_memory_init();
    lm_board_run_main();
}

void Default_Handler(void)
{
    lm_board_puts("limen: unexpected exception\n");
    lm_board_exit(2);
}
