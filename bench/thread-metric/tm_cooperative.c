/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 2, cooperative scheduling: 5 threads of one priority (3)
 * each relinquish, then count, round robin. Figure: the rise of the sum of
 * the 5 counts, which must stay within 1 of each other.
 */
#include "tmb.h"

#define N 5

static volatile unsigned long count[N];

/* Inlined into each thread's entry, so that id is a constant and each
 * thread runs only its own steps, as five separate loops would. */
static inline __attribute__((always_inline)) void run(int id)
{
    for (;;) {
        tm_thread_relinquish();
        count[id]++;
    }
}

static void t0(void) { run(0); }
static void t1(void) { run(1); }
static void t2(void) { run(2); }
static void t3(void) { run(3); }
static void t4(void) { run(4); }

static volatile unsigned long *const counters[N] = {&count[0], &count[1], &count[2], &count[3],
                                                    &count[4]};
static const tmb_test_t test = {"cooperative", counters, N, N, 1};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    static void (*const entry[N])(void) = {t0, t1, t2, t3, t4};
    for (int i = 0; i < N; i++) {
        (void)tm_thread_create(i, 3, entry[i]);
    }
    for (int i = 0; i < N; i++) {
        (void)tm_thread_resume(i);
    }
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
