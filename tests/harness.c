/* SPDX-License-Identifier: Apache-2.0 */
/* Limen test harness (see harness.h). */
#include <stdarg.h>
#include <string.h>
#include "harness.h"
#include "limen/port.h"
#if defined(LM_PORT_HOSTED)
#include <sys/wait.h>
#include <unistd.h>
#endif

#ifndef LMT_TRACE_BYTES
#define LMT_TRACE_BYTES (64u * 1024u)
#endif
#define TRACE_BYTES LMT_TRACE_BYTES

static lm_thread_t threads[LMT_MAX_THREADS];
static LM_STACK_DEFINE(stacks, (size_t)LMT_STACK_BYTES * LMT_MAX_THREADS);
static unsigned spawned;
static char trace[TRACE_BYTES];
static size_t trace_len;
static const char *case_name = "?";

_Noreturn void lmt_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL %s: %s:%d: ", case_name, file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  trace: %s\n", trace);
    fflush(stderr);
    exit(1);
}

void lmt_log(const char *fmt, ...)
{
    if (trace_len != 0u && trace_len + 1u < TRACE_BYTES) {
        trace[trace_len++] = ' ';
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(trace + trace_len, TRACE_BYTES - trace_len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= TRACE_BYTES - trace_len) {
        lmt_fail(__FILE__, __LINE__, "trace buffer full");
    }
    trace_len += (size_t)n;
}

const char *lmt_trace(void)
{
    return trace;
}

void lmt_trace_clear(void)
{
    trace_len = 0;
    trace[0] = '\0';
}

static void switch_logger(const lm_thread_t *from, const lm_thread_t *to)
{
    lmt_log("%s>%s", from != NULL ? lm_thread_name(from) : "-", lm_thread_name(to));
}

void lmt_trace_switches(bool on)
{
    if (lm_switch_hook_set(on ? switch_logger : NULL) != LM_OK) {
        lmt_fail(__FILE__, __LINE__, "switch hook compiled out (LM_CFG_SWITCH_HOOK 0)");
    }
}

#if !defined(LM_PORT_HOSTED)
/* On hardware nothing ends a run by itself: when the idle thread finds no
 * timeout armed, nothing is left to happen, so the case is over. */
static void stop_when_quiescent(void)
{
    if (lm_tick_next_deadline() == LM_WAIT_FOREVER) {
        lm_port_stop();
    }
}
#endif

void lmt_begin_at(lm_tick_t origin)
{
    memset(threads, 0, sizeof threads);
    spawned = 0;
    lmt_trace_clear();
    lm_kernel_init_tick(origin);
#if !defined(LM_PORT_HOSTED)
    lm_idle_hook_set(stop_when_quiescent);
#endif
}

void lmt_begin(void)
{
    lmt_begin_at(0);
}

#if defined(LM_PORT_HOSTED)
int lmt_in_child(void (*body)(void), lm_fatal_hook_t hook, int if_returns)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    LMT_CHECK(pid >= 0);
    if (pid == 0) {
        lmt_begin();
        lm_fatal_hook_set(hook);
        body();
        _exit(if_returns);
    }
    int status = 0;
    LMT_EQ(waitpid(pid, &status, 0), pid);
    LMT_CHECK(WIFEXITED(status));
    return WEXITSTATUS(status);
}
#endif

lm_thread_t *lmt_spawn_ex(const char *name, unsigned prio, unsigned threshold,
                          lm_tick_t slice, lm_thread_entry_t fn, void *arg, bool start)
{
    if (spawned == LMT_MAX_THREADS) {
        lmt_fail(__FILE__, __LINE__, "too many threads");
    }
    lm_thread_t *t = &threads[spawned];
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = name;
    a.entry = fn;
    a.arg = arg;
    a.stack = stacks + (size_t)LMT_STACK_BYTES * spawned;
    a.stack_size = LMT_STACK_BYTES;
    a.priority = (uint16_t)prio;
    a.threshold = (uint16_t)threshold;
    a.time_slice = slice;
    spawned++;
    LMT_ST(lm_thread_create(t, &a), LM_OK);
    if (start) {
        LMT_ST(lm_thread_start(t), LM_OK);
    }
    return t;
}

lm_thread_t *lmt_spawn(const char *name, unsigned prio, lm_thread_entry_t fn, void *arg)
{
    return lmt_spawn_ex(name, prio, LM_THRESHOLD_NONE, 0, fn, arg, true);
}

void lmt_run(void)
{
    lm_kernel_start();
}

const char *lmt_sn(lm_status_t status)
{
    const char *n = lm_status_name(status);
    return strncmp(n, "LM_ERR_", 7) == 0 ? n + 7 : n + 3;
}

const char *lmt_me(void)
{
    return lm_thread_name(lm_thread_self());
}

void lmt_expect_at(const char *file, int line, const char *expected)
{
    if (strcmp(trace, expected) != 0) {
        lmt_fail(file, line, "trace differs\n  expected: %s", expected);
    }
}

int lmt_main(const struct lmt_case *cases, size_t n)
{
#if !defined(LM_PORT_HOSTED)
    lmt_target_init();
#endif
    for (size_t i = 0; i < n; i++) {
        case_name = cases[i].name;
        cases[i].fn();
        printf("ok %u - %s\n", (unsigned)(i + 1u), cases[i].name);
    }
    printf("%u passed, 0 failed\n", (unsigned)n); /* newlib-nano has no %zu */
    return 0;
}
