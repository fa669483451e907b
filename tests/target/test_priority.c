/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interrupt priority checks of the Armv7-M port (docs/porting.md,
 * "Interrupt priorities": the per-lock check with LM_PORT_CHECK_PRIORITY,
 * the grouping check at start, with the kernel's asserts).
 * A mistake must end in the fatal hook with LM_FATAL_PORT and say which,
 * and change nothing on the way: the run passes only if the hook sees
 * exactly that. Built twice:
 *   - test_priority: a handler at a "zero-latency" priority, above
 *     LM_PORT_BASEPRI, gives a semaphore. Before it, the cases that must
 *     pass: a handler at the ceiling itself may call the kernel, and the
 *     Cortex-M7 r0p1 detection from CPUID.
 *   - test_priority_group (PRIORITY_GROUPING): AIRCR.PRIGROUP set so that
 *     the group priority is too coarse for LM_PORT_BASEPRI; the kernel must
 *     refuse to start.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/armv7m.h"

#if !LM_PORT_CHECK_PRIORITY && !defined(PRIORITY_GROUPING)
#error "build this test with LM_PORT_CHECK_PRIORITY=1"
#endif

#define IRQ_AT_CEILING (MPS2_IRQ_SPARE0 + 1u)
#define IRQ_ZERO_LATENCY (MPS2_IRQ_SPARE0 + 2u)

static lm_sem_t sem;
static const char *expected_where;

static void expect_port_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    (void)t;
    uint32_t count = 99u;
    (void)lm_sem_count(&sem, &count);
    if (reason == LM_FATAL_PORT && where != NULL && strcmp(where, expected_where) == 0 &&
        count == 0u) {
        printf("ok - fatal error reported: %s\n", where);
        lm_board_exit(0);
    }
    printf("FAIL fatal error %d at %s, semaphore count %u\n", (int)reason,
           where != NULL ? where : "?", (unsigned)count);
    lm_board_exit(1);
}

void IRQ_Handler(void);
void IRQ_Handler(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    lmt_log("irq%u", (unsigned)(ipsr - 16u));
    (void)lm_sem_give(&sem);
}

#if !defined(PRIORITY_GROUPING)

static void pend(unsigned irq)
{
    LM_NVIC_ISPR(irq / 32u) = 1u << (irq % 32u);
    __asm volatile("dsb\n isb" ::: "memory");
}

/* Cortex-M7 r0p1 is told from its CPUID alone; this board's own core
 * decides whether the locks apply the workaround. */
LMT_CASE(erratum_837070_from_cpuid)
{
    LMT_CHECK(lm_armv7m_cpuid_has_837070(0x410FC271u));  /* Cortex-M7 r0p1 */
    LMT_CHECK(!lm_armv7m_cpuid_has_837070(0x410FC270u)); /* r0p0 */
    LMT_CHECK(!lm_armv7m_cpuid_has_837070(0x411FC272u)); /* r1p2 */
    LMT_CHECK(!lm_armv7m_cpuid_has_837070(0x410FC241u)); /* Cortex-M4 r0p1 */
    uint32_t cpuid = LM_SCB_CPUID;
    printf("# CPUID 0x%08lx, erratum 837070 workaround %s (LM_PORT_ERRATUM_837070 %d)\n",
           (unsigned long)cpuid, lm_armv7m_erratum_837070 ? "on" : "off",
           LM_PORT_ERRATUM_837070);
#if LM_PORT_ERRATUM_837070 == 2
    LMT_EQ(lm_armv7m_erratum_837070, lm_armv7m_cpuid_has_837070(cpuid));
#else
    LMT_EQ(lm_armv7m_erratum_837070, LM_PORT_ERRATUM_837070 != 0);
#endif
}

static void at_ceiling(void *arg)
{
    (void)arg;
    pend(IRQ_AT_CEILING);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_OK);
    lmt_log("T");
}

/* A handler at exactly LM_PORT_BASEPRI is masked by the lock: it may call
 * the kernel. */
LMT_CASE(handler_at_the_ceiling_may_call)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lm_nvic_set_priority(IRQ_AT_CEILING, (uint8_t)LM_PORT_BASEPRI);
    lm_nvic_enable(IRQ_AT_CEILING);
    lmt_spawn("T", 1, at_ceiling, NULL);
    lmt_run();
    char expected[16];
    snprintf(expected, sizeof expected, "irq%u T", (unsigned)IRQ_AT_CEILING);
    lmt_expect(expected);
}

static void above_ceiling(void *arg)
{
    (void)arg;
    pend(IRQ_ZERO_LATENCY);
    printf("FAIL a handler above LM_PORT_BASEPRI called the kernel unnoticed (trace: %s)\n",
           lmt_trace());
    lm_board_exit(1);
}

/* A handler above the ceiling that calls the kernel is stopped at the
 * lock, before it changes anything. Last: it ends the run. */
LMT_CASE(kernel_call_above_the_ceiling_is_fatal)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    expected_where = "kernel call from an interrupt above LM_PORT_BASEPRI";
    lm_fatal_hook_set(expect_port_fatal);
    lm_nvic_set_priority(IRQ_ZERO_LATENCY, 0x00u);
    lm_nvic_enable(IRQ_ZERO_LATENCY);
    lmt_spawn("T", 1, above_ceiling, NULL);
    lmt_run();
}

LMT_MAIN(LMT_RUN(erratum_837070_from_cpuid), LMT_RUN(handler_at_the_ceiling_may_call),
         LMT_RUN(kernel_call_above_the_ceiling_is_fatal))

#else

static void never(void *arg)
{
    (void)arg;
    printf("FAIL the kernel started under AIRCR.PRIGROUP %lu\n",
           (unsigned long)LM_SCB_AIRCR_PRIGROUP(LM_SCB_AIRCR));
    lm_board_exit(1);
}

/* With 2 bits of group priority ([7:6]), LM_PORT_BASEPRI 0x20 would become
 * group 0 and mask the zero-latency interrupts too. */
LMT_CASE(incompatible_priority_grouping_is_fatal)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    expected_where = "AIRCR.PRIGROUP splits LM_PORT_BASEPRI's priority group";
    lm_fatal_hook_set(expect_port_fatal);
    LM_SCB_AIRCR = LM_SCB_AIRCR_VECTKEY | (5u << 8);
    LMT_EQ(LM_SCB_AIRCR_PRIGROUP(LM_SCB_AIRCR), 5);
    lmt_spawn("T", 1, never, NULL);
    lmt_run();
    printf("FAIL lm_kernel_start returned under AIRCR.PRIGROUP 5\n");
    lm_board_exit(1);
}

LMT_MAIN(LMT_RUN(incompatible_priority_grouping_is_fatal))

#endif
