/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What Limen's eight Thread-Metric tests share: the reporting thread.
 *
 * Every counter a test reports is volatile. At -O2 a compiler may keep a
 * plain global counter in a register inside a loop that calls nothing it
 * cannot see (the basic processing loop is one) and store it never, so the
 * reporting thread would read 0; volatile makes every increment a store.
 * The report also refuses a period in which the figure did not move.
 */
#ifndef TMB_H
#define TMB_H

#include "tm_api.h"

#define TMB_MAX_COUNTERS 5u
/* Reporting thread: Thread-Metric id 5, priority 2 (above every worker). */
#define TMB_REPORT_ID 5
#define TMB_REPORT_PRIORITY 2

typedef struct tmb_test {
    const char *name;                         /* result key */
    volatile unsigned long *const *counters;  /* all the test's counters */
    unsigned count;
    unsigned figure;    /* index of the counter whose rise is the figure;
                           count: the rise of their sum */
    int balanced;       /* every counter within 1 of their average */
} tmb_test_t;

/* The reporting thread's body: sleeps one period, then prints
 * "TM <name> period=<n> total=<figure> ok=<0|1> c0=<rise> ...". */
_Noreturn void tmb_report(const tmb_test_t *t);

#endif
