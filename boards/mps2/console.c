/* SPDX-License-Identifier: Apache-2.0 */
/* MPS2 console (CMSDK UART0) and timestamp timer (CMSDK timer 1); newlib
 * writes to the console through ../common/newlib_syscalls.c. */
#include <stdint.h>

#include "limen/port.h"
#include "board.h"

#define UART0_BASE 0x40004000u
#define UART_DATA LM_REG32(UART0_BASE + 0x00u)
#define UART_STATE LM_REG32(UART0_BASE + 0x04u)
#define UART_CTRL LM_REG32(UART0_BASE + 0x08u)
#define UART_BAUDDIV LM_REG32(UART0_BASE + 0x10u)
#define UART_STATE_TXFULL (1u << 0)
#define UART_CTRL_TXEN (1u << 0)

#define TIMER1_BASE 0x40001000u
#define TIMER_CTRL LM_REG32(TIMER1_BASE + 0x00u)
#define TIMER_VALUE LM_REG32(TIMER1_BASE + 0x04u)
#define TIMER_RELOAD LM_REG32(TIMER1_BASE + 0x08u)
#define TIMER_CTRL_EN (1u << 0)

#define CONSOLE_BAUD 115200u

void lm_board_init(void)
{
    UART_BAUDDIV = MPS2_SYSCLK_HZ / CONSOLE_BAUD;
    UART_CTRL = UART_CTRL_TXEN;
    TIMER_RELOAD = 0xFFFFFFFFu;
    TIMER_VALUE = 0xFFFFFFFFu;
    TIMER_CTRL = TIMER_CTRL_EN;
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
    return 0xFFFFFFFFu - TIMER_VALUE;
}

#if LM_PORT_TIMESTAMP
/* The trace's timestamp (limen/port.h): QEMU models no DWT cycle counter,
 * so timer 1, running since lm_board_init. Under -icount shift=0 one count
 * is 40 instructions (docs/trace.md). */
uint32_t lm_port_timestamp(void)
{
    return 0xFFFFFFFFu - TIMER_VALUE;
}

uint32_t lm_port_timestamp_start(void)
{
    return MPS2_SYSCLK_HZ;
}
#endif
