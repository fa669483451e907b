/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv8-M Mainline: the stack limit (PSPLIM, set per thread at every
 * switch; docs/porting.md). A thread that overruns its stack and never
 * switches out is stopped at the instruction that takes its stack pointer
 * below its limit (UsageFault STKOF, escalated to HardFault), and reported
 * through the fatal-error hook as LM_FATAL_STACK with its name, at once:
 * without the limit the same thread would run on below its stack and only
 * the check at its next switch would see it.
 *
 * Built twice: test_stack_limit overflows by a frame allocation, and the
 * exception frame still fits above the limit (the dump shows the faulting
 * instruction's PC); test_stack_limit_frame_lost (STACK_LIMIT_FRAME_LOST)
 * stands 8 bytes above the limit and pushes, so that the core's own
 * exception frame does not fit either: it writes none and leaves PSP at
 * the limit, and the report must not read a frame that is not there;
 * test_stack_limit_main (STACK_LIMIT_MAIN) overruns the main stack in an
 * interrupt handler: MSPLIM stops it, and the report names the main stack,
 * not the thread the handler interrupted.
 *
 * Before it overflows, the thread switches with a peer a few times, so the
 * limit has been loaded for both stacks. The overflowing thread's stack is
 * the harness's second; the first thread's, below it, is never used, so an
 * overflow the limit misses damages nothing else before the test reports
 * it.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"

#define CFSR_STKOF (1u << 20) /* UsageFault: stack limit violation */

/* The port's (ports/armv8m/stack_limit.h): MSPLIM when the fault came. */
extern uint32_t lmp_main_stack_limit_at_fault;

static lm_thread_t *victim;
static volatile bool returned; /* the recursion came back: not caught at once */
static volatile unsigned depth_reached;
static volatile uint32_t switches_before; /* the victim's, when it began */

static void expect_limit_fault(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    const lm_armv7m_fault_t *f = lm_armv7m_last_fault();
    lm_thread_stats_t st = {0};
    (void)lm_thread_stats(victim, &st);
    uint32_t psp, psplim;
    __asm volatile("mrs %0, psp\n mrs %1, psplim" : "=r"(psp), "=r"(psplim));
    /* The limit in force was the victim's: just above its guard words. */
    uintptr_t bottom = (uintptr_t)victim->stack;
#if defined(STACK_LIMIT_MAIN)
    extern uint32_t __main_stack_bottom[];
    (void)psp;
    bool ok = reason == LM_FATAL_STACK && where != NULL && strcmp(where, "main stack") == 0 &&
              t == NULL && f != NULL && (f->cfsr & CFSR_STKOF) != 0u && f->in_handler &&
              !returned && depth_reached > 0u && st.switches_in == switches_before &&
              psplim > bottom && psplim < bottom + 256u &&
              lmp_main_stack_limit_at_fault == (uint32_t)(uintptr_t)__main_stack_bottom;
#else
    bool ok = reason == LM_FATAL_STACK && where != NULL && strcmp(where, "deep") == 0 &&
              t == victim && f != NULL && (f->cfsr & CFSR_STKOF) != 0u && !f->in_handler &&
              !returned && depth_reached > 0u && st.switches_in == switches_before &&
              psplim > bottom && psplim < bottom + 256u && psp >= psplim;
#endif
#if defined(STACK_LIMIT_MAIN)
#elif defined(STACK_LIMIT_FRAME_LOST)
    ok = ok && !f->frame_valid && psp == psplim;
#else
    ok = ok && f->frame_valid;
#endif
    if (ok) {
        printf("# caught at depth %u, CFSR 0x%08lx, PSPLIM = stack bottom + %lu\n",
               depth_reached, (unsigned long)f->cfsr, (unsigned long)(psplim - bottom));
        printf("ok 1 - overflow_caught_at_once\n1 passed, 0 failed\n");
        lm_board_exit(0);
    }
    printf("FAIL overflow_caught_at_once: reason %d where %s returned %d switches %lu "
           "fault %d CFSR 0x%08lx PSPLIM 0x%08lx bottom 0x%08lx\n",
           (int)reason, where != NULL ? where : "?", (int)returned,
           (unsigned long)st.switches_in, f != NULL, f != NULL ? (unsigned long)f->cfsr : 0ul,
           (unsigned long)psplim, (unsigned long)bottom);
    lm_board_exit(1);
}

#if !defined(STACK_LIMIT_FRAME_LOST)
static volatile uint32_t sink;

/* Each level keeps a 64-byte frame alive across the call. */
static void recurse(unsigned n)
{
    volatile uint8_t frame[64];
    depth_reached++;
    memset((void *)(uintptr_t)frame, (int)n, sizeof frame);
    if (n != 0u) {
        recurse(n - 1u);
    }
    sink += frame[n % sizeof frame];
}
#endif

#if defined(STACK_LIMIT_MAIN)
void IRQ_Handler(void);
void IRQ_Handler(void)
{
    recurse(200); /* ~14 KiB of frames on the 8 KiB main stack */
}
#endif

static void deep(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 3u; i++) {
        LMT_ST(lm_thread_yield(), LM_OK);
    }
    /* Static: the thread's frame, and so where its recursion meets the
     * limit, does not change with the statistics' size. */
    static lm_thread_stats_t st;
    LMT_ST(lm_thread_stats(victim, &st), LM_OK);
    switches_before = st.switches_in;
#if defined(STACK_LIMIT_MAIN)
    lm_nvic_set_priority(MPS2_IRQ_SPARE0, 0x80u);
    lm_nvic_enable(MPS2_IRQ_SPARE0);
    lm_nvic_trigger(MPS2_IRQ_SPARE0); /* its handler recurses on the main stack */
    __asm volatile("dsb\n isb" ::: "memory");
#elif defined(STACK_LIMIT_FRAME_LOST)
    depth_reached = 1u;
    __asm volatile("mrs r0, psplim\n"
                   "add r0, r0, #8\n"
                   "mov sp, r0\n"
                   "push {r0-r7}\n" ::: "r0", "memory");
#else
    recurse(80); /* ~6 KiB of frames on a 4 KiB stack, no switch */
#endif
    returned = true;
    printf("FAIL overflow_caught_at_once: the overflow ran on unnoticed\n");
    lm_board_exit(1);
}

static void unused(void *arg)
{
    (void)arg;
}

static void peer(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 3u; i++) {
        LMT_ST(lm_thread_yield(), LM_OK);
    }
}

LMT_CASE(overflow_caught_at_once)
{
    lmt_begin();
    lm_fatal_hook_set(expect_limit_fault);
    (void)lmt_spawn_ex("spare", 5, LM_THRESHOLD_NONE, 0, unused, NULL, false);
    victim = lmt_spawn("deep", 5, deep, NULL);
    lmt_spawn("peer", 5, peer, NULL);
    lmt_run();
    lmt_fail(__FILE__, __LINE__, "the run ended without a report");
}

LMT_MAIN(LMT_RUN(overflow_caught_at_once))
