/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Target test support (MPS2 boards under QEMU): a watchdog on virtual time
 * that fails a run which never ends, and a fatal hook that fails the run.
 */
#include <stdio.h>

#include "board.h"
#include "harness.h"
#include "lmt_timer.h"
#include "limen/port.h"

#define TIMER0_BASE MPS2_TIMER0_BASE /* not on mps3-an547: below */
#define T0_CTRL LM_REG32(TIMER0_BASE + 0x00u)
#define T0_VALUE LM_REG32(TIMER0_BASE + 0x04u)
#define T0_RELOAD LM_REG32(TIMER0_BASE + 0x08u)
#define T0_INTCLEAR LM_REG32(TIMER0_BASE + 0x0Cu)
#define T_CTRL_EN (1u << 0)
#define T_CTRL_IRQEN (1u << 3)

/* 20 s of virtual time: at -icount shift=0 that is 2e10 instructions,
 * far beyond any test. */
#define WATCHDOG_COUNTS (MPS2_SYSCLK_HZ * 20u)

#if defined(MPS_TZ_SYSTIMER0_BASE)
/* The SSE-300 (mps3-an547) has no CMSDK timer: its system timer 0 counts
 * the system counter, which runs at the system clock once enabled. Its
 * compare value is a multiple of four counts, as QEMU needs
 * (lmt_timer_sse300.h). */
#define SYSCOUNTER_CNTCR LM_REG32(MPS_TZ_SYSCOUNTER_CTRL_BASE)
#define SYSCOUNTER_CNTCV_LO LM_REG32(MPS_TZ_SYSCOUNTER_CTRL_BASE + 0x08u)
#define SYSTIMER_CVAL_LO LM_REG32(MPS_TZ_SYSTIMER0_BASE + 0x20u)
#define SYSTIMER_CVAL_HI LM_REG32(MPS_TZ_SYSTIMER0_BASE + 0x24u)
#define SYSTIMER_CTL LM_REG32(MPS_TZ_SYSTIMER0_BASE + 0x2Cu)
_Static_assert(WATCHDOG_COUNTS % 4u == 0u, "a whole number of nanoseconds");
#endif

void TIMER0_Handler(void);
void TIMER0_Handler(void)
{
#if defined(MPS_TZ_SYSTIMER0_BASE)
    SYSTIMER_CTL = 0u;
#else
    T0_INTCLEAR = 1u;
#endif
    lm_board_puts("FAIL watchdog: the test did not finish in 20 s of virtual time\n");
    lm_board_exit(4);
}

static void fatal(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    printf("FAIL fatal error %d at %s (thread %s)\n", (int)reason, where != NULL ? where : "?",
           t != NULL ? lm_thread_name(t) : "-");
    lm_board_exit(5);
}

void lmt_watchdog_restart(void)
{
#if defined(MPS_TZ_SYSTIMER0_BASE)
    uint32_t now = SYSCOUNTER_CNTCV_LO;
    SYSTIMER_CVAL_HI = 0u;
    SYSTIMER_CVAL_LO = now - now % 4u + WATCHDOG_COUNTS;
#else
    T0_VALUE = WATCHDOG_COUNTS;
#endif
}

void lmt_target_init(void)
{
#if defined(MPS_TZ_SYSTIMER0_BASE)
    SYSCOUNTER_CNTCR = 1u; /* EN */
    lmt_watchdog_restart();
    SYSTIMER_CTL = 1u; /* ENABLE, interrupt not masked */
#else
    T0_RELOAD = WATCHDOG_COUNTS;
    T0_VALUE = WATCHDOG_COUNTS;
    T0_CTRL = T_CTRL_EN | T_CTRL_IRQEN;
#endif
    /* Above the kernel's BASEPRI ceiling: the watchdog fires even if the
     * kernel is stuck in a critical section. */
    lm_nvic_set_priority(MPS2_IRQ_TIMER0, 0x00u);
    lm_nvic_enable(MPS2_IRQ_TIMER0);
    lm_fatal_hook_set(fatal);
#if defined(__ARM_ARCH_6M__)
    /* Armv6-M code on an Armv7-M core (mps2-an385-v6m) traps unaligned
     * accesses as an Armv6-M core would (CCR.UNALIGN_TRP; on Armv6-M the
     * bit reads as one and ignores the write). */
    LM_REG32(0xE000ED14u) |= 1u << 3;
#endif
}
