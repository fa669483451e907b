/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Target-only behaviour, on the MPS2 boards under QEMU: real NVIC
 * interrupts, a zero-latency interrupt inside a kernel critical section, FPU
 * registers across preemption and interrupts, SysTick-driven timeouts,
 * interrupts that arrive in the middle of a context switch, and the
 * kernel lock leaving PRIMASK alone. Built twice: on the default kernel
 * (test_target) and on the tickless one (test_target_tickless). On the
 * Armv6-M port (mps2-an385-v6m) the lock is PRIMASK: the zero-latency and
 * PRIMASK cases are left out (test_armv6m.c has that port's), the rest run.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/port.h"
#include "lmt_timer.h"

#define IRQ_KERNEL MPS2_IRQ_SPARE0  /* kernel-aware: priority below the BASEPRI ceiling */
#define IRQ_ZERO (MPS2_IRQ_SPARE0 + 1u)    /* zero-latency: more urgent than the ceiling */
#define IRQ_FPU (MPS2_IRQ_SPARE0 + 2u)

static lm_sem_t sem;
static volatile uint32_t zero_saw_basepri; /* BASEPRI when IRQ_ZERO ran */
static volatile uint32_t kernel_irqs;      /* IRQ_KERNEL handler runs */
static lm_sem_t empty; /* never given: a blocking take on it must be refused */

void IRQ_Handler(void);
void IRQ_Handler(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    unsigned irq = ipsr - 16u;
    if (irq == IRQ_KERNEL) {
        kernel_irqs++;
        lmt_log("I");
        LMT_ST(lm_sem_give(&sem), LM_OK);
        LMT_ST(lm_sem_take(&empty, 5), LM_ERR_ISR); /* R12.1: no blocking here */
#if !defined(__ARM_ARCH_6M__)
    } else if (irq == IRQ_ZERO) {
        uint32_t bp;
        __asm volatile("mrs %0, basepri" : "=r"(bp));
        zero_saw_basepri = bp; /* not banked: what the interrupted code had */
        lmt_log("Z");
#endif
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
    memset(&empty, 0, sizeof empty);
    LMT_ST(lm_sem_create(&empty, 0, 1), LM_OK);
    lm_nvic_set_priority(IRQ_KERNEL, 0x80u);
    lm_nvic_set_priority(IRQ_ZERO, 0x00u);
    lm_nvic_set_priority(IRQ_FPU, 0x80u);
    lm_nvic_enable(IRQ_KERNEL);
    lm_nvic_enable(IRQ_ZERO);
    lm_nvic_enable(IRQ_FPU);
    lmt_timer_enable(); /* the test timer's channel 0 (lmt_timer.h) */
    zero_saw_basepri = 0xFFu;
    kernel_irqs = 0u;
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
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lmt_spawn("H", 1, taker, NULL);
    lmt_spawn("L", 5, trigger, NULL);
    lmt_run();
    lmt_expect("L1 I Ht L2");
}

#if !defined(__ARM_ARCH_6M__)
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
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    lmt_spawn("K", 3, locker, NULL);
    lmt_run();
    lmt_expect("in Z out I after");
}
#endif

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
    memset(&sem, 0, sizeof sem);
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

/* ---- interrupts in the middle of a context switch ---- */

static lm_sem_t gate; /* never given: L blocks on it */
static volatile bool irq_ran_in_hook;
static lm_kernel_stats_t stats0;

/* Kernel switch hook: runs inside the switch with the kernel lock held. */
static void switch_hook_irq(const lm_thread_t *from, const lm_thread_t *to)
{
    lmt_log("%s>%s", from != NULL ? lm_thread_name(from) : "-", lm_thread_name(to));
    if (from != NULL && strcmp(lm_thread_name(from), "L") == 0) {
#if defined(__ARM_ARCH_6M__)
        uint32_t pm;
        __asm volatile("mrs %0, primask" : "=r"(pm));
        LMT_EQ(pm, 1); /* the kernel holds its lock here */
#else
        uint32_t bp;
        __asm volatile("mrs %0, basepri" : "=r"(bp));
        LMT_EQ(bp, LM_PORT_BASEPRI); /* the kernel holds its lock here */
#endif
        lm_nvic_trigger(IRQ_KERNEL);
        __asm volatile("dsb\n isb" ::: "memory");
        irq_ran_in_hook = kernel_irqs != 0u;
    }
}

static void blocker(void *arg)
{
    (void)arg;
    lmt_log("L1");
    LMT_ST(lm_sem_take(&gate, LM_WAIT_FOREVER), LM_OK); /* never returns */
}

static void middle(void *arg)
{
    (void)arg;
    lmt_log("M");
}

static void waker_isr_target(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK);
    lm_kernel_stats_t k;
    lm_kernel_stats(&k);
    /* R7.2: M was made current and never ran: H preempted it. */
    LMT_EQ(k.preemptions - stats0.preemptions, 1);
    lmt_log("Ht");
}

/* R12.2, R12.3, R7.2: an interrupt made pending inside the context switch
 * (from the switch hook, kernel lock held) waits for the lock, then runs in
 * the switch handler between the kernel's decision and the register
 * restore; its wake-up of a more urgent thread is not lost, and that thread
 * runs before the thread the switch was going to. */
LMT_CASE(interrupt_pended_inside_switch_is_not_lost)
{
    lmt_begin();
    setup_irqs();
    memset(&gate, 0, sizeof gate);
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    memset(&gate, 0, sizeof gate);
    LMT_ST(lm_sem_create(&gate, 0, 1), LM_OK);
    irq_ran_in_hook = true;
    lm_kernel_stats(&stats0);
    LMT_ST(lm_switch_hook_set(switch_hook_irq), LM_OK);
    lmt_spawn("H", 1, waker_isr_target, NULL);
    lmt_spawn("L", 5, blocker, NULL);
    lmt_spawn("M", 6, middle, NULL);
    lmt_run();
    LMT_CHECK(!irq_ran_in_hook); /* masked while the kernel held its lock */
    lmt_expect("->H H>L L1 L>M I M>H Ht H>M M M>idle");
}

#if !defined(__ARM_ARCH_6M__)
/* Zero-latency variant: the switch hook triggers IRQ_ZERO, which is above
 * the kernel's ceiling and must run at once, inside the kernel's critical
 * section, seeing BASEPRI at the kernel's level. */
static void switch_hook_zero(const lm_thread_t *from, const lm_thread_t *to)
{
    (void)to;
    if (from != NULL && strcmp(lm_thread_name(from), "L") == 0) {
        lmt_log("hook");
        lm_nvic_trigger(IRQ_ZERO);
        __asm volatile("dsb\n isb" ::: "memory");
        lmt_log("/hook");
    }
}

/* docs/porting.md, "Critical sections": the kernel masks only up to
 * LM_PORT_BASEPRI, also in its own critical sections (here, the switch
 * decision): a zero-latency interrupt runs inside one, and sees it
 * (BASEPRI at the kernel's level). */
LMT_CASE(zero_latency_interrupt_runs_inside_the_kernel)
{
    lmt_begin();
    setup_irqs();
    memset(&gate, 0, sizeof gate);
    LMT_ST(lm_sem_create(&gate, 0, 1), LM_OK);
    LMT_ST(lm_switch_hook_set(switch_hook_zero), LM_OK);
    lmt_spawn("L", 5, blocker, NULL);
    lmt_spawn("M", 6, middle, NULL);
    lmt_run();
    LMT_EQ(zero_saw_basepri, LM_PORT_BASEPRI);
    lmt_expect("L1 hook Z /hook M");
}
#endif

/* Sweep: a timer interrupt placed one instruction pair later each
 * round, relative to a yield round-trip between two threads (yield, the
 * switch in PendSV, the other thread's yield, the switch back), so that
 * over the rounds it lands on every part of that path, the PendSV
 * register save and restore included. Each interrupt wakes H. */
#define SWEEP_ROUNDS 400u
/* 800 instructions at -icount shift=0, whatever the timer's clock (750
 * on mps3-an547: whole granules, lmt_timer.h). */
#define SWEEP_DELAY_COUNTS lmt_timer_counts_for_insns(800u)

enum { DT_SWEEP, DT_FPU };
static volatile int dt_mode;
static volatile uint32_t dt_count;
static volatile uint32_t wakes, pending_wake, wake_seen_late;
static volatile uint32_t irqs_in_pendsv; /* landed inside the switch handler */

void DUALTIMER_Handler(void);
void DUALTIMER_Handler(void)
{
    (void)lmt_timer_fired(0u);
    dt_count++;
    if (dt_mode == DT_SWEEP) {
        /* ICSR.RETTOBASE clear: another exception is active under this one,
         * which in this case can only be PendSV, the switch. */
        if ((LM_SCB_ICSR & (1u << 11)) == 0u) {
            irqs_in_pendsv++;
        }
        pending_wake = 1u;
        LMT_ST(lm_sem_give(&sem), LM_OK);
#if defined(__ARM_FP)
    } else {
        __asm volatile("vmov.f32 s0, #1.0\n vmov.f32 s3, #1.0\n vmov.f32 s9, #1.0\n"
                       "vmov.f32 s15, #1.0\n" ::: "s0", "s3", "s9", "s15");
#endif
    }
}

static void sweep_waker(void *arg)
{
    (void)arg;
    for (;;) {
        LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK);
        pending_wake = 0u;
        if (++wakes == SWEEP_ROUNDS) {
            return;
        }
    }
}

/* No thread but H may run between the interrupt and H (R12.2). */
static void check_no_pending_wake(void)
{
    if (pending_wake != 0u) {
        wake_seen_late++;
    }
}

static void sweeper(void *arg)
{
    (void)arg;
    for (uint32_t round = 0; round < SWEEP_ROUNDS; round++) {
        lmt_timer_start(0u, SWEEP_DELAY_COUNTS, false);
        uint32_t n = round + 1u;
        __asm volatile(".syntax unified\n 1: subs %0, %0, #1\n bne 1b" : "+l"(n)::"cc");
        check_no_pending_wake();
        LMT_ST(lm_thread_yield(), LM_OK);
        check_no_pending_wake();
        while (wakes != round + 1u) {
            /* the interrupt has not come yet: it lands here */
        }
        check_no_pending_wake();
    }
    lmt_timer_stop(0u);
    lmt_log("swept");
}

static void bouncer(void *arg)
{
    (void)arg;
    while (wakes != SWEEP_ROUNDS) {
        check_no_pending_wake();
        LMT_ST(lm_thread_yield(), LM_OK);
    }
}

/* R12.2, R12.3: whichever instruction of the switch path an interrupt
 * lands on, its wake-up is served exactly once and before any other thread
 * continues, and the interrupted threads carry on unharmed. */
LMT_CASE(interrupt_anywhere_in_a_switch_is_not_lost)
{
    lmt_begin();
    setup_irqs();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    dt_mode = DT_SWEEP;
    wakes = pending_wake = wake_seen_late = irqs_in_pendsv = 0u;
    lmt_spawn("H", 1, sweep_waker, NULL);
    lmt_spawn("A", 5, sweeper, NULL);
    lmt_spawn("B", 5, bouncer, NULL);
    lmt_run();
    LMT_EQ(wakes, SWEEP_ROUNDS);
    LMT_EQ(wake_seen_late, 0);
    printf("# %u of %u interrupts landed inside PendSV\n", (unsigned)irqs_in_pendsv,
           (unsigned)SWEEP_ROUNDS);
    LMT_CHECK(irqs_in_pendsv >= 20u);
    uint32_t left = 1u;
    LMT_ST(lm_sem_count(&sem, &left), LM_OK);
    LMT_EQ(left, 0); /* every give was taken */
    lmt_expect("swept");
}

#if !defined(__ARM_ARCH_6M__)
/* ---- the kernel lock and PRIMASK ---- */

static uint32_t primask(void)
{
    uint32_t v;
    __asm volatile("mrs %0, primask" : "=r"(v));
    return v & 1u;
}

static void primask_user(void *arg)
{
    (void)arg;
    /* With PRIMASK set by the application, lock and unlock (which on
     * Cortex-M7 use PRIMASK themselves, erratum 837070) leave it set. */
    __asm volatile("cpsid i" ::: "memory");
    lm_irqstate_t s = lm_port_irq_lock();
    LMT_EQ(primask(), 1);
    lm_port_irq_unlock(s);
    LMT_EQ(primask(), 1);
    __asm volatile("cpsie i" ::: "memory");
    /* And clear when it was clear. */
    s = lm_port_irq_lock();
    LMT_EQ(primask(), 0);
    lm_port_irq_unlock(s);
    LMT_EQ(primask(), 0);
    lmt_log("ok");
}

/* The port's lock touches only BASEPRI as far as its caller can tell
 * (docs/porting.md, erratum 837070). */
LMT_CASE(kernel_lock_leaves_primask_alone)
{
    lmt_begin();
    lmt_spawn("P", 3, primask_user, NULL);
    lmt_run();
    lmt_expect("ok");
}
#endif

#if defined(__ARM_FP)
/* ---- FPU registers under time-slicing and interrupts ---- */

#define FPU_IRQS 60u
static float fpu_pattern[2][32], fpu_seen[2][32];

/* s0-s31 from `in`, spin (no calls, no FPU use) until FPU_IRQS interrupts
 * have clobbered s0-s15 and the other thread's slices have used all 32,
 * then s0-s31 to `out`. */
static void fpu_spin(const float *in, float *out)
{
    __asm volatile("vldm %[in], {s0-s31}\n"
                   "1: ldr r1, [%[count]]\n"
                   "cmp r1, %[until]\n"
                   "blo 1b\n"
                   "vstm %[out], {s0-s31}\n" ::[in] "r"(in),
                   [count] "r"(&dt_count), [until] "r"(FPU_IRQS), [out] "r"(out)
                   : "r1", "memory", "cc");
}

static void fpu_slicer(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    fpu_spin(fpu_pattern[id], fpu_seen[id]);
    LMT_CHECK(memcmp(fpu_pattern[id], fpu_seen[id], sizeof fpu_seen[id]) == 0);
    lmt_log("F");
}

/* R2.4 (time-slices); docs/porting.md, "FPU". Two FPU threads share the
 * CPU by one-tick time-slices while an
 * FPU-using interrupt fires three times a tick: each thread's s0-s31
 * survive every preemption by the other and every interrupt (lazy
 * stacking with the state pending at the switch, and S16-S31 in PendSV). */
LMT_CASE(fpu_registers_survive_slicing_and_interrupts)
{
    lmt_begin();
    setup_irqs();
    for (unsigned i = 0; i < 32u; i++) {
        fpu_pattern[0][i] = (float)i + 0.25f;
        fpu_pattern[1][i] = -(float)i - 100.75f;
    }
    memset(fpu_seen, 0, sizeof fpu_seen);
    dt_mode = DT_FPU;
    dt_count = 0u;
    lm_kernel_stats_t k0, k1;
    lm_kernel_stats(&k0);
    lmt_timer_start(0u, MPS2_SYSCLK_HZ / LM_CFG_TICK_HZ / 3u, true);
    lmt_spawn_ex("F0", 5, LM_THRESHOLD_NONE, 1, fpu_slicer, (void *)0, true);
    lmt_spawn_ex("F1", 5, LM_THRESHOLD_NONE, 1, fpu_slicer, (void *)1, true);
    lmt_run();
    lmt_timer_stop(0u);
    lm_kernel_stats(&k1);
    LMT_CHECK(k1.slice_expiries - k0.slice_expiries >= 10u); /* they did alternate */
    lmt_expect("F F");
}
#endif

#if defined(__ARM_ARCH_6M__)
LMT_MAIN(LMT_RUN(nvic_interrupt_wakes_thread), LMT_RUN(systick_timeouts_are_exact),
         LMT_RUN(interrupt_pended_inside_switch_is_not_lost),
         LMT_RUN(interrupt_anywhere_in_a_switch_is_not_lost))
#else
LMT_MAIN(LMT_RUN(nvic_interrupt_wakes_thread),
         LMT_RUN(zero_latency_interrupt_runs_in_critical_section),
         LMT_RUN(systick_timeouts_are_exact),
         LMT_RUN(interrupt_pended_inside_switch_is_not_lost),
         LMT_RUN(zero_latency_interrupt_runs_inside_the_kernel),
         LMT_RUN(interrupt_anywhere_in_a_switch_is_not_lost),
         LMT_RUN(kernel_lock_leaves_primask_alone)
#if defined(__ARM_FP)
         , LMT_RUN(fpu_registers_survive_preemption), LMT_RUN(fpu_registers_survive_interrupt),
         LMT_RUN(fpu_registers_survive_slicing_and_interrupts)
#endif
)
#endif
