/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted port's time is virtual and moves by whole ticks: the system
 * timer is the tick count. */
#include "lmc.h"
#include "lmc_systimer.h"

uint32_t lmc_systimer_count(void)
{
    return lm_tick_now();
}

uint32_t lmc_systimer_freq(void)
{
    return LM_CFG_TICK_HZ;
}
