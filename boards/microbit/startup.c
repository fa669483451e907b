/* SPDX-License-Identifier: Apache-2.0 */
/* micro:bit start-up: vector table, reset, default handler, semihosting
 * exit. The steps every board shares (memory, main) are in
 * ../common/reset.c. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Semihosting: the debugger (here QEMU) carries out the request. */
static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_WRITE 0x05u
#define SYS_OPEN_WB 5u /* fopen mode "wb" */

int lm_board_file_write(const char *path, const void *data, size_t bytes)
{
    uint32_t open[3] = {(uint32_t)(uintptr_t)path, SYS_OPEN_WB, (uint32_t)strlen(path)};
    uint32_t fd = semihost(SYS_OPEN, open);
    if (fd == 0xFFFFFFFFu) {
        return -1;
    }
    uint32_t write[3] = {fd, (uint32_t)(uintptr_t)data, (uint32_t)bytes};
    uint32_t left = semihost(SYS_WRITE, write); /* bytes not written */
    uint32_t close[1] = {fd};
    return (semihost(SYS_CLOSE, close) == 0u && left == 0u) ? 0 : -1;
}

#define SYS_EXIT 0x18u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUNTIME_ERROR 0x20023u

_Noreturn void lm_board_exit(int code)
{
    uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
    (void)semihost(SYS_EXIT_EXTENDED, block);
    /* Without the extended call, only success or failure can be told. */
    (void)semihost(SYS_EXIT, (const void *)(uintptr_t)(code == 0 ? ADP_STOPPED_APPLICATION_EXIT
                                                                  : ADP_STOPPED_RUNTIME_ERROR));
    for (;;) {
    }
}
