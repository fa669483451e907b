/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The target tests' timer (boards under QEMU): two channels that count the
 * system clock, MPS2_SYSCLK_HZ (SysTick's), and raise their interrupts on
 * DUALTIMER_Handler, which the test defines; lmt_timer_enable() enables the
 * lines. The MPS2 boards and mps2-an505 have the CMSDK dual timer (one
 * line for both channels); the SSE-300 of mps3-an547 has none, and its
 * system timers 2 and 3 serve instead (lmt_timer_sse300.h).
 *
 * Placing an interrupt at an instruction: under -icount shift=0 an
 * instruction takes 1 ns, and a channel started by lmt_timer_start() fires
 * exactly `counts` periods after the start, which is a whole number of
 * instructions only for a multiple of LMT_TIMER_GRANULE_COUNTS counts:
 * LMT_TIMER_GRANULE_INSNS instructions. The tests place interrupts
 * granule by granule and fill the rest with single instructions (NOPs).
 *
 * Functions, not macros, so that each board's version is one place; inline,
 * so that a test's code between the start and the interrupt is what the
 * test wrote. Each costs a few register accesses, O(1).
 */
#ifndef LMT_TIMER_H
#define LMT_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "limen/port.h"

#if defined(MPS2_DUALTIMER_BASE)
#include "lmt_timer_cmsdk.h"
#elif defined(MPS_TZ_SYSTIMER2_BASE)
#include "lmt_timer_sse300.h"
#else
#error "this board has no test timer"
#endif

void DUALTIMER_Handler(void);

/* The harness's watchdog (support.c) allows 20 s of virtual time from
 * here: for an image that runs longer, in steps that each end sooner. */
void lmt_watchdog_restart(void);

/* The functions each version defines:
 * - lmt_timer_start(ch, counts, periodic): channel ch (0 or 1) fires once,
 *   or every `counts` periods, the first time `counts` periods after the
 *   call (counts in whole granules, at least one). Channel 0 counts from
 *   the call itself: the one to place interrupts with; channel 1 may count
 *   from the next granule boundary, up to one granule later. A channel that
 *   ran is restarted.
 * - lmt_timer_start_after_systick(ch, counts): channel ch fires once,
 *   `counts` counts after SysTick's current count (SYST_CVR) runs out:
 *   an interrupt placed against SysTick's own count.
 * - lmt_timer_stop(ch): stops channel ch and withdraws its request.
 * - lmt_timer_fired(ch), in DUALTIMER_Handler: whether channel ch fired;
 *   if so clears it (a one-shot channel stops, a periodic one goes on).
 * - lmt_timer_now(): a free-running count at MPS2_SYSCLK_HZ. */

/* The counts of the whole granules nearest below `insns` instructions (at
 * least one granule). */
static inline uint32_t lmt_timer_counts_for_insns(uint32_t insns)
{
    uint32_t granules = insns / LMT_TIMER_GRANULE_INSNS;
    return (granules != 0u ? granules : 1u) * LMT_TIMER_GRANULE_COUNTS;
}

#endif
