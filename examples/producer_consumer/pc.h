/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The producer-consumer experiment of seeds 000/001, as a reusable scenario.
 *
 * Threads A, B and C each loop receiving from their own queue (capacity 3,
 * wait forever). Thread D loops: three rounds of one message to A, B and C,
 * then relinquish. A cycle runs from one return of D's relinquish to the next.
 */
#ifndef PC_H
#define PC_H

#include <stdint.h>
#include "limen/limen.h"

typedef enum pc_case {
    PC_EQUAL,     /* A, B, C, D all priority 4 */
    PC_UNIQUE,    /* A=1, B=2, C=3, D=4 */
    PC_THRESHOLD, /* as unique, D's preemption-threshold 1 */
    PC_CONTROL    /* as equal, queue capacity 1: a different count */
} pc_case_t;

typedef struct pc_result {
    const char *name;
    uint32_t cycles;
    uint32_t messages;          /* over the measured cycles */
    uint32_t context_switches;
    uint32_t preemptions;
    uint32_t timestamp_delta;   /* pc_timestamp() over the measured cycles */
} pc_result_t;

/* Run `warmup` cycles, then measure `cycles` cycles. `switch_hook` (may be
 * NULL) sees every switch, measured or not. Ends by calling pc_stop(),
 * which the platform provides (the hosted port ends the simulation). */
void pc_run(pc_case_t c, uint32_t warmup, uint32_t cycles, lm_switch_hook_t switch_hook,
            pc_result_t *out);

/* Provided by the platform: end the run (called from thread D). */
_Noreturn void pc_stop(void);

/* Read (if set) at the start and end of the measured cycles. */
extern uint32_t (*pc_timestamp)(void);

/* Called (if set) by D at each cycle boundary, for tests. */
extern void (*pc_cycle_hook)(uint32_t cycle);

const char *pc_case_name(pc_case_t c);

#endif
