/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Control-block sizes, read without running anything: each object below is
 * exactly as large as one kernel type, so `nm -S` on the compiled object file
 * gives sizeof() for the target the compiler was built for. `./limen sizes`
 * compiles this file for Cortex-M at several priority counts and prints the
 * table that docs/design.md carries.
 */
#include "limen/limen.h"

char lm_sizeof_thread[sizeof(lm_thread_t)];
char lm_sizeof_sem[sizeof(lm_sem_t)];
char lm_sizeof_mutex[sizeof(lm_mutex_t)];
char lm_sizeof_queue[sizeof(lm_queue_t)];
char lm_sizeof_pqueue[sizeof(lm_pqueue_t)];
char lm_sizeof_flags[sizeof(lm_flags_t)];
char lm_sizeof_pool[sizeof(lm_pool_t)];
char lm_sizeof_timer[sizeof(lm_timer_t)];
char lm_sizeof_prioq[sizeof(struct lm_prioq)];
char lm_sizeof_waitq[sizeof(struct lm_waitq)];
