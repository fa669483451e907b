/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv8.1-M (Cortex-M55, mps3-an547): the MVE (Helium) state in a thread's
 * context. The vector registers Q0-Q7 are the FPU's S0-S31, and the
 * predicate register VPR is part of the FPU frame the core stacks (lazily,
 * at a handler's first FPU or MVE instruction), so the port's switch
 * (S16-S31 in PendSV, the rest in the exception frame) must keep all of
 * them per thread (docs/porting.md, "Armv8-M").
 *
 * Two threads share the CPU by one-tick time-slices. Each loads its own
 * Q0-Q7 and VPR, then spins, triggering on every round an interrupt whose
 * handler loads its own vector values, runs a predicated vector add (VPT
 * block) and checks its result. Each thread finds its values intact after
 * every preemption by the other thread and every interrupt.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/armv7m.h"

#if !defined(__ARM_FEATURE_MVE)
#error "build this test for a core with MVE (-mcpu=cortex-m55)"
#endif

#define IRQ_MVE MPS2_IRQ_SPARE0
#define HANDLER_RUNS 5000u /* with SPIN_ROUNDS: about 17 ticks, many slices */
#define SPIN_ROUNDS 1600u  /* between two interrupts: ~3,300 instructions */

static volatile uint32_t handler_runs, handler_bad;
static uint32_t thread_in[2][32], thread_out[2][32];
static uint32_t thread_vpr_in[2], thread_vpr_out[2];

/* The handler's own operands and result: Q0 = Q0 + Q1 in the lanes VPR's
 * predicate enables (P0 0x00FF: the first two 32-bit lanes). */
static const uint32_t handler_in[8] = {1u, 2u, 3u, 4u, 100u, 200u, 300u, 400u};
static const uint32_t handler_expect[4] = {101u, 202u, 3u, 4u};

void IRQ_Handler(void);
void IRQ_Handler(void)
{
    uint32_t out[4], vpr;
    __asm volatile("vldm %[in], {s0-s7}\n"
                   "vmsr p0, %[mask]\n"
                   "vpst\n"
                   "vaddt.i32 q0, q0, q1\n"
                   "vstm %[out], {s0-s3}\n"
                   "vmrs %[vpr], p0\n"
                   : [vpr] "=r"(vpr)
                   : [in] "r"(handler_in), [out] "r"(out), [mask] "r"(0x00FFu)
                   : "memory", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7");
    if (memcmp(out, handler_expect, sizeof out) != 0 || (vpr & 0xFFFFu) != 0x00FFu) {
        handler_bad++;
    }
    handler_runs++;
}

/* Q0-Q7 and VPR's predicate from `in`, then the loop: trigger the
 * interrupt, spin a while, until the handler has run HANDLER_RUNS times
 * (no calls, no vector instruction of its own); then Q0-Q7 and VPR to
 * `out`. */
static void mve_spin(unsigned id)
{
    __asm volatile("vldm %[in], {s0-s31}\n"
                   "vmsr p0, %[vin]\n"
                   "1: str %[irq], [%[stir]]\n"
                   "dsb\n"
                   "isb\n"
                   "mov r1, %[spin]\n"
                   "2: subs r1, r1, #1\n"
                   "bne 2b\n"
                   "ldr r1, [%[runs]]\n"
                   "cmp r1, %[until]\n"
                   "blo 1b\n"
                   "vstm %[out], {s0-s31}\n"
                   "vmrs r1, p0\n"
                   "str r1, [%[vout]]\n"
                   :
                   : [in] "r"(thread_in[id]), [vin] "r"(thread_vpr_in[id]),
                     [irq] "r"(IRQ_MVE), [stir] "r"(&LM_NVIC_STIR), [runs] "r"(&handler_runs),
                     [until] "r"(HANDLER_RUNS), [spin] "r"(SPIN_ROUNDS), [out] "r"(thread_out[id]),
                     [vout] "r"(&thread_vpr_out[id])
                   : "r1", "memory", "cc", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8",
                     "s9", "s10", "s11", "s12", "s13", "s14", "s15", "s16", "s17", "s18", "s19",
                     "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30",
                     "s31");
}

static void mve_thread(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    mve_spin(id);
    LMT_CHECK(memcmp(thread_in[id], thread_out[id], sizeof thread_out[id]) == 0);
    LMT_EQ(thread_vpr_out[id] & 0xFFFFu, thread_vpr_in[id]);
    lmt_log("M%u", id);
}

LMT_CASE(vector_registers_survive_slicing_and_interrupts)
{
    lmt_begin();
    for (unsigned i = 0; i < 32u; i++) {
        thread_in[0][i] = 0x10000000u + 0x01010101u * i;
        thread_in[1][i] = 0xA0000000u - 0x00F0F0F1u * i;
    }
    memset(thread_out, 0, sizeof thread_out);
    thread_vpr_in[0] = 0x0F0Fu;
    thread_vpr_in[1] = 0xF0F0u;
    handler_runs = 0u;
    handler_bad = 0u;
    lm_nvic_set_priority(IRQ_MVE, 0x80u);
    lm_nvic_enable(IRQ_MVE);
    lm_kernel_stats_t k0, k1;
    lm_kernel_stats(&k0);
    lmt_spawn_ex("M0", 5, LM_THRESHOLD_NONE, 1, mve_thread, (void *)0, true);
    lmt_spawn_ex("M1", 5, LM_THRESHOLD_NONE, 1, mve_thread, (void *)1, true);
    lmt_run();
    lm_kernel_stats(&k1);
    printf("# %lu handler runs, %lu slice expiries\n", (unsigned long)handler_runs,
           (unsigned long)(k1.slice_expiries - k0.slice_expiries));
    LMT_EQ(handler_bad, 0u);
    LMT_CHECK(k1.slice_expiries - k0.slice_expiries >= 10u); /* they did alternate */
    /* Both end at the same handler run: either may see it first. */
    LMT_CHECK(strcmp(lmt_trace(), "M0 M1") == 0 || strcmp(lmt_trace(), "M1 M0") == 0);
}

LMT_MAIN(LMT_RUN(vector_registers_survive_slicing_and_interrupts))
