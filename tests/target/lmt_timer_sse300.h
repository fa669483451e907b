/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The test timer (lmt_timer.h) on the SSE-300 of mps3-an547, which has no
 * CMSDK timer at the system clock: system timers 2 (channel 0, line
 * MPS2_IRQ_DUALTIMER) and 3 (channel 1, MPS_TZ_IRQ_SYSTIMER3), which
 * compare the system counter (32 MHz, the system clock) with a value.
 *
 * Two facts of QEMU 7.2's model (hw/timer/sse-counter.c, sse-timer.c)
 * shape this file:
 * - The counter counts from the last write of its value: writing it starts
 *   a count there. Channel 0 writes the value back at each start, rounded
 *   down to the granule, so that it counts from the call, as a CMSDK timer
 *   does; lmt_timer_now() adds back what the rounding took away. (What
 *   passed of the current count, under 31.25 ns, is lost at each start of
 *   channel 0: at most one count.)
 * - A compare value whose time falls between two whole nanoseconds is
 *   never reached: QEMU re-arms the expiry at the same instant for ever
 *   and the emulation hangs. One count is 31.25 ns; four, 125 ns, are the
 *   shortest whole number: every compare value here is a multiple of four
 *   counts from the counter's last write (the watchdog's too, support.c).
 *   So the granule is 4 counts, 125 instructions.
 */
#ifndef LMT_TIMER_SSE300_H
#define LMT_TIMER_SSE300_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "limen/port.h"

#define LMT_TIMER_GRANULE_COUNTS 4u
#define LMT_TIMER_GRANULE_INSNS 125u

#define LMT_CNTCV_LO LM_REG32(MPS_TZ_SYSCOUNTER_CTRL_BASE + 0x08u)
#define LMT_ST_BASE(ch) ((ch) == 0u ? MPS_TZ_SYSTIMER2_BASE : MPS_TZ_SYSTIMER3_BASE)
#define LMT_ST_CVAL_LO(ch) LM_REG32(LMT_ST_BASE(ch) + 0x20u)
#define LMT_ST_CVAL_HI(ch) LM_REG32(LMT_ST_BASE(ch) + 0x24u)
#define LMT_ST_CTL(ch) LM_REG32(LMT_ST_BASE(ch) + 0x2Cu)
#define LMT_ST_CTL_ENABLE 1u
#define LMT_ST_CTL_ISTATUS 4u

/* Per image (one test source uses the timer): each channel's period (0:
 * one-shot), and the counts channel 0's restarts took from the counter. */
static uint32_t lmt_st_period[2];
static uint32_t lmt_st_taken;

static inline void lmt_timer_enable(void)
{
    lm_nvic_set_priority(MPS2_IRQ_DUALTIMER, 0x80u);
    lm_nvic_set_priority(MPS_TZ_IRQ_SYSTIMER3, 0x80u);
    lm_nvic_enable(MPS2_IRQ_DUALTIMER);
    lm_nvic_enable(MPS_TZ_IRQ_SYSTIMER3);
}

static inline void lmt_timer_start(unsigned ch, uint32_t counts, bool periodic)
{
    counts -= counts % LMT_TIMER_GRANULE_COUNTS;
    counts = counts != 0u ? counts : LMT_TIMER_GRANULE_COUNTS;
    LMT_ST_CTL(ch) = 0u;
    lmt_st_period[ch] = periodic ? counts : 0u;
    LMT_ST_CVAL_HI(ch) = 0u; /* an image runs for less than 2^32 counts, 134 s */
    uint32_t now = LMT_CNTCV_LO;
    uint32_t from = now - now % LMT_TIMER_GRANULE_COUNTS;
    if (ch == 0u) {
        LMT_CNTCV_LO = from; /* the count restarts here */
        lmt_st_taken += now - from;
    } else if (from != now) {
        from += LMT_TIMER_GRANULE_COUNTS;
    }
    LMT_ST_CVAL_LO(ch) = from + counts;
    LMT_ST_CTL(ch) = LMT_ST_CTL_ENABLE;
}

/* Channel ch fires once, `counts` counts (in whole granules, from the
 * next granule boundary) after SysTick's current count (SYST_CVR) runs
 * out. */
static inline void lmt_timer_start_after_systick(unsigned ch, uint32_t counts)
{
    lmt_timer_start(ch, LM_REG32(0xE000E018u) + counts, false);
}

static inline void lmt_timer_stop(unsigned ch)
{
    LMT_ST_CTL(ch) = 0u; /* the request is the timer's level: gone */
}

static inline bool lmt_timer_fired(unsigned ch)
{
    if ((LMT_ST_CTL(ch) & LMT_ST_CTL_ISTATUS) == 0u) {
        return false;
    }
    if (lmt_st_period[ch] != 0u) {
        LMT_ST_CVAL_LO(ch) += lmt_st_period[ch];
    } else {
        LMT_ST_CTL(ch) = 0u;
    }
    return true;
}

static inline uint32_t lmt_timer_now(void)
{
    return LMT_CNTCV_LO + lmt_st_taken;
}

#endif
