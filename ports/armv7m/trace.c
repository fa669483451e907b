/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv7-M: the trace's timestamp, the DWT cycle counter at the core clock
 * (LM_PORT_CPU_HZ). Weak: a board without a usable cycle counter (QEMU
 * models none; the MPS2 boards) supplies a timer of its own.
 */
#include "limen/limen.h"
#include "limen/port.h"
#include "limen/armv7m.h"

#if LM_PORT_TIMESTAMP

#define DEMCR LM_REG32(0xE000EDFCu)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL LM_REG32(0xE0001000u)
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CYCCNT LM_REG32(0xE0001004u)

__attribute__((weak)) uint32_t lm_port_timestamp(void)
{
    return DWT_CYCCNT;
}

__attribute__((weak)) uint32_t lm_port_timestamp_start(void)
{
    DEMCR |= DEMCR_TRCENA;
    DWT_CTRL |= DWT_CTRL_CYCCNTENA;
    return LM_PORT_CPU_HZ;
}

#endif
