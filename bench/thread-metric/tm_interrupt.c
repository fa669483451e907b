/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 4, interrupt processing: one thread (priority 10) raises an
 * interrupt (TM_CAUSE_INTERRUPT: NVIC STIR); the handler counts and puts a
 * binary semaphore; back in the thread, it gets the semaphore without
 * waiting and counts. No switch: the handler readies nobody. Figure: the
 * handler's count; the two counts stay within 1 of each other.
 */
#include "tmb.h"

static volatile unsigned long thread_count;
static volatile unsigned long handler_count;

void tm_interrupt_handler(void);
void tm_interrupt_handler(void)
{
    handler_count++;
    (void)tm_semaphore_put(0);
}

static void worker(void)
{
    /* The semaphore starts at 1: take it first, so each get below is the
     * handler's put. */
    if (tm_semaphore_get(0) != TM_SUCCESS) {
        return;
    }
    for (;;) {
        TM_CAUSE_INTERRUPT
        if (tm_semaphore_get(0) != TM_SUCCESS) {
            return; /* the figure stops rising: the report says so */
        }
        thread_count++;
    }
}

static volatile unsigned long *const counters[] = {&handler_count, &thread_count};
static const tmb_test_t test = {"interrupt", counters, 2u, 0u, 1};

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
