/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cases for the kernel paths the behaviour tests of the other programs do
 * not reach (docs/coverage.md lists what is still uncovered and why). Each
 * case asserts the behaviour on that path: exact statuses, orders and state,
 * not just that the code ran.
 */
#include <string.h>
#include "harness.h"
#if defined(LM_PORT_HOSTED)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

/* Objects are static (docs/hosted.md "Ending a run"): each case clears the
 * ones it uses before creating them. */
static lm_mutex_t m1, m2;
static lm_flags_t flags;
static lm_thread_t *th[4];
#if defined(LM_PORT_HOSTED)
static lm_sem_t sem;
static lm_timer_t tm_a, tm_b, tm_c;
#endif

/* docs/errors.md: every status has its constant's name; a value outside the
 * enumeration gets a placeholder instead of a wild pointer. */
LMT_CASE(status_names)
{
    static const struct { lm_status_t st; const char *name; } all[] = {
        {LM_OK, "LM_OK"},
        {LM_ERR_TIMEOUT, "LM_ERR_TIMEOUT"},
        {LM_ERR_DELETED, "LM_ERR_DELETED"},
        {LM_ERR_WOULD_BLOCK, "LM_ERR_WOULD_BLOCK"},
        {LM_ERR_ABORTED, "LM_ERR_ABORTED"},
        {LM_ERR_ABANDONED, "LM_ERR_ABANDONED"},
        {LM_ERR_OVERFLOW, "LM_ERR_OVERFLOW"},
        {LM_ERR_DEADLOCK, "LM_ERR_DEADLOCK"},
        {LM_ERR_PARAM, "LM_ERR_PARAM"},
        {LM_ERR_OBJECT, "LM_ERR_OBJECT"},
        {LM_ERR_PRIORITY, "LM_ERR_PRIORITY"},
        {LM_ERR_ISR, "LM_ERR_ISR"},
        {LM_ERR_NOT_OWNER, "LM_ERR_NOT_OWNER"},
        {LM_ERR_STATE, "LM_ERR_STATE"},
        {LM_ERR_LOCKED, "LM_ERR_LOCKED"},
        {LM_ERR_SIZE, "LM_ERR_SIZE"},
        {LM_ERR_INIT, "LM_ERR_INIT"},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(lm_status_name(all[i].st), all[i].name) != 0) {
            lmt_fail(__FILE__, __LINE__, "lm_status_name(%d) is %s, expected %s",
                     (int)all[i].st, lm_status_name(all[i].st), all[i].name);
        }
    }
    LMT_CHECK(strcmp(lm_status_name((lm_status_t)-8), "LM_ERR_?") == 0);
    LMT_CHECK(strcmp(lm_status_name((lm_status_t)1), "LM_ERR_?") == 0);
}

static void name_probe(void *arg)
{
    (void)arg;
    lm_kernel_stats_t before, after;
    lm_kernel_stats(&before);
    lm_kernel_stats(NULL); /* ignored: nothing to write, nothing changes */
    lm_kernel_stats(&after);
    LMT_CHECK(memcmp(&before, &after, sizeof before) == 0);
    lmt_log("[%s]", lm_thread_name(lm_thread_self()));
}

/* limen/thread.h: a thread created without a name is named "" (never
 * NULL, so logs can print it); NULL outputs of the set-up calls are ignored.
 * R11.1: the created thread runs from its entry once started. */
LMT_CASE(unnamed_thread_and_null_outputs)
{
    lmt_begin();
    lm_thread_attr_init(NULL); /* must not write through NULL */
    lmt_spawn(NULL, 3, name_probe, NULL);
    LMT_CHECK(strcmp(lm_thread_name(lm_thread_self()), "idle") == 0);
    lmt_run();
    lmt_expect("[]");
}

static void log_self(void *arg)
{
    (void)arg;
    lmt_log("%s:%u", lmt_me(), lm_thread_priority(lm_thread_self()));
}

/* R4.2, R2.2, R11.1: a priority changed before lm_kernel_start moves a
 * started (ready) thread to the tail of its new priority, so the first
 * thread chosen and the order follow the new priorities. R4.5, R3.2: its
 * threshold follows, and a threshold set before the start holds (A runs
 * before the more urgent C only if it is already running; here it is not,
 * so priority alone decides, R3.5). */
LMT_CASE(priorities_changed_before_start)
{
    lmt_begin();
    lm_thread_t *a = lmt_spawn("A", 5, log_self, NULL);
    lm_thread_t *b = lmt_spawn("B", 6, log_self, NULL);
    lm_thread_t *c = lmt_spawn("C", 6, log_self, NULL);
    LMT_ST(lm_thread_set_priority(c, 5), LM_OK); /* behind A */
    LMT_ST(lm_thread_set_priority(b, 2), LM_OK); /* first */
    LMT_ST(lm_thread_set_threshold(a, 1), LM_OK);
    LMT_EQ(lm_thread_priority(b), 2);
    LMT_EQ(lm_thread_threshold(b), 2);
    LMT_EQ(lm_thread_threshold(a), 1);
    LMT_EQ(lm_thread_state(b), LM_THREAD_READY);
    LMT_CHECK(!lm_kernel_running());
    lmt_run();
    lmt_expect("B:2 A:5 C:5");
}

static void flags_waiter(void *arg)
{
    uint32_t seen = 0;
    /* W1 passes no output: the wait still consumes and reports LM_OK. */
    uint32_t *out = (arg != NULL) ? &seen : NULL;
    lm_status_t st = lm_flags_wait(&flags, 0x1u, LM_FLAGS_CONSUME, out, LM_WAIT_FOREVER);
    if (out != NULL) {
        lmt_log("%s:%s:%x:%u", lmt_me(), lmt_sn(st), (unsigned)seen,
                lm_thread_priority(lm_thread_self()));
    } else {
        lmt_log("%s:%s:%u", lmt_me(), lmt_sn(st), lm_thread_priority(lm_thread_self()));
    }
}

static void flags_controller(void *arg)
{
    (void)arg;
    uint32_t bits = 0;
    /* Both wait: W1 arrived first. W2 becomes more urgent while waiting. */
    LMT_ST(lm_thread_set_priority(th[1], 1), LM_OK);
    LMT_EQ(lm_thread_state(th[1]), LM_THREAD_BLOCKED);
    LMT_ST(lm_flags_set(&flags, 0x1u), LM_OK); /* W1 consumes it, preempts */
    LMT_ST(lm_flags_get(&flags, &bits), LM_OK);
    lmt_log("K:%x:%d", (unsigned)bits, (int)lm_thread_state(th[1]));
    LMT_ST(lm_flags_set(&flags, 0x3u), LM_OK); /* W2 now */
    LMT_ST(lm_flags_get(&flags, &bits), LM_OK);
    lmt_log("K:%x", (unsigned)bits);
}

/* R10.1, R9.3: flags waiters are checked in arrival order, and a priority
 * change while waiting does not reorder them (the flags list is not a
 * priority queue, R10.6), so the earlier, now less urgent W1 consumes the
 * bit. R10.1: the reported flags are those before the waiter's own
 * consumption; a waiter without an output still consumes. R4.3 for flags. */
LMT_CASE(flags_waiter_keeps_arrival_order_after_priority_change)
{
    lmt_begin();
    memset(&flags, 0, sizeof flags);
    LMT_ST(lm_flags_create(&flags, 0), LM_OK);
    th[0] = lmt_spawn("W1", 5, flags_waiter, NULL);
    th[1] = lmt_spawn("W2", 6, flags_waiter, &flags);
    th[2] = lmt_spawn("K", 7, flags_controller, NULL);
    lmt_run();
    char expected[96];
    snprintf(expected, sizeof expected, "W1:OK:5 K:0:%d W2:OK:3:1 K:2", (int)LM_THREAD_BLOCKED);
    lmt_expect(expected);
}

static void chain_t0(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&m2, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_sleep(20), LM_OK);
    lmt_log("T0:%u", lm_thread_priority(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(&m2), LM_OK);
}

static void chain_t1(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(&m1, LM_NO_WAIT), LM_OK);
    lm_status_t st = lm_mutex_lock(&m2, 5); /* m2 does not inherit */
    lmt_log("T1:%s:%u", lmt_sn(st), lm_thread_priority(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(&m1), LM_OK); /* H takes m1 and preempts */
    lmt_log("T1:%u", lm_thread_priority(lm_thread_self()));
}

static void chain_h(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_mutex_lock(&m1, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H:%u", (unsigned)lm_tick_now());
    LMT_ST(lm_mutex_unlock(&m1), LM_OK);
}

static void chain_observer(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(3), LM_OK);
    lmt_log("O:%u,%u", lm_thread_priority(th[1]), lm_thread_priority(th[0]));
}

/* R5.2, R5.3: H waiting on the inheriting m1 raises its owner T1, but the
 * chain stops at T1's wait on m2, which does not inherit: T0 keeps its
 * priority. R8.4, R5.4: T1's wait on m2 times out; leaving a mutex that
 * does not inherit changes nobody's priority, and T1 keeps what m1 lends it
 * until it unlocks m1, which passes to H (R5.5). */
LMT_CASE(inheritance_stops_at_non_inheriting_mutex)
{
    lmt_begin();
    memset(&m1, 0, sizeof m1);
    memset(&m2, 0, sizeof m2);
    LMT_ST(lm_mutex_create(&m1, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_mutex_create(&m2, 0), LM_OK);
    th[0] = lmt_spawn("T0", 5, chain_t0, NULL);
    th[1] = lmt_spawn("T1", 3, chain_t1, NULL);
    th[2] = lmt_spawn("H", 1, chain_h, NULL);
    th[3] = lmt_spawn("O", 0, chain_observer, NULL);
    lmt_run();
    lmt_expect("O:1,5 T1:TIMEOUT:1 H:6 T1:3 T0:5");
}

static void del_w1(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    lm_status_t st = lm_mutex_lock(&m2, LM_WAIT_FOREVER);
    lmt_log("W1:%s", lmt_sn(st));
    /* W2 owns m1 and still waits on the deleted m2, whose owner is gone:
     * no cycle (R5.7), so W1 waits, and W2 inherits W1's priority even
     * though the chain beyond it ends at an ownerless mutex (R5.3). */
    st = lm_mutex_lock(&m1, LM_WAIT_FOREVER);
    lmt_log("W1:m1:%s", lmt_sn(st));
    LMT_ST(lm_mutex_unlock(&m1), LM_OK);
}

static void del_w2(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&m1, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_sleep(1), LM_OK);
    lm_status_t st = lm_mutex_lock(&m2, LM_WAIT_FOREVER);
    lmt_log("W2:%s:%u", lmt_sn(st), lm_thread_priority(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(&m1), LM_OK); /* to W1, who preempts */
    lmt_log("W2:%u", lm_thread_priority(lm_thread_self()));
}

static void del_d(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&m2, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_sleep(2), LM_OK);
    lmt_log("D:%u", lm_thread_priority(lm_thread_self())); /* inherits W1's 1 */
    LMT_ST(lm_mutex_delete(&m2), LM_OK);
    lmt_log("D:%u", lm_thread_priority(lm_thread_self()));
}

/* R9.1, R5.8: deleting m2 takes it from D (back to its own priority) and
 * wakes the waiters one per step, most urgent first; between the steps the
 * woken W1 runs while W2 still waits on the deleted, ownerless m2. W1's
 * lock of m1 (owned by W2) is not a deadlock (R5.7) and raises W2 (R5.2);
 * W2 is then woken by the next step at its raised priority and hands m1
 * to W1 (R5.5), dropping back (R5.4). */
LMT_CASE(mutex_delete_steps_with_a_waiter_chain)
{
    lmt_begin();
    memset(&m1, 0, sizeof m1);
    memset(&m2, 0, sizeof m2);
    LMT_ST(lm_mutex_create(&m1, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_mutex_create(&m2, LM_MUTEX_INHERIT), LM_OK);
    th[0] = lmt_spawn("W1", 1, del_w1, NULL);
    th[1] = lmt_spawn("W2", 2, del_w2, NULL);
    th[2] = lmt_spawn("D", 3, del_d, NULL);
    lmt_run();
    lmt_expect("D:1 W1:DELETED W2:DELETED:1 W1:m1:OK W2:2 D:3");
    LMT_CHECK(lm_mutex_owner(&m1) == NULL);
}

#if defined(LM_PORT_HOSTED)
static void locked_sleeper(void *arg)
{
    (void)arg;
    lm_status_t st = lm_thread_sleep(2);
    lmt_log("S:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
}

static void locked_worker(void *arg)
{
    (void)arg;
    LMT_ST(lm_sched_lock(), LM_OK);
    lm_hosted_work(4); /* S's sleep runs out at tick 2, under the lock */
    lmt_log("T:%d@%u", (int)lm_thread_state(th[0]), (unsigned)lm_tick_now());
    LMT_ST(lm_sched_unlock(), LM_OK); /* S runs at once */
    lm_thread_stats_t ts;
    LMT_ST(lm_thread_stats(lm_thread_self(), &ts), LM_OK);
    lmt_log("T:%u", (unsigned)ts.preemptions);
}

/* R9.4, R6.2: a timeout that falls due while a thread holds the scheduler
 * lock is processed (S is ready at once) but the holder keeps the CPU; S
 * runs at the outermost unlock, which counts as a preemption (R7.2). */
LMT_CASE(timeout_expiry_under_scheduler_lock)
{
    lmt_begin();
    th[0] = lmt_spawn("S", 2, locked_sleeper, NULL);
    th[1] = lmt_spawn("T", 5, locked_worker, NULL);
    lmt_run();
    char expected[64];
    snprintf(expected, sizeof expected, "T:%d@4 S:OK@4 T:1", (int)LM_THREAD_READY);
    lmt_expect(expected);
}

static void threshold_isr(void *arg)
{
    LMT_ST(lm_thread_set_threshold((lm_thread_t *)arg, LM_THRESHOLD_NONE), LM_OK);
    lmt_log("isr");
}

static void yielder(void *arg)
{
    (void)arg;
    /* The interrupt comes at the unmask that ends the relinquish, before
     * the switch it asked for. */
    LMT_EQ(lm_hosted_irq_at_unmask(1, threshold_isr, lm_thread_self()), 0);
    LMT_ST(lm_thread_yield(), LM_OK);
    lmt_log("T:%u", lm_thread_threshold(lm_thread_self()));
}

static void peer(void *arg)
{
    (void)arg;
    lmt_log("P");
}

/* R2.3, R3.3, R4.6: a threshold change by a handler between a relinquish
 * and its switch does not cancel the relinquish: the peer runs first. */
LMT_CASE(threshold_change_between_yield_and_switch)
{
    lmt_begin();
    lmt_spawn_ex("T", 4, 2, 0, yielder, NULL, true);
    lmt_spawn("P", 4, peer, NULL);
    lmt_trace_switches(true);
    lmt_run();
    lmt_expect("->T isr T>P P P>T T:4 T>idle");
}

static void tick_isr_work(void *arg)
{
    (void)arg;
    lm_hosted_work(1); /* the handler takes a tick: announced after it returns, before the switch */
    lmt_log("isr@%u", (unsigned)lm_tick_now());
}

static void sliced_taker(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_unmask(1, tick_isr_work, NULL), 0);
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lm_kernel_stats_t ks;
    lm_kernel_stats(&ks);
    lmt_log("T:%s:%u", lmt_sn(st), (unsigned)ks.slice_expiries);
    lm_hosted_work(1); /* a tick it does spend running: its 1-tick slice ends */
    lm_kernel_stats(&ks);
    lm_thread_stats_t ts;
    LMT_ST(lm_thread_stats(lm_thread_self(), &ts), LM_OK);
    lmt_log("T:%u:%u", (unsigned)ks.slice_expiries, (unsigned)ts.slice_expiries);
}

static void sem_giver(void *arg)
{
    (void)arg;
    lmt_log("G@%u", (unsigned)lm_tick_now());
    LMT_ST(lm_sem_give(&sem), LM_OK);
}

/* R2.4: a time-slice counts only ticks the thread spends running. A tick
 * that arrives after T blocked but before the switch away from it is not
 * charged to T: no expiry is counted, and T (in no ready queue) is left
 * alone. R2.6: woken, it has a full slice, which its next tick ends. */
LMT_CASE(tick_between_block_and_switch_is_not_charged)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lmt_spawn_ex("T", 3, LM_THRESHOLD_NONE, 1, sliced_taker, NULL, true);
    lmt_spawn("G", 4, sem_giver, NULL);
    lmt_run();
    lmt_expect("isr@0 G@1 T:OK:0 T:1:1");
}

static unsigned idle_calls;

static void yielding_idle_hook(void)
{
    if (idle_calls++ != 0u) {
        return;
    }
    LMT_CHECK(strcmp(lmt_me(), "idle") == 0);
    lm_status_t st = lm_thread_yield();
    lmt_log("idle:%s:%s", lmt_sn(st), lmt_me());
}

static void quick(void *arg)
{
    (void)arg;
    lmt_log("Q");
}

/* R2.3: relinquishing with no thread to give the CPU to continues without a
 * context switch; from the idle hook (the idle thread is in no ready queue,
 * R1.1) it returns LM_OK and the idle thread goes on. */
LMT_CASE(yield_from_idle_hook)
{
    lmt_begin();
    idle_calls = 0;
    lmt_spawn("Q", 3, quick, NULL);
    lm_idle_hook_set(yielding_idle_hook);
    lmt_trace_switches(true);
    lmt_run();
    lm_idle_hook_set(NULL);
    lmt_expect("->Q Q Q>idle idle:OK:idle");
    LMT_CHECK(idle_calls >= 1u);
}

static void timer_a(void *arg)
{
    (void)arg;
    /* B falls due on this tick too and is not processed yet. */
    lm_tick_t next = lm_tick_next_deadline();
    LMT_ST(lm_timer_start(&tm_c, 3, 0), LM_OK);
    lmt_log("A@%u:%u", (unsigned)lm_tick_now(), (unsigned)next);
}

static void timer_log(void *arg)
{
    lmt_log("%s@%u", (const char *)arg, (unsigned)lm_tick_now());
}

static void timer_starter(void *arg)
{
    (void)arg;
    LMT_ST(lm_timer_start(&tm_a, 10, 0), LM_OK);
    LMT_ST(lm_timer_start(&tm_b, 10, 0), LM_OK);
    LMT_EQ(lm_tick_next_deadline(), 10);
}

/* R8.5, R9.5: timers due on one tick fire in arming order, one per step;
 * a callback that starts another timer while the rest of its tick is still
 * pending arms it for its own slot (3 ticks later, not with the pending
 * ones). kernel.h: lm_tick_next_deadline is never late: with B due and not
 * yet processed it is 0. */
LMT_CASE(timer_started_from_callback_while_tick_pending)
{
    lmt_begin();
    memset(&tm_a, 0, sizeof tm_a);
    memset(&tm_b, 0, sizeof tm_b);
    memset(&tm_c, 0, sizeof tm_c);
    LMT_ST(lm_timer_create(&tm_a, timer_a, NULL), LM_OK);
    LMT_ST(lm_timer_create(&tm_b, timer_log, (void *)"B"), LM_OK);
    LMT_ST(lm_timer_create(&tm_c, timer_log, (void *)"C"), LM_OK);
    lmt_spawn("S", 3, timer_starter, NULL);
    lmt_run();
    lmt_expect("A@10:0 B@10 C@13");
}

/* ---- lm_fatal, in child processes (it does not return) ---- */

enum { FATAL_OK = 40, FATAL_BAD_ARGS = 41, FATAL_RETURNED = 42, FATAL_ABORTED = 43 };

static void fatal_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    /* exit, not _exit: the child's normal exit work (coverage counters
     * included) runs; nothing here overflowed a stack. */
    bool ok = reason == LM_FATAL_ASSERT && where != NULL && strcmp(where, "cov:1") == 0 &&
              t == lm_thread_self();
    exit(ok ? FATAL_OK : FATAL_BAD_ARGS);
}

static void on_abort(int sig)
{
    (void)sig;
    exit(FATAL_ABORTED);
}

/* Runs lm_fatal in a child with `hook`; returns its exit code, and its
 * stderr in err. */
static int fatal_child(lm_fatal_hook_t hook, char *err, size_t errlen)
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
        signal(SIGABRT, on_abort);
        lmt_begin();
        lm_fatal_hook_set(hook);
        lm_fatal(LM_FATAL_ASSERT, "cov:1");
    }
    close(fds[1]);
    int status = 0;
    LMT_EQ(waitpid(pid, &status, 0), pid);
    ssize_t n = read(fds[0], err, errlen - 1u);
    err[n > 0 ? (size_t)n : 0u] = '\0';
    close(fds[0]);
    LMT_CHECK(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void returning_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    (void)reason;
    (void)where;
    (void)t;
}

/* limen/kernel.h: lm_fatal passes reason, place and the running thread to
 * the hook; if there is no hook, or the hook returns, the port halts (the
 * hosted port prints a line and aborts). */
LMT_CASE(fatal_reaches_hook_or_halts)
{
    char err[256];
    LMT_EQ(fatal_child(fatal_hook, err, sizeof err), FATAL_OK);
    LMT_EQ(fatal_child(NULL, err, sizeof err), FATAL_ABORTED);
    LMT_CHECK(strstr(err, "limen: fatal error, halting") != NULL);
    LMT_EQ(fatal_child(returning_hook, err, sizeof err), FATAL_ABORTED);
    LMT_CHECK(strstr(err, "limen: fatal error, halting") != NULL);
    lm_fatal_hook_set(NULL);
}
#endif /* LM_PORT_HOSTED */

/* Directives may not appear inside a macro's arguments: one list each way. */
#if defined(LM_PORT_HOSTED)
LMT_MAIN(LMT_RUN(status_names),
         LMT_RUN(unnamed_thread_and_null_outputs),
         LMT_RUN(priorities_changed_before_start),
         LMT_RUN(flags_waiter_keeps_arrival_order_after_priority_change),
         LMT_RUN(inheritance_stops_at_non_inheriting_mutex),
         LMT_RUN(mutex_delete_steps_with_a_waiter_chain),
         LMT_RUN(timeout_expiry_under_scheduler_lock),
         LMT_RUN(threshold_change_between_yield_and_switch),
         LMT_RUN(tick_between_block_and_switch_is_not_charged),
         LMT_RUN(yield_from_idle_hook),
         LMT_RUN(timer_started_from_callback_while_tick_pending),
         LMT_RUN(fatal_reaches_hook_or_halts))
#else
LMT_MAIN(LMT_RUN(status_names),
         LMT_RUN(unnamed_thread_and_null_outputs),
         LMT_RUN(priorities_changed_before_start),
         LMT_RUN(flags_waiter_keeps_arrival_order_after_priority_change),
         LMT_RUN(inheritance_stops_at_non_inheriting_mutex),
         LMT_RUN(mutex_delete_steps_with_a_waiter_chain))
#endif
