/* MPS2 start-up: vector table, reset, fault report, semihosting exit. */
#include <stdint.h>
#include <string.h>

#include "limen/armv7m.h"
#include "board.h"

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __main_stack_top[];
extern int main(void);
extern void __libc_init_array(void);

void Reset_Handler(void);
void Default_Handler(void);
void HardFault_Handler(void);

#define WEAK_HANDLER(name) void name(void) __attribute__((weak, alias("Default_Handler")))
WEAK_HANDLER(NMI_Handler);
WEAK_HANDLER(MemManage_Handler);
WEAK_HANDLER(BusFault_Handler);
WEAK_HANDLER(UsageFault_Handler);
WEAK_HANDLER(SVC_Handler);
WEAK_HANDLER(DebugMon_Handler);
WEAK_HANDLER(PendSV_Handler);
WEAK_HANDLER(SysTick_Handler);
WEAK_HANDLER(UART0RX_Handler);
WEAK_HANDLER(UART0TX_Handler);
WEAK_HANDLER(TIMER0_Handler);
WEAK_HANDLER(TIMER1_Handler);
WEAK_HANDLER(DUALTIMER_Handler);
WEAK_HANDLER(IRQ_Handler);

typedef void (*vector_t)(void);

__attribute__((section(".vectors"), used)) static const vector_t vectors[16 + MPS2_IRQ_COUNT] = {
    (vector_t)(uintptr_t)__main_stack_top,
    Reset_Handler, NMI_Handler, HardFault_Handler, MemManage_Handler, BusFault_Handler,
    UsageFault_Handler, 0, 0, 0, 0, SVC_Handler, DebugMon_Handler, 0, PendSV_Handler,
    SysTick_Handler,
    /* External interrupts (AN385 numbering): UART0 RX 0, TX 1, timers 8, 9, 10;
     * the rest share IRQ_Handler, which tests override per line. */
    [16 + 0] = UART0RX_Handler,
    [16 + 1] = UART0TX_Handler,
    [16 + 2] = IRQ_Handler, [16 + 3] = IRQ_Handler, [16 + 4] = IRQ_Handler,
    [16 + 5] = IRQ_Handler, [16 + 6] = IRQ_Handler, [16 + 7] = IRQ_Handler,
    [16 + 8] = TIMER0_Handler,
    [16 + 9] = TIMER1_Handler,
    [16 + 10] = DUALTIMER_Handler,
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
    memcpy(__data_start, __data_load, (size_t)((uint8_t *)__data_end - (uint8_t *)__data_start));
    memset(__bss_start, 0, (size_t)((uint8_t *)__bss_end - (uint8_t *)__bss_start));
#if defined(__ARM_FP)
    /* FPU on, with automatic and lazy state preservation (the port relies on
     * both, limen_port.h). */
    LM_SCB_CPACR |= LM_SCB_CPACR_CP10_CP11_FULL;
    LM_FPU_FPCCR |= LM_FPU_FPCCR_ASPEN | LM_FPU_FPCCR_LSPEN;
    __asm volatile("dsb\n isb");
#endif
    lm_board_init();
    __libc_init_array();
    lm_board_exit(main());
}

void Default_Handler(void)
{
    lm_board_puts("limen: unexpected exception\n");
    lm_board_exit(2);
}

void HardFault_Handler(void)
{
    lm_board_puts("limen: hard fault\n");
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

/* newlib's __libc_init_array calls these; with -nostartfiles nothing else
 * provides them, and there is nothing to do. */
void _init(void);
void _init(void) {}
void _fini(void);
void _fini(void) {}
