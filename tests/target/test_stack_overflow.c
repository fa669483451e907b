/*
 * A thread that overruns its stack is caught at its next context switch and
 * reported through the fatal-error hook with LM_FATAL_STACK (docs/porting.md).
 * The run passes only if the hook sees exactly that.
 *
 * The port has two checks at every switch away from a thread. This file is
 * built twice:
 *   - test_stack_overflow: the thread's frames ran over the guard words at
 *     the bottom of its stack and returned; the guard check catches it.
 *   - test_stack_overflow_sp (OVERFLOW_SWITCHED_OUT_DEEP): the thread is
 *     switched out while its stack pointer is below the bottom, with the
 *     guard words untouched; the stack pointer check catches it.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"

#define GUARD_WORD 0xDEADC0DEu /* what the port writes below every stack */

static void expect_stack_fault(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    bool ok = reason == LM_FATAL_STACK && where != NULL && strcmp(where, "deep") == 0 &&
              t != NULL;
#if defined(OVERFLOW_SWITCHED_OUT_DEEP)
    /* Only the stack pointer check can have fired: the guard is intact. */
    ok = ok && ((const uint32_t *)t->stack)[0] == GUARD_WORD;
#endif
    if (ok) {
        printf("ok 1 - stack_overflow_reported\n1 passed, 0 failed\n");
        lm_board_exit(0);
    }
    printf("FAIL stack_overflow_reported: reason %d where %s\n", (int)reason,
           where != NULL ? where : "?");
    lm_board_exit(1);
}

static volatile uint32_t sink;

#if defined(OVERFLOW_SWITCHED_OUT_DEEP)
/* One frame bigger than the whole 4 KiB stack, written only at its top (in
 * the stack), so the switch inside the sleep saves the thread's registers
 * below its stack's bottom without touching the guard words. */
static __attribute__((noinline)) void deep_frame(void)
{
    volatile uint8_t frame[LMT_STACK_BYTES + 1024u];
    frame[sizeof frame - 1u] = 1u;
    (void)lm_thread_sleep(1);
    sink += frame[sizeof frame - 1u];
}

static void deep(void *arg)
{
    (void)arg;
    deep_frame();
}
#else
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
#endif

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
