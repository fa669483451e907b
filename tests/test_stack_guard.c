/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stack overflow on the hosted port (docs/hosted.md "Stack overflow"): the
 * port reports it through the fatal-error hook as the Cortex-M port does
 * (docs/porting.md "Stack overflow and the fatal-error hook"), with
 * LM_FATAL_STACK, the thread's name as `where` and the thread itself.
 *
 * No rule of docs/rules.md covers overflow; the cases cite the port docs.
 * A reported overflow ends the system (the hook runs on a stack that is no
 * longer trustworthy), so each overflow runs in a child process whose hook
 * checks the report and ends the child with an exit code the parent checks.
 *
 * What catches what:
 *   - frames that grow into the guard page (recursion): the page, at the
 *     faulting store, before anything below it is touched;
 *   - a store into the guard pattern that skipped the page (as a large
 *     frame written only at its low end would): the pattern check at the
 *     thread's next switch away.
 * Under AddressSanitizer both stores are to unpoisoned stack memory of the
 * thread, so ASan itself has nothing to report; the port's guard does.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

#if defined(LM_PORT_HOSTED)
#include <unistd.h> /* _exit */

#include "limen/hosted.h"

/* Child exit codes. */
enum {
    REPORTED = 40,       /* the hook saw exactly the expected report */
    WRONG_REASON = 41,
    WRONG_WHERE = 42,
    WRONG_THREAD = 43,
    WRONG_MOMENT = 44,   /* right report, detected by the wrong check */
    NOT_REPORTED = 45    /* the run ended without a report */
};

static lm_thread_t *victim;        /* the thread expected in the report */
static const char *victim_trace;   /* the trace expected at the report */
static bool expect_pattern_intact; /* the guard page, not the pattern, caught it */

static bool pattern_intact(const lm_thread_t *t)
{
    /* The pattern is the lowest 64 bytes; all of them equal the bytes the
     * port wrote, which never include the watermark fill 0xA5. */
    const volatile uint8_t *p = (const volatile uint8_t *)t->stack;
    for (unsigned i = 0; i < 64u; i++) {
        if (p[i] == 0xA5u || p[i] != p[i % 8u]) {
            return false;
        }
    }
    return true;
}

static void child_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    int code = REPORTED;
    if (reason != LM_FATAL_STACK) {
        code = WRONG_REASON;
    } else if (where == NULL || strcmp(where, lm_thread_name(victim)) != 0) {
        code = WRONG_WHERE;
    } else if (t != victim) {
        code = WRONG_THREAD;
    } else if (strcmp(lmt_trace(), victim_trace) != 0 ||
               pattern_intact(t) != expect_pattern_intact) {
        code = WRONG_MOMENT;
    }
    _exit(code); /* no atexit work in a child whose stack just overflowed */
}

static volatile uint32_t sink;

/* Each level keeps a 256-byte frame alive across the call. */
static void recurse(unsigned n)
{
    volatile uint8_t frame[256];
    memset((void *)(uintptr_t)frame, (int)(n & 0x7Fu), sizeof frame);
    if (n != 0u) {
        recurse(n - 1u);
    }
    sink += frame[n % sizeof frame];
}

static void deep(void *arg)
{
    (void)arg;
    lmt_log("deep:start");
    recurse(100000u); /* ~25 MiB of frames on a 64 KiB stack */
    lmt_log("deep:returned");
}

static void bystander(void *arg)
{
    lmt_log("%s", (const char *)arg);
}

static void overflow_by_recursion(void)
{
    lmt_spawn("below", 5, bystander, "below");
    victim = lmt_spawn("deep", 5, deep, NULL); /* its stack sits above below's */
    victim_trace = "below deep:start";
    expect_pattern_intact = true;
    lmt_run();
}

/* docs/hosted.md "Stack overflow": recursion is stopped by the guard page
 * at the first store into it, in the middle of the thread's run (no switch
 * happened since "deep:start"), with the pattern below still intact. */
LMT_CASE(recursion_caught_by_guard_page)
{
    if (!lm_hosted_stack_guard_page()) {
        /* Without the page the recursion would run through memory below
         * the stack before any check: nothing to test safely. */
        printf("# recursion_caught_by_guard_page: no guard page, skipped\n");
        return;
    }
    LMT_EQ(lmt_in_child(overflow_by_recursion, child_hook, NOT_REPORTED), REPORTED);
}

static void stray(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    /* A store at the stack's low end, above nothing the thread owns but
     * below its guard page: what a large frame written only at its low end
     * leaves behind, without touching the page. */
    ((volatile uint8_t *)self->stack)[12] = 0x00u;
    lmt_log("stray:wrote");
    (void)lm_thread_yield();
    lmt_log("stray:resumed");
}

static void overwrite_pattern(void)
{
    victim = lmt_spawn("stray", 5, stray, NULL);
    lmt_spawn("other", 5, bystander, "other");
    victim_trace = "stray:wrote";
    expect_pattern_intact = false;
    lmt_run();
}

/* docs/porting.md "Stack overflow and the fatal-error hook": a damaged guard
 * pattern is reported at the switch away from the thread, before the next
 * thread runs ("other" never logs) and before the thread resumes. */
LMT_CASE(pattern_damage_caught_at_switch)
{
    LMT_EQ(lmt_in_child(overwrite_pattern, child_hook, NOT_REPORTED), REPORTED);
}

/* Room left below the deepest frame for the yield and the switch code
 * (kernel and port, ASan frames included). */
#define SWITCH_ROOM 3072u

static void unexpected_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    lmt_fail(__FILE__, __LINE__, "fatal report %d from %s in %s", (int)reason,
             where != NULL ? where : "?", t != NULL ? lm_thread_name(t) : "-");
}

static uintptr_t floor_addr;
static size_t unused_at_bottom;
static lm_status_t yield_status;

/* Descends by the real frame address (not a local's: under ASan a local may
 * live on a fake stack) until the next frame could reach the floor. */
static void descend(void)
{
    volatile uint8_t frame[256];
    memset((void *)(uintptr_t)frame, 0x11, sizeof frame);
    if ((uintptr_t)__builtin_frame_address(0) > floor_addr + 1024u) {
        descend();
    } else {
        /* No logging this deep: vsnprintf alone wants kilobytes. */
        yield_status = lm_thread_yield(); /* a switch away, this deep */
        LMT_ST(lm_thread_stack_unused(lm_thread_self(), &unused_at_bottom), LM_OK);
    }
    sink += frame[0];
}

static void near(void *arg)
{
    (void)arg;
    descend();
    lmt_log("near:back");
}

/* docs/hosted.md "Stack overflow": a thread that uses its stack down to just
 * above the limit, and is switched out and in there, is not reported; its
 * watermark shows it really came that close. */
LMT_CASE(use_down_to_limit_not_reported)
{
    lmt_begin();
    lm_fatal_hook_set(unexpected_fatal);
    lm_thread_t *t = lmt_spawn("near", 5, near, NULL);
    lmt_spawn("other", 5, bystander, "other");
    const uint8_t *limit = lm_hosted_stack_limit(t);
    const uint8_t *bottom = t->stack;
    LMT_CHECK(limit >= bottom + 64 && limit < bottom + t->stack_size / 2u);
    floor_addr = (uintptr_t)limit + SWITCH_ROOM;
    yield_status = LM_ERR_STATE;
    lmt_run();
    /* "other" ran inside the yield at the bottom, and "near" came back. */
    LMT_ST(yield_status, LM_OK);
    lmt_expect("other near:back");
    /* The untouched bytes above the pattern end within reach of the limit:
     * below it, only the guard page's; above it, at most the switch room,
     * one descent step and a frame. */
    size_t to_limit = (size_t)(limit - bottom) - 64u;
    LMT_CHECK(unused_at_bottom >= to_limit);
    LMT_CHECK(unused_at_bottom <= to_limit + SWITCH_ROOM + 2048u);
    lm_fatal_hook_set(NULL);
}

LMT_MAIN(LMT_RUN(recursion_caught_by_guard_page), LMT_RUN(pattern_damage_caught_at_switch),
         LMT_RUN(use_down_to_limit_not_reported))

#else
/* The guard is the hosted port's; tests/target/test_stack_overflow.c covers
 * the Cortex-M port. */
int main(void)
{
    printf("1..0 # hosted port only\n");
    return 0;
}
#endif
