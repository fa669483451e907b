/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EXPECTED FAILURES of the interrupt-placement sweep (sweep.h). One place,
 * read by both drivers. Each entry is a (scenario, action) pair that breaks
 * an invariant on this kernel because of a known defect (issue 10); the
 * sweep runs it, prints XFAIL with the reason and does not fail on it. When
 * a fix lands and the pair passes, the sweep prints XPASS: delete the entry.
 * A scenario or action of "*" matches any.
 */
#include <string.h>
#include "sweep.h"

struct xfail {
    const char *scenario;
    const char *action;
    const char *reason;
};

/* Empty: every pair the sweep found on the kernel before issue 10's fixes
 * (the delete walks overtaken by a create, terminated or suspended between
 * steps; flushes and flags sets likewise; starts and blocking calls whose
 * object changed between their check and their lock) now passes; see
 * docs/sweep.md "Findings". A new entry needs its reason. */
static const struct xfail xfails[] = {
    {NULL, NULL, NULL},
};

const char *sw_expected_failure(const char *scenario, const char *action)
{
    for (unsigned i = 0; xfails[i].scenario != NULL; i++) {
        const struct xfail *x = &xfails[i];
        if ((strcmp(x->scenario, "*") == 0 || strcmp(x->scenario, scenario) == 0) &&
            (strcmp(x->action, "*") == 0 || strcmp(x->action, action) == 0)) {
            return x->reason;
        }
    }
    return NULL;
}
