/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 2, yield and context switch: NTHREADS threads of priority 5 do
 * nothing but yield; thread 0 also times ITER of its own iterations after
 * WARM, that is NTHREADS * ITER yields, each followed by a switch.
 */
#include "lmb.h"

#ifndef NTHREADS
#error "NTHREADS"
#endif

#define WARM 64u
#define ITER (20000u / NTHREADS)

static lm_thread_t threads[NTHREADS];
static uint64_t stacks[NTHREADS][LMB_STACK_BYTES / sizeof(uint64_t)];

static void spinner_entry(void *arg)
{
    (void)arg;
    for (;;) {
        (void)lm_thread_yield();
    }
}

static void timer_entry(void *arg)
{
    (void)arg;
    uint32_t start = 0u;
    for (uint32_t i = 0u;; i++) {
        (void)lm_thread_yield();
        if (i == WARM) {
            start = lmb_now();
        } else if (i == WARM + ITER) {
            uint32_t end = lmb_now();
            lmb_begin("m2");
            lmb_value("threads", NTHREADS);
            lmb_value("instructions", (start - end) * LMB_INSTR_PER_COUNT);
            lmb_value("yields", ITER * NTHREADS);
            lmb_end();
        }
    }
}

void lmb_app_setup(void)
{
    lmb_thread(&threads[0], timer_entry, 0, stacks[0], 5u, 5u);
    for (unsigned i = 1u; i < NTHREADS; i++) {
        lmb_thread(&threads[i], spinner_entry, 0, stacks[i], 5u, 5u);
    }
}
