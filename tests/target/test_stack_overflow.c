/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A thread that overruns its stack is caught at its next context switch and
 * reported through the fatal-error hook with LM_FATAL_STACK (docs/porting.md).
 * The run passes only if the hook sees exactly that.
 *
 * The port has two checks at every switch away from a thread. This file is
 * built five times:
 *   - test_stack_overflow: the thread's frames ran over the guard words at
 *     the bottom of its stack and returned; the guard check catches it.
 *   - test_stack_overflow_sp (OVERFLOW_SWITCHED_OUT_DEEP): the thread is
 *     switched out while its stack pointer is below the bottom, with the
 *     guard words untouched; the stack pointer check catches it.
 *   - test_stack_overflow_report (OVERFLOW_NO_HOOK): as the first, with no
 *     hook: the kernel's default report, checked by ctest's regular
 *     expression, names the reason and the thread.
 *   - test_stack_overflow_cb (OVERFLOW_INTO_CONTROL_BLOCK 1): the thread's
 *     control block lies just below its stack, and the frames ran on into
 *     it, over its name and stack pointer fields, but not over the port's
 *     copies at its start: the report names the thread from the copies and
 *     hands the hook no control block (NULL).
 *   - test_stack_overflow_cb_all (OVERFLOW_INTO_CONTROL_BLOCK 2): the frames
 *     ran over the whole control block: the report gives its address.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"

#define GUARD_WORD 0xDEDEDEDEu /* what the port writes below every stack */

#if defined(OVERFLOW_INTO_CONTROL_BLOCK)
/* A control block defined just below its stack, the order of two
 * definitions in C, made certain by a structure. */
static struct {
    lm_thread_t t;
    LM_STACK_DEFINE(stack, 1024);
} victim;
#endif

static void expect_stack_fault(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
#if defined(OVERFLOW_INTO_CONTROL_BLOCK)
    char expected[80];
#if OVERFLOW_INTO_CONTROL_BLOCK == 1
    snprintf(expected, sizeof expected, "deep (control block at 0x%08lx overwritten)",
             (unsigned long)(uintptr_t)&victim.t);
#else
    snprintf(expected, sizeof expected, "corrupted thread at 0x%08lx",
             (unsigned long)(uintptr_t)&victim.t);
#endif
    bool ok = reason == LM_FATAL_STACK && where != NULL && strcmp(where, expected) == 0 &&
              t == NULL;
#else
    bool ok = reason == LM_FATAL_STACK && where != NULL && strcmp(where, "deep") == 0 &&
              t != NULL;
#endif
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
#elif defined(OVERFLOW_INTO_CONTROL_BLOCK)
/* The lowest byte the overflow reaches: the `held` field on (name, stack,
 * entry...), or the whole control block. */
#if OVERFLOW_INTO_CONTROL_BLOCK == 1
#define OVERFLOW_LOW ((uint8_t *)&victim.t + offsetof(lm_thread_t, held))
#define OVERFLOW_BYTE 0x5A /* a name pointer of 0x5A5A5A5A leads nowhere */
#else
#define OVERFLOW_LOW ((uint8_t *)&victim.t)
#define OVERFLOW_BYTE 0x00 /* no time-slice for the tick to act on meanwhile */
#endif

/* One frame that reaches exactly down to OVERFLOW_LOW, written whole, as a
 * too-large local array would be. */
static __attribute__((noinline)) void overflowing_frame(size_t bytes)
{
    volatile uint8_t frame[bytes];
    if ((uint8_t *)frame > OVERFLOW_LOW) {
        lmt_fail(__FILE__, __LINE__, "the frame does not reach the control block");
    }
    memset((void *)((uintptr_t)OVERFLOW_LOW), OVERFLOW_BYTE,
           (size_t)((uint8_t *)frame + bytes - OVERFLOW_LOW));
    sink += frame[bytes - 1u];
}

static void deep(void *arg)
{
    (void)arg;
    uint8_t here;
    /* The frame's own bottom lies a little below OVERFLOW_LOW: no interrupt
     * may stack a frame there while it exists. */
    lm_irqstate_t s = lm_port_irq_lock();
    overflowing_frame((size_t)(&here - OVERFLOW_LOW));
    /* The control block is garbage now: no kernel call may read it. A
     * switch, as an interrupt would cause, runs the port's check. */
    lm_port_switch_pend();
    lm_port_irq_unlock(s);
    for (;;) {
    }
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
    recurse(LMT_STACK_BYTES / 51u); /* 1.5 times the stack in frames: ~6 KiB of 4 KiB */
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
#if defined(OVERFLOW_NO_HOOK)
    (void)expect_stack_fault;
    lm_fatal_hook_set(NULL);
#else
    lm_fatal_hook_set(expect_stack_fault);
#endif
    lmt_spawn("other", 5, other, NULL);
#if defined(OVERFLOW_INTO_CONTROL_BLOCK)
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "deep";
    a.entry = deep;
    a.stack = victim.stack;
    a.stack_size = sizeof victim.stack;
    a.priority = 5;
    LMT_ST(lm_thread_create(&victim.t, &a), LM_OK);
    LMT_ST(lm_thread_start(&victim.t), LM_OK);
#else
    lmt_spawn("deep", 5, deep, NULL);
#endif
    lmt_run();
    lmt_fail(__FILE__, __LINE__, "the overflow was not reported");
}

LMT_MAIN(LMT_RUN(stack_overflow_reported))
