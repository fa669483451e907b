/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 3, preemptive scheduling: 5 threads of priorities 10 (id
 * 0, least urgent) to 6 (id 4). Only thread 0 starts ready. Each thread
 * resumes the next more urgent one (which preempts it at once), and once
 * that one has suspended itself, counts and suspends itself; thread 4 only
 * counts and suspends; thread 0 counts and starts over. Figure: the rise
 * of the sum of the 5 counts, which must stay within 1 of each other.
 */
#include "tmb.h"

#define N 5

static volatile unsigned long count[N];

/* Inlined into each thread's entry, so that id is a constant and each
 * thread runs only its own steps, as five separate loops would. */
static inline __attribute__((always_inline)) void run(int id)
{
    for (;;) {
        if (id < N - 1) {
            (void)tm_thread_resume(id + 1);
        }
        count[id]++;
        if (id > 0) {
            (void)tm_thread_suspend(id);
        }
    }
}

static void t0(void) { run(0); }
static void t1(void) { run(1); }
static void t2(void) { run(2); }
static void t3(void) { run(3); }
static void t4(void) { run(4); }

static volatile unsigned long *const counters[N] = {&count[0], &count[1], &count[2], &count[3],
                                                    &count[4]};
static const tmb_test_t test = {"preemptive", counters, N, N, 1};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    static void (*const entry[N])(void) = {t0, t1, t2, t3, t4};
    for (int i = 0; i < N; i++) {
        (void)tm_thread_create(i, 10 - i, entry[i]);
    }
    (void)tm_thread_resume(0);
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
