/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The board's timestamp runs at the rate board.h claims: under QEMU with
 * -icount shift=0 (one instruction per nanosecond), one count is
 * LM_BOARD_UNITS_PER_COUNT instructions. The demo's figures and the sweep's
 * interrupt placement rest on it (docs/measuring.md).
 */
#include <stdio.h>

#include "board.h"
#include "harness.h"

#define LOOP_ROUNDS 1000000u /* two instructions each: SUBS, BNE */

LMT_CASE(timestamp_counts_units_per_count)
{
    uint32_t n = LOOP_ROUNDS;
    uint32_t t0 = lm_board_timestamp();
    __asm volatile(".syntax unified\n"
                   "1: subs %0, %0, #1\n"
                   "bne 1b\n"
                   : "+r"(n)::"cc");
    uint32_t t1 = lm_board_timestamp();
    uint32_t instructions = (t1 - t0) * LM_BOARD_UNITS_PER_COUNT;
    printf("# %lu counts for %lu instructions: %lu %s per count\n", (unsigned long)(t1 - t0),
           (unsigned long)(2u * LOOP_ROUNDS),
           (unsigned long)(2u * LOOP_ROUNDS / (t1 - t0)), LM_BOARD_TIME_UNIT);
    /* The loop, and a few instructions around it: within 0.1 %. */
    LMT_CHECK(instructions >= 2u * LOOP_ROUNDS - 2000u);
    LMT_CHECK(instructions <= 2u * LOOP_ROUNDS + 2000u);
}

LMT_MAIN(LMT_RUN(timestamp_counts_units_per_count))
