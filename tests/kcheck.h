/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel consistency check, for tests only (white-box: it reads the kernel's
 * internal structures through kernel/include/lmk.h).
 *
 * The kernel keeps no registry of threads and objects, so the test tells the
 * check which ones exist (lmt_kc_add_*); lmt_kc_check() then walks the ready
 * queue, every wait queue and every list it can reach from them and returns
 * a description of the first broken invariant, or NULL. What it checks is
 * listed in tests/kcheck.c and docs/sweep.md.
 *
 * Call it with the kernel quiet: from the main program after a run, or from
 * a thread (it takes the kernel lock itself). It changes nothing.
 */
#ifndef LMT_KCHECK_H
#define LMT_KCHECK_H

#include <stdbool.h>
#include "limen/limen.h"

/* Forget every registered thread and object (call before a new run). */
void lmt_kc_reset(void);

void lmt_kc_add_thread(lm_thread_t *t);
#if LM_CFG_SEM
void lmt_kc_add_sem(lm_sem_t *s);
#endif
#if LM_CFG_MUTEX
void lmt_kc_add_mutex(lm_mutex_t *m);
#endif
#if LM_CFG_QUEUE
void lmt_kc_add_queue(lm_queue_t *q);
#endif
#if LM_CFG_FLAGS
void lmt_kc_add_flags(lm_flags_t *f);
#endif
#if LM_CFG_POOL
void lmt_kc_add_pool(lm_pool_t *p);
#endif
#if LM_CFG_TIMER
void lmt_kc_add_timer(lm_timer_t *tm);
#endif

/*
 * NULL if every invariant holds, else a one-line description of the first
 * one broken (a static buffer, valid until the next call).
 * `settled`: also check what holds once every multi-step operation (delete,
 * flush, flags set; R9) has finished: no waiter left on a deleted object or
 * on a free mutex, no sender waiting while its queue has room, no flags
 * waiter whose bits are set, no flags scan under way, no deleted timer
 * armed.
 */
const char *lmt_kc_check(bool settled);

#endif
