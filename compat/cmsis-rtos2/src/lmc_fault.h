/* SPDX-License-Identifier: Apache-2.0 */
/* Whether the caller is a fault handler (fault_<port>.c): the one context
 * from which the API lets osThreadTerminateZone run. */
#ifndef LMC_FAULT_H
#define LMC_FAULT_H

#include <stdbool.h>

bool lmc_in_fault(void);

#endif /* LMC_FAULT_H */
