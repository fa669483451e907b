/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv6-M: with SysTick as the tick, the system timer is SysTick's count
 * within the current tick added to the ticks so far (as on Armv7-M); with
 * the board's own tick (LM_PORT_BOARD_TICK: the nRF51 has no SysTick) it
 * is the tick count (docs/cmsis-rtos2.md).
 */
#include "lmc.h"
#include "lmc_systimer.h"
#include "limen/port.h"

#if LM_PORT_BOARD_TICK
uint32_t lmc_systimer_count(void)
{
    return lm_tick_now();
}

uint32_t lmc_systimer_freq(void)
{
    return LM_CFG_TICK_HZ;
}
#else
#define LMC_TICK_COUNTS ((uint32_t)(LM_PORT_CPU_HZ / LM_CFG_TICK_HZ))

uint32_t lmc_systimer_count(void)
{
    /* Masked, the tick interrupt cannot run: a reload seen as pending
     * (PENDSTSET) is a tick the kernel has not counted yet. */
    lm_irqstate_t st = lm_port_irq_lock();
    uint32_t ticks = lm_tick_now();
    uint32_t v = LM_SYST_CVR;
    if ((LM_SCB_ICSR & LM_SCB_ICSR_PENDSTSET) != 0u) {
        v = LM_SYST_CVR;
        ticks++;
    }
    lm_port_irq_unlock(st);
    return ticks * LMC_TICK_COUNTS + (LMC_TICK_COUNTS - 1u - v);
}

uint32_t lmc_systimer_freq(void)
{
    return LMC_TICK_COUNTS * LM_CFG_TICK_HZ;
}
#endif
