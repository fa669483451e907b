/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Target test support (MPS2 boards under QEMU): a watchdog on virtual time
 * that fails a run which never ends, and a fatal hook that fails the run.
 */
#include <stdio.h>

#include "board.h"
#include "harness.h"
#include "limen/armv7m.h"

#define TIMER0_BASE MPS2_TIMER0_BASE
#define T0_CTRL LM_REG32(TIMER0_BASE + 0x00u)
#define T0_VALUE LM_REG32(TIMER0_BASE + 0x04u)
#define T0_RELOAD LM_REG32(TIMER0_BASE + 0x08u)
#define T0_INTCLEAR LM_REG32(TIMER0_BASE + 0x0Cu)
#define T_CTRL_EN (1u << 0)
#define T_CTRL_IRQEN (1u << 3)

/* 20 s of virtual time: at -icount shift=0 that is 2e10 instructions,
 * far beyond any test. */
#define WATCHDOG_COUNTS (MPS2_SYSCLK_HZ * 20u)

#if defined(MPS2_TIMER0_BASE) /* else ctest's timeout alone (mps3-an547) */
void TIMER0_Handler(void);
void TIMER0_Handler(void)
{
    T0_INTCLEAR = 1u;
    lm_board_puts("FAIL watchdog: the test did not finish in 20 s of virtual time\n");
    lm_board_exit(4);
}
#endif

static void fatal(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    printf("FAIL fatal error %d at %s (thread %s)\n", (int)reason, where != NULL ? where : "?",
           t != NULL ? lm_thread_name(t) : "-");
    lm_board_exit(5);
}

void lmt_target_init(void)
{
#if defined(MPS2_TIMER0_BASE)
    T0_RELOAD = WATCHDOG_COUNTS;
    T0_VALUE = WATCHDOG_COUNTS;
    T0_CTRL = T_CTRL_EN | T_CTRL_IRQEN;
    /* Above the kernel's BASEPRI ceiling: the watchdog fires even if the
     * kernel is stuck in a critical section. */
    lm_nvic_set_priority(MPS2_IRQ_TIMER0, 0x00u);
    lm_nvic_enable(MPS2_IRQ_TIMER0);
#endif
    lm_fatal_hook_set(fatal);
}
