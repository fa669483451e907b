/* SPDX-License-Identifier: Apache-2.0 */
/* B-U585I-IOT02A console (USART1 on PA9/PA10, the STLINK-V3E virtual COM
 * port), timestamp (DWT cycle counter), exit. newlib writes to the console
 * through ../common/newlib_syscalls.c. */
#include <stdint.h>

#include "board.h"
#include "stm32u585.h"

/* USART1's clock is PCLK2 (RCC_CCIPR1 USART1SEL 0), which is SYSCLK; or
 * the 4 MHz MSIS if the start-up stayed there. Rounded to the nearest. */
static uint32_t usart_brr(uint32_t clock_hz)
{
    return (clock_hz + STM32_CONSOLE_BAUD / 2u) / STM32_CONSOLE_BAUD;
}

void lm_board_init(void)
{
    RCC_AHB2ENR1 |= RCC_AHB2ENR1_GPIOAEN;
    RCC_APB2ENR |= RCC_APB2ENR_USART1EN;
    (void)RCC_APB2ENR; /* the enables take effect before the writes below */
    RCC_CCIPR1 &= ~RCC_CCIPR1_USART1SEL_MASK;
    GPIOA_AFRH = (GPIOA_AFRH & ~((0xFu << 4) | (0xFu << 8))) |
                 (GPIO_AF7_USART1 << 4) | (GPIO_AF7_USART1 << 8);
    GPIOA_OSPEEDR = (GPIOA_OSPEEDR & ~(3u << 18)) | (GPIO_SPEED_HIGH << 18);
    GPIOA_PUPDR = (GPIOA_PUPDR & ~(3u << 20)) | (GPIO_PULL_UP << 20);
    GPIOA_MODER = (GPIOA_MODER & ~((3u << 18) | (3u << 20))) |
                  (GPIO_MODE_AF << 18) | (GPIO_MODE_AF << 20);

    /* 8 data bits, no parity, 1 stop bit, 16x oversampling. */
    USART1_CR1 = 0u;
    USART1_CR2 = 0u;
    USART1_CR3 = 0u;
    USART1_BRR = usart_brr(stm32_board_clock_ok() ? STM32_SYSCLK_HZ : STM32_MSIS_HZ);
    USART1_CR1 = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;

    /* Cycle counter for lm_board_timestamp(). */
    DEMCR |= DEMCR_TRCENA;
    DWT_CYCCNT = 0u;
    DWT_CTRL |= DWT_CTRL_CYCCNTENA;

    if (!stm32_board_clock_ok()) {
        lm_board_puts("limen: PLL1 did not start, running on the 4 MHz MSIS: "
                      "kernel ticks are too slow\n");
    }
}

void lm_board_putc(char c)
{
    while ((USART1_ISR & USART_ISR_TXE) == 0u) {
    }
    USART1_TDR = (uint8_t)c;
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
    return DWT_CYCCNT;
}

_Noreturn void lm_board_exit(int code)
{
    char msg[] = "limen: exit 000\n";
    unsigned u = code < 0 ? 999u : (unsigned)code % 1000u;
    msg[12] = (char)('0' + u / 100u);
    msg[13] = (char)('0' + u / 10u % 10u);
    msg[14] = (char)('0' + u % 10u);
    lm_board_puts(msg);
    while ((USART1_ISR & USART_ISR_TC) == 0u) {
    }
    __asm volatile("cpsid i" ::: "memory");
    if ((DHCSR & DHCSR_C_DEBUGEN) != 0u) {
        /* A debugger is attached: stop where it can see r0 = code. */
        register int r0 __asm("r0") = code;
        __asm volatile("bkpt 0" ::"r"(r0));
    }
    for (;;) {
        __asm volatile("wfi");
    }
}
