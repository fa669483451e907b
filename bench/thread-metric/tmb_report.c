/* SPDX-License-Identifier: Apache-2.0 */
/* The reporting thread of Limen's Thread-Metric tests (tmb.h). It runs
 * between periods only; its printing falls in the next period, as in the
 * suite (negligible against 1e9 instructions). */
#include <stdio.h>

#include "tmb.h"

static int balanced(const unsigned long *now, unsigned count)
{
    unsigned long sum = 0u;
    for (unsigned i = 0u; i < count; i++) {
        sum += now[i];
    }
    unsigned long average = sum / count;
    for (unsigned i = 0u; i < count; i++) {
        if (now[i] + 1u < average || now[i] > average + 1u) {
            return 0;
        }
    }
    return 1;
}

_Noreturn void tmb_report(const tmb_test_t *t)
{
    unsigned long last[TMB_MAX_COUNTERS] = {0u};
    unsigned long now[TMB_MAX_COUNTERS];
    for (unsigned long period = 1u;; period++) {
        tm_thread_sleep(TM_TEST_DURATION);
        for (unsigned i = 0u; i < t->count; i++) {
            now[i] = *t->counters[i];
        }
        unsigned long total = 0u;
        for (unsigned i = 0u; i < t->count; i++) {
            if (t->figure == t->count || t->figure == i) {
                total += now[i] - last[i];
            }
        }
        int ok = total != 0u && (!t->balanced || balanced(now, t->count));
        printf("TM %s period=%lu total=%lu ok=%d", t->name, period, total, ok);
        for (unsigned i = 0u; i < t->count; i++) {
            printf(" c%u=%lu", i, now[i] - last[i]);
            last[i] = now[i];
        }
        printf("\n");
    }
}
