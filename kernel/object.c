/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Object life cycle: how creates and deletes keep every other context off a
 * control block while they work on it.
 *
 * With argument checks on, the magic word says what a control block is:
 *
 *     0 / garbage --create (one masked step)--> live magic
 *     live magic  --delete begins--> BUSY --delete's last step--> 0
 *
 * A call checks the word before it takes the lock and again once it holds
 * it (LMK_DEAD_LOCKED), so whatever came in between, it acts only on a live
 * object. A create refuses a live or busy block, so a delete's walk cannot
 * be overtaken by a create of the same block. A delete's walk, a flush and
 * a flags set hold the scheduler lock from their first step to their last
 * (lmk_walk_begin_locked): no thread they wake can act before they end.
 *
 * With checks off there is no magic word: the application guarantees that
 * it creates and deletes an object only when nothing else can use it.
 */
#include "lmk.h"

#if LM_CFG_ARG_CHECKS
/* Context: thread, isr. Lock: held. Cost: O(1). */
lm_status_t lmk_create_check_locked(const uint32_t *magic, uint32_t live)
{
    if (!lmk.initialised) {
        return LM_ERR_INIT;
    }
    if (*magic == live || *magic == LMK_MAGIC_BUSY) {
        return LM_ERR_STATE;
    }
    return LM_OK;
}
#endif

/* Context: the walker's. Lock: held. Cost: O(1). */
void lmk_walk_end_locked(void)
{
    if (!lm_port_in_isr()) {
        lmk.sched_lock--;
        /* What the walk woke, held back until now, may preempt (R9). */
        lmk_sched_decide_locked();
    }
}
