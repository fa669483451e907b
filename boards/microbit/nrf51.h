/* SPDX-License-Identifier: Apache-2.0 */
/* The nRF51822 peripherals the micro:bit board uses, with addresses, offsets
 * and interrupt numbers from the nRF51 Series Reference Manual. */
#ifndef LIMEN_BOARD_NRF51_H
#define LIMEN_BOARD_NRF51_H

#include "limen/armv6m.h"

/* UART0 */
#define NRF_UART0 0x40002000u
#define NRF_UART_STARTTX LM_REG32(NRF_UART0 + 0x008u)
#define NRF_UART_TXDRDY LM_REG32(NRF_UART0 + 0x11Cu)
#define NRF_UART_ENABLE LM_REG32(NRF_UART0 + 0x500u)
#define NRF_UART_PSELTXD LM_REG32(NRF_UART0 + 0x50Cu)
#define NRF_UART_TXD LM_REG32(NRF_UART0 + 0x51Cu)
#define NRF_UART_BAUDRATE LM_REG32(NRF_UART0 + 0x524u)
#define NRF_UART_ENABLE_ON 4u
#define NRF_UART_BAUD_115200 0x01D7E000u
#define MICROBIT_UART_TX_PIN 24u /* P0.24: the interface chip's serial line */

/* TIMER0 (32 bits) and TIMER1 (16 bits on the nRF51822) */
#define NRF_TIMER0 0x40008000u
#define NRF_TIMER1 0x40009000u
#define NRF_TIMER_START(t) LM_REG32((t) + 0x000u)
#define NRF_TIMER_STOP(t) LM_REG32((t) + 0x004u)
#define NRF_TIMER_CLEAR(t) LM_REG32((t) + 0x00Cu)
#define NRF_TIMER_CAPTURE(t, n) LM_REG32((t) + 0x040u + 4u * (n))
#define NRF_TIMER_COMPARE(t, n) LM_REG32((t) + 0x140u + 4u * (n))
#define NRF_TIMER_SHORTS(t) LM_REG32((t) + 0x200u)
#define NRF_TIMER_INTENSET(t) LM_REG32((t) + 0x304u)
#define NRF_TIMER_INTENCLR(t) LM_REG32((t) + 0x308u)
#define NRF_TIMER_MODE(t) LM_REG32((t) + 0x504u)
#define NRF_TIMER_BITMODE(t) LM_REG32((t) + 0x508u)
#define NRF_TIMER_PRESCALER(t) LM_REG32((t) + 0x510u)
#define NRF_TIMER_CC(t, n) LM_REG32((t) + 0x540u + 4u * (n))
#define NRF_TIMER_BITMODE_16 0u
#define NRF_TIMER_BITMODE_32 3u
#define NRF_TIMER_SHORT_COMPARE0_CLEAR (1u << 0)
#define NRF_TIMER_INT_COMPARE(n) (1u << (16u + (n)))

/* Interrupt numbers */
#define NRF_IRQ_UART0 2u
#define NRF_IRQ_TIMER0 8u
#define NRF_IRQ_TIMER1 9u
#define NRF_IRQ_TIMER2 10u
#define NRF_IRQ_COUNT 32u

#endif
