/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's statistics (LM_CFG_STATS, docs/trace.md "Kernel
 * statistics"): each counter counted where docs/trace.md says, system-wide
 * and per thread, and the two resets.
 */
#include <string.h>
#include "harness.h"

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

#if LM_CFG_STATS_CPU_TIME
#define CPU_TIME_CASES , LMT_RUN(stats_cpu_time)
#else
#define CPU_TIME_CASES
#endif

LMT_MAIN(LMT_RUN(stats_counted), LMT_RUN(stats_bad_input),
         LMT_RUN(stats_no_bounded_inversion) CPU_TIME_CASES)
