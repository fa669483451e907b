/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 8, memory allocation: one thread (priority 10) takes a
 * 128-byte block from a pool without waiting, returns it and counts.
 */
#include "tmb.h"

static volatile unsigned long counter;

static void worker(void)
{
    unsigned char *block;
    for (;;) {
        (void)tm_memory_pool_allocate(0, &block);
        if (tm_memory_pool_deallocate(0, block) != TM_SUCCESS) {
            return; /* the figure stops rising: the report says so */
        }
        counter++;
    }
}

static volatile unsigned long *const counters[] = {&counter};
static const tmb_test_t test = {"memory", counters, 1u, 0u, 0};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    (void)tm_thread_create(0, 10, worker);
    (void)tm_memory_pool_create(0);
    (void)tm_thread_resume(0);
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
