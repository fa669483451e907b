/* SPDX-License-Identifier: Apache-2.0 */
/* Start-up steps every Cortex-M board shares (reset.h). */
#include <stdint.h>
#include <string.h>

#include "limen/port.h" /* the architecture's registers */
#include "limen/kernel.h"
#include "board_services.h"
#include "reset.h"

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern int main(void);
extern void __libc_init_array(void);

void lm_board_memory_init(void)
{
    memcpy(__data_start, __data_load, (size_t)((uint8_t *)__data_end - (uint8_t *)__data_start));
    memset(__bss_start, 0, (size_t)((uint8_t *)__bss_end - (uint8_t *)__bss_start));
}

void lm_board_fpu_init(void)
{
#if defined(__ARM_FP)
    LM_SCB_CPACR |= LM_SCB_CPACR_CP10_CP11_FULL;
    LM_FPU_FPCCR |= LM_FPU_FPCCR_ASPEN | LM_FPU_FPCCR_LSPEN;
    /* The next instruction may be an FPU one: the enable must be in effect. */
    __asm volatile("dsb\n isb");
#endif
}

_Noreturn void lm_board_run_main(void)
{
    lm_board_init();
    __libc_init_array();
    int code = main();
    if (lm_kernel_initialised() && !lm_kernel_running()) {
        /* The threads main created never ran: the first-day mistake of
         * leaving out lm_kernel_start(), which does not return. */
        lm_board_puts("limen: main() returned without calling lm_kernel_start(); "
                      "no thread ran\n");
    }
    lm_board_exit(code);
}

/* A minimal report for a build that links the kernel without the Armv7-M
 * port's fault.c (a port built from port.c alone): weak, so fault.c's
 * handler, with its register dump and the fatal hook, replaces it. */
__attribute__((weak)) void HardFault_Handler(void)
{
    lm_board_puts("limen: hard fault\n");
    lm_board_exit(2);
}
