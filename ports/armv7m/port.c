/*
 * Armv7-M port: BASEPRI critical sections, PendSV context switch, SysTick
 * (periodic, or tickless while idle with LM_CFG_TICKLESS).
 *
 * Threads run in Thread mode on the process stack (PSP); handlers, and the
 * start-up code, use the main stack (MSP). A switched-out thread's stack holds,
 * from the top: the exception frame the hardware pushed (8 words, or 26 with
 * an FPU frame), then S16-S31 if it had used the FPU, then R4-R11 and its
 * EXC_RETURN value, which says whether an FPU frame is there (bit 4 clear).
 * Threads that never touch the FPU never carry FPU state: lazy stacking does
 * the rest (FPCCR.ASPEN/LSPEN, enabled by the board's start-up).
 */
#include <setjmp.h>
#include <string.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/armv7m.h"
#include "fault.h"
#if LM_CFG_NEWLIB
#include <reent.h>
#include "newlib_port.h"
#endif

lm_thread_t *lmk_switch_select(void);
void lmk_tick_announce(lm_tick_t n);
_Noreturn void lmk_thread_exit(void);

#define XPSR_THUMB 0x01000000u
#define EXC_RETURN_THREAD_PSP 0xFFFFFFFDu

/* SysTick counts per tick, and the control word that runs it. */
#define TICK_COUNTS ((uint32_t)(LM_PORT_CPU_HZ / LM_CFG_TICK_HZ))
#define SYST_RUN (LM_SYST_CSR_CLKSOURCE | LM_SYST_CSR_TICKINT | LM_SYST_CSR_ENABLE)
#define SYST_STOP (LM_SYST_CSR_CLKSOURCE | LM_SYST_CSR_TICKINT)
_Static_assert(TICK_COUNTS >= 2u && TICK_COUNTS <= 0x01000000u,
               "LM_PORT_CPU_HZ / LM_CFG_TICK_HZ must fit SysTick's 24-bit counter");

static struct {
    volatile bool started;    /* threads run: first switch until lm_port_stop */
    jmp_buf exit_to;          /* lm_port_stop() returns from lm_port_start() */
    uint32_t start_stack[16]; /* what the first PendSV saves into */
#if LM_CFG_TICKLESS
    lm_tick_t idle_ticks;     /* lm_port_timer_arm(): next event, in ticks */
    volatile uint32_t tick_events;
#endif
} port;

/* ---- critical sections ---- */

bool lm_armv7m_threads_running(void)
{
    return port.started;
}

/* ---- threads ---- */

void lm_port_stack_init(lm_thread_t *t)
{
    lmp_stack_prepare(t); /* guard words, the copies the checks trust */
    uintptr_t top = (uintptr_t)((uint8_t *)t->stack + t->stack_size);
    uint32_t pc = (uint32_t)(uintptr_t)t->entry;
    uint32_t r0 = (uint32_t)(uintptr_t)t->arg;
#if LM_CFG_NEWLIB
    top = lmp_newlib_thread_init(t, top);
    if (t->ctx.reent != _global_impure_ptr) { /* not the idle thread */
        pc = (uint32_t)(uintptr_t)lmp_newlib_thread_entry;
        r0 = (uint32_t)(uintptr_t)t;
    }
#endif
    uint32_t *sp = (uint32_t *)(top & ~(uintptr_t)7u);
    /* Hardware frame: R0-R3, R12, LR, PC, xPSR. */
    *--sp = XPSR_THUMB;
    *--sp = pc & ~1u;
    *--sp = (uint32_t)(uintptr_t)lmk_thread_exit; /* where entry returns */
    *--sp = 0u;                                   /* R12 */
    *--sp = 0u;                                   /* R3 */
    *--sp = 0u;                                   /* R2 */
    *--sp = 0u;                                   /* R1 */
    *--sp = r0;
    /* Saved by the switch: R4-R11, EXC_RETURN. */
    *--sp = EXC_RETURN_THREAD_PSP;
    for (unsigned i = 0; i < 8u; i++) {
        *--sp = 0u;
    }
    t->ctx.sp = sp;
}

/* Called by PendSV_Handler with the outgoing thread's saved stack pointer;
 * returns the incoming one's. */
void *lm_port_switch(void *sp);
void *lm_port_switch(void *sp)
{
    if (port.started) {
        lm_thread_t *prev = lm_thread_self();
        prev->ctx.sp = sp;
        if (!lmp_stack_ok(prev, sp)) {
            lmp_stack_overflow(prev); /* fault.c: names it as far as it can */
        }
    }
    port.started = true;
    lm_thread_t *next = lmk_switch_select();
#if LM_CFG_MPU_STACK_GUARD
    lmp_stack_guard_set(next);
#endif
#if LM_CFG_NEWLIB
    _impure_ptr = next->ctx.reent; /* errno, stdio streams: per thread */
#endif
    return next->ctx.sp;
}

__attribute__((naked)) void PendSV_Handler(void);
__attribute__((naked)) void PendSV_Handler(void)
{
    __asm volatile(
        "mrs r0, psp\n"
        "isb\n"
#if defined(__ARM_FP)
        "tst lr, #0x10\n"
        "it eq\n"
        "vstmdbeq r0!, {s16-s31}\n"
#endif
        "stmdb r0!, {r4-r11, lr}\n"
        "bl lm_port_switch\n"
        "ldmia r0!, {r4-r11, lr}\n"
#if defined(__ARM_FP)
        "tst lr, #0x10\n"
        "it eq\n"
        "vldmiaeq r0!, {s16-s31}\n"
#endif
        "msr psp, r0\n"
        "isb\n"
        "bx lr\n");
}

void SysTick_Handler(void);
void SysTick_Handler(void)
{
#if LM_CFG_TICKLESS
    port.tick_events++;
#endif
    lmk_tick_announce(1);
}

uint32_t lm_armv7m_tick_interrupts(void)
{
#if LM_CFG_TICKLESS
    return port.tick_events;
#else
    return 0u;
#endif
}

void lm_port_start(lm_thread_t *first)
{
    (void)first; /* the kernel made it current; the first PendSV picks it */
    port.started = false;
    if (setjmp(port.exit_to) != 0) {
        return; /* lm_port_stop() */
    }
#if LM_CFG_NEWLIB
    lmp_newlib_start();
#endif
    LM_SCB_SHPR3 = (LM_SCB_SHPR3 & 0x0000FFFFu) | (0xFFu << 16) |
                   ((uint32_t)LM_PORT_SYSTICK_PRIO << 24);
    LM_SYST_RVR = TICK_COUNTS - 1u;
    LM_SYST_CVR = 0u;
    LM_SYST_CSR = SYST_RUN;
    /* The first PendSV "saves" into a scratch area, then switches. */
    __asm volatile("msr psp, %0" ::"r"(&port.start_stack[16]));
    lm_port_switch_pend();
    lm_port_irq_unlock(0u);
    for (;;) {
        /* PendSV is taken at the unlock above and never comes back here. */
    }
}

_Noreturn void lm_port_stop(void)
{
    (void)lm_port_irq_lock();
    port.started = false;
    LM_SYST_CSR = 0u;
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSVCLR | LM_SCB_ICSR_PENDSTCLR;
#if LM_CFG_MPU_STACK_GUARD
    lmp_stack_guard_off(); /* main may write to any stack again */
#endif
#if LM_CFG_NEWLIB
    _impure_ptr = _global_impure_ptr; /* main's again */
#endif
    /* Back to the main stack, FPU context inactive, then into main's frame. */
    __asm volatile("msr control, %0\n isb" ::"r"(0u) : "memory");
    lm_port_irq_unlock(0u);
    longjmp(port.exit_to, 1);
}

/* WFI with BASEPRI raised by the caller. WFI wakes only for an interrupt
 * that could preempt, so BASEPRI drops to 0 for the wait; PRIMASK keeps the
 * woken interrupt from running before the kernel's own unlock. */
static void wait_for_interrupt(void)
{
    __asm volatile("cpsid i\n"
                   "msr basepri, %0\n"
                   "dsb\n"
                   "wfi\n"
                   "msr basepri, %1\n"
                   "cpsie i\n"
                   "isb\n" ::"r"(0u), "r"(LM_PORT_BASEPRI) : "memory");
}

#if LM_CFG_TICKLESS
/*
 * Tickless idle. SysTick normally expires every TICK_COUNTS counts. When the
 * idle thread is told the next event is n ticks away, SysTick is restarted
 * for one period that ends exactly on the n-th tick boundary, with RVR 0
 * behind it, so that it stops there instead of reloading. On wake, with the
 * kernel lock held (so the tick handler cannot run), it is stopped and:
 *
 *   - it expired: n ticks passed. The pending tick is cleared (counted
 *     here, not by the handler), n is announced, and the periodic tick
 *     restarts from this point;
 *   - another interrupt came first: the counter (counts to the deadline)
 *     says how many whole ticks passed and how far the next boundary is;
 *     the periodic tick restarts for that distance, so ticks keep their
 *     phase.
 *
 * Why stop at the deadline rather than reload one tick: QEMU 7.2 with
 * -icount sleep=off wakes a WFI at the second expiry of a reloading timer,
 * one period late (docs/measuring.md); a timer that stops wakes it on time.
 * The cost is the time from the expiry to the restart, a few instructions
 * (under one 25 MHz count under QEMU), by which the ticks fall behind a
 * free-running clock at each wake, as they do at each restart. A boundary
 * less than MIN_COUNTS away is counted as passed: the counter cannot be
 * restarted that close.
 */
#define SYST_MAX 0x00FFFFFFu
#define MAX_IDLE_TICKS (SYST_MAX / TICK_COUNTS)
#define MIN_COUNTS 8u

/* SysTick is stopped: make it expire `counts` (2..SYST_MAX) counts from
 * now, then reload `then` (0: stop at the expiry). */
static void systick_restart(uint32_t counts, uint32_t then)
{
    LM_SYST_RVR = counts - 1u;
    LM_SYST_CVR = 0u;
    LM_SYST_CSR = SYST_RUN;
    /* The counter takes RVR at its first clock after the restart (the next
     * core cycle on hardware clocked from the core, the next 40 ns under
     * QEMU); only then may RVR change. */
    while (LM_SYST_CVR == 0u) {
    }
    LM_SYST_RVR = then;
}

static lm_tick_t idle_ticks_clamped(void)
{
    lm_tick_t n = port.idle_ticks;
    return n > MAX_IDLE_TICKS ? MAX_IDLE_TICKS : n;
}

/* Returns the counts from the restart to the deadline, 0 if the periodic
 * tick was kept. */
static uint32_t tickless_enter(void)
{
    lm_tick_t n = idle_ticks_clamped();
    if (n == 0u) {
        return 0u; /* work is pending: the wait ends at once */
    }
    LM_SYST_CSR = SYST_STOP;
    uint32_t left = LM_SYST_CVR; /* counts to the next tick boundary */
    if (left < MIN_COUNTS || (LM_SCB_ICSR & LM_SCB_ICSR_PENDSTSET) != 0u) {
        LM_SYST_CSR = SYST_RUN; /* a tick is due (about) now: let it come */
        return 0u;
    }
    uint32_t span = left + (n - 1u) * TICK_COUNTS;
    systick_restart(span, 0u);
    return span;
}

static void tickless_exit(uint32_t span)
{
    lm_tick_t n = idle_ticks_clamped();
    LM_SYST_CSR = SYST_STOP;
    lm_tick_t ticks = n;
    uint32_t next = TICK_COUNTS;
    if ((LM_SCB_ICSR & LM_SCB_ICSR_PENDSTSET) != 0u) {
        LM_SCB_ICSR = LM_SCB_ICSR_PENDSTCLR;
        port.tick_events++;
    } else {
        uint32_t v = LM_SYST_CVR; /* counts to the deadline */
        if (v == 0u) {
            v = span; /* woken before the counter's first clock */
        }
        uint32_t ahead = (v + TICK_COUNTS - 1u) / TICK_COUNTS; /* boundaries left */
        next = v - (ahead - 1u) * TICK_COUNTS;                 /* 1..TICK_COUNTS */
        ticks = n - ahead;
        if (next < MIN_COUNTS) {
            ticks++;
            next += TICK_COUNTS;
        }
    }
    systick_restart(next, TICK_COUNTS - 1u);
    if (ticks != 0u) {
        lmk_tick_announce(ticks);
    }
}
#endif

void lm_port_idle(void)
{
    /* Called with BASEPRI raised: the tick handler cannot run meanwhile. */
#if LM_CFG_TICKLESS
    uint32_t span = tickless_enter();
    wait_for_interrupt();
    if (span != 0u) {
        tickless_exit(span);
    }
#else
    wait_for_interrupt();
#endif
}

void lm_port_timer_arm(lm_tick_t ticks)
{
#if LM_CFG_TICKLESS
    port.idle_ticks = ticks; /* lm_port_idle(), which follows, uses it */
#else
    (void)ticks; /* periodic tick: nothing to program */
#endif
}

_Noreturn void lm_port_fatal_halt(void)
{
    extern _Noreturn void lm_board_exit(int code);
    lm_board_exit(3);
}
