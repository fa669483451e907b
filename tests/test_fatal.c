/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fatal errors without a hook (limen/kernel.h, docs/porting.md "Stack
 * overflow and the fatal-error hook"): lm_fatal prints the reason's name,
 * where, and the running thread's name on the port's console (stderr on the
 * hosted port) before the port halts. Each case runs the fatal error in a
 * child process and reads what it wrote.
 *
 * Hosted port only. White-box for one case: lmk_fatal, the ports' way to report a thread
 * whose control block they no longer trust, names no thread.
 */
#include <signal.h>
#include <string.h>

#include "harness.h"
#include "lmk.h"

#include <sys/wait.h>
#include <unistd.h>

enum { ABORTED = 50, RETURNED = 51 };

/* The coverage build (no sanitizer) needs exit, not _exit, for its counters
 * to be written. Under AddressSanitizer, exit from a kernel thread would run
 * the leak check over memory the port's guard page has made inaccessible. */
#if defined(__SANITIZE_ADDRESS__)
#define CHILD_EXIT _exit
#else
#define CHILD_EXIT exit
#endif

static void on_abort(int sig)
{
    (void)sig;
    CHILD_EXIT(ABORTED);
}

static void on_abort_after_overflow(int sig)
{
    (void)sig;
    _exit(ABORTED); /* no exit work on a system whose stack overflowed */
}

/* Runs body() in a child with no fatal hook; returns its exit code, its
 * stderr in err. */
static int run_child(void (*body)(void), void (*abort_handler)(int), char *err, size_t n)
{
    int fds[2];
    LMT_EQ(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    LMT_CHECK(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        signal(SIGABRT, abort_handler);
        lmt_begin();
        lm_fatal_hook_set(NULL);
        body();
        exit(RETURNED);
    }
    close(fds[1]);
    size_t len = 0;
    for (;;) {
        ssize_t r = read(fds[0], err + len, n - 1u - len);
        if (r <= 0) {
            break;
        }
        len += (size_t)r;
    }
    err[len] = '\0';
    close(fds[0]);
    int status = 0;
    LMT_EQ(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || (WEXITSTATUS(status) != ABORTED && WEXITSTATUS(status) != RETURNED)) {
        fprintf(stderr, "# child's stderr:\n%s", err); /* its own failure report */
    }
    LMT_CHECK(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static char err[4096];

/* AddressSanitizer's notes ("==pid==WARNING: ...") are not the port's. */
static void drop_sanitizer_lines(char *s)
{
    char *out = s;
    for (const char *line = s; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) + 1u : strlen(line);
        if (strncmp(line, "==", 2) != 0) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
}

static void expect_err(const char *expected)
{
    drop_sanitizer_lines(err);
    if (strcmp(err, expected) != 0) {
        lmt_fail(__FILE__, __LINE__, "stderr was\n%s\nexpected\n%s", err, expected);
    }
}

/* ---- reason names ---- */

LMT_CASE(fatal_names)
{
    LMT_CHECK(strcmp(lm_fatal_name(LM_FATAL_ASSERT), "LM_FATAL_ASSERT") == 0);
    LMT_CHECK(strcmp(lm_fatal_name(LM_FATAL_STACK), "LM_FATAL_STACK") == 0);
    LMT_CHECK(strcmp(lm_fatal_name(LM_FATAL_PORT), "LM_FATAL_PORT") == 0);
    LMT_CHECK(strcmp(lm_fatal_name(LM_FATAL_FAULT), "LM_FATAL_FAULT") == 0);
    LMT_CHECK(strcmp(lm_fatal_name((lm_fatal_t)99), "LM_FATAL_?") == 0);
}

/* ---- a fatal error in a thread ---- */

static void fails(void *arg)
{
    (void)arg;
    lm_fatal(LM_FATAL_ASSERT, "here.c:12");
}

static void fatal_in_named_thread(void)
{
    lmt_spawn("worker", 3, fails, NULL);
    lmt_run();
}

static void fatal_in_unnamed_thread(void)
{
    lmt_spawn(NULL, 3, fails, NULL);
    lmt_run();
}

LMT_CASE(default_report_names_reason_place_and_thread)
{
    LMT_EQ(run_child(fatal_in_named_thread, on_abort, err, sizeof err), ABORTED);
    expect_err("limen: fatal error LM_FATAL_ASSERT at here.c:12, thread worker\n"
               "limen: fatal error, halting\n");
    LMT_EQ(run_child(fatal_in_unnamed_thread, on_abort, err, sizeof err), ABORTED);
    expect_err("limen: fatal error LM_FATAL_ASSERT at here.c:12, thread (unnamed)\n"
               "limen: fatal error, halting\n");
}

/* ---- no thread to name, no place ---- */

static void fatal_without_thread(void)
{
    lmk_fatal(LM_FATAL_STACK, "corrupted thread at 0x00001000", NULL);
}

static void fatal_without_place(void)
{
    lmk_fatal(LM_FATAL_PORT, NULL, NULL);
}

LMT_CASE(default_report_without_thread_or_place)
{
    LMT_EQ(run_child(fatal_without_thread, on_abort, err, sizeof err), ABORTED);
    expect_err("limen: fatal error LM_FATAL_STACK at corrupted thread at 0x00001000\n"
               "limen: fatal error, halting\n");
    LMT_EQ(run_child(fatal_without_place, on_abort, err, sizeof err), ABORTED);
    expect_err("limen: fatal error LM_FATAL_PORT at ?\n"
               "limen: fatal error, halting\n");
}

/* ---- a stack overflow: the first-day mistake ---- */

static volatile uint32_t sink;

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
    recurse(100000u); /* far beyond a 64 KiB stack */
}

static void overflow(void)
{
    lmt_spawn("deep", 3, deep, NULL);
    lmt_run();
}

LMT_CASE(default_report_names_an_overflowed_thread)
{
    if (!lm_hosted_stack_guard_page()) {
        printf("# default_report_names_an_overflowed_thread: no guard page, skipped\n");
        return;
    }
    LMT_EQ(run_child(overflow, on_abort_after_overflow, err, sizeof err), ABORTED);
    expect_err("limen: fatal error LM_FATAL_STACK at deep, thread deep\n"
               "limen: fatal error, halting\n");
}

/* ---- a hook replaces the report ---- */

static void quiet_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    (void)reason;
    (void)where;
    (void)t;
}

static void fatal_with_hook(void)
{
    lm_fatal_hook_set(quiet_hook);
    lm_fatal(LM_FATAL_ASSERT, "here.c:12");
}

LMT_CASE(hook_replaces_the_report)
{
    LMT_EQ(run_child(fatal_with_hook, on_abort, err, sizeof err), ABORTED);
    expect_err("limen: fatal error, halting\n");
}

LMT_MAIN(LMT_RUN(fatal_names), LMT_RUN(default_report_names_reason_place_and_thread),
         LMT_RUN(default_report_without_thread_or_place),
         LMT_RUN(default_report_names_an_overflowed_thread), LMT_RUN(hook_replaces_the_report))
