/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A processor fault in a thread (docs/porting.md "Faults"): the port's
 * HardFault handler prints a dump (the exception, the thread, PC, LR and
 * xPSR of the stacked frame, CFSR, HFSR, MMFAR, BFAR) and goes through
 * lm_fatal with LM_FATAL_FAULT, so a hook sees it.
 *
 * The thread executes an undefined instruction (UDF) at a known address:
 * a UsageFault (UNDEFINSTR), escalated to HardFault (FORCED), since the
 * boards leave the configurable faults disabled.
 *
 * Built three times:
 *   - test_fault: with a hook, which checks the reason, the place, the
 *     thread, and the registers the port recorded (lm_armv7m_last_fault);
 *   - test_fault_bus (FAULT_BUS): the same hook, for a load from an
 *     unmapped address (a precise BusFault, escalated; BFAR holds it);
 *   - test_fault_dump (FAULT_NO_HOOK): no hook. The image prints the
 *     address of the faulting instruction first; check_fault_dump.cmake
 *     compares it with the PC of the dump and checks the default report.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"

#define CFSR_UNDEFINSTR (1u << 16)
#define CFSR_PRECISERR (1u << 9)
#define CFSR_BFARVALID (1u << 15)
#define HFSR_FORCED (1u << 30)

/* The faulting instruction, at a label the test can take the address of. */
extern const uint16_t lmt_fault_insn[];
#if defined(FAULT_BUS)
/* A load from an address where nothing is mapped: a precise BusFault with
 * the address in BFAR. */
#define UNMAPPED 0xF0000000u
__attribute__((naked, noinline)) static void fault_here(void)
{
    __asm volatile("movw r1, #0\n"
                   "movt r1, #0xF000\n"
                   ".global lmt_fault_insn\n"
                   "lmt_fault_insn:\n"
                   "ldr r0, [r1]\n"
                   "bx lr\n");
}
#else
__attribute__((naked, noinline)) static void fault_here(void)
{
    __asm volatile(".global lmt_fault_insn\n"
                   "lmt_fault_insn:\n"
                   "udf #0\n");
}
#endif

static lm_thread_t *faulter;

static uint32_t fault_pc(void)
{
    return (uint32_t)(uintptr_t)lmt_fault_insn & ~1u;
}

static void expect_fault(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    const lm_armv7m_fault_t *f = lm_armv7m_last_fault();
    bool ok = reason == LM_FATAL_FAULT && where != NULL && strcmp(where, "HardFault") == 0 &&
              t == faulter && f != NULL && f->exception == 3u && f->frame_valid &&
              !f->in_handler && f->pc == fault_pc() && (f->hfsr & HFSR_FORCED) != 0u;
#if defined(FAULT_BUS)
    ok = ok && (f->cfsr & (CFSR_PRECISERR | CFSR_BFARVALID)) == (CFSR_PRECISERR | CFSR_BFARVALID) &&
         f->bfar == UNMAPPED;
#else
    ok = ok && (f->cfsr & CFSR_UNDEFINSTR) != 0u;
#endif
    if (ok) {
        printf("ok 1 - fault_reported\n1 passed, 0 failed\n");
        lm_board_exit(0);
    }
    printf("FAIL fault_reported: reason %d where %s pc 0x%08lx (expected 0x%08lx)\n",
           (int)reason, where != NULL ? where : "?", f != NULL ? (unsigned long)f->pc : 0ul,
           (unsigned long)fault_pc());
    lm_board_exit(1);
}

static void faulting(void *arg)
{
    (void)arg;
    printf("expected PC 0x%08lx\n", (unsigned long)fault_pc());
    fault_here();
    lmt_log("returned"); /* never */
}

LMT_CASE(fault_reported)
{
    lmt_begin();
    LMT_CHECK(lm_armv7m_last_fault() == NULL);
#if defined(FAULT_NO_HOOK)
    (void)expect_fault;
    lm_fatal_hook_set(NULL);
#else
    lm_fatal_hook_set(expect_fault);
#endif
    faulter = lmt_spawn("faulter", 5, faulting, NULL);
    lmt_run();
    lmt_fail(__FILE__, __LINE__, "the fault was not reported: %s", lmt_trace());
}

LMT_MAIN(LMT_RUN(fault_reported))
