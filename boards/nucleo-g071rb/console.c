/* SPDX-License-Identifier: Apache-2.0 */
/* NUCLEO-G071RB console (USART2 TX on PA2, the ST-LINK virtual COM port),
 * timestamp (TIM2 at the core clock), exit. newlib writes to the console
 * through ../common/newlib_syscalls.c. */
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "stm32g071.h"

bool stm32g0_clock_ok(void);

void lm_board_init(void)
{
    RCC_IOPENR |= RCC_IOPENR_GPIOAEN;
    RCC_APBENR1 |= RCC_APBENR1_USART2EN | RCC_APBENR1_TIM2EN;
    (void)RCC_APBENR1; /* the enables take effect before the writes below */
    /* PA2 to alternate function 1, USART2_TX. */
    GPIOA_AFRL = (GPIOA_AFRL & ~(0xFu << 8)) | (GPIO_AF1 << 8);
    GPIOA_MODER = (GPIOA_MODER & ~(3u << 4)) | (GPIO_MODE_AF << 4);
    /* 8N1, 16x oversampling, from PCLK = HCLK (the clock the start-up set,
     * or the HSI16 if the PLL did not lock). */
    uint32_t pclk = stm32g0_clock_ok() ? STM32G0_SYSCLK_HZ : 16000000u;
    USART2_CR1 = 0u;
    USART2_BRR = (pclk + STM32G0_CONSOLE_BAUD / 2u) / STM32G0_CONSOLE_BAUD;
    USART2_CR1 = USART_CR1_UE | USART_CR1_TE;

    /* TIM2 free-running over its 32 bits at the core clock: cycles. */
    TIM2_PSC = 0u;
    TIM2_ARR = 0xFFFFFFFFu;
    TIM2_EGR = TIM_EGR_UG;
    TIM2_CR1 = TIM_CR1_CEN;

    if (!stm32g0_clock_ok()) {
        lm_board_puts("limen: PLL did not lock, running on the 16 MHz HSI: "
                      "kernel ticks are too slow\n");
    }
}

void lm_board_putc(char c)
{
    while ((USART2_ISR & USART_ISR_TXE) == 0u) {
    }
    USART2_TDR = (uint8_t)c;
}

void lm_board_puts(const char *s)
{
    while (*s != '\0') {
        if (*s == '\n') {
            lm_board_putc('\r');
        }
        lm_board_putc(*s++);
    }
}

uint32_t lm_board_timestamp(void)
{
    return TIM2_CNT;
}

#if LM_PORT_TIMESTAMP
/* The trace's timestamp (limen/port.h): the Cortex-M0+ has no cycle
 * counter, TIM2 counts cycles instead. */
uint32_t lm_port_timestamp(void)
{
    return TIM2_CNT;
}

uint32_t lm_port_timestamp_start(void)
{
    return STM32G0_SYSCLK_HZ;
}
#endif

_Noreturn void lm_board_exit(int code)
{
    char msg[] = "limen: exit 000\n";
    unsigned u = code < 0 ? 999u : (unsigned)code % 1000u;
    msg[12] = (char)('0' + u / 100u);
    msg[13] = (char)('0' + u / 10u % 10u);
    msg[14] = (char)('0' + u % 10u);
    lm_board_puts(msg);
    while ((USART2_ISR & USART_ISR_TC) == 0u) {
    }
    /* No breakpoint for a debugger here: whether software may read DHCSR
     * to know one is attached is left to the implementation on Armv6-M,
     * and a BKPT without one is a HardFault. The code is on the console. */
    __asm volatile("cpsid i" ::: "memory");
    for (;;) {
        __asm volatile("wfi");
    }
}
