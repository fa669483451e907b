/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric 6, message processing: one thread (priority 10) sends a
 * 16-byte message to a queue and receives it back, checks it is the one
 * sent, changes it for the next round and counts.
 */
#include "tmb.h"

static volatile unsigned long counter;

static void worker(void)
{
    unsigned long sent[4] = {0x01020304u, 0x05060708u, 0x090A0B0Cu, 0u};
    unsigned long got[4];
    for (;;) {
        (void)tm_queue_send(0, sent);
        (void)tm_queue_receive(0, got);
        if (got[3] != sent[3]) {
            return; /* the figure stops rising: the report says so */
        }
        sent[3]++;
        counter++;
    }
}

static volatile unsigned long *const counters[] = {&counter};
static const tmb_test_t test = {"message", counters, 1u, 0u, 0};

static void report(void)
{
    tmb_report(&test);
}

static void init(void)
{
    (void)tm_thread_create(0, 10, worker);
    (void)tm_queue_create(0);
    (void)tm_thread_resume(0);
    (void)tm_thread_create(TMB_REPORT_ID, TMB_REPORT_PRIORITY, report);
    (void)tm_thread_resume(TMB_REPORT_ID);
}

void tm_main(void);
void tm_main(void)
{
    tm_initialize(init);
}
