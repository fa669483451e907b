/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's statistics (LM_CFG_STATS, docs/trace.md "Kernel
 * statistics"): each counter counted where docs/trace.md says, system-wide
 * and per thread, and the two resets.
 */
#include <string.h>
#include "harness.h"
#if LM_STATS_INVERSIONS
#include "lmk.h" /* white-box: the reference count reads wait queues */
#endif

static lm_sem_t sem;
static lm_mutex_t mtx;
static lm_thread_t *th_a, *th_b;
static lm_kernel_stats_t ks_end;
static uint64_t irqs_end;
static unsigned raised;

static void isr(void *arg)
{
    (void)arg;
    raised++;
}

static void stats_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_yield(), LM_OK);                  /* a relinquish, no peer */
    LMT_ST(lm_sem_take(&sem, 2), LM_ERR_TIMEOUT);      /* a suspension, a timeout */
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(5), LM_OK);                 /* B waits on mtx meanwhile */
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);              /* B runs and ends */
    LMT_EQ(lm_hosted_irq_raise(isr, NULL), 0);
    LMT_ST(lm_sem_give(&sem), LM_OK);                  /* an unmask: the interrupt */
    LMT_EQ(raised, 1);
    lm_kernel_stats(&ks_end);
    irqs_end = lm_hosted_irq_count();
}

static void stats_b(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(5), LM_OK);
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK); /* A owns it: bounded inversion */
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

static void check_thread(const lm_thread_t *t, uint32_t resumptions, uint32_t suspensions,
                         uint32_t relinquishes, uint32_t timeouts)
{
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(t, &s), LM_OK);
    LMT_EQ(s.resumptions, resumptions);
    LMT_EQ(s.suspensions, suspensions);
    LMT_EQ(s.relinquishes, relinquishes);
    LMT_EQ(s.wait_timeouts, timeouts);
}

/* A: started (1 resumption), relinquishes, blocks on the semaphore (1
 * suspension) until it times out (a resumption and a timeout), sleeps (a
 * suspension and a resumption). B: started, sleeps, blocks on the mutex A
 * owns (its inheritance raises A: a bounded inversion) until A unlocks:
 * 3 resumptions, 2 suspensions. */
LMT_CASE(stats_counted)
{
    lmt_begin();
    raised = 0;
    memset(&sem, 0, sizeof sem);
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    LMT_ST(lm_mutex_create(&mtx, LM_MUTEX_INHERIT), LM_OK);
    th_b = lmt_spawn("B", 1, stats_b, NULL);
    th_a = lmt_spawn("A", 2, stats_a, NULL);
    lmt_run();
    LMT_EQ(ks_end.relinquishes, 1);
    LMT_EQ(ks_end.resumptions, 6);
    LMT_EQ(ks_end.suspensions, 4);
    LMT_EQ(ks_end.wait_timeouts, 1);
    LMT_EQ(ks_end.inversions_bounded, 1);
    /* Every simulated interrupt (the tick's and the one raised) passes the
     * hosted port's hook (lm_trace_isr_enter). */
    LMT_EQ(ks_end.interrupts, irqs_end);
    LMT_CHECK(ks_end.interrupts > raised);
    check_thread(th_a, 3, 2, 1, 1);
    check_thread(th_b, 3, 2, 0, 0);
    /* The bounded inversion is B's wait: counted for B, not for A. */
    lm_thread_stats_t sa, sb;
    LMT_ST(lm_thread_stats(th_a, &sa), LM_OK);
    LMT_ST(lm_thread_stats(th_b, &sb), LM_OK);
    LMT_EQ(sa.inversions_bounded, 0);
    LMT_EQ(sb.inversions_bounded, 1);

    /* A thread's reset is its own; the kernel's takes the idle thread's. */
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats_reset(th_a), LM_OK);
    check_thread(th_a, 0, 0, 0, 0);
    LMT_ST(lm_thread_stats(th_a, &s), LM_OK);
    LMT_EQ(s.switches_in, 0);
    check_thread(th_b, 3, 2, 0, 0);
    LMT_ST(lm_thread_stats(lm_kernel_idle_thread(), &s), LM_OK);
    LMT_CHECK(s.switches_in > 0u);
    lm_kernel_stats_t k;
    lm_kernel_stats(&k);
    LMT_CHECK(k.context_switches > 0u && k.resumptions == 6u);
    lm_kernel_stats_reset();
    lm_kernel_stats(&k);
    lm_kernel_stats_t zero;
    memset(&zero, 0, sizeof zero);
#if LM_CFG_STATS_CPU_TIME
    zero.timestamp_hz = k.timestamp_hz; /* the rate stays */
    LMT_CHECK(lm_kernel_elapsed() < 10u); /* the time since the reset: a few readings */
#endif
    LMT_CHECK(memcmp(&k, &zero, sizeof k) == 0);
    LMT_ST(lm_thread_stats(lm_kernel_idle_thread(), &s), LM_OK);
    LMT_EQ(s.switches_in, 0);
    check_thread(th_b, 3, 2, 0, 0);
    lm_kernel_stats(NULL); /* nothing to do */
}

static void nop(void *arg)
{
    (void)arg;
}

/* Bad input: a distinct code, nothing changed. */
LMT_CASE(stats_bad_input)
{
    lmt_begin();
    lm_thread_t *t = lmt_spawn_ex("T", 3, LM_THRESHOLD_NONE, 0, nop, NULL, false);
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats_reset(NULL), LM_ERR_PARAM);
    LMT_ST(lm_thread_stats(NULL, &s), LM_ERR_PARAM);
    LMT_ST(lm_thread_stats(t, NULL), LM_ERR_PARAM);
#if LM_CFG_ARG_CHECKS
    static lm_thread_t never_created; /* zero: no thread's magic word */
    LMT_ST(lm_thread_stats_reset(&never_created), LM_ERR_OBJECT);
    LMT_ST(lm_thread_stats(&never_created, &s), LM_ERR_OBJECT);
#endif
    LMT_ST(lm_thread_stats_reset(t), LM_OK);
    LMT_ST(lm_thread_stats(t, &s), LM_OK);
    LMT_EQ(s.resumptions, 0); /* created, not started */
}

/* A mutex without inheritance, or an owner already as urgent as the
 * waiter, is no bounded inversion. */
static void plain_low(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

static void plain_high(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

LMT_CASE(stats_no_bounded_inversion)
{
    static const unsigned opts[2] = {0u, LM_MUTEX_INHERIT};
    static const unsigned high[2] = {1u, 3u}; /* less or as urgent as the owner */
    for (unsigned i = 0; i < 2u; i++) {
        lmt_begin();
        memset(&mtx, 0, sizeof mtx);
        LMT_ST(lm_mutex_create(&mtx, opts[i]), LM_OK);
        (void)lmt_spawn("L", 3, plain_low, NULL);
        (void)lmt_spawn("H", high[i], plain_high, NULL);
        lmt_run();
        lm_kernel_stats_t k;
        lm_kernel_stats(&k);
        LMT_EQ(k.inversions_bounded, 0);
        LMT_EQ(k.suspensions, 3); /* two sleeps and the wait on the mutex */
    }
}

#if LM_CFG_STATS_CPU_TIME
/* CPU time (LM_CFG_STATS_CPU_TIME) in the hosted port's virtual
 * microseconds (a tick is 1000; each reading within a tick moves on by
 * one): W works 3 ticks, sleeps 2 (the idle thread runs), works 1 more;
 * every count goes to exactly one thread, so the threads' times add up to
 * the elapsed time, but for the readings between two reads. */
static lm_thread_stats_t w_mid, idle_mid;
static lm_kernel_stats_t k_mid;
static uint64_t elapsed_mid;

static void cpu_worker(void *arg)
{
    (void)arg;
    lm_hosted_work(3);
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_thread_stats(lm_thread_self(), &w_mid), LM_OK); /* its run so far included */
    lm_kernel_stats(&k_mid);
    elapsed_mid = lm_kernel_elapsed();
    LMT_ST(lm_thread_stats(lm_kernel_idle_thread(), &idle_mid), LM_OK);
    lm_hosted_work(1);
    LMT_ST(lm_thread_stats_reset(lm_thread_self()), LM_OK);
    lm_kernel_stats_reset();
}

static void check_between(uint64_t v, uint64_t lo, uint64_t hi)
{
    if (v < lo || v > hi) {
        lmt_fail(__FILE__, __LINE__, "%llu not in [%llu, %llu]", (unsigned long long)v,
                 (unsigned long long)lo, (unsigned long long)hi);
    }
}

LMT_CASE(stats_cpu_time)
{
    lmt_begin();
    lm_thread_stats_t s, idle;
    lm_kernel_stats_t k;
    lm_kernel_stats(&k); /* before the start: nothing to charge */
    LMT_EQ(lm_kernel_elapsed(), 0);
    LMT_ST(lm_thread_stats(lm_kernel_idle_thread(), &idle), LM_OK);
    lm_thread_t *w = lmt_spawn("W", 2, cpu_worker, NULL);
    LMT_ST(lm_thread_stats_reset(w), LM_OK);
    lmt_run();
    LMT_EQ(k_mid.timestamp_hz, 1000000);
    LMT_ST(lm_thread_stats(lm_kernel_idle_thread(), &idle), LM_OK);
    check_between(w_mid.cpu_time, 3000, 3100);
    check_between(idle_mid.cpu_time, 2000, 2100);
    /* W's read came first: the kernel's reads charged W a few readings more. */
    check_between(elapsed_mid - (w_mid.cpu_time + idle_mid.cpu_time), 0, 3);
    check_between(elapsed_mid, 5000, 5200);
    /* After the resets at W's end: only the readings since. */
    LMT_ST(lm_thread_stats(w, &s), LM_OK);
    check_between(lm_kernel_elapsed() - (s.cpu_time + idle.cpu_time), 0, 2);
    check_between(s.cpu_time, 0, 10); /* reset after its last tick of work */
}
#endif

#if LM_STATS_INVERSIONS
/* Unbounded inversions (LM_CFG_STATS_INVERSIONS, docs/trace.md "Kernel
 * statistics"): a switch to M while H waits on a mutex whose owner is less
 * urgent than M, M less urgent than H. L (10) locks the mutex and starts H,
 * which blocks on it, then M, which runs at once and again after each of
 * its three one-tick sleeps while L works: 4 inversions, all M's. M's last
 * sleep ends after H had the mutex: no more. */
static lm_thread_t *inv_h, *inv_m;

static void inv_l(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_start(inv_h), LM_OK);
    LMT_ST(lm_thread_start(inv_m), LM_OK);
    lm_hosted_work(6);
    lmt_log("L-");
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

static void inv_hi(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H+");
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

static void inv_mid(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < 3u; i++) {
        lmt_log("M");
        LMT_ST(lm_thread_sleep(1), LM_OK);
    }
    lmt_log("M");
    LMT_ST(lm_thread_sleep(20), LM_OK);
    lmt_log("M");
}

static uint32_t inv_run(unsigned options, unsigned m_prio, const char *expected)
{
    lmt_begin();
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_mutex_create(&mtx, options), LM_OK);
    (void)lmt_spawn("L", 10, inv_l, NULL);
    inv_h = lmt_spawn_ex("H", 5, LM_THRESHOLD_NONE, 0, inv_hi, NULL, false);
    inv_m = lmt_spawn_ex("M", m_prio, LM_THRESHOLD_NONE, 0, inv_mid, NULL, false);
    lmt_trace_switches(true);
    lmt_run();
    lmt_expect(expected);
    lm_kernel_stats_t k;
    lm_kernel_stats(&k);
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(inv_m, &s), LM_OK);
    LMT_EQ(s.inversions_unbounded, k.inversions_unbounded); /* all M's */
    LMT_ST(lm_thread_stats(inv_h, &s), LM_OK);
    LMT_EQ(s.inversions_unbounded, 0);
    return k.inversions_unbounded;
}

LMT_CASE(stats_unbounded_counted)
{
    /* No inheritance: M runs 4 times while H waits behind L. */
    LMT_EQ(inv_run(0u, 8,
                   "->L L>H H>L L>M M M>L L>M M M>L L>M M M>L L>M M M>L L- L>H H+ H>L "
                   "L>idle idle>M M M>idle"),
           4);
    /* Inheritance raises L to 5: M never runs while H waits. */
    LMT_EQ(inv_run(LM_MUTEX_INHERIT, 8,
                   "->L L>H H>L L- L>H H+ H>M M M>L L>idle idle>M M M>idle idle>M M "
                   "M>idle idle>M M M>idle idle>M M M>idle"),
           0);
    /* M more urgent than H: not between them. */
    LMT_EQ(inv_run(0u, 3,
                   "->L L>H H>L L>M M M>L L>M M M>L L>M M M>L L>M M M>L L- L>H H+ H>L "
                   "L>idle idle>M M M>idle"),
           0);
}

/* Two owners at once: L1 (12) owns a, L2 (10) owns b, H1 (4) waits on a,
 * H2 (6) waits on b. M (8) is between both pairs: each switch to it is one
 * inversion, not two. N (11) is between H1 and L1 only; when a's wait
 * ends (H1 times out) N stops counting, and so does M once b is handed
 * to H2. */
static lm_mutex_t mx_a, mx_b;

static void two_l1(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mx_a, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(10), LM_OK);
    LMT_ST(lm_mutex_unlock(&mx_a), LM_OK);
}

static void two_l2(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mx_b, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(5), LM_OK);
    LMT_ST(lm_mutex_unlock(&mx_b), LM_OK);
}

static void two_h1(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(&mx_a, 3), LM_ERR_TIMEOUT); /* ends at tick 4 */
}

static void two_h2(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(&mx_b, LM_WAIT_FOREVER), LM_OK); /* at tick 5 */
    LMT_ST(lm_mutex_unlock(&mx_b), LM_OK);
}

/* Wakes every tick from 2 to 7. */
static void two_tick(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK);
    for (unsigned i = 0; i < 5u; i++) {
        lmt_log("%s", lmt_me());
        LMT_ST(lm_thread_sleep(1), LM_OK);
    }
}

LMT_CASE(stats_unbounded_two_owners)
{
    lmt_begin();
    memset(&mx_a, 0, sizeof mx_a);
    memset(&mx_b, 0, sizeof mx_b);
    LMT_ST(lm_mutex_create(&mx_a, 0u), LM_OK);
    LMT_ST(lm_mutex_create(&mx_b, 0u), LM_OK);
    (void)lmt_spawn("L1", 12, two_l1, NULL);
    (void)lmt_spawn("L2", 10, two_l2, NULL);
    (void)lmt_spawn("H1", 4, two_h1, NULL);
    lm_thread_t *h2 = lmt_spawn("H2", 6, two_h2, NULL);
    lm_thread_t *m = lmt_spawn("M", 8, two_tick, NULL);
    lm_thread_t *n = lmt_spawn("N", 11, two_tick, NULL);
    lmt_run();
    /* M then N at ticks 2 and 3 (both waits: M and N count), 4 (H1's wait
     * has just timed out: b's only, M counts), 5 (L2 wakes too, but M runs
     * first: M counts) and 6 (L2 has handed b to H2: none); and H2, at
     * tick 1, runs once H1 has blocked on a: between H1 and L1 too. */
    lmt_expect("M N M N M N M N M N");
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(m, &s), LM_OK);
    LMT_EQ(s.inversions_unbounded, 4);
    LMT_ST(lm_thread_stats(n, &s), LM_OK);
    LMT_EQ(s.inversions_unbounded, 2);
    LMT_ST(lm_thread_stats(h2, &s), LM_OK);
    LMT_EQ(s.inversions_unbounded, 1);
    lm_kernel_stats_t k;
    lm_kernel_stats(&k);
    LMT_EQ(k.inversions_unbounded, 7);
}

/* Against a reference: random threads lock, unlock, time out on, and
 * change the priorities around, three mutexes (two without inheritance),
 * and are terminated and started again holding them. At every switch the
 * hook recomputes from scratch whether it is an unbounded inversion (some
 * mutex's most urgent waiter more urgent than the thread switched to, and
 * its owner less urgent) and compares with the kernel's count. */
#define RND_THREADS 6u
static lm_mutex_t rnd_mx[3];
static lm_thread_t *rnd_t[RND_THREADS];
static uint32_t rnd_state, rnd_expected, rnd_switches, rnd_mismatch;

static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (unsigned)((rnd_state >> 16) % n);
}

static void rnd_hook(const lm_thread_t *from, const lm_thread_t *to)
{
    (void)from;
    rnd_switches++;
    for (unsigned i = 0; i < 3u; i++) {
        const lm_mutex_t *m = &rnd_mx[i];
        const lm_thread_t *w = lmk_first_waiter(&m->waiters);
        if (m->owner != NULL && w != NULL && w->prio < to->prio && to->prio < m->owner->prio) {
            rnd_expected++;
            break;
        }
    }
    if (lmk.stats.inversions_unbounded != rnd_expected) {
        rnd_mismatch++;
        rnd_expected = lmk.stats.inversions_unbounded; /* report once per divergence */
    }
}

static void rnd_worker(void *arg)
{
    (void)arg;
    for (unsigned round = 0; round < 40u; round++) {
        unsigned a = rnd(3u), b = rnd(3u);
        lm_tick_t to = rnd(4u) == 0u ? LM_WAIT_FOREVER : (lm_tick_t)(1u + rnd(3u));
        lm_status_t sa = lm_mutex_lock(&rnd_mx[a], to);
        bool has_a = (sa == LM_OK || sa == LM_ERR_ABANDONED);
        bool has_b = false;
        if (has_a) { /* b == a: a second level of a */
            lm_status_t sb = lm_mutex_lock(&rnd_mx[b], (lm_tick_t)(1u + rnd(3u)));
            has_b = (sb == LM_OK || sb == LM_ERR_ABANDONED);
        }
        lm_hosted_work(rnd(2u));
        if (rnd(3u) == 0u) {
            LMT_ST(lm_thread_set_priority(rnd_t[rnd(RND_THREADS)], 2u + rnd(12u)), LM_OK);
        }
        if (has_b) {
            LMT_ST(lm_mutex_unlock(&rnd_mx[b]), LM_OK);
        }
        if (has_a) {
            LMT_ST(lm_mutex_unlock(&rnd_mx[a]), LM_OK);
        }
        LMT_ST(lm_thread_sleep(rnd(3u)), LM_OK);
    }
}

/* Ends and starts workers again, mutexes held or waited on. */
static void rnd_reaper(void *arg)
{
    (void)arg;
    for (unsigned round = 0; round < 30u; round++) {
        LMT_ST(lm_thread_sleep(1u + rnd(4u)), LM_OK);
        lm_thread_t *t = rnd_t[rnd(RND_THREADS)];
        if (lm_thread_terminate(t) == LM_OK) {
            LMT_ST(lm_thread_start(t), LM_OK);
        }
    }
}

LMT_CASE(stats_unbounded_reference)
{
    for (uint32_t seed = 1; seed <= 20u; seed++) {
        lmt_begin();
        rnd_state = seed;
        rnd_expected = rnd_switches = rnd_mismatch = 0;
        for (unsigned i = 0; i < 3u; i++) {
            memset(&rnd_mx[i], 0, sizeof rnd_mx[i]);
            LMT_ST(lm_mutex_create(&rnd_mx[i], i == 2u ? LM_MUTEX_INHERIT : 0u), LM_OK);
        }
        for (unsigned i = 0; i < RND_THREADS; i++) {
            rnd_t[i] = lmt_spawn("W", 2u + rnd(12u), rnd_worker, NULL);
        }
        (void)lmt_spawn("R", 1, rnd_reaper, NULL);
        LMT_ST(lm_switch_hook_set(rnd_hook), LM_OK);
        lmt_run();
        LMT_EQ(rnd_mismatch, 0);
        LMT_CHECK(rnd_expected > 0u && rnd_switches > 100u);
    }
}
#endif

#if LM_CFG_STATS_CPU_TIME
#define CPU_TIME_CASES , LMT_RUN(stats_cpu_time)
#else
#define CPU_TIME_CASES
#endif
#if LM_STATS_INVERSIONS
#define INVERSION_CASES                                                                  \
    , LMT_RUN(stats_unbounded_counted), LMT_RUN(stats_unbounded_two_owners),             \
        LMT_RUN(stats_unbounded_reference)
#else
#define INVERSION_CASES
#endif

LMT_MAIN(LMT_RUN(stats_counted), LMT_RUN(stats_bad_input),
         LMT_RUN(stats_no_bounded_inversion) CPU_TIME_CASES INVERSION_CASES)
