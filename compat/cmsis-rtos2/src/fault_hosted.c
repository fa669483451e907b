/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted port has no fault exceptions: a signal is no handler the
 * kernel knows. */
#include "lmc_fault.h"

bool lmc_in_fault(void)
{
    return false;
}
