/* SPDX-License-Identifier: Apache-2.0 */
/* micro:bit console (UART0), timestamp (TIMER0) and kernel tick (TIMER1);
 * newlib writes to the console through ../common/newlib_syscalls.c. */
#include <stdint.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "board.h"
#include "nrf51.h"

#define TICK_HZ_COUNTS(hz) (MICROBIT_CPU_HZ / (hz))
/* TIMER1 at the full 16 MHz, cleared by its own compare: a tick period of
 * 16000 counts at 1 kHz, which its 16 bits hold. */
#define TICK_COUNTS TICK_HZ_COUNTS(LM_CFG_TICK_HZ)
_Static_assert(TICK_COUNTS >= 2u && TICK_COUNTS <= 0xFFFFu,
               "LM_CFG_TICK_HZ: the tick period must fit TIMER1's 16 bits at 16 MHz");

void lm_board_init(void)
{
    NRF_UART_PSELTXD = MICROBIT_UART_TX_PIN;
    NRF_UART_BAUDRATE = NRF_UART_BAUD_115200;
    NRF_UART_ENABLE = NRF_UART_ENABLE_ON;
    NRF_UART_STARTTX = 1u;
    /* TIMER0: 32 bits at 16 MHz / 2^1, from reset until the end. */
    NRF_TIMER_MODE(NRF_TIMER0) = 0u;
    NRF_TIMER_BITMODE(NRF_TIMER0) = NRF_TIMER_BITMODE_32;
    NRF_TIMER_PRESCALER(NRF_TIMER0) = 1u;
    NRF_TIMER_CLEAR(NRF_TIMER0) = 1u;
    NRF_TIMER_START(NRF_TIMER0) = 1u;
}

void lm_board_putc(char c)
{
    NRF_UART_TXDRDY = 0u;
    NRF_UART_TXD = (uint8_t)c;
    while (NRF_UART_TXDRDY == 0u) {
    }
}

void lm_board_puts(const char *s)
{
    while (*s != '\0') {
        lm_board_putc(*s++);
    }
}

/* Two accesses: the capture task copies the count into CC[0]. A handler
 * that reads the timestamp between them leaves a later count there: the
 * interrupted read returns that, a little late, never an earlier one. */
uint32_t lm_board_timestamp(void)
{
    NRF_TIMER_CAPTURE(NRF_TIMER0, MICROBIT_TIMESTAMP_CC) = 1u;
    return NRF_TIMER_CC(NRF_TIMER0, MICROBIT_TIMESTAMP_CC);
}

/* ---- the kernel's tick (LM_PORT_BOARD_TICK, limen_port.h) ---- */

void lm_board_tick_start(void)
{
    NRF_TIMER_STOP(NRF_TIMER1) = 1u;
    NRF_TIMER_MODE(NRF_TIMER1) = 0u;
    NRF_TIMER_BITMODE(NRF_TIMER1) = NRF_TIMER_BITMODE_16;
    NRF_TIMER_PRESCALER(NRF_TIMER1) = 0u;
    NRF_TIMER_CC(NRF_TIMER1, 0u) = TICK_COUNTS;
    NRF_TIMER_SHORTS(NRF_TIMER1) = NRF_TIMER_SHORT_COMPARE0_CLEAR;
    NRF_TIMER_COMPARE(NRF_TIMER1, 0u) = 0u;
    NRF_TIMER_INTENSET(NRF_TIMER1) = NRF_TIMER_INT_COMPARE(0u);
    lm_nvic_set_priority(NRF_IRQ_TIMER1, 0xC0u);
    LM_NVIC_ICPR(0u) = 1u << NRF_IRQ_TIMER1;
    lm_nvic_enable(NRF_IRQ_TIMER1);
    NRF_TIMER_CLEAR(NRF_TIMER1) = 1u;
    NRF_TIMER_START(NRF_TIMER1) = 1u;
}

void lm_board_tick_stop(void)
{
    NRF_TIMER_STOP(NRF_TIMER1) = 1u;
    NRF_TIMER_INTENCLR(NRF_TIMER1) = NRF_TIMER_INT_COMPARE(0u);
    LM_NVIC_ICER(0u) = 1u << NRF_IRQ_TIMER1;
    NRF_TIMER_COMPARE(NRF_TIMER1, 0u) = 0u;
    LM_NVIC_ICPR(0u) = 1u << NRF_IRQ_TIMER1;
}

void TIMER1_Handler(void);
void TIMER1_Handler(void)
{
    NRF_TIMER_COMPARE(NRF_TIMER1, 0u) = 0u;
    lm_armv6m_tick();
}

#if LM_PORT_TIMESTAMP
/* The trace's timestamp (limen/port.h): Armv6-M has no cycle counter, so
 * TIMER0. Called with interrupts masked (the capture and the read are one
 * step). Under -icount shift=0 one count is 125 instructions. */
uint32_t lm_port_timestamp(void)
{
    return lm_board_timestamp();
}

uint32_t lm_port_timestamp_start(void)
{
    return MICROBIT_TIMESTAMP_HZ;
}
#endif
