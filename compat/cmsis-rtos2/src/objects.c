/* SPDX-License-Identifier: Apache-2.0 */
/* osKernelInitialize empties every object pool. */
#include "lmc.h"

void lmc_event_flags_reset(void);
void lmc_mutexes_reset(void);
void lmc_semaphores_reset(void);
void lmc_mempools_reset(void);
void lmc_msgqueues_reset(void);

void lmc_objects_reset(void)
{
    lmc_event_flags_reset();
    lmc_mutexes_reset();
    lmc_semaphores_reset();
    lmc_mempools_reset();
    lmc_msgqueues_reset();
}
