/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Limen test harness (hosted port).
 *
 * A test program is a list of cases. Each case starts from a fresh kernel
 * (lmt_begin), spawns threads, runs the simulation until nothing can happen
 * any more (lmt_run) and asserts the exact order of events as a string of
 * tokens (lmt_expect). Every failed check prints its case, file and line
 * and ends the program with status 1, so ctest reports it.
 *
 *     static void take(void *arg) { lm_sem_take(&s, LM_WAIT_FOREVER); lmt_log("Ht"); }
 *     LMT_CASE(wakes_waiter) { lmt_spawn("H", 1, take, NULL); ...; lmt_run();
 *                              lmt_expect("Ht Lg"); }
 */
#ifndef LMT_HARNESS_H
#define LMT_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "limen/limen.h"
#if defined(LM_PORT_HOSTED)
#include "limen/hosted.h"
#endif

/* A board with little RAM (microbit: 16 KiB) sets smaller figures through
 * LIMEN_TEST_DEFINITIONS (tests/target/CMakeLists.txt). */
#ifndef LMT_MAX_THREADS
#define LMT_MAX_THREADS 24
#endif
#if defined(LM_PORT_HOSTED)
#define LMT_STACK_BYTES (64u * 1024u) /* ASan frames and glibc (docs/hosted.md) */
#else
#ifndef LMT_STACK_BYTES
#define LMT_STACK_BYTES (4u * 1024u)
#endif
/* Provided by the target test support: watchdog on virtual time, fault
 * reporting. Called once before the first case. */
void lmt_target_init(void);
#endif

#if defined(LM_PORT_HOSTED)
/* For what does not return (lm_fatal): runs body() in a child process after
 * lmt_begin(), with `hook` as the fatal-error hook, and returns the child's
 * exit code; the case fails if a signal ended the child. The hook reports
 * by exiting with a code of the case's choosing; if body() returns, the
 * child exits with `if_returns`. */
int lmt_in_child(void (*body)(void), lm_fatal_hook_t hook, int if_returns);
#endif

/* Start a case: fresh kernel (tick origin 0), empty trace, no hooks. */
void lmt_begin(void);
/* As lmt_begin, with the tick counter starting at `origin`. */
void lmt_begin_at(lm_tick_t origin);

/* Create and start a thread with a harness stack. Fails the case on error. */
lm_thread_t *lmt_spawn(const char *name, unsigned prio, lm_thread_entry_t fn, void *arg);
/* Full control: threshold and time-slice; `start` false leaves it INACTIVE. */
lm_thread_t *lmt_spawn_ex(const char *name, unsigned prio, unsigned threshold,
                          lm_tick_t slice, lm_thread_entry_t fn, void *arg, bool start);

/* Run until the system is quiescent (or lm_hosted_stop()). */
void lmt_run(void);

/* Append one token to the trace (printf format; tokens are space separated). */
void lmt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Log every context switch as "from>to" tokens from now on. */
void lmt_trace_switches(bool on);
/* The trace so far. */
const char *lmt_trace(void);
/* Clear the trace. */
void lmt_trace_clear(void);

/* A status without its prefix, for trace tokens: "OK", "TIMEOUT", ... */
const char *lmt_sn(lm_status_t status);
/* The calling thread's name. */
const char *lmt_me(void);

/* Compare the trace with `expected` exactly. */
#define lmt_expect(expected) lmt_expect_at(__FILE__, __LINE__, (expected))
void lmt_expect_at(const char *file, int line, const char *expected);

#define LMT_CHECK(cond) \
    do { if (!(cond)) { lmt_fail(__FILE__, __LINE__, "check failed: %s", #cond); } } while (0)
#define LMT_EQ(a, b)                                                                   \
    do { long long lmt_a_ = (long long)(a), lmt_b_ = (long long)(b);                   \
         if (lmt_a_ != lmt_b_) {                                                       \
             lmt_fail(__FILE__, __LINE__, "%s == %ld, expected %s == %ld", #a, (long)lmt_a_, \
                      #b, (long)lmt_b_); } } while (0)
/* Status check that prints names: LMT_ST(lm_sem_take(&s, 0), LM_ERR_WOULD_BLOCK) */
#define LMT_ST(call, status)                                                          \
    do { lm_status_t lmt_s_ = (call);                                                 \
         if (lmt_s_ != (status)) {                                                    \
             lmt_fail(__FILE__, __LINE__, "%s returned %s, expected %s", #call,        \
                      lm_status_name(lmt_s_), lm_status_name(status)); } } while (0)

_Noreturn void lmt_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Cases: define with LMT_CASE(name) { ... } and list them in LMT_MAIN. */
typedef void (*lmt_case_fn)(void);
#define LMT_CASE(name) static void name(void)
struct lmt_case { const char *name; lmt_case_fn fn; };
#define LMT_RUN(name) { #name, name }
#define LMT_MAIN(...)                                                        \
    int main(void)                                                           \
    {                                                                        \
        static const struct lmt_case cases[] = {__VA_ARGS__};                \
        return lmt_main(cases, sizeof cases / sizeof cases[0]);              \
    }
int lmt_main(const struct lmt_case *cases, size_t n);

#endif
