/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fault in a thread on the Armv6-M port: a word load from an address that
 * is not a multiple of 4. Armv6-M faults on every unaligned access (the
 * port and the kernel make none, docs/porting.md); on mps2-an385-v6m the
 * Cortex-M3 traps them because the test support sets CCR.UNALIGN_TRP, so
 * the whole suite there runs as strict as an Armv6-M core. The port's
 * HardFault handler records the stacked frame and goes through lm_fatal
 * with LM_FATAL_FAULT, naming the thread: the hook checks all of it.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/port.h"

extern const uint16_t lmt_misaligned_load[];
static uint32_t words[2];

/* A load through r0 = &words[0] + 1, at a label the test can find. */
__attribute__((naked, noinline)) static uint32_t load_misaligned(const void *p)
{
    (void)p;
    __asm volatile(".syntax unified\n"
                   ".global lmt_misaligned_load\n"
                   "lmt_misaligned_load:\n"
                   "ldr r0, [r0]\n"
                   "bx lr\n");
}

static lm_thread_t *faulter;

static void fatal_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    const lm_armv6m_fault_t *f = lm_armv6m_last_fault();
    uint32_t expected_pc = (uint32_t)(uintptr_t)lmt_misaligned_load & ~1u;
    bool ok = reason == LM_FATAL_FAULT && where != NULL && strcmp(where, "HardFault") == 0 &&
              t == faulter && f != NULL && !f->in_handler && f->pc == expected_pc &&
              (f->xpsr & 0x01000000u) != 0u;
    printf("%s fault: reason %d at %s, thread %s, pc 0x%08lx (expected 0x%08lx)\n",
           ok ? "PASS" : "FAIL", (int)reason, where != NULL ? where : "?",
           t != NULL ? lm_thread_name(t) : "-", f != NULL ? (unsigned long)f->pc : 0ul,
           (unsigned long)expected_pc);
    lm_board_exit(ok ? 0 : 1);
}

static void misaligned(void *arg)
{
    (void)arg;
    (void)load_misaligned((const uint8_t *)words + 1);
    lmt_log("no fault");
}

LMT_CASE(unaligned_load_faults_and_names_the_thread)
{
    lmt_begin();
    LMT_CHECK(lm_armv6m_last_fault() == NULL);
    lm_fatal_hook_set(fatal_hook);
    faulter = lmt_spawn("misaligned", 3, misaligned, NULL);
    lmt_run();
    lmt_fail(__FILE__, __LINE__, "the unaligned load did not fault (trace: %s)", lmt_trace());
}

LMT_MAIN(LMT_RUN(unaligned_load_faults_and_names_the_thread))
