/* SPDX-License-Identifier: Apache-2.0 */
/* STM32F429I-DISC1 console (USART1 on PA9/PA10, the ST-LINK virtual COM
 * port), timestamp (DWT cycle counter), exit. newlib writes to the console
 * through ../common/newlib_syscalls.c. */
#include <stdint.h>

#include "board.h"
#include "clock.h"
#include "stm32f429.h"

void lm_board_init(void)
{
    /* PA9 (TX) and PA10 (RX) to alternate function 7, USART1. */
    RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
    RCC_APB2ENR |= RCC_APB2ENR_USART1EN;
    (void)RCC_APB2ENR; /* the enables take effect before the writes below */
    GPIOA_AFRH = (GPIOA_AFRH & ~((0xFu << 4) | (0xFu << 8))) |
                 (GPIO_AF7_USART1 << 4) | (GPIO_AF7_USART1 << 8);
    GPIOA_OSPEEDR = (GPIOA_OSPEEDR & ~(3u << 18)) | (GPIO_SPEED_HIGH << 18);
    GPIOA_PUPDR = (GPIOA_PUPDR & ~(3u << 20)) | (GPIO_PULL_UP << 20);
    GPIOA_MODER = (GPIOA_MODER & ~((3u << 18) | (3u << 20))) |
                  (GPIO_MODE_AF << 18) | (GPIO_MODE_AF << 20);

    /* 8 data bits, no parity, 1 stop bit, 16x oversampling; the divisor
     * from the APB2 clock the start-up really set. */
    USART1_CR1 = 0u;
    USART1_CR2 = 0u;
    USART1_CR3 = 0u;
    USART1_BRR = stm32_usart_brr(stm32_board_clock()->pclk2_hz, STM32_CONSOLE_BAUD);
    USART1_CR1 = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;

    /* Cycle counter for lm_board_timestamp(). */
    DEMCR |= DEMCR_TRCENA;
    DWT_CYCCNT = 0u;
    DWT_CTRL |= DWT_CTRL_CYCCNTENA;

    if (stm32_board_clock()->sysclk_hz != STM32_SYSCLK_HZ) {
        lm_board_puts("limen: PLL did not lock, running on the 16 MHz HSI: "
                      "kernel ticks are too slow\n");
    }
}

void lm_board_putc(char c)
{
    while ((USART1_SR & USART_SR_TXE) == 0u) {
    }
    USART1_DR = (uint8_t)c;
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
    while ((USART1_SR & USART_SR_TC) == 0u) {
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
