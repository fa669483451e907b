/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The masked-stretch measurement's own check (tools/bench_masked.py,
 * docs/benchmarks.md): hand-written stretches of known length, one of each
 * way the kernel masks, measured by the same walk of QEMU's execution log
 * as seed 003's series. A stretch's length is the count of instructions
 * after the one that masks, through the one that unmasks: how long an
 * interrupt made pending just after the mask waits to be taken.
 *
 * In order, inside the timed window (lmb_sync_call to lmb_call_stamp):
 *   21  PRIMASK: cpsid i, 20 NOPs, cpsie i
 *   52  BASEPRI: raise, 30 NOPs, a nested raise and restore to the
 *       ceiling (still masked), a BASEPRI_MAX write of 0 (ignored by
 *       the core: still masked), 10 NOPs, restore to 0
 *   15  BASEPRI then PRIMASK, BASEPRI dropped while PRIMASK holds: one
 *       stretch until PRIMASK clears
 *   10  PRIMASK written by msr
 *   62  in an interrupt handler (line LMB_IRQ_LINE, pended by STIR): the
 *       handler's 12 unmasked NOPs before and 7 after do not count
 * The driver times the window over the 40 phases, so the walk's own count
 * of the window is checked against an independent figure too.
 */
#include "lmb.h"

void IRQ_Handler(void);
uintptr_t mk_stretches(uintptr_t a0, uintptr_t a1);
uintptr_t mk_nothing(uintptr_t a0, uintptr_t a1);

static lm_thread_t driver;
static uint64_t stack[LMB_STACK_BYTES / sizeof(uint64_t)];

__attribute__((naked)) uintptr_t mk_stretches(uintptr_t a0, uintptr_t a1)
{
    (void)a0;
    (void)a1;
    __asm volatile(
        "cpsid i\n"
        ".rept 20\n nop\n .endr\n"
        "cpsie i\n"

        "movs r1, #0x20\n"
        "msr basepri_max, r1\n"
        ".rept 30\n nop\n .endr\n"
        "mrs r2, basepri\n"
        "msr basepri_max, r1\n"
        ".rept 5\n nop\n .endr\n"
        "msr basepri, r2\n"
        "movs r3, #0\n"
        "msr basepri_max, r3\n" /* 0: ignored, still masked */
        ".rept 10\n nop\n .endr\n"
        "movs r0, #0\n"
        "msr basepri, r0\n"

        "msr basepri_max, r1\n"
        ".rept 3\n nop\n .endr\n"
        "cpsid i\n"
        ".rept 4\n nop\n .endr\n"
        "msr basepri, r0\n"
        ".rept 5\n nop\n .endr\n"
        "cpsie i\n"

        "movs r3, #1\n"
        "msr primask, r3\n"
        ".rept 8\n nop\n .endr\n"
        "movs r3, #0\n"
        "msr primask, r3\n"

        "ldr r0, =0xE000EF00\n" /* STIR */
        "movs r1, %[line]\n"
        "str r1, [r0]\n"
        "bx lr\n"
        ".ltorg\n" ::[line] "i"(LMB_IRQ_LINE));
}

__attribute__((naked)) void IRQ_Handler(void)
{
    __asm volatile(
        ".rept 12\n nop\n .endr\n"
        "movs r1, #0x20\n"
        "msr basepri_max, r1\n"
        ".rept 60\n nop\n .endr\n"
        "movs r0, #0\n"
        "msr basepri, r0\n"
        ".rept 7\n nop\n .endr\n"
        "bx lr\n");
}

__attribute__((naked)) uintptr_t mk_nothing(uintptr_t a0, uintptr_t a1)
{
    (void)a0;
    (void)a1;
    __asm volatile("bx lr\n");
}

static void driver_entry(void *arg)
{
    (void)arg;
    lmb_tick_stop();
    LMB_NVIC_IPR(LMB_IRQ_LINE) = LMB_IRQ_PRIO;
    LMB_NVIC_ISER0 = 1u << LMB_IRQ_LINE;
    lmb_sweep_t sw;
    for (unsigned pass = 0u; pass < 2u; pass++) { /* the first pass warms up */
        lmb_sweep_reset(&sw);
        for (uint32_t k = 0u; k < LMB_PHASES; k++) {
            uint32_t t0 = lmb_sync_call(k, mk_stretches, 0u, 0u);
            lmb_sweep_add(&sw, t0 - lmb_call_stamp(mk_nothing, 0u, 0u));
        }
    }
    lmb_begin("mk");
    lmb_value("measured", sw.sum);
    lmb_value("interval", sw.sum);
    lmb_value("min_counts", sw.min);
    lmb_value("max_counts", sw.max);
    lmb_end();
}

void lmb_app_setup(void)
{
    lmb_thread(&driver, driver_entry, 0, stack, 20u, 20u);
}
