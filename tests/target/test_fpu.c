/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main's FPU state across a kernel run (hard-float boards: mps2-an386,
 * mps2-an500). lm_kernel_start() is a function call: as the procedure call
 * standard asks, it must give main back its callee-saved FPU registers
 * S16-S31, however the threads used them. And main having an active FPU
 * context when it starts the kernel (CONTROL.FPCA set by its last FPU
 * instruction) must not make the first switch save an FPU frame over the
 * port's own state: the next start and stop must still work.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"

#if !defined(__ARM_FP)
#error "build this test for a core with an FPU"
#endif

/* Not C: the compiler would save and restore S16-S31 around its own use.
 * v arrives in r0. */
__attribute__((naked)) static void fp_load(__attribute__((unused)) const uint32_t *v)
{
    __asm volatile("vldmia r0, {s16-s31}\n"
                   "bx lr\n");
}

__attribute__((naked)) static void fp_store(__attribute__((unused)) uint32_t *v)
{
    __asm volatile("vstmia r0, {s16-s31}\n"
                   "bx lr\n");
}

static uint32_t mains[16], threads_own[16], seen[16];

static void fill(uint32_t *v, uint32_t seed)
{
    for (unsigned i = 0; i < 16u; i++) {
        v[i] = seed + 0x01010101u * i;
    }
}

static volatile float sink;

static void fpu_user(void *arg)
{
    uint32_t seed = (uint32_t)(uintptr_t)arg;
    uint32_t own[16], back[16];
    fill(own, seed);
    fp_load(own);
    LMT_ST(lm_thread_sleep(2), LM_OK); /* switched out and in with an FPU frame */
    fp_store(back);
    LMT_CHECK(memcmp(own, back, sizeof own) == 0);
    float f = 1.5f;
    for (unsigned i = 0; i < 10u; i++) {
        f = f * 1.25f + (float)i;
    }
    sink = f;
    fp_load(threads_own); /* what main must not find after the run */
    lmt_log("%s", lmt_me());
}

static void run_once(void)
{
    lmt_begin();
    lmt_spawn("A", 2, fpu_user, (void *)(uintptr_t)0x11111111u);
    lmt_spawn("B", 3, fpu_user, (void *)(uintptr_t)0x22222222u);
    fill(mains, 0x3F800000u);
    fill(threads_own, 0x40400000u);
    /* main's last instruction before the start is an FPU one: FPCA is set. */
    fp_load(mains);
    lmt_run();
    fp_store(seen);
    LMT_CHECK(memcmp(mains, seen, sizeof mains) == 0);
    lmt_expect("A B");
}

/* S16-S31 of main come back from lm_kernel_start(). */
LMT_CASE(main_fpu_registers_survive_a_run)
{
    run_once();
}

/* And again: the first switch of the earlier run left the port's state
 * (the return to main) intact. */
LMT_CASE(start_and_stop_again)
{
    run_once();
}

LMT_MAIN(LMT_RUN(main_fpu_registers_survive_a_run), LMT_RUN(start_and_stop_again))
