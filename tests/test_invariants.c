/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's self-checks (LM_ASSERT, on with LM_CFG_ASSERT): an internal
 * invariant broken by a caller inside the kernel must reach lm_fatal with
 * LM_FATAL_ASSERT and the place of the check, not corrupt state silently.
 *
 * No public call can break these invariants (that is what makes them
 * invariants), so this program is white-box: it includes the kernel's
 * internal header and calls the internal functions the way a kernel bug
 * would. Each case runs in a child process, because lm_fatal does not
 * return; the child's hook reports what it was given through the exit code.
 * Hosted port only (fork).
 */
#include <string.h>
#include "harness.h"
#include "lmk.h"

enum { CHILD_ASSERT = 50, CHILD_WRONG = 51, CHILD_EARLY = 52, CHILD_NO_FATAL = 53 };

/* What the child expects: the file of the check, and that the step before
 * the broken call went through without a fatal error. */
static const char *expected_file;
static volatile int steps_done;

static void assert_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    (void)t;
    if (steps_done == 0) {
        exit(CHILD_EARLY); /* fired on the legitimate call before the broken one */
    }
    bool ok = reason == LM_FATAL_ASSERT && where != NULL &&
              strstr(where, expected_file) != NULL;
    exit(ok ? CHILD_ASSERT : CHILD_WRONG); /* exit: coverage counters are written */
}

/* Runs `body` in a child expecting an assertion in `file`. */
static int in_child(void (*body)(void), const char *file)
{
    expected_file = file;
    steps_done = 0;
    return lmt_in_child(body, assert_hook, CHILD_NO_FATAL);
}

static struct lm_timeout to;

/* Arming a timeout is legal once; arming it again while armed would link
 * its node into the wheel twice. */
static void arm_twice(void)
{
    memset(&to, 0, sizeof to);
    lm_irqstate_t s = lm_port_irq_lock();
    lmk_timeout_arm_locked(&to, 5);
    steps_done = 1;
    lmk_timeout_arm_locked(&to, 5);
    lm_port_irq_unlock(s);
}

/* Before lm_kernel_start the running thread is the idle thread, which must
 * never leave the ready state: stopping it is a kernel bug. */
static void stop_idle(void)
{
    lm_irqstate_t s = lm_port_irq_lock();
    steps_done = 1;
    lmk_sched_stop_current_locked(LM_THREAD_SUSPENDED);
    lm_port_irq_unlock(s);
}

LMT_CASE(timeout_armed_twice_is_fatal)
{
    LMT_EQ(in_child(arm_twice, "timeout.c"), CHILD_ASSERT);
}

LMT_CASE(stopping_the_idle_thread_is_fatal)
{
    LMT_EQ(in_child(stop_idle, "sched.c"), CHILD_ASSERT);
}

LMT_MAIN(LMT_RUN(timeout_armed_twice_is_fatal),
         LMT_RUN(stopping_the_idle_thread_is_fatal))
