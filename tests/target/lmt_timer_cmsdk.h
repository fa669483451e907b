/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The test timer (lmt_timer.h) on the CMSDK dual timer of the MPS2 boards
 * and mps2-an505: its two 32-bit down-counters at the system clock, one
 * interrupt line (MPS2_IRQ_DUALTIMER). A counter starts at the write that
 * enables it, so both channels count from the call; at 25 MHz (20 MHz on
 * AN505) one count is 40 (50) instructions, a whole number: the granule
 * is one count.
 */
#ifndef LMT_TIMER_CMSDK_H
#define LMT_TIMER_CMSDK_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "limen/port.h"

#define LMT_TIMER_GRANULE_COUNTS 1u
#define LMT_TIMER_GRANULE_INSNS (1000000000u / MPS2_SYSCLK_HZ)

#define LMT_DT_LOAD(ch) LM_REG32(MPS2_DUALTIMER_BASE + 0x20u * (ch) + 0x00u)
#define LMT_DT_CTRL(ch) LM_REG32(MPS2_DUALTIMER_BASE + 0x20u * (ch) + 0x08u)
#define LMT_DT_INTCLR(ch) LM_REG32(MPS2_DUALTIMER_BASE + 0x20u * (ch) + 0x0Cu)
#define LMT_DT_MIS(ch) LM_REG32(MPS2_DUALTIMER_BASE + 0x20u * (ch) + 0x14u)
#define LMT_DT_CTRL_EN_IRQ_32BIT (0x80u | 0x20u | 0x02u)
#define LMT_DT_CTRL_ONESHOT 0x01u
#define LMT_DT_CTRL_PERIODIC 0x40u

static inline void lmt_timer_enable(void)
{
    lm_nvic_set_priority(MPS2_IRQ_DUALTIMER, 0x80u);
    lm_nvic_enable(MPS2_IRQ_DUALTIMER);
}

static inline void lmt_timer_start(unsigned ch, uint32_t counts, bool periodic)
{
    LMT_DT_CTRL(ch) = 0u;
    LMT_DT_LOAD(ch) = counts != 0u ? counts : 1u;
    LMT_DT_CTRL(ch) =
        LMT_DT_CTRL_EN_IRQ_32BIT | (periodic ? LMT_DT_CTRL_PERIODIC : LMT_DT_CTRL_ONESHOT);
}

/* Channel ch fires once, `counts` counts after SysTick's current count
 * (SYST_CVR, read with the channel stopped) runs out. */
static inline void lmt_timer_start_after_systick(unsigned ch, uint32_t counts)
{
    LMT_DT_CTRL(ch) = 0u;
    LMT_DT_LOAD(ch) = LM_REG32(0xE000E018u) + counts;
    LMT_DT_CTRL(ch) = LMT_DT_CTRL_EN_IRQ_32BIT | LMT_DT_CTRL_ONESHOT;
}

static inline void lmt_timer_stop(unsigned ch)
{
    LMT_DT_CTRL(ch) = 0u;
    LMT_DT_INTCLR(ch) = 1u;
}

static inline bool lmt_timer_fired(unsigned ch)
{
    if (LMT_DT_MIS(ch) == 0u) {
        return false;
    }
    LMT_DT_INTCLR(ch) = 1u;
    if ((LMT_DT_CTRL(ch) & LMT_DT_CTRL_ONESHOT) != 0u) {
        LMT_DT_CTRL(ch) = 0u;
    }
    return true;
}

/* CMSDK timer 1 counts the system clock (board.h). */
static inline uint32_t lmt_timer_now(void)
{
    return lm_board_timestamp();
}

#endif
