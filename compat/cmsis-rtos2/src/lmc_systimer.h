/* SPDX-License-Identifier: Apache-2.0 */
/* The system timer, one file per port (systimer_<port>.c). */
#ifndef LMC_SYSTIMER_H
#define LMC_SYSTIMER_H

#include <stdint.h>

/* A free-running count at lmc_systimer_freq() Hz, finer than the tick where
 * the port allows. Context: any. Cost: O(1). */
uint32_t lmc_systimer_count(void);
uint32_t lmc_systimer_freq(void);

#endif
