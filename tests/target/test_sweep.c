/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interrupt-placement sweep on the target (docs/sweep.md), boards under
 * QEMU with -icount shift=0: one instruction per nanosecond and the test
 * timer (lmt_timer.h) firing a whole number of granules after its start,
 * both deterministic. A granule is 40 instructions on the MPS2 boards (one
 * count at 25 MHz; GRANULE below, 40 in the text), 50 on AN505 (20 MHz),
 * 125 on mps3-an547 (four counts at 32 MHz). For offset k the actor starts
 * the timer (one-shot) k/40 + 1 granules ahead and runs 39 - k%40 NOPs
 * before the call, so that the interrupt lands k instructions (plus a fixed
 * lead-in) into the call. The handler records the stacked PC: successive k must give PCs that
 * advance one instruction at a time wherever the kernel does not mask, and
 * the sweep reports how many distinct PCs it hit.
 *
 * Scenarios, handler actions, the consistency check and the expected
 * failures are the host sweep's (tests/sweep/). Built twice: test_sweep
 * (ctest: every scenario, every offset, but the pairs on the expected-failure
 * list are skipped, since a known defect may hard-fault and end the image)
 * and test_sweep_full (those pairs too; `./limen sweep --full`).
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/port.h"
#include "lmt_timer.h"
#include "sweep.h"

#ifndef SW_FULL
#define SW_FULL 0
#endif

/* The harness's watchdog (support.c) allows 20 s of virtual time per
 * image. The sweep takes about 3 s of it; each pair restarts it, so that
 * more scenarios never reach the limit while a pair that hangs is still
 * stopped after 20 s. */

#define GRANULE LMT_TIMER_GRANULE_INSNS
#define DENSE MAX_OFFSET  /* every offset (a run takes ~0.1 ms of host time) */
#define STRIDE 1u
#define MAX_OFFSET 20000u
#define MAX_PCS 4096u

static volatile uint32_t last_pc;
static volatile bool calibrating; /* the handler only records the PC */
static uint32_t pcs[MAX_PCS];
static unsigned npcs;

/* Run n (0..127) NOPs: a computed jump into a sled, one instruction each. */
__attribute__((noinline)) static void nops(uint32_t n)
{
#if defined(__ARM_ARCH_6M__)
    /* Thumb-1: no ADR.W nor shifted operands; the sled's end from a literal. */
    __asm volatile(".syntax unified\n"
                   "ldr r1, =2f + 1\n"
                   "lsls r2, %0, #1\n"
                   "subs r1, r1, r2\n"
                   "bx r1\n"
                   ".rept 128\n nop\n .endr\n"
                   "2:\n"
                   "b 3f\n .ltorg\n 3:\n" ::"l"(n)
                   : "r1", "r2", "cc", "memory");
#else
    __asm volatile("adr.w r1, 2f\n"
                   "sub r1, r1, %0, lsl #1\n"
                   "orr r1, r1, #1\n"
                   "bx r1\n"
                   ".rept 128\n nop\n .endr\n"
                   "2:\n" ::"r"(n)
                   : "r1", "memory");
#endif
}

void sw_arm(uint32_t offset)
{
    uint32_t delay = GRANULE - 1u - offset % GRANULE;
    uint32_t counts = (offset / GRANULE + 1u) * LMT_TIMER_GRANULE_COUNTS;
    /* Computed before the timer starts: without a divide instruction
     * (Armv6-M) the division is a call whose length varies with offset. */
    __asm volatile("" : "+r"(delay), "+r"(counts)::"memory");
    lmt_timer_start(0u, counts, false);
    nops(delay);
}

void sw_irq_note(void)
{
}

_Noreturn void sw_fatal_exit(void)
{
    printf("FAIL sweep: fatal error inside a run, the image cannot go on\n");
    lm_board_exit(5);
}

void DUALTIMER_Handler(void);
void DUALTIMER_Handler(void)
{
    uint32_t exc = (uint32_t)__builtin_return_address(0);
    lmt_timer_stop(0u);
    uint32_t pc = 0u;
    if ((exc & 0x4u) != 0u) { /* the interrupted code used PSP: a thread */
        const uint32_t *frame;
        __asm volatile("mrs %0, psp" : "=r"(frame));
        pc = frame[6];
    }
    last_pc = pc;
    if (!calibrating) {
        sw_irq();
    }
}

static void note_pc(uint32_t pc)
{
    for (unsigned i = 0; i < npcs; i++) {
        if (pcs[i] == pc) {
            return;
        }
    }
    if (npcs < MAX_PCS) {
        pcs[npcs++] = pc;
    }
}

struct row {
    unsigned runs, in_call, violations, steps1;
    uint32_t ret_off; /* first offset landing after the call returned (0: none) */
    uint32_t first_off;
    char first[SW_MSG];
};

static void one(unsigned sc, unsigned a, uint32_t k, struct sw_result *r)
{
    last_pc = 0u;
    sw_run_one(sc, a, k, r);
    lmt_timer_stop(0u); /* an interrupt not taken yet must not reach the next run */
    LM_NVIC_ICPR(MPS2_IRQ_DUALTIMER / 32u) = 1u << (MPS2_IRQ_DUALTIMER % 32u);
    r->pc = r->fired ? last_pc : 0u;
}

static void sweep_pair(unsigned sc, unsigned a, struct row *row)
{
    struct sw_result r;
    memset(row, 0, sizeof *row);
    npcs = 0;
    uint32_t prev_pc = 0u;
    for (uint32_t k = 0; k <= MAX_OFFSET;) {
        one(sc, a, k, &r);
        row->runs++;
        if (r.violation && row->violations++ == 0u) {
            row->first_off = k;
            snprintf(row->first, sizeof row->first, "%s", r.what);
        }
        if (r.fired && !r.late && r.fired_in_call) {
            row->in_call++;
            if (r.pc != 0u) {
                note_pc(r.pc);
                /* A Thumb instruction is 2 or 4 bytes: a step of one. */
                if (prev_pc != 0u && r.pc > prev_pc && r.pc - prev_pc <= 4u) {
                    row->steps1++;
                }
            }
        }
        if (r.fired && !r.late && !r.fired_in_call && row->ret_off == 0u) {
            row->ret_off = k;
        }
        if (!r.fired || r.late) {
            return;
        }
        prev_pc = r.pc;
        k += (SW_FULL || k < DENSE) ? 1u : STRIDE;
    }
}

/* Resolution: offsets k = 0..CAL_K-1 placed before a straight run of 64
 * NOPs (16-bit, one instruction each) in a thread, unmasked. Wherever the
 * interrupt lands inside the run, offset k+1 must land exactly one NOP
 * (2 bytes) after offset k. Half a granule of NOPs before the run puts
 * the offsets that reach it across a granule boundary (k a multiple of
 * GRANULE: 125 on mps3-an547, more than the run is long), where
 * the timer's count and the NOPs before the call both change: the step
 * must stay one NOP there too. */
#define CAL_PAD (GRANULE / 2u)
#define CAL_K (CAL_PAD + 100u)
static uint32_t cal_pc[CAL_K];

static void calibrate(void *arg)
{
    (void)arg;
    for (uint32_t k = 0; k < CAL_K; k++) {
        last_pc = 0u;
        sw_arm(k);
        nops(CAL_PAD);
        nops(64);
        lmt_timer_stop(0u);
        cal_pc[k] = last_pc;
    }
}

LMT_CASE(one_offset_is_one_instruction)
{
    lmt_timer_enable();
    lmt_begin();
    calibrating = true;
    lmt_spawn("C", 5, calibrate, NULL);
    lmt_run();
    calibrating = false;
    unsigned run = 0, best = 0, best_end = 0;
    for (uint32_t k = 1; k < CAL_K; k++) {
        run = (cal_pc[k] != 0u && cal_pc[k] == cal_pc[k - 1u] + 2u) ? run + 1u : 0u;
        if (run > best) {
            best = run;
            best_end = k;
        }
    }
    /* The delay before the run is the tail of the same sled, so the longest
     * streak may run a little past the 63 steps of the run itself. */
    unsigned first = best_end - best;
    printf("# resolution: %u successive offsets (%u..%u) advanced the stacked PC by one "
           "2-byte NOP (at least 63 expected: the run of 64; granule %u instructions)\n",
           best, first, best_end, (unsigned)GRANULE);
    LMT_CHECK(best >= 63u);
    LMT_CHECK(first / GRANULE != best_end / GRANULE); /* across a granule boundary */
}

LMT_CASE(sweep)
{
    lmt_timer_enable();
    printf("%-28s %-14s %6s %7s %6s %6s %6s %5s  %s\n", "scenario", "action", "runs",
           "in-call", "ret@", "pcs", "step1", "viol", "first violation (offset: what)");
    unsigned runs = 0, viol = 0, unexpected = 0, skipped = 0, xfail = 0, xpass = 0;
    uint32_t t0 = lmt_timer_now();
    /* The pairs expected to fail come last (full image only): one of them
     * may hard-fault, which ends the image. */
    for (unsigned pass = 0; pass < 2u; pass++) {
        for (unsigned sc = 0; sc < sw_nscenarios; sc++) {
            const struct sw_scenario *s = &sw_scenarios[sc];
            for (unsigned a = 0; a < s->nactions; a++) {
                const char *xf = sw_expected_failure(s->name, s->actions[a].name);
                if ((xf != NULL) != (pass == 1u)) {
                    continue;
                }
                if (xf != NULL && !SW_FULL) {
                    printf("%-28s %-14s skipped: expected failure (%s)\n", s->name,
                           s->actions[a].name, xf);
                    skipped++;
                    continue;
                }
                /* For tools/limen.py: which pair a hard fault ended. */
                printf("#pair %s %s %s\n", s->name, s->actions[a].name,
                       xf != NULL ? "expected-failure" : "expected-pass");
                struct row row;
                lmt_watchdog_restart();
                sweep_pair(sc, a, &row);
                runs += row.runs;
                viol += row.violations;
                const char *verdict = row.violations != 0u ? (xf != NULL ? "XFAIL" : "FAIL")
                                                           : (xf != NULL ? "XPASS" : "ok");
                unexpected += (row.violations != 0u && xf == NULL) ? 1u : 0u;
                xfail += (row.violations != 0u && xf != NULL) ? 1u : 0u;
                xpass += (row.violations == 0u && xf != NULL) ? 1u : 0u;
                printf("%-28s %-14s %6u %7u %6u %6u %6u %5u  %s", s->name, s->actions[a].name,
                       row.runs, row.in_call, (unsigned)row.ret_off, npcs, row.steps1,
                       row.violations, verdict);
                if (row.violations != 0u) {
                    printf(" @%u: %s", (unsigned)row.first_off, row.first);
                }
                printf("\n");
                printf("#json {\"scenario\": \"%s\", \"call\": \"%s\", \"action\": \"%s\", "
                       "\"runs\": %u, \"offsets_in_call\": %u, \"offset_of_return\": %u, "
                       "\"distinct_pcs\": %u, "
                       "\"one_step_advances\": %u, \"violations\": %u, \"verdict\": \"%s\"}\n",
                       s->name, s->call, s->actions[a].name, row.runs, row.in_call,
                       (unsigned)row.ret_off, npcs, row.steps1, row.violations, verdict);
            }
        }
    }
    printf("# virtual time: %u ms\n",
           (unsigned)((lmt_timer_now() - t0) / (MPS2_SYSCLK_HZ / 1000u)));
    printf("# target sweep: %u runs, %u violating runs; pairs: %u unexpected FAIL, %u XFAIL, "
           "%u XPASS, %u skipped (expected failures)\n",
           runs, viol, unexpected, xfail, xpass, skipped);
    LMT_EQ(unexpected, 0);
}

LMT_MAIN(LMT_RUN(one_offset_is_one_instruction), LMT_RUN(sweep))
