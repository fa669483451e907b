/* SPDX-License-Identifier: Apache-2.0 */
/* Between port.c and newlib.c (LM_CFG_NEWLIB): not part of the API. */
#ifndef LIMEN_ARMV7M_NEWLIB_PORT_H
#define LIMEN_ARMV7M_NEWLIB_PORT_H

#include <stdint.h>

#include "limen/limen.h"

/* lm_port_stack_init: give t its newlib state, carved from the top of its
 * stack (the idle thread shares the global one). Returns the new top. */
uintptr_t lmp_newlib_thread_init(lm_thread_t *t, uintptr_t top);
/* Where every thread but the idle thread starts: sets up newlib for the
 * thread, runs its entry and gives newlib's per-thread resources back. */
void lmp_newlib_thread_entry(lm_thread_t *t);
/* lm_port_start (kernel lock held): a new run; the locks' mutexes of an
 * earlier run are created again on first use. O(1). */
void lmp_newlib_start(void);

#endif
