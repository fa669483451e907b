/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scheduler: priorities, ready-queue order, relinquish, preemption-threshold,
 * priority and threshold changes, the scheduler lock and the kernel's
 * preemption / context-switch counters (docs/rules.md R1-R4, R6, R7).
 * Time-slices are in test_timeslice.c.
 *
 * Cases that need the hosted port's simulated interrupts or virtual time are
 * inside LM_PORT_HOSTED blocks; the rest also run on the boards.
 */
#include <string.h>
#include "harness.h"

/* ---- shared helpers ---- */

static lm_sem_t sem_a, sem_b, sem_c, sem_go;
static lm_mutex_t mtx;
static lm_thread_t *t_a, *t_b, *t_c, *t_d, *t_e, *t_f, *t_h;

/* Control blocks of an earlier case are stale: zero before creating. */
static void sem_new(lm_sem_t *s, uint32_t initial)
{
    memset(s, 0, sizeof *s);
    LMT_ST(lm_sem_create(s, initial, 100u), LM_OK);
}

/* Counter deltas between a snapshot taken by the thread that stops running
 * and the thread that runs next: "sw<switches>/pre<preemptions>/exp<slice
 * expiries>". */
static lm_kernel_stats_t snap;

static void snap_take(void)
{
    lm_kernel_stats(&snap);
}

static void snap_log(void)
{
    lm_kernel_stats_t now;
    lm_kernel_stats(&now);
    lmt_log("sw%u/pre%u/exp%u", (unsigned)(now.context_switches - snap.context_switches),
            (unsigned)(now.preemptions - snap.preemptions),
            (unsigned)(now.slice_expiries - snap.slice_expiries));
}

static lm_thread_stats_t tstats(const lm_thread_t *t)
{
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(t, &s), LM_OK);
    return s;
}

static lm_kernel_stats_t kstats(void)
{
    lm_kernel_stats_t s;
    lm_kernel_stats(&s);
    return s;
}

/* Logs its name and ends. */
static void log_name(void *arg)
{
    (void)arg;
    lmt_log("%s", lmt_me());
}

/* Logs the counter deltas since snap_take() and ends. */
static void log_delta(void *arg)
{
    (void)arg;
    snap_log();
}

/* Waits on the semaphore in arg, then logs its name. */
static void take_then_log(void *arg)
{
    LMT_ST(lm_sem_take((lm_sem_t *)arg, LM_WAIT_FOREVER), LM_OK);
    lmt_log("%s", lmt_me());
}

#if defined(LM_PORT_HOSTED)
/* Waits on the semaphore in arg, then logs the counter deltas since
 * snap_take() (how it came to run). */
static void take_then_delta(void *arg)
{
    LMT_ST(lm_sem_take((lm_sem_t *)arg, LM_WAIT_FOREVER), LM_OK);
    snap_log();
}
#endif

/* ---- R1: priorities and the ready queue ---- */

/* R1.1, R1.2, R1.4: the most urgent ready thread runs, equals in the order
 * they became ready, idle last; no preemption, one switch per change. */
LMT_CASE(r1_most_urgent_first_then_fifo)
{
    lmt_begin();
    lmt_spawn("L1", 6, log_name, NULL);
    lmt_spawn("M1", 3, log_name, NULL);
    lmt_spawn("H", 1, log_name, NULL);
    lmt_spawn("M2", 3, log_name, NULL);
    lmt_spawn("L2", 6, log_name, NULL);
    lmt_spawn("M3", 3, log_name, NULL);
    lmt_trace_switches(true);
    lmt_run();
    lmt_expect("->H H H>M1 M1 M1>M2 M2 M2>M3 M3 M3>L1 L1 L1>L2 L2 L2>idle");
    lm_kernel_stats_t k = kstats();
    /* lm_kernel_start choosing H is not counted (here and below). */
    LMT_EQ(k.context_switches, 6);
    LMT_EQ(k.preemptions, 0);
    LMT_EQ(k.slice_expiries, 0);
}

#define MANY 20
static char many_names[MANY][8];

static void many_body(void *arg)
{
    (void)arg;
    for (int round = 0; round < 2; round++) {
        lmt_log("%s.%d", lmt_me(), round);
        LMT_ST(lm_thread_yield(), LM_OK);
    }
}

/* R1.1, R1.4, R2.3: twenty threads share one priority; relinquish cycles
 * through all of them in FIFO order, twice. */
LMT_CASE(r1_many_threads_one_priority)
{
    lmt_begin();
    lm_thread_t *ts[MANY];
    for (int i = 0; i < MANY; i++) {
        snprintf(many_names[i], sizeof many_names[i], "T%d", i);
        ts[i] = lmt_spawn(many_names[i], 7, many_body, NULL);
    }
    lmt_run();
    char expected[MANY * 2 * 8];
    size_t len = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < MANY; i++) {
            int n = snprintf(expected + len, sizeof expected - len, "%sT%d.%d",
                             len != 0u ? " " : "", i, round);
            LMT_CHECK(n > 0);
            len += (size_t)n;
        }
    }
    lmt_expect(expected);
    lm_kernel_stats_t k = kstats();
    /* 20 switches per round of yields, 20 more as each one ends. */
    LMT_EQ(k.context_switches, 3 * MANY);
    LMT_EQ(k.preemptions, 0);
    for (int i = 0; i < MANY; i++) {
        LMT_EQ(tstats(ts[i]).switches_in, 3);
        LMT_EQ(tstats(ts[i]).preemptions, 0);
    }
}

static void wake_bca(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem_go, LM_WAIT_FOREVER), LM_OK);
    /* More urgent than the waiters: they queue up without running. */
    LMT_ST(lm_sem_give(&sem_b), LM_OK);
    LMT_ST(lm_sem_give(&sem_c), LM_OK);
    LMT_ST(lm_sem_give(&sem_a), LM_OK);
    lmt_log("ctl");
}

static void z_body(void *arg)
{
    (void)arg;
    lmt_log("Z0");
    LMT_ST(lm_sem_give(&sem_go), LM_OK);
    lmt_log("Z1");
}

/* R1.4, R2.2: threads of one priority made ready in the order B, C, A run
 * in that order, not in creation or blocking order. */
LMT_CASE(r1_ready_order_is_wake_order)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    sem_new(&sem_b, 0);
    sem_new(&sem_c, 0);
    sem_new(&sem_go, 0);
    lmt_spawn("ctl", 2, wake_bca, NULL);
    lmt_spawn("A", 4, take_then_log, &sem_a);
    lmt_spawn("B", 4, take_then_log, &sem_b);
    lmt_spawn("C", 4, take_then_log, &sem_c);
    lmt_spawn("Z", 5, z_body, NULL);
    lmt_run();
    lmt_expect("Z0 ctl B C A Z1");
}

/* ---- R2: made ready, relinquish ---- */

static void self_suspend_then_log(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_suspend(lm_thread_self()), LM_OK);
    lmt_log("%s", lmt_me());
}

static void r2_2_a(void *arg)
{
    (void)arg;
    lmt_log("A0");
    snap_take();
    LMT_ST(lm_thread_start(t_b), LM_OK);  /* started */
    LMT_ST(lm_sem_give(&sem_a), LM_OK);   /* woken */
    LMT_ST(lm_thread_resume(t_f), LM_OK); /* resumed */
    lmt_log("A1");
    snap_log(); /* none of the three equals preempted A */
}

/* R2.2: started, woken and resumed threads of the running thread's priority
 * join the tail (behind D, already ready) and never preempt. */
LMT_CASE(r2_2_made_ready_joins_tail_no_preemption)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    lmt_spawn("E", 4, take_then_log, &sem_a);
    t_f = lmt_spawn("F", 4, self_suspend_then_log, NULL);
    lmt_spawn("A", 4, r2_2_a, NULL);
    lmt_spawn("D", 4, log_name, NULL);
    t_b = lmt_spawn_ex("B", 4, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    lmt_expect("A0 A1 sw0/pre0/exp0 D B E F");
    LMT_EQ(kstats().preemptions, 0);
}

static void rr_body(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        lmt_log("%s%d", lmt_me(), i);
        LMT_ST(lm_thread_yield(), LM_OK);
    }
}

/* R2.3, R7.2: relinquish round-robin among equals; not a preemption. */
LMT_CASE(r2_3_yield_round_robin)
{
    lmt_begin();
    t_a = lmt_spawn("A", 4, rr_body, NULL);
    lmt_spawn("B", 4, rr_body, NULL);
    lmt_spawn("C", 4, rr_body, NULL);
    lmt_spawn("L", 9, log_name, NULL);
    lmt_run();
    lmt_expect("A0 B0 C0 A1 B1 C1 A2 B2 C2 L");
    lm_kernel_stats_t k = kstats();
    LMT_EQ(k.context_switches, 13); /* 9 yields, 3 ends to a peer or L, L to idle */
    LMT_EQ(k.preemptions, 0);
    LMT_EQ(k.slice_expiries, 0);
    LMT_EQ(tstats(t_a).switches_in, 4); /* start + once back from each yield */
    LMT_EQ(tstats(t_a).preemptions, 0);
}

static void yield_alone(void *arg)
{
    (void)arg;
    lmt_log("A0");
    snap_take();
    LMT_ST(lm_thread_yield(), LM_OK);
    snap_log();
    LMT_EQ(tstats(lm_thread_self()).switches_in, 1);
    lmt_log("A1");
}

/* R2.3: relinquish with no peer continues without a switch, even though a
 * less urgent thread is ready. */
LMT_CASE(r2_3_yield_without_peer_continues)
{
    lmt_begin();
    lmt_spawn("A", 4, yield_alone, NULL);
    lmt_spawn("L", 9, log_name, NULL);
    lmt_run();
    lmt_expect("A0 sw0/pre0/exp0 A1 L");
}

/* ---- R3: preemption-threshold ---- */

static void r3_1_a(void *arg)
{
    (void)arg;
    lmt_log("A0");
    LMT_ST(lm_thread_start(t_b), LM_OK); /* prio 4: more urgent than T, preempts */
    lmt_log("A1");
    LMT_ST(lm_thread_start(t_d), LM_OK); /* prio 6: less urgent than T=5 */
    LMT_ST(lm_thread_start(t_c), LM_OK); /* prio 5: exactly at T, held back */
    lmt_log("A2");
}

/* R3.1: with priority 10 and threshold 5, a thread at 4 preempts, one at 5
 * (and one at 6) does not; the held-back ones run, by priority, when A ends.
 * (Which thread runs when a preemptor ends while A and a held-back thread
 * are ready is not asserted here; see r3_1_preempted_thread_keeps_threshold.) */
LMT_CASE(r3_1_threshold_boundary)
{
    lmt_begin();
    t_a = lmt_spawn_ex("A", 10, 5, 0, r3_1_a, NULL, true);
    t_b = lmt_spawn_ex("T4", 4, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    t_c = lmt_spawn_ex("T5", 5, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    t_d = lmt_spawn_ex("T6", 6, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_trace_switches(true);
    lmt_run();
    lmt_expect("->A A0 A>T4 T4 T4>A A1 A2 A>T5 T5 T5>T6 T6 T6>idle");
    LMT_EQ(kstats().preemptions, 1);
    LMT_EQ(tstats(t_a).preemptions, 1);
}

static void r3_1_keeps(void *arg)
{
    (void)arg;
    lmt_log("A0");
    LMT_ST(lm_thread_start(t_d), LM_OK); /* T6, held back */
    LMT_ST(lm_thread_start(t_c), LM_OK); /* T5, held back */
    lmt_log("A1");
    LMT_ST(lm_thread_start(t_b), LM_OK); /* T4 preempts */
    lmt_log("A2");
}

/* R3.6: a thread preempted by one more urgent than its threshold keeps its
 * threshold until it runs again, so T5 and T6 (held back) do not run
 * before A when T4 ends. */
LMT_CASE(r3_1_preempted_thread_keeps_threshold)
{
    lmt_begin();
    lmt_spawn_ex("A", 10, 5, 0, r3_1_keeps, NULL, true);
    t_b = lmt_spawn_ex("T4", 4, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    t_c = lmt_spawn_ex("T5", 5, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    t_d = lmt_spawn_ex("T6", 6, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    lmt_expect("A0 A1 T4 A2 T5 T6");
}

static void r3_2_a(void *arg)
{
    (void)arg;
    LMT_EQ(lm_thread_threshold(lm_thread_self()), 10);
    LMT_ST(lm_thread_start(t_c), LM_OK); /* equal: no preemption (R2.2) */
    lmt_log("A1");
    LMT_ST(lm_thread_start(t_b), LM_OK); /* one more urgent: preempts */
    lmt_log("A2");
}

/* R3.2: LM_THRESHOLD_NONE is fully preemptive: anything more urgent than
 * the priority preempts. */
LMT_CASE(r3_2_threshold_none_is_fully_preemptive)
{
    lmt_begin();
    lmt_spawn_ex("A", 10, LM_THRESHOLD_NONE, 0, r3_2_a, NULL, true);
    t_b = lmt_spawn_ex("T9", 9, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    t_c = lmt_spawn_ex("T10", 10, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    lmt_expect("A1 T9 A2 T10");
    LMT_EQ(kstats().preemptions, 1);
}

#if LM_CFG_ARG_CHECKS
static lm_thread_t spare;
static LM_STACK_DEFINE(spare_stack, LMT_STACK_BYTES);

static void r3_2_bad_threshold(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    LMT_ST(lm_thread_start(t_b), LM_OK); /* T7: held back by T=5 */
    snap_take();
    LMT_ST(lm_thread_set_threshold(self, 11), LM_ERR_PRIORITY); /* less urgent than 10 */
    LMT_ST(lm_thread_set_threshold(self, LM_CFG_PRIORITIES), LM_ERR_PRIORITY);
    LMT_ST(lm_thread_set_priority(self, LM_CFG_PRIORITIES), LM_ERR_PRIORITY);
    LMT_EQ(lm_thread_threshold(self), 5);
    LMT_EQ(lm_thread_priority(self), 10);
    snap_log(); /* nothing changed: T7 still held back */
    LMT_ST(lm_thread_set_threshold(self, 10), LM_OK); /* equal to priority: none */
    lmt_log("A1");
}

/* R3.2, docs/errors.md: a threshold less urgent than the priority (or out of
 * range) is refused with LM_ERR_PRIORITY and changes nothing. */
LMT_CASE(r3_2_threshold_validation)
{
    lmt_begin();
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "X";
    a.entry = log_name;
    a.stack = spare_stack;
    a.stack_size = sizeof spare_stack;
    a.priority = 10;
    a.threshold = 11;
    memset(&spare, 0, sizeof spare);
    LMT_ST(lm_thread_create(&spare, &a), LM_ERR_PRIORITY);
    a.threshold = 10;
    LMT_ST(lm_thread_create(&spare, &a), LM_OK);
    LMT_EQ(lm_thread_threshold(&spare), 10);
    LMT_ST(lm_thread_set_threshold(&spare, 3), LM_OK);
    LMT_ST(lm_thread_set_threshold(&spare, 12), LM_ERR_PRIORITY);
    LMT_EQ(lm_thread_threshold(&spare), 3);
    LMT_ST(lm_thread_set_threshold(&spare, LM_THRESHOLD_NONE), LM_OK);
    LMT_EQ(lm_thread_threshold(&spare), 10);

    lmt_spawn_ex("A", 10, 5, 0, r3_2_bad_threshold, NULL, true);
    t_b = lmt_spawn_ex("T7", 7, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    /* Making the threshold equal to the priority lets T7 in (R4.6). */
    lmt_expect("sw0/pre0/exp0 T7 A1");
}
#endif

static void r3_3_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_start(t_d), LM_OK); /* T7, held back by T=3 */
    LMT_ST(lm_thread_start(t_c), LM_OK); /* T5, held back */
    lmt_log("A0");
    snap_take();
    LMT_ST(lm_thread_yield(), LM_OK);
    lmt_log("A1");
}

static void r3_3_alone(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_start(t_c), LM_OK);
    lmt_log("A0");
    snap_take();
    LMT_ST(lm_thread_yield(), LM_OK); /* no peer, but T5 was held back */
    lmt_log("A1");
}

/* R3.3, R2.3, R7.2: relinquish by a thread with a threshold lets the held-back
 * threads run, most urgent first; the caller joins the tail behind its peer.
 * Relinquish is not a preemption. */
LMT_CASE(r3_3_yield_releases_held_back_threads)
{
    lmt_begin();
    t_a = lmt_spawn_ex("A", 10, 3, 0, r3_3_a, NULL, true);
    lmt_spawn("B", 10, log_name, NULL);
    t_c = lmt_spawn_ex("T5", 5, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    t_d = lmt_spawn_ex("T7", 7, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    lmt_expect("A0 sw1/pre0/exp0 T7 B A1");
    LMT_EQ(tstats(t_a).preemptions, 0);
    LMT_EQ(kstats().preemptions, 0);

    /* Without a peer the held-back thread still gets the CPU. */
    lmt_begin();
    lmt_spawn_ex("A", 10, 3, 0, r3_3_alone, NULL, true);
    t_c = lmt_spawn_ex("T5", 5, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    lmt_run();
    lmt_expect("A0 sw1/pre0/exp0 A1");
}

static void r3_5_a(void *arg)
{
    (void)arg;
    lmt_log("A0");
    LMT_ST(lm_thread_start(t_b), LM_OK); /* M (8): held back by T=2 */
    LMT_ST(lm_thread_start(t_c), LM_OK); /* L (12): less urgent anyway */
    LMT_ST(lm_sem_take(&sem_a, LM_WAIT_FOREVER), LM_OK);
    lmt_log("A1");
    LMT_ST(lm_sem_take(&sem_a, LM_WAIT_FOREVER), LM_OK);
    lmt_log("A2");
}

static void r3_5_m(void *arg)
{
    (void)arg;
    lmt_log("M0");
    LMT_ST(lm_sem_give(&sem_a), LM_OK); /* A (10) is less urgent than M (8) */
    lmt_log("M1");
}

static void r3_5_l(void *arg)
{
    (void)arg;
    lmt_log("L0");
    LMT_ST(lm_sem_give(&sem_a), LM_OK); /* A (10) is more urgent than L (12) */
    lmt_log("L1");
}

/* R3.5: once A blocks, M runs by priority although A's threshold held it
 * back; A, woken, preempts by priority only: not M, but L. */
LMT_CASE(r3_5_threshold_irrelevant_when_not_running)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    t_a = lmt_spawn_ex("A", 10, 2, 0, r3_5_a, NULL, true);
    t_b = lmt_spawn_ex("M", 8, LM_THRESHOLD_NONE, 0, r3_5_m, NULL, false);
    t_c = lmt_spawn_ex("L", 12, LM_THRESHOLD_NONE, 0, r3_5_l, NULL, false);
    lmt_run();
    lmt_expect("A0 M0 M1 A1 L0 A2 L1");
    LMT_EQ(kstats().preemptions, 1); /* L by A */
    LMT_EQ(tstats(t_c).preemptions, 1);
}

/* ---- R4: changing priority and threshold ---- */

static void r4_1_head(void *arg)
{
    (void)arg;
    lmt_log("A0");
    snap_take();
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 5), LM_OK);
    snap_log(); /* B and C are equals now: no preemption */
    LMT_EQ(lm_thread_priority(lm_thread_self()), 5);
    /* A is at the head of ring 5 (ahead of B, C): relinquish hands the CPU
     * to B, then C. At the tail, A would have rotated B behind and run C. */
    LMT_ST(lm_thread_yield(), LM_OK);
    lmt_log("A1");
}

/* R4.1: the running thread whose priority changes goes to the head of its
 * new priority's queue. */
LMT_CASE(r4_1_running_thread_moves_to_head)
{
    lmt_begin();
    lmt_spawn("A", 3, r4_1_head, NULL);
    lmt_spawn("B", 5, log_name, NULL);
    lmt_spawn("C", 5, log_name, NULL);
    lmt_run();
    lmt_expect("A0 sw0/pre0/exp0 B C A1");
}

static void r4_1_owner(void *arg)
{
    (void)arg;
    lmt_log("A0");
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_start(t_h), LM_OK); /* H (2) preempts, waits for mtx */
    LMT_EQ(lm_thread_priority(lm_thread_self()), 2);
    lmt_log("A1");
    LMT_ST(lm_thread_start(t_b), LM_OK); /* B (4) waits: A runs at 2 */
    snap_take();
    /* A's effective priority falls back to 6 (R4.4): B preempts at once. */
    LMT_ST(lm_thread_set_priority(t_h, 7), LM_OK);
    lmt_log("A2");
    LMT_EQ(lm_thread_priority(lm_thread_self()), 6);
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK); /* to H, now at 7: no preemption */
    lmt_log("A3");
}

static void r4_1_waiter(void *arg)
{
    (void)arg;
    lmt_log("H0");
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H1");
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

/* R4.1, R4.4, R7.1(h), R7.2: the running thread's effective priority drops
 * (its waiter's priority changes): a ready thread preempts at once, counted
 * as a preemption; A is at the head of ring 6, ahead of C. */
LMT_CASE(r4_1_effective_priority_drop_preempts)
{
    lmt_begin();
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_mutex_create(&mtx, LM_MUTEX_INHERIT), LM_OK);
    t_a = lmt_spawn("A", 6, r4_1_owner, NULL);
    lmt_spawn("C", 6, log_name, NULL);
    t_h = lmt_spawn_ex("H", 2, LM_THRESHOLD_NONE, 0, r4_1_waiter, NULL, false);
    t_b = lmt_spawn_ex("B", 4, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    lmt_run();
    lmt_expect("A0 H0 A1 sw1/pre1/exp0 A2 A3 C H1");
    LMT_EQ(tstats(t_a).preemptions, 2); /* by H (start), by B (R4.1) */
}

/* R4.5, R3.2: a fully preemptive thread (threshold = priority) whose priority
 * is raised and restored stays fully preemptive: threads at 3..5 preempt it
 * again once it is back at 6. */
static void r4_1_raise_restore(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    LMT_ST(lm_thread_set_priority(self, 2), LM_OK);
    LMT_ST(lm_thread_set_priority(self, 6), LM_OK);
    LMT_EQ(lm_thread_threshold(self), 6);
    snap_take();
    LMT_ST(lm_thread_start(t_b), LM_OK); /* B (4) preempts a thread at 6 */
    lmt_log("A1");
}

/* R3.2, R4.1, R4.5: a thread created fully preemptive stays so after its
 * priority is raised and restored. */
LMT_CASE(r4_1_raise_and_restore_stays_preemptive)
{
    lmt_begin();
    lmt_spawn("A", 6, r4_1_raise_restore, NULL);
    t_b = lmt_spawn_ex("B", 4, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    lmt_run();
    lmt_expect("sw1/pre1/exp0 A1");
}

static void r4_2_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(t_e, 5), LM_OK); /* E: 7 -> tail of 5 */
    LMT_ST(lm_thread_set_priority(t_b, 6), LM_OK); /* B: head of 5 -> tail of 6 */
    snap_take();
    LMT_ST(lm_thread_set_priority(t_d, 1), LM_OK); /* D at 1: preempts */
    lmt_log("A1");
    LMT_ST(lm_thread_set_priority(t_c, 2), LM_OK); /* C at 2: not above T=2 */
    lmt_log("A2");
}

/* R4.2, R3.1: a ready thread whose priority changes joins the tail of its
 * new priority; it preempts only if more urgent than the threshold. */
LMT_CASE(r4_2_ready_thread_moves_to_tail)
{
    lmt_begin();
    t_a = lmt_spawn_ex("A", 3, 2, 0, r4_2_a, NULL, true);
    t_b = lmt_spawn("B", 5, log_name, NULL);
    t_c = lmt_spawn("C", 5, log_name, NULL);
    t_d = lmt_spawn("D", 5, log_delta, NULL);
    t_f = lmt_spawn("F", 6, log_name, NULL);
    t_e = lmt_spawn("E", 7, log_name, NULL);
    lmt_run();
    lmt_expect("sw1/pre1/exp0 A1 A2 C E F B");
    LMT_EQ(kstats().preemptions, 1);
}

static void r4_3_ctl(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(t_a, 4), LM_OK); /* W1 first */
    LMT_ST(lm_thread_set_priority(t_b, 6), LM_OK);
    LMT_ST(lm_thread_set_priority(t_b, 5), LM_OK); /* W2 behind W3 now */
    LMT_ST(lm_thread_set_priority(t_d, 6), LM_OK); /* W4 last */
    LMT_EQ(lm_thread_state(t_b), LM_THREAD_BLOCKED);
    for (int i = 0; i < 4; i++) {
        LMT_ST(lm_sem_give(&sem_a), LM_OK); /* each waiter preempts ctl */
    }
    lmt_log("ctl");
}

/* R4.3, R10.6: a waiting thread whose priority changes moves to the tail of
 * its new priority in the wait queue, as if it had just arrived. */
LMT_CASE(r4_3_waiting_thread_requeued)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    t_d = lmt_spawn("W4", 5, take_then_log, &sem_a);
    t_b = lmt_spawn("W2", 5, take_then_log, &sem_a);
    t_c = lmt_spawn("W3", 5, take_then_log, &sem_a);
    t_a = lmt_spawn("W1", 5, take_then_log, &sem_a);
    lmt_spawn("ctl", 8, r4_3_ctl, NULL);
    lmt_run();
    lmt_expect("W1 W3 W2 W4 ctl");
}

static void r4_5_a(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    LMT_ST(lm_thread_set_priority(self, 5), LM_OK); /* 5 is not above T=4 */
    LMT_EQ(lm_thread_threshold(self), 4);
    LMT_ST(lm_thread_set_priority(self, 3), LM_OK); /* above T: T follows */
    LMT_EQ(lm_thread_threshold(self), 3);
    LMT_EQ(lm_thread_base_priority(self), 3);
    LMT_ST(lm_thread_start(t_b), LM_OK); /* B (3): equal, no preemption */
    lmt_log("A1");
    LMT_ST(lm_thread_start(t_c), LM_OK); /* C (2): above the new T */
    lmt_log("A2");
}

/* R4.5: a new base priority more urgent than the threshold carries the
 * threshold with it; one less urgent leaves it. */
LMT_CASE(r4_5_threshold_follows_priority)
{
    lmt_begin();
    lmt_spawn_ex("A", 6, 4, 0, r4_5_a, NULL, true);
    t_b = lmt_spawn_ex("B", 3, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    t_c = lmt_spawn_ex("C", 2, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    lmt_expect("A1 C A2 B");
    /* Not running: the same rule, before the kernel starts. */
    lmt_begin();
    lm_thread_t *t = lmt_spawn_ex("X", 9, 7, 0, log_name, NULL, false);
    LMT_ST(lm_thread_set_priority(t, 8), LM_OK);
    LMT_EQ(lm_thread_threshold(t), 7);
    LMT_ST(lm_thread_set_priority(t, 1), LM_OK);
    LMT_EQ(lm_thread_threshold(t), 1);
}

static void r4_6_a(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    LMT_ST(lm_thread_start(t_b), LM_OK); /* T4, held back by T=2 */
    LMT_ST(lm_thread_set_threshold(self, 3), LM_OK);
    lmt_log("A1");
    LMT_ST(lm_thread_set_threshold(self, 4), LM_OK); /* T4 is not above 4 */
    lmt_log("A2");
    snap_take();
    LMT_ST(lm_thread_set_threshold(self, 5), LM_OK); /* now it is: at once */
    lmt_log("A3");
    LMT_ST(lm_thread_set_threshold(self, 1), LM_OK); /* raising never preempts */
    LMT_ST(lm_thread_start(t_c), LM_OK);            /* T2: held back by T=1 */
    lmt_log("A4");
}

/* R4.6, R7.1(h), R7.2: lowering the running thread's threshold lets a ready
 * thread more urgent than the new threshold in at once (a preemption);
 * at the boundary it does not. */
LMT_CASE(r4_6_lowering_threshold_preempts)
{
    lmt_begin();
    t_a = lmt_spawn_ex("A", 6, 2, 0, r4_6_a, NULL, true);
    t_b = lmt_spawn_ex("T4", 4, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    t_c = lmt_spawn_ex("T2", 2, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_run();
    lmt_expect("A1 A2 sw1/pre1/exp0 A3 A4 T2");
    LMT_EQ(tstats(t_a).preemptions, 1);
}

/* ---- R6: scheduler lock ---- */

static void r6_nesting(void *arg)
{
    (void)arg;
    LMT_EQ(lm_sched_lock_depth(), 0);
    LMT_ST(lm_sched_unlock(), LM_ERR_STATE);
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_EQ(lm_sched_lock_depth(), 3);
    LMT_ST(lm_sched_unlock(), LM_OK);
    LMT_EQ(lm_sched_lock_depth(), 2);
    LMT_ST(lm_sched_unlock(), LM_OK);
    LMT_ST(lm_sched_unlock(), LM_OK);
    LMT_EQ(lm_sched_lock_depth(), 0);
    LMT_ST(lm_sched_unlock(), LM_ERR_STATE);
    LMT_EQ(lm_sched_lock_depth(), 0);
    /* 255 levels, then LM_ERR_OVERFLOW (docs/errors.md) with depth kept. */
    for (int i = 0; i < 255; i++) {
        LMT_ST(lm_sched_lock(), LM_OK);
    }
    LMT_ST(lm_sched_lock(), LM_ERR_OVERFLOW);
    LMT_EQ(lm_sched_lock_depth(), 255);
    for (int i = 0; i < 255; i++) {
        LMT_ST(lm_sched_unlock(), LM_OK);
    }
    LMT_ST(lm_sched_unlock(), LM_ERR_STATE);
    lmt_log("done");
}

/* R6: the lock nests; unlock without the lock is LM_ERR_STATE. */
LMT_CASE(r6_lock_nesting)
{
    lmt_begin();
    lmt_spawn("A", 5, r6_nesting, NULL);
    lmt_run();
    lmt_expect("done");
}

static void r6_1_a(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    lmt_log("A0");
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_sched_lock(), LM_OK);
    snap_take();
    LMT_ST(lm_sem_take(&sem_a, 10), LM_ERR_LOCKED);
    LMT_ST(lm_sem_take(&sem_a, LM_WAIT_FOREVER), LM_ERR_LOCKED);
    LMT_ST(lm_sem_take(&sem_b, LM_NO_WAIT), LM_OK); /* does not block: allowed */
    LMT_ST(lm_sem_take(&sem_b, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_thread_sleep(3), LM_ERR_LOCKED);
    LMT_ST(lm_thread_yield(), LM_ERR_LOCKED);
    LMT_ST(lm_thread_suspend(self), LM_ERR_LOCKED);
    /* Nothing changed: still running and ready, no waiter on sem_a, same
     * depth, no switch. */
    LMT_EQ(lm_thread_state(self), LM_THREAD_READY);
    LMT_EQ(lm_sched_lock_depth(), 2);
    snap_log();
    LMT_ST(lm_sem_give(&sem_a), LM_OK); /* no waiter: goes to the count */
    uint32_t count = 0;
    LMT_ST(lm_sem_count(&sem_a, &count), LM_OK);
    LMT_EQ(count, 1);
    LMT_ST(lm_sched_unlock(), LM_OK);
    LMT_ST(lm_sched_unlock(), LM_OK);
    lmt_log("A1"); /* B is an equal: the unlock does not switch */
    LMT_ST(lm_thread_yield(), LM_OK);
    lmt_log("A2");
}

/* R6.1: while holding the lock, blocking, sleeping, relinquishing and
 * suspending oneself fail with LM_ERR_LOCKED and change nothing. */
LMT_CASE(r6_1_stopping_calls_fail_under_lock)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    sem_new(&sem_b, 1);
    lmt_spawn("A", 5, r6_1_a, NULL);
    lmt_spawn("B", 5, log_name, NULL);
    lmt_run();
    lmt_expect("A0 sw0/pre0/exp0 A1 B A2");
}

static void r6_2_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_thread_start(t_h), LM_OK); /* H (2) waits */
    LMT_ST(lm_sem_give(&sem_a), LM_OK);  /* W (3) waits */
    lmt_log("A1");
    LMT_ST(lm_sched_unlock(), LM_OK);    /* inner: nothing happens */
    lmt_log("A2");
    snap_take();
    LMT_ST(lm_sched_unlock(), LM_OK);    /* outermost: H at once */
    lmt_log("A3");
}

/* R6.2, R7.1(g), R7.2: threads made ready under the lock wait for the
 * outermost unlock, then preempt at once; counted as a preemption. */
LMT_CASE(r6_2_ready_threads_wait_for_outermost_unlock)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    lmt_spawn("W", 3, take_then_log, &sem_a);
    t_a = lmt_spawn("A", 6, r6_2_a, NULL);
    t_h = lmt_spawn_ex("H", 2, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    lmt_run();
    lmt_expect("A1 A2 sw1/pre1/exp0 W A3");
    LMT_EQ(tstats(t_a).preemptions, 1);
}

static void r6_2_threshold(void *arg)
{
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_thread_start((lm_thread_t *)arg), LM_OK);
    lmt_log("A1");
    LMT_ST(lm_sched_unlock(), LM_OK);
    lmt_log("A2");
}

/* R6.2, R3.1: at the unlock a thread exactly at the holder's threshold (3)
 * does not run; one more urgent (2) does. */
LMT_CASE(r6_2_unlock_respects_threshold)
{
    lmt_begin();
    lm_thread_t *t3 = lmt_spawn_ex("T3", 3, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_spawn_ex("A", 6, 3, 0, r6_2_threshold, t3, true);
    lmt_run();
    lmt_expect("A1 A2 T3");

    lmt_begin();
    lm_thread_t *t2 = lmt_spawn_ex("T2", 2, LM_THRESHOLD_NONE, 0, log_name, NULL, false);
    lmt_spawn_ex("A", 6, 3, 0, r6_2_threshold, t2, true);
    lmt_run();
    lmt_expect("A1 T2 A2");
}

static void r6_4_return(void *arg)
{
    (void)arg;
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_thread_start(t_h), LM_OK); /* waits for the lock */
    lmt_log("A");
    snap_take();
    switch ((int)(intptr_t)arg) {
    case 1:
        (void)lm_thread_terminate(lm_thread_self());
        break;
    case 2:
        (void)lm_thread_delete(lm_thread_self());
        break;
    default:
        break; /* return */
    }
}

static void log_depth(void *arg)
{
    (void)arg;
    snap_log();
    lmt_log("%s:d%u", lmt_me(), lm_sched_lock_depth());
}

/* R6.4, R7.1(d): a thread that ends (returns, terminates or deletes itself)
 * drops the lock at any depth; the waiting thread runs; not a preemption. */
LMT_CASE(r6_4_ending_thread_releases_lock)
{
    for (intptr_t how = 0; how < 3; how++) {
        lmt_begin();
        lmt_spawn("A", 5, r6_4_return, (void *)how);
        t_h = lmt_spawn_ex("H", 2, LM_THRESHOLD_NONE, 0, log_depth, NULL, false);
        lmt_spawn("B", 5, log_depth, NULL);
        lmt_run();
        /* H's delta covers A>H; B's covers A>H and H>B. */
        lmt_expect("A sw1/pre0/exp0 H:d0 sw2/pre0/exp0 B:d0");
    }
}

/* ---- R7: why a running thread stops, as the counters see it ---- */

static void stop_block(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_sem_take(&sem_a, LM_WAIT_FOREVER), LM_OK);
}

static void stop_sleep(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_thread_sleep(2), LM_OK);
    lmt_log("woke");
}

static void stop_suspend(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_thread_suspend(lm_thread_self()), LM_OK);
}

static void stop_return(void *arg)
{
    (void)arg;
    snap_take();
}

static void stop_terminate(void *arg)
{
    (void)arg;
    snap_take();
    (void)lm_thread_terminate(lm_thread_self());
    lmt_log("not reached");
}

static void stop_delete(void *arg)
{
    (void)arg;
    snap_take();
    (void)lm_thread_delete(lm_thread_self());
    lmt_log("not reached");
}

static void stop_yield(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_thread_yield(), LM_OK);
}

static void stop_by_start(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_thread_start(t_h), LM_OK);
}

static void stop_by_give(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_sem_give(&sem_a), LM_OK);
}

static void stop_by_unlock(void *arg)
{
    (void)arg;
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_thread_start(t_h), LM_OK);
    snap_take();
    LMT_ST(lm_sched_unlock(), LM_OK);
}

static void stop_by_threshold(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_start(t_h), LM_OK);
    snap_take();
    LMT_ST(lm_thread_set_threshold(lm_thread_self(), LM_THRESHOLD_NONE), LM_OK);
}

/* Run A (5) stopping with `how`, and the thread that runs next logging the
 * counter deltas: B (5, ready) or H (2, started or woken by A). */
static void run_reason(lm_thread_entry_t how, unsigned a_threshold, const char *expected)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    t_a = lmt_spawn_ex("A", 5, a_threshold, 0, how, NULL, true);
    lmt_spawn("B", 5, log_delta, NULL);
    t_h = lmt_spawn_ex("H", 2, LM_THRESHOLD_NONE, 0, log_delta, NULL, false);
    lmt_run();
    lmt_expect(expected);
}

static void h_waits(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem_a, LM_WAIT_FOREVER), LM_OK);
    snap_log();
}

/* R7.1 (a)-(h), R7.2, R7.3: one switch each; only (g) and (h) are
 * preemptions; none of them is a time-slice expiry ((f): test_timeslice). */
LMT_CASE(r7_reasons_counted)
{
    run_reason(stop_block, LM_THRESHOLD_NONE, "sw1/pre0/exp0");   /* (a) */
    run_reason(stop_sleep, LM_THRESHOLD_NONE, "sw1/pre0/exp0 woke"); /* (b) */
    run_reason(stop_suspend, LM_THRESHOLD_NONE, "sw1/pre0/exp0"); /* (c) */
    run_reason(stop_return, LM_THRESHOLD_NONE, "sw1/pre0/exp0");  /* (d) */
    run_reason(stop_terminate, LM_THRESHOLD_NONE, "sw1/pre0/exp0");
    run_reason(stop_delete, LM_THRESHOLD_NONE, "sw1/pre0/exp0");
    run_reason(stop_yield, LM_THRESHOLD_NONE, "sw1/pre0/exp0");   /* (e) */
    /* H logs A>H; B logs A>H, H>A (A stayed at the head), A>B. */
    run_reason(stop_by_start, LM_THRESHOLD_NONE, "sw1/pre1/exp0 sw3/pre1/exp0"); /* (g) */
    LMT_EQ(tstats(t_a).preemptions, 1);
    run_reason(stop_by_unlock, LM_THRESHOLD_NONE, "sw1/pre1/exp0 sw3/pre1/exp0"); /* (g) */
    run_reason(stop_by_threshold, 1, "sw1/pre1/exp0 sw3/pre1/exp0"); /* (h) */
    LMT_EQ(tstats(t_a).preemptions, 1);

    /* (g) by a give from a thread: H waited, A's give wakes it. */
    lmt_begin();
    sem_new(&sem_a, 0);
    t_h = lmt_spawn("H", 2, h_waits, NULL);
    t_a = lmt_spawn("A", 5, stop_by_give, NULL);
    lmt_run();
    lmt_expect("sw1/pre1/exp0");
}

static void from_idle(void *arg)
{
    (void)arg;
    snap_take();
    LMT_ST(lm_thread_sleep(3), LM_OK); /* nothing else ready: idle runs */
    snap_log();
}

/* R7.2, R7.3: switches to and from the idle thread are context switches;
 * leaving idle is not a preemption. */
LMT_CASE(r7_idle_switch_is_not_preemption)
{
    lmt_begin();
    t_a = lmt_spawn("A", 5, from_idle, NULL);
    lmt_trace_switches(true);
    lmt_run();
    lmt_expect("->A A>idle idle>A sw2/pre0/exp0 A>idle");
    LMT_EQ(tstats(t_a).preemptions, 0);
    LMT_EQ(tstats(t_a).switches_in, 2);
}

/* ---- hosted: interrupts and virtual time ---- */
#if defined(LM_PORT_HOSTED)

static void isr_give(void *arg)
{
    lmt_log("irq");
    LMT_ST(lm_sem_give((lm_sem_t *)arg), LM_OK);
}

static void r2_2_isr_a(void *arg)
{
    (void)arg;
    snap_take();
    LMT_EQ(lm_hosted_irq_raise(isr_give, &sem_a), 0); /* wakes E (equal) */
    lmt_log("A1");
    snap_log();
    LMT_EQ(lm_hosted_irq_raise(isr_give, &sem_b), 0); /* wakes H (more urgent) */
    lmt_log("A2");
}

/* R2.2, R7.1(g), R12.2: a give from an interrupt wakes an equal without a
 * switch and a more urgent thread with a preemption as the handler returns. */
LMT_CASE(r2_2_isr_wakes_equal_and_urgent)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    sem_new(&sem_b, 0);
    lmt_spawn("E", 4, take_then_log, &sem_a);
    lmt_spawn("H", 2, take_then_delta, &sem_b);
    lmt_spawn("A", 4, r2_2_isr_a, NULL);
    lmt_run();
    lmt_expect("irq A1 sw0/pre0/exp0 irq sw1/pre1/exp0 A2 E");
}

static void isr_lock_calls(void *arg)
{
    lm_thread_t *holder = (lm_thread_t *)arg;
    LMT_ST(lm_sched_unlock(), LM_ERR_ISR);
    LMT_ST(lm_sched_lock(), LM_ERR_ISR);
    LMT_ST(lm_thread_yield(), LM_ERR_ISR);
    LMT_ST(lm_thread_sleep(1), LM_ERR_ISR);
    LMT_ST(lm_thread_suspend(holder), LM_ERR_LOCKED);   /* R6.5 */
    LMT_ST(lm_thread_terminate(holder), LM_ERR_LOCKED);
    LMT_ST(lm_thread_delete(holder), LM_ERR_LOCKED);
    LMT_ST(lm_thread_suspend(t_b), LM_OK);              /* another thread: fine */
    LMT_ST(lm_sem_give(&sem_a), LM_OK);                 /* wakes H, who waits */
    LMT_EQ(lm_sched_lock_depth(), 1);
    lmt_log("irq");
}

static void r6_isr_a(void *arg)
{
    (void)arg;
    lm_thread_t *self = lm_thread_self();
    LMT_ST(lm_sched_lock(), LM_OK);
    snap_take();
    LMT_EQ(lm_hosted_irq_raise(isr_lock_calls, self), 0);
    LMT_EQ(lm_sched_lock_depth(), 1);
    LMT_EQ(lm_thread_state(self), LM_THREAD_READY);
    LMT_EQ(lm_thread_state(t_b), LM_THREAD_SUSPENDED);
    lmt_log("A1");
    LMT_ST(lm_sched_unlock(), LM_OK); /* H now */
    lmt_log("A2");
    LMT_ST(lm_thread_resume(t_b), LM_OK);
}

/* R6.2, R6.5, R12.1: interrupts run under the lock; from a handler the lock
 * calls return LM_ERR_ISR and the lock holder cannot be stopped
 * (LM_ERR_LOCKED); what the handler made ready waits for the unlock. */
LMT_CASE(r6_isr_and_lock)
{
    lmt_begin();
    sem_new(&sem_a, 0);
    lmt_spawn("H", 2, take_then_delta, &sem_a);
    t_a = lmt_spawn("A", 5, r6_isr_a, NULL);
    t_b = lmt_spawn("B", 5, log_name, NULL);
    lmt_run();
    lmt_expect("irq A1 sw1/pre1/exp0 A2 B");
}

static void isr_stop(void *arg)
{
    lm_thread_t *t = t_a;
    switch ((int)(intptr_t)arg) {
    case 0:
        LMT_ST(lm_thread_suspend(t), LM_OK);
        break;
    case 1:
        LMT_ST(lm_thread_terminate(t), LM_OK);
        break;
    default:
        LMT_ST(lm_thread_delete(t), LM_OK);
        break;
    }
}

static void stop_by_isr(void *arg)
{
    snap_take();
    LMT_EQ(lm_hosted_irq_raise(isr_stop, arg), 0);
    lmt_log("not reached");
}

static void stop_by_isr_give(void *arg)
{
    (void)arg;
    snap_take();
    LMT_EQ(lm_hosted_irq_raise(isr_give, &sem_a), 0);
    lmt_log("A1");
}

static void stop_by_timeout(void *arg)
{
    (void)arg;
    snap_take();
    lm_hosted_work(10); /* H's sleep ends at tick 3, in the middle */
    lmt_log("A1@%u", (unsigned)lm_tick_now());
}

static void h_sleeps(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(3), LM_OK);
    snap_log();
    lmt_log("H@%u", (unsigned)lm_tick_now());
}

/* R7.1 (g) by an interrupt and by a timeout, (i) an interrupt suspends,
 * terminates or deletes the running thread: (i) is not a preemption. */
LMT_CASE(r7_reasons_from_interrupts)
{
    for (intptr_t how = 0; how < 3; how++) {
        lmt_begin();
        t_a = lmt_spawn("A", 5, stop_by_isr, (void *)how);
        lmt_spawn("B", 5, log_delta, NULL);
        lmt_run();
        lmt_expect("sw1/pre0/exp0");
        if (how < 2) { /* a deleted control block is no longer an object */
            LMT_EQ(tstats(t_a).preemptions, 0);
        }
    }

    lmt_begin();
    sem_new(&sem_a, 0);
    lmt_spawn("H", 2, take_then_delta, &sem_a);
    t_a = lmt_spawn("A", 5, stop_by_isr_give, NULL);
    lmt_run();
    lmt_expect("irq sw1/pre1/exp0 A1");
    LMT_EQ(tstats(t_a).preemptions, 1);

    lmt_begin();
    lmt_spawn("H", 2, h_sleeps, NULL);
    t_a = lmt_spawn("A", 5, stop_by_timeout, NULL);
    lmt_run();
    lmt_expect("sw1/pre1/exp0 H@3 A1@10");
    LMT_EQ(tstats(t_a).preemptions, 1);
}

static unsigned idle_calls;
static bool idle_hook_off_idle; /* the hook ran outside the idle thread */

static void count_idle(void)
{
    idle_calls++;
    if (strcmp(lmt_me(), "idle") != 0) {
        idle_hook_off_idle = true;
    }
}

static void idle_worker(void *arg)
{
    lm_hosted_work(20); /* A and B share the CPU (both ready): no idle */
    lmt_log("%s:%u", lmt_me(), idle_calls);
    LMT_ST(lm_thread_sleep((lm_tick_t)(uintptr_t)arg), LM_OK);
    lmt_log("%s:%u@%u", lmt_me(), idle_calls, (unsigned)lm_tick_now());
}

/* R1.1: the idle thread (and its hook) runs only when nothing is ready. */
LMT_CASE(r1_idle_hook_only_when_nothing_ready)
{
    lmt_begin();
    idle_calls = 0;
    idle_hook_off_idle = false;
    lm_idle_hook_set(count_idle);
    lmt_spawn_ex("A", 5, LM_THRESHOLD_NONE, 4, idle_worker, (void *)(uintptr_t)5, true);
    lmt_spawn_ex("B", 5, LM_THRESHOLD_NONE, 4, idle_worker, (void *)(uintptr_t)10, true);
    lmt_run();
    /* Slices of 4 alternate A and B until both have worked 20 ticks (tick
     * 40); then A sleeps to 45 and B to 50: two idle periods. */
    lmt_expect("A:0 B:0 A:1@45 B:2@50");
    LMT_EQ(idle_calls, 3); /* and once more when nothing is left */
    LMT_CHECK(!idle_hook_off_idle);
}

#endif /* LM_PORT_HOSTED */

#if defined(LM_PORT_HOSTED)
#define HOSTED_CASES                                                                     \
    , LMT_RUN(r2_2_isr_wakes_equal_and_urgent), LMT_RUN(r6_isr_and_lock),                \
        LMT_RUN(r7_reasons_from_interrupts), LMT_RUN(r1_idle_hook_only_when_nothing_ready)
#else
#define HOSTED_CASES
#endif
/* R3.6: the hold of a preempted thread ends when it ends. L (priority 3,
 * threshold 1) is preempted by H; H drops to priority 2 and starts M
 * (priority 1), which L's band holds back; H terminates L: M, now the most
 * urgent ready thread with no hold in its way, preempts H at once. */
static lm_thread_t *r36_l, *r36_m;

static void r36_m_main(void *arg)
{
    (void)arg;
    lmt_log("M");
}

static void r36_h_main(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 2), LM_OK);
    LMT_ST(lm_thread_start(r36_m), LM_OK);
    lmt_log("H:held-back");
    LMT_ST(lm_thread_terminate(r36_l), LM_OK);
    lmt_log("H:end");
}

static void r36_l_main(void *arg)
{
    (void)arg;
    lmt_log("L");
    LMT_ST(lm_thread_start((lm_thread_t *)arg), LM_OK); /* H preempts */
    lmt_log("L:never");
}

LMT_CASE(r3_6_hold_ends_with_terminate)
{
    lmt_begin();
    r36_m = lmt_spawn_ex("M", 1, LM_THRESHOLD_NONE, 0, r36_m_main, NULL, false);
    lm_thread_t *h = lmt_spawn_ex("H", 0, LM_THRESHOLD_NONE, 0, r36_h_main, NULL, false);
    r36_l = lmt_spawn_ex("L", 3, 1, 0, r36_l_main, h, true);
    lmt_run();
    lmt_expect("L H:held-back M H:end");
}

#if LM_CFG_ARG_CHECKS
#define CHECK_CASES , LMT_RUN(r3_2_threshold_validation)
#else
#define CHECK_CASES
#endif

LMT_MAIN(LMT_RUN(r1_most_urgent_first_then_fifo), LMT_RUN(r1_many_threads_one_priority),
         LMT_RUN(r1_ready_order_is_wake_order), LMT_RUN(r2_2_made_ready_joins_tail_no_preemption),
         LMT_RUN(r2_3_yield_round_robin), LMT_RUN(r2_3_yield_without_peer_continues),
         LMT_RUN(r3_1_threshold_boundary), LMT_RUN(r3_1_preempted_thread_keeps_threshold),
         LMT_RUN(r4_1_raise_and_restore_stays_preemptive), LMT_RUN(r3_2_threshold_none_is_fully_preemptive),
         LMT_RUN(r3_3_yield_releases_held_back_threads), LMT_RUN(r3_6_hold_ends_with_terminate),
         LMT_RUN(r3_5_threshold_irrelevant_when_not_running),
         LMT_RUN(r4_1_running_thread_moves_to_head), LMT_RUN(r4_1_effective_priority_drop_preempts),
         LMT_RUN(r4_2_ready_thread_moves_to_tail), LMT_RUN(r4_3_waiting_thread_requeued),
         LMT_RUN(r4_5_threshold_follows_priority), LMT_RUN(r4_6_lowering_threshold_preempts),
         LMT_RUN(r6_lock_nesting), LMT_RUN(r6_1_stopping_calls_fail_under_lock),
         LMT_RUN(r6_2_ready_threads_wait_for_outermost_unlock),
         LMT_RUN(r6_2_unlock_respects_threshold), LMT_RUN(r6_4_ending_thread_releases_lock),
         LMT_RUN(r7_reasons_counted), LMT_RUN(r7_idle_switch_is_not_preemption)
             CHECK_CASES HOSTED_CASES)
