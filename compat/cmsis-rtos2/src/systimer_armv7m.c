/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv7-M: the system timer is SysTick's count within the current tick
 * added to the ticks so far, so it resolves one SysTick clock. With the
 * periodic tick SysTick reloads every tick; with LM_CFG_TICKLESS the port
 * stretches its period while idle, and the count falls back to tick
 * resolution (docs/cmsis-rtos2.md).
 */
#include "lmc.h"
#include "lmc_systimer.h"
#include "limen/armv7m.h"

#define LMC_TICK_COUNTS ((uint32_t)(LM_PORT_CPU_HZ / LM_CFG_TICK_HZ))

uint32_t lmc_systimer_count(void)
{
#if LM_CFG_TICKLESS
    return lm_tick_now() * LMC_TICK_COUNTS;
#else
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
#endif
}

uint32_t lmc_systimer_freq(void)
{
    return LMC_TICK_COUNTS * LM_CFG_TICK_HZ;
}
