/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 7, synchronization processing: one thread (priority 10)
 * gets a binary semaphore without waiting, puts it back and counts.
 */
#include "tmb.h"

static volatile unsigned long counter;

static void worker(void)
{
    for (;;) {
        (void)tm_semaphore_get(0);
        if (tm_semaphore_put(0) != TM_SUCCESS) {
            return; /* the figure stops rising: the report says so */
        }
        counter++;
    }
}

static volatile unsigned long *const counters[] = {&counter};
static const tmb_test_t test = {"synchronization", counters, 1u, 0u, 0};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    (void)tm_thread_create(0, 10, worker);
    (void)tm_semaphore_create(0);
    (void)tm_thread_resume(0);
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
