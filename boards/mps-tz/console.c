/* SPDX-License-Identifier: Apache-2.0 */
/* Console (CMSDK UART0) and timestamp of the Armv8-M boards under QEMU:
 * CMSDK timer 1 where the subsystem has one (SSE-200), else the FPGA's
 * counter (SSE-300). Addresses from board.h. */
#include <stdint.h>

#include "limen/armv7m.h"
#include "limen/port.h"
#include "board.h"

#define UART_DATA LM_REG32(MPS_TZ_UART0_BASE + 0x00u)
#define UART_STATE LM_REG32(MPS_TZ_UART0_BASE + 0x04u)
#define UART_CTRL LM_REG32(MPS_TZ_UART0_BASE + 0x08u)
#define UART_BAUDDIV LM_REG32(MPS_TZ_UART0_BASE + 0x10u)
#define UART_STATE_TXFULL (1u << 0)
#define UART_CTRL_TXEN (1u << 0)
#define CONSOLE_BAUD 115200u

#if defined(MPS2_TIMER1_BASE)
#define TIMER_CTRL LM_REG32(MPS2_TIMER1_BASE + 0x00u)
#define TIMER_VALUE LM_REG32(MPS2_TIMER1_BASE + 0x04u)
#define TIMER_RELOAD LM_REG32(MPS2_TIMER1_BASE + 0x08u)
#define TIMER_CTRL_EN (1u << 0)
#define TIMESTAMP_HZ MPS2_SYSCLK_HZ
#else
#define FPGAIO_COUNTER LM_REG32(MPS_TZ_FPGAIO_BASE + 0x18u)
#define FPGAIO_PRESCALE LM_REG32(MPS_TZ_FPGAIO_BASE + 0x1Cu)
#define TIMESTAMP_HZ MPS_TZ_COUNTER_HZ
#endif

void lm_board_init(void)
{
    UART_BAUDDIV = MPS_TZ_UART_CLK_HZ / CONSOLE_BAUD;
    UART_CTRL = UART_CTRL_TXEN;
#if defined(MPS2_TIMER1_BASE)
    TIMER_RELOAD = 0xFFFFFFFFu;
    TIMER_VALUE = 0xFFFFFFFFu;
    TIMER_CTRL = TIMER_CTRL_EN;
#else
    FPGAIO_PRESCALE = 0u; /* a count per clock */
#endif
}

void lm_board_putc(char c)
{
    while ((UART_STATE & UART_STATE_TXFULL) != 0u) {
    }
    UART_DATA = (uint8_t)c;
}

void lm_board_puts(const char *s)
{
    while (*s != '\0') {
        lm_board_putc(*s++);
    }
}

uint32_t lm_board_timestamp(void)
{
#if defined(MPS2_TIMER1_BASE)
    return 0xFFFFFFFFu - TIMER_VALUE;
#else
    return FPGAIO_COUNTER;
#endif
}

#if LM_PORT_TIMESTAMP
/* The trace's timestamp (limen/port.h): QEMU models no DWT cycle counter. */
uint32_t lm_port_timestamp(void)
{
    return lm_board_timestamp();
}

uint32_t lm_port_timestamp_start(void)
{
    return TIMESTAMP_HZ;
}
#endif
