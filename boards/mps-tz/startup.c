/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up of the Armv8-M boards under QEMU (mps2-an505, mps3-an547):
 * vector table, reset, default handler, semihosting. The firmware runs in
 * the Secure state with the SAU off, so every address is Secure memory
 * (docs/porting.md, "Armv8-M"). The steps every board shares are in
 * ../common/reset.c. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "board.h"
#include "reset.h"

extern uint32_t __main_stack_top[], __main_stack_bottom[];

LM_BOARD_WEAK_SYSTEM_HANDLERS();
LM_BOARD_WEAK_HANDLER(TIMER0_Handler);
LM_BOARD_WEAK_HANDLER(TIMER1_Handler);
LM_BOARD_WEAK_HANDLER(DUALTIMER_Handler);
LM_BOARD_WEAK_HANDLER(IRQ_Handler);

/* A timer the board does not have: no line of the table. */
#if !defined(MPS2_IRQ_TIMER0)
#define MPS2_IRQ_TIMER0 0xFFFFu
#endif
#if !defined(MPS2_IRQ_TIMER1)
#define MPS2_IRQ_TIMER1 0xFFFFu
#endif
#if !defined(MPS2_IRQ_DUALTIMER)
#define MPS2_IRQ_DUALTIMER 0xFFFFu
#endif
/* mps3-an547: the test timer's second channel has a line of its own. */
#if !defined(MPS_TZ_IRQ_SYSTIMER3)
#define MPS_TZ_IRQ_SYSTIMER3 0xFFFFu
#endif

/* The handler of interrupt line n: the timers' own, IRQ_Handler (which
 * tests override) for every other. */
#define LINE(n)                                                                \
    [16 + (n)] = ((n) == MPS2_IRQ_TIMER0      ? TIMER0_Handler                 \
                  : (n) == MPS2_IRQ_TIMER1    ? TIMER1_Handler                 \
                  : (n) == MPS2_IRQ_DUALTIMER ? DUALTIMER_Handler              \
                  : (n) == MPS_TZ_IRQ_SYSTIMER3 ? DUALTIMER_Handler            \
                                              : IRQ_Handler)
#define LINES8(n) LINE(n), LINE(n + 1), LINE(n + 2), LINE(n + 3), LINE(n + 4), LINE(n + 5), \
                  LINE(n + 6), LINE(n + 7)

__attribute__((section(".vectors"), used)) static const lm_board_vector_t
    vectors[16 + MPS2_IRQ_COUNT] = {
    LM_BOARD_SYSTEM_VECTORS(__main_stack_top),
    LINES8(0u), LINES8(8u), LINES8(16u), LINES8(24u), LINES8(32u), LINES8(40u),
};
_Static_assert(MPS2_IRQ_COUNT == 48u, "the table above lists 48 lines");

void Reset_Handler(void)
{
    /* The main stack's limit first: an overflow of it faults from here on. */
    __asm volatile("msr msplim, %0" ::"r"(__main_stack_bottom));
    lm_board_memory_init();
    lm_board_fpu_init(); /* CP10/CP11: the FPU, and MVE on the Cortex-M55 */
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
    (void)semihost(SYS_EXIT, (const void *)(uintptr_t)(code == 0 ? ADP_STOPPED_APPLICATION_EXIT
                                                                  : ADP_STOPPED_RUNTIME_ERROR));
    for (;;) {
    }
}
