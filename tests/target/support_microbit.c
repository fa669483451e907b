/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Target test support on the micro:bit under QEMU: a watchdog on virtual
 * time that fails a run which never ends (TIMER0's compare channel 1, on
 * the free-running count the timestamps read), and a fatal hook that fails
 * the run.
 */
#include <stdio.h>

#include "board.h"
#include "harness.h"
#include "limen/port.h"
#include "nrf51.h"

/* 20 s of virtual time: at -icount shift=0 that is 2e10 instructions,
 * far beyond any test. */
#define WATCHDOG_COUNTS (MICROBIT_TIMESTAMP_HZ * 20u)

void TIMER0_Handler(void);
void TIMER0_Handler(void)
{
    NRF_TIMER_COMPARE(NRF_TIMER0, MICROBIT_WATCHDOG_CC) = 0u;
    lm_board_puts("FAIL watchdog: the test did not finish in 20 s of virtual time\n");
    lm_board_exit(4);
}

static void fatal(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    printf("FAIL fatal error %d at %s (thread %s)\n", (int)reason, where != NULL ? where : "?",
           t != NULL ? lm_thread_name(t) : "-");
    lm_board_exit(5);
}

void lmt_target_init(void)
{
    NRF_TIMER_CC(NRF_TIMER0, MICROBIT_WATCHDOG_CC) = lm_board_timestamp() + WATCHDOG_COUNTS;
    NRF_TIMER_COMPARE(NRF_TIMER0, MICROBIT_WATCHDOG_CC) = 0u;
    NRF_TIMER_INTENSET(NRF_TIMER0) = NRF_TIMER_INT_COMPARE(MICROBIT_WATCHDOG_CC);
    /* Masked by the kernel's lock like every interrupt on Armv6-M, but the
     * most urgent: it runs as soon as no lock is held. */
    lm_nvic_set_priority(NRF_IRQ_TIMER0, 0x00u);
    lm_nvic_enable(NRF_IRQ_TIMER0);
    lm_fatal_hook_set(fatal);
}
