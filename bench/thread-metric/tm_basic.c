/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 1, basic processing: one thread (priority 10) does a fixed
 * amount of arithmetic on a 1,024-word array per count. No kernel call in
 * the loop: the baseline that scales the other tests between machines.
 */
#include "tmb.h"

#define WORDS 1024u

static volatile unsigned long counter;
static volatile unsigned long work[WORDS];

static void worker(void)
{
    for (unsigned i = 0u; i < WORDS; i++) {
        work[i] = 0u;
    }
    for (;;) {
        unsigned long c = counter;
        for (unsigned i = 0u; i < WORDS; i++) {
            unsigned long w = work[i];
            work[i] = (w + c) ^ w;
        }
        counter = c + 1u;
    }
}

static volatile unsigned long *const counters[] = {&counter};
static const tmb_test_t test = {"basic", counters, 1u, 0u, 0};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    (void)tm_thread_create(0, 10, worker);
    (void)tm_thread_resume(0);
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
