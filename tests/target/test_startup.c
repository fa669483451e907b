/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Start-up (include/limen/port.h, lm_port_start): an interrupt that is
 * pending when the kernel first unmasks, and that readies a thread more
 * urgent than the first one, must find the port ready for the switch it
 * asks for: the process stack pointer set, the tick running. The interrupt
 * is made pending by the switch hook, which lm_kernel_start() calls with the
 * kernel lock held, so it is taken at the very first unmask.
 *
 * Two cases, on purpose in this order: a cold start (the first start of the
 * image, PSP still as reset left it) and a start after lm_port_stop() (PSP
 * left in a stack of the earlier run, SysTick stopped).
 */
#include <stdio.h>

#include "board.h"
#include "harness.h"
#include "limen/port.h"

/* An interrupt line the board's vector table serves with IRQ_Handler and
 * nothing else uses: the MPS2 and MPS3 boards name theirs; on the
 * micro:bit's nRF51822, line 5 is unassigned. */
#if defined(MPS2_IRQ_SPARE0)
#define TEST_IRQ MPS2_IRQ_SPARE0
#else
#define TEST_IRQ 5u
#endif

static lm_thread_t *urgent;
static unsigned pends;

void IRQ_Handler(void);
void IRQ_Handler(void)
{
    lmt_log("irq");
    LMT_ST(lm_thread_start(urgent), LM_OK);
}

static void pend_at_start(const lm_thread_t *from, const lm_thread_t *to)
{
    (void)to;
    if (from == NULL) { /* lm_kernel_start(), kernel lock held */
        pends++;
        LM_NVIC_ISPR(TEST_IRQ / 32u) = 1u << (TEST_IRQ % 32u);
    }
}

static void high(void *arg)
{
    (void)arg;
    lmt_log("H");
    /* The tick runs: a sleep ends. */
    LMT_ST(lm_thread_sleep(3), LM_OK);
    lmt_log("H3");
}

static void low(void *arg)
{
    (void)arg;
    lmt_log("L");
}

static void run_with_interrupt_at_start(void)
{
    lmt_begin();
    pends = 0;
    lm_nvic_set_priority(TEST_IRQ, 0x80u); /* kernel-aware */
    lm_nvic_enable(TEST_IRQ);
    urgent = lmt_spawn_ex("H", 1, LM_THRESHOLD_NONE, 0, high, NULL, false);
    lmt_spawn("L", 5, low, NULL);
    LMT_ST(lm_switch_hook_set(pend_at_start), LM_OK);
    lm_tick_t t0 = lm_tick_now();
    lmt_run();
    LMT_ST(lm_switch_hook_set(NULL), LM_OK);
    LMT_EQ(pends, 1);
    /* The interrupt first, then the thread it started, before the first
     * thread the kernel chose; the tick ran. */
    lmt_expect("irq H L H3");
    LMT_EQ(lm_tick_now() - t0, 3);
}

/* Cold start: the first lm_kernel_start() of the image. */
LMT_CASE(interrupt_at_cold_start)
{
    run_with_interrupt_at_start();
}

/* The same after lm_port_stop() ended an earlier run. */
LMT_CASE(interrupt_at_restart)
{
    run_with_interrupt_at_start();
}

LMT_MAIN(LMT_RUN(interrupt_at_cold_start), LMT_RUN(interrupt_at_restart))
