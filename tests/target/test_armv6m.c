/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Armv6-M port on a board (mps2-an385-v6m, microbit): its bit scan for
 * every bit and every priority the scheduler picks, its PRIMASK lock
 * (nestable, masking every interrupt, leaving a caller's PRIMASK alone),
 * and the switch's handling of R4-R11, the registers it saves by hand.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/port.h"

int __ctzsi2(unsigned int x);

static unsigned reference_ctz(uint32_t x)
{
    unsigned n = 0;
    while ((x & 1u) == 0u) {
        x >>= 1;
        n++;
    }
    return n;
}

/* Every bit alone, with every bit above it set, and with random bits above
 * it; through the port's function and through __builtin_ctz, which GCC
 * compiles into a call of __ctzsi2 on Armv6-M. */
LMT_CASE(bit_scan_every_bit)
{
    /* The kernel's scans reach the port's de Bruijn scan, not libgcc's. */
    LMT_CHECK((uintptr_t)&__ctzsi2 == (uintptr_t)&lm_armv6m_ctz);
    uint32_t seed = 12345u;
    for (unsigned b = 0; b < 32u; b++) {
        uint32_t bit = 1u << b;
        LMT_EQ(lm_armv6m_ctz(bit), b);
        LMT_EQ(lm_armv6m_ctz(~(bit - 1u)), b);
        for (unsigned i = 0; i < 64u; i++) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t v = (seed & ~(bit - 1u)) | bit;
            LMT_EQ(lm_armv6m_ctz(v), b);
            LMT_EQ((unsigned)__builtin_ctz(v), reference_ctz(v));
        }
    }
}

/* ---- the scheduler's choice for every pair of priorities ---- */

static lm_sem_t go[2];
static volatile unsigned ran[2];
static volatile unsigned ran_count;

static void worker(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    for (;;) {
        LMT_ST(lm_sem_take(&go[i], LM_WAIT_FOREVER), LM_OK);
        ran[ran_count++ % 2u] = lm_thread_priority(lm_thread_self());
    }
}

static void chooser(void *arg)
{
    lm_thread_t **w = arg;
    unsigned lowest = LM_CFG_PRIORITIES - 1u; /* this thread's */
    for (unsigned p = 0; p < lowest; p++) {
        for (unsigned q = p + 1u; q < lowest; q++) {
            LMT_ST(lm_thread_set_priority(w[0], q), LM_OK);
            LMT_ST(lm_thread_set_priority(w[1], p), LM_OK);
            ran_count = 0u;
            /* Both ready at once, the less urgent first: the scan of the
             * ready set must find p, then q, then this thread's. */
            lm_irqstate_t s = lm_port_irq_lock();
            LMT_ST(lm_sem_give(&go[0]), LM_OK);
            LMT_ST(lm_sem_give(&go[1]), LM_OK);
            lm_port_irq_unlock(s);
            if (ran_count != 2u || ran[0] != p || ran[1] != q) {
                lmt_fail(__FILE__, __LINE__, "priorities %u and %u ran as %u, %u (%u)", p, q,
                         ran[0], ran[1], ran_count);
            }
        }
    }
    lmt_log("pairs done");
}

LMT_CASE(scheduler_picks_every_priority)
{
    lmt_begin();
    static lm_thread_t *w[2];
    for (unsigned i = 0; i < 2u; i++) {
        memset(&go[i], 0, sizeof go[i]);
        LMT_ST(lm_sem_create(&go[i], 0, 1), LM_OK);
    }
    w[0] = lmt_spawn("w0", 0, worker, (void *)(uintptr_t)0u);
    w[1] = lmt_spawn("w1", 0, worker, (void *)(uintptr_t)1u);
    lmt_spawn("chooser", LM_CFG_PRIORITIES - 1u, chooser, w);
    lmt_run();
    lmt_expect("pairs done");
}

/* ---- the lock ---- */

/* An otherwise unused interrupt line of the board, pended by hand. */
#if defined(MICROBIT_IRQ_SPARE)
#define TEST_IRQ MICROBIT_IRQ_SPARE
#else
#define TEST_IRQ 5u
#endif

static volatile unsigned irq_runs;
static lm_sem_t from_irq;

static void test_irq_handler(void)
{
    irq_runs++;
    lmt_log("I");
    LMT_ST(lm_sem_give(&from_irq), LM_OK);
}

#if defined(MICROBIT_IRQ_SPARE)
void MICROBIT_SPARE_HANDLER(void);
void MICROBIT_SPARE_HANDLER(void)
{
    test_irq_handler();
}
#else
void IRQ_Handler(void);
void IRQ_Handler(void)
{
    test_irq_handler();
}
#endif

static void setup_irq(uint8_t prio)
{
    irq_runs = 0u;
    memset(&from_irq, 0, sizeof from_irq);
    LMT_ST(lm_sem_create(&from_irq, 0, 8), LM_OK);
    lm_nvic_set_priority(TEST_IRQ, prio);
    lm_nvic_enable(TEST_IRQ);
}

static uint32_t primask(void)
{
    uint32_t v;
    __asm volatile("mrs %0, primask" : "=r"(v));
    return v;
}

static void nested_locker(void *arg)
{
    (void)arg;
    lm_irqstate_t outer = lm_port_irq_lock();
    lm_irqstate_t inner = lm_port_irq_lock();
    lm_nvic_trigger(TEST_IRQ); /* the most urgent priority: still masked */
    lmt_log("in%u", irq_runs);
    lm_port_irq_unlock(inner);
    lmt_log("inner-unlocked%u", irq_runs);
    LMT_EQ(primask(), 1);
    lm_port_irq_unlock(outer);
    lmt_log("after%u", irq_runs);
    LMT_EQ(primask(), 0);
}

/* Without BASEPRI no interrupt runs inside the kernel's lock, not even the
 * most urgent; nested locks keep it masked until the outermost unlock. */
LMT_CASE(lock_masks_every_interrupt_until_outermost_unlock)
{
    lmt_begin();
    setup_irq(0x00u);
    lmt_spawn("K", 3, nested_locker, NULL);
    lmt_run();
    lmt_expect("in0 inner-unlocked0 I after1");
}

static void primask_keeper(void *arg)
{
    (void)arg;
    __asm volatile("cpsid i" ::: "memory");
    lm_irqstate_t s = lm_port_irq_lock();
    lm_nvic_trigger(TEST_IRQ);
    lm_port_irq_unlock(s);
    lmt_log("unlocked%u", irq_runs); /* the caller's own mask still holds */
    LMT_EQ(primask(), 1);
    __asm volatile("cpsie i\n isb" ::: "memory");
    lmt_log("cpsie%u", irq_runs);
}

/* The unlock restores PRIMASK as it was: a caller that had masked
 * interrupts itself is not unmasked by a kernel call. */
LMT_CASE(lock_leaves_callers_primask)
{
    lmt_begin();
    setup_irq(0x80u);
    lmt_spawn("K", 3, primask_keeper, NULL);
    lmt_run();
    lmt_expect("unlocked0 I cpsie1");
}

/* ---- R4-R11 across a preemption ---- */

static void clobberer(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&from_irq, LM_WAIT_FOREVER), LM_OK);
    /* Different values in every register the switch saves by hand. */
    __asm volatile(".syntax unified\n"
                   "ldr r0, =0xBAD00004\n mov r4, r0\n"
                   "ldr r0, =0xBAD00005\n mov r5, r0\n"
                   "ldr r0, =0xBAD00006\n mov r6, r0\n"
                   "ldr r0, =0xBAD00007\n mov r7, r0\n"
                   "ldr r0, =0xBAD00008\n mov r8, r0\n"
                   "ldr r0, =0xBAD00009\n mov r9, r0\n"
                   "ldr r0, =0xBAD0000A\n mov r10, r0\n"
                   "ldr r0, =0xBAD0000B\n mov r11, r0\n"
                   "b 1f\n .ltorg\n 1:\n" ::: "r0", "r4", "r5", "r6", "r7", "r8", "r9",
                   "r10", "r11", "cc", "memory");
    lmt_log("H");
}

static void holder(void *arg)
{
    uint32_t *out = arg;
    /* Known values in R4-R11, an interrupt that readies a more urgent
     * thread (which overwrites them), then the values read back. */
    __asm volatile(".syntax unified\n"
                   "ldr r0, =0x11110004\n mov r4, r0\n"
                   "ldr r0, =0x11110005\n mov r5, r0\n"
                   "ldr r0, =0x11110006\n mov r6, r0\n"
                   "ldr r0, =0x11110007\n mov r7, r0\n"
                   "ldr r0, =0x11110008\n mov r8, r0\n"
                   "ldr r0, =0x11110009\n mov r9, r0\n"
                   "ldr r0, =0x1111000A\n mov r10, r0\n"
                   "ldr r0, =0x1111000B\n mov r11, r0\n"
                   "ldr r0, =0xE000E200\n" /* NVIC_ISPR0 */
                   "str %[bit], [r0]\n"
                   "dsb\n isb\n"
                   "str r4, [%[out], #0]\n str r5, [%[out], #4]\n"
                   "str r6, [%[out], #8]\n str r7, [%[out], #12]\n"
                   "mov r0, r8\n str r0, [%[out], #16]\n"
                   "mov r0, r9\n str r0, [%[out], #20]\n"
                   "mov r0, r10\n str r0, [%[out], #24]\n"
                   "mov r0, r11\n str r0, [%[out], #28]\n"
                   "b 1f\n .ltorg\n 1:\n"
                   :
                   : [out] "l"(out), [bit] "l"(1u << TEST_IRQ)
                   : "r0", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "cc", "memory");
    lmt_log("L");
}

LMT_CASE(switch_keeps_r4_to_r11)
{
    lmt_begin();
    setup_irq(0x80u);
    static uint32_t seen[8];
    memset(seen, 0, sizeof seen);
    lmt_spawn("H", 1, clobberer, NULL);
    lmt_spawn("L", 5, holder, seen);
    lmt_run();
    lmt_expect("I H L");
    for (unsigned i = 0; i < 8u; i++) {
        LMT_EQ(seen[i], 0x11110004u + i);
    }
}

/* ---- the tick ---- */

#if defined(MICROBIT_TIMESTAMP_HZ)
#define TIMESTAMP_HZ MICROBIT_TIMESTAMP_HZ /* the tick is TIMER1, not SysTick */
#else
#define TIMESTAMP_HZ MPS2_SYSCLK_HZ
#endif

static uint32_t slept_counts;
static volatile bool slept;

static void sleeper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* from a tick boundary on */
    uint32_t t0 = lm_board_timestamp();
    LMT_ST(lm_thread_sleep(10), LM_OK);
    slept_counts = lm_board_timestamp() - t0;
    slept = true;
}

/* Keeps the core out of the idle thread's WFI: QEMU 7.2 with -icount
 * sleep=off wakes a WFI at the second expiry of a reloading SysTick
 * (docs/measuring.md), which would measure QEMU, not the port. */
static void spinner(void *arg)
{
    (void)arg;
    while (!slept) {
    }
}

/* Ten ticks last 10 / LM_CFG_TICK_HZ seconds by the board's timestamp
 * (the tick's source is the board's timer or SysTick, the timestamp's
 * another timer): within 1 %, the cost of the wake-up. */
LMT_CASE(tick_runs_at_tick_hz)
{
    lmt_begin();
    slept = false;
    lmt_spawn("S", 3, sleeper, NULL);
    lmt_spawn("spin", 9, spinner, NULL);
    lmt_run();
    uint32_t expected = (uint32_t)((uint64_t)TIMESTAMP_HZ * 10u / LM_CFG_TICK_HZ);
    printf("# 10 ticks: %lu timestamp counts (expected %lu)\n", (unsigned long)slept_counts,
           (unsigned long)expected);
    LMT_CHECK(slept_counts >= expected - expected / 100u);
    LMT_CHECK(slept_counts <= expected + expected / 100u);
}

LMT_MAIN(LMT_RUN(bit_scan_every_bit), LMT_RUN(tick_runs_at_tick_hz), LMT_RUN(scheduler_picks_every_priority),
         LMT_RUN(lock_masks_every_interrupt_until_outermost_unlock),
         LMT_RUN(lock_leaves_callers_primask), LMT_RUN(switch_keeps_r4_to_r11))
