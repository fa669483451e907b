/*
 * Target-only behaviour, on the MPS2 boards under QEMU: real NVIC
 * interrupts, a zero-latency interrupt inside a kernel critical section, FPU
 * registers across preemption and interrupts, SysTick-driven timeouts.
 */
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/armv7m.h"
#include "limen/port.h"

#define IRQ_KERNEL 5u  /* kernel-aware: priority below the BASEPRI ceiling */
#define IRQ_ZERO 6u    /* zero-latency: more urgent than the ceiling */
#define IRQ_FPU 7u

static lm_sem_t sem;
static lm_sem_t empty; /* never given: a blocking take on it must be refused */

void IRQ_Handler(void);
void IRQ_Handler(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    unsigned irq = ipsr - 16u;
    if (irq == IRQ_KERNEL) {
        lmt_log("I");
        LMT_ST(lm_sem_give(&sem), LM_OK);
        LMT_ST(lm_sem_take(&empty, 5), LM_ERR_ISR); /* R12.1: no blocking here */
    } else if (irq == IRQ_ZERO) {
        lmt_log("Z");
#if defined(__ARM_FP)
    } else if (irq == IRQ_FPU) {
        /* Clobber the caller-saved FPU registers: lazy stacking must have
         * preserved the interrupted thread's values. */
        __asm volatile("vmov.f32 s0, #1.0\n vmov.f32 s1, #1.0\n vmov.f32 s7, #1.0\n"
                       "vmov.f32 s15, #1.0\n" ::: "s0", "s1", "s7", "s15");
        lmt_log("F");
#endif
    }
}

static void setup_irqs(void)
{
    LMT_ST(lm_sem_create(&empty, 0, 1), LM_OK);
    lm_nvic_set_priority(IRQ_KERNEL, 0x80u);
    lm_nvic_set_priority(IRQ_ZERO, 0x00u);
    lm_nvic_set_priority(IRQ_FPU, 0x80u);
    lm_nvic_enable(IRQ_KERNEL);
    lm_nvic_enable(IRQ_ZERO);
    lm_nvic_enable(IRQ_FPU);
}

static void taker(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK);
    lmt_log("Ht");
}

static void trigger(void *arg)
{
    (void)arg;
    lmt_log("L1");
    lm_nvic_trigger(IRQ_KERNEL);
    lmt_log("L2");
}

/* R12.2: a give from a real interrupt wakes a more urgent thread, which runs
 * as soon as the handler returns, before the interrupted thread goes on. */
LMT_CASE(nvic_interrupt_wakes_thread)
{
    lmt_begin();
    setup_irqs();
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lmt_spawn("H", 1, taker, NULL);
    lmt_spawn("L", 5, trigger, NULL);
    lmt_run();
    lmt_expect("L1 I Ht L2");
}

static void locker(void *arg)
{
    (void)arg;
    lm_irqstate_t s = lm_port_irq_lock();
    lmt_log("in");
    lm_nvic_trigger(IRQ_ZERO);   /* above the ceiling: runs now */
    lm_nvic_trigger(IRQ_KERNEL); /* kernel-aware: waits for the unlock */
    lmt_log("out");
    lm_port_irq_unlock(s);
    lmt_log("after");
}

/* The kernel masks only up to LM_PORT_BASEPRI: a more urgent interrupt runs
 * inside a kernel critical section, a kernel-aware one waits. */
LMT_CASE(zero_latency_interrupt_runs_in_critical_section)
{
    lmt_begin();
    setup_irqs();
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lmt_spawn("K", 3, locker, NULL);
    lmt_run();
    lmt_expect("in Z out I after");
}

static void sleeper(void *arg)
{
    (void)arg;
    lm_tick_t t0 = lm_tick_now();
    LMT_ST(lm_thread_sleep(5), LM_OK);
    LMT_EQ(lm_tick_now() - t0, 5);
    t0 = lm_tick_now();
    LMT_ST(lm_sem_take(&sem, 3), LM_ERR_TIMEOUT);
    LMT_EQ(lm_tick_now() - t0, 3);
    lmt_log("done");
}

/* R8.2, R8.4 with SysTick as the time source. */
LMT_CASE(systick_timeouts_are_exact)
{
    lmt_begin();
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_run();
    lmt_expect("done");
}

#if defined(__ARM_FP)
static volatile uint32_t other_ran;
static float fpu_in[32], fpu_out[32];

/* Load s0-s31, wait (without calls, which could use FPU registers) until
 * `other_ran` changes, optionally triggering an FPU-clobbering interrupt
 * first, then store s0-s31. */
static void fpu_hold(bool irq)
{
    __asm volatile("vldm %[in], {s0-s31}\n" ::[in] "r"(fpu_in) : "memory");
    if (irq) {
        LM_NVIC_STIR = IRQ_FPU;
        __asm volatile("dsb\n isb");
    }
    __asm volatile("1: ldr r1, [%[flag]]\n"
                   "cmp r1, #0\n"
                   "beq 1b\n"
                   "vstm %[out], {s0-s31}\n" ::[flag] "r"(&other_ran),
                   [out] "r"(fpu_out)
                   : "r1", "memory", "cc");
}

static void fpu_holder(void *arg)
{
    fpu_hold(arg != NULL);
    LMT_CHECK(memcmp(fpu_in, fpu_out, sizeof fpu_in) == 0);
    lmt_log("A-ok");
}

static void fpu_clobberer(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* SysTick wakes us: we preempt A */
    __asm volatile("vmov.f32 s0, #2.0\n vmov.f32 s8, #2.0\n vmov.f32 s16, #2.0\n"
                   "vmov.f32 s24, #2.0\n vmov.f32 s31, #2.0\n" ::: "s0", "s8", "s16", "s24", "s31");
    other_ran = 1;
    lmt_log("B");
}

static void fpu_case(bool irq, const char *expected)
{
    lmt_begin();
    setup_irqs();
    other_ran = 0;
    for (unsigned i = 0; i < 32u; i++) {
        fpu_in[i] = (float)i + 0.5f;
        fpu_out[i] = 0.0f;
    }
    lmt_spawn("A", 5, fpu_holder, irq ? (void *)1 : NULL);
    lmt_spawn("B", 1, fpu_clobberer, NULL);
    lmt_run();
    lmt_expect(expected);
}

/* A thread's FPU registers survive preemption by an FPU-using thread and an
 * FPU-using interrupt (lazy stacking plus the S16-S31 save in PendSV). */
LMT_CASE(fpu_registers_survive_preemption)
{
    fpu_case(false, "B A-ok");
}

LMT_CASE(fpu_registers_survive_interrupt)
{
    fpu_case(true, "F B A-ok");
}
#endif

LMT_MAIN(LMT_RUN(nvic_interrupt_wakes_thread),
         LMT_RUN(zero_latency_interrupt_runs_in_critical_section),
         LMT_RUN(systick_timeouts_are_exact)
#if defined(__ARM_FP)
         , LMT_RUN(fpu_registers_survive_preemption), LMT_RUN(fpu_registers_survive_interrupt)
#endif
)
