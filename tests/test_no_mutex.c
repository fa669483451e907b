/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An image that creates no mutex links none of kernel/mutex.c: the
 * scheduler, the wait protocol and a thread's end reach it only through
 * weak references (kernel/include/lmk.h). This program uses no mutex call,
 * so here those references are empty, and the calls that would otherwise
 * go through mutex.c must still follow the rules: a priority change moves
 * the thread (R4.1, R4.2) and a thread ends cleanly (R11.3).
 */
#include "harness.h"
#include "lmk.h"

LMT_CASE(no_mutex_code_linked)
{
    /* The premise of the cases below: without it they would test mutex.c. */
    LMT_CHECK(lmk_prio_update_locked == NULL);
    LMT_CHECK(lmk_mutex_release_begin_locked == NULL);
    LMT_CHECK(lmk_pi_step == NULL);
}

static lm_thread_t *t_b;

static void log_name(void *arg)
{
    (void)arg;
    lmt_log("%s", lmt_me());
}

static void mover(void *arg)
{
    (void)arg;
    lmt_log("A0");
    /* R4.2: B (6) moves to 2, ahead of A (4): it preempts at once. */
    LMT_ST(lm_thread_set_priority(t_b, 2), LM_OK);
    LMT_EQ(lm_thread_priority(t_b), 2);
    lmt_log("A1");
    /* The same priority again: nothing moves. */
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 4), LM_OK);
    LMT_EQ(lm_thread_priority(lm_thread_self()), 4);
    /* R4.1: the running thread to 7, behind C (5), which runs first. */
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 7), LM_OK);
    lmt_log("A2");
}

/* R4.1, R4.2 without inheritance to recompute; R11.3: each thread ends and
 * the next runs. */
LMT_CASE(priority_changes_without_mutex_code)
{
    lmt_begin();
    lmt_spawn("A", 4, mover, NULL);
    t_b = lmt_spawn("B", 6, log_name, NULL);
    lmt_spawn("C", 5, log_name, NULL);
    lmt_run();
    lmt_expect("A0 B A1 C A2");
}

LMT_MAIN(LMT_RUN(no_mutex_code_linked), LMT_RUN(priority_changes_without_mutex_code))
