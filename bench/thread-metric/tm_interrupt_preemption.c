/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 5, interrupt preemption processing: thread 1 (priority 10)
 * raises an interrupt (NVIC STIR); the handler counts and resumes thread 0
 * (priority 3), which preempts thread 1 as the handler returns, counts and
 * suspends itself; thread 1 then counts and raises the next. Figure: the
 * handler's count; the three counts stay within 1 of each other.
 */
#include "tmb.h"

static volatile unsigned long preempting_count;
static volatile unsigned long raising_count;
static volatile unsigned long handler_count;

void tm_interrupt_preemption_handler(void);
void tm_interrupt_preemption_handler(void)
{
    handler_count++;
    (void)tm_thread_resume(0);
}

static void preempting(void)
{
    for (;;) {
        preempting_count++;
        (void)tm_thread_suspend(0);
    }
}

static void raising(void)
{
    for (;;) {
        TM_CAUSE_INTERRUPT
        raising_count++;
    }
}

static volatile unsigned long *const counters[] = {&handler_count, &preempting_count,
                                                   &raising_count};
static const tmb_test_t test = {"interrupt_preemption", counters, 3u, 0u, 1};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    (void)tm_thread_create(0, 3, preempting);
    (void)tm_thread_create(1, 10, raising);
    (void)tm_thread_resume(1);
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
