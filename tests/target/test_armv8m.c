/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv8-M Mainline (mps2-an505, mps2-an505-ns, mps3-an547): what the port
 * sets per thread (docs/porting.md, "Armv8-M"). Each thread runs with its
 * own stack limit in PSPLIM, however the switches between them interleave;
 * the kernel finds the security state it runs in (Secure as QEMU boots it;
 * Non-secure on mps2-an505-ns, behind its Secure firmware), and a new
 * thread's first return from PendSV goes to that state's process stack
 * (EXC_RETURN 0xFFFFFFFD Secure, 0xFFFFFFBC Non-secure).
 */
#include <stdio.h>

#include "board.h"
#include "harness.h"

/* The port's own (ports/armv8m/stack_limit.h). */
uint32_t lmp_stack_limit(const lm_thread_t *t);
bool lmp_secure_state(void);

static uint32_t psplim_seen[2][3];
static uint32_t psplim_expected[2];

static uint32_t psplim(void)
{
    uint32_t v;
    __asm volatile("mrs %0, psplim" : "=r"(v));
    return v;
}

static void limit_reader(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    for (unsigned i = 0; i < 3u; i++) {
        psplim_seen[id][i] = psplim();
        LMT_ST(lm_thread_yield(), LM_OK);
    }
    lmt_log("L%u", id);
}

/* Each of two threads that yield to each other reads its own limit: just
 * above its guard words and the room of its saved registers. */
LMT_CASE(each_thread_runs_with_its_own_stack_limit)
{
    lmt_begin();
    lm_thread_t *a = lmt_spawn("L0", 5, limit_reader, (void *)0);
    lm_thread_t *b = lmt_spawn("L1", 5, limit_reader, (void *)1);
    psplim_expected[0] = lmp_stack_limit(a);
    psplim_expected[1] = lmp_stack_limit(b);
    LMT_CHECK(psplim_expected[0] != psplim_expected[1]);
    for (unsigned id = 0; id < 2u; id++) {
        uint32_t bottom = (uint32_t)(uintptr_t)(id == 0u ? a : b)->stack;
        LMT_CHECK(psplim_expected[id] >= bottom + 16u && psplim_expected[id] < bottom + 256u);
        LMT_EQ(psplim_expected[id] & 7u, 0u);
    }
    lmt_run();
    for (unsigned id = 0; id < 2u; id++) {
        for (unsigned i = 0; i < 3u; i++) {
            LMT_EQ(psplim_seen[id][i], psplim_expected[id]);
        }
    }
    lmt_expect("L0 L1");
}

static void nothing(void *arg)
{
    (void)arg;
    lmt_log("ran");
}

#if defined(MPS_TZ_NONSECURE)
#define SECURE false
#define EXC_RETURN_THREAD 0xFFFFFFBCu
#else
#define SECURE true
#define EXC_RETURN_THREAD 0xFFFFFFFDu
#endif

/* The port finds the state the board runs it in, and a new thread's saved
 * EXC_RETURN (the word above its saved limit and R4-R11) returns to that
 * state's process stack; the thread then runs. */
LMT_CASE(threads_start_in_the_kernel_security_state)
{
    lmt_begin();
    LMT_EQ(lmp_secure_state(), SECURE);
    lm_thread_t *t = lmt_spawn_ex("N", 5, LM_THRESHOLD_NONE, 0, nothing, NULL, false);
    LMT_ST(lm_thread_start(t), LM_OK);
    const uint32_t *saved = (const uint32_t *)t->ctx.sp;
    LMT_EQ(saved[0], lmp_stack_limit(t));
    LMT_EQ(saved[9], EXC_RETURN_THREAD);
    lmt_run();
    lmt_expect("ran");
}

LMT_MAIN(LMT_RUN(each_thread_runs_with_its_own_stack_limit),
         LMT_RUN(threads_start_in_the_kernel_security_state))
