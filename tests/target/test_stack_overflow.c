/*
 * A thread that overruns its stack is caught at its next context switch and
 * reported through the fatal-error hook with LM_FATAL_STACK (docs/porting.md).
 * The run passes only if the hook sees exactly that.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"

static void expect_stack_fault(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    if (reason == LM_FATAL_STACK && where != NULL && strcmp(where, "deep") == 0 && t != NULL) {
        printf("ok 1 - stack_overflow_reported\n1 passed, 0 failed\n");
        lm_board_exit(0);
    }
    printf("FAIL stack_overflow_reported: reason %d where %s\n", (int)reason,
           where != NULL ? where : "?");
    lm_board_exit(1);
}

static volatile uint32_t sink;

/* Each level keeps a 64-byte frame alive across the call. */
static void recurse(unsigned n)
{
    volatile uint8_t frame[64];
    memset((void *)(uintptr_t)frame, (int)n, sizeof frame);
    if (n != 0u) {
        recurse(n - 1u);
    }
    sink += frame[n % sizeof frame];
}

static void deep(void *arg)
{
    (void)arg;
    recurse(80); /* ~6 KiB of frames on a 4 KiB stack */
    (void)lm_thread_yield();
}

static void other(void *arg)
{
    (void)arg;
}

LMT_CASE(stack_overflow_reported)
{
    lmt_begin();
    lm_fatal_hook_set(expect_stack_fault);
    lmt_spawn("other", 5, other, NULL);
    lmt_spawn("deep", 5, deep, NULL);
    lmt_run();
    lmt_fail(__FILE__, __LINE__, "the overflow was not reported");
}

LMT_MAIN(LMT_RUN(stack_overflow_reported))
