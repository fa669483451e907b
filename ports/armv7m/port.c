/*
 * Armv7-M port: BASEPRI critical sections, PendSV context switch, SysTick.
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

lm_thread_t *lmk_switch_select(void);
void lmk_tick_announce(lm_tick_t n);
_Noreturn void lmk_thread_exit(void);

#define XPSR_THUMB 0x01000000u
#define EXC_RETURN_THREAD_PSP 0xFFFFFFFDu
#define STACK_GUARD_WORDS 4u
#define STACK_GUARD 0xDEADC0DEu

static struct {
    bool started;        /* the first switch has no outgoing thread */
    jmp_buf exit_to;     /* lm_port_stop() returns from lm_port_start() */
    uint32_t start_stack[16]; /* what the first PendSV saves into */
} port;

/* ---- critical sections ---- */

lm_irqstate_t lm_port_irq_lock(void)
{
    uint32_t old;
    __asm volatile("mrs %0, basepri" : "=r"(old));
#if defined(LM_PORT_CORTEX_M7_R0P1)
    /* Cortex-M7 r0p1 erratum 837070: a BASEPRI write may not take effect at
     * once; masking all interrupts around it closes that window. */
    __asm volatile("cpsid i\n msr basepri_max, %0\n cpsie i" ::"r"(LM_PORT_BASEPRI) : "memory");
#else
    __asm volatile("msr basepri_max, %0" ::"r"(LM_PORT_BASEPRI) : "memory");
#endif
    return old;
}

void lm_port_irq_unlock(lm_irqstate_t state)
{
    __asm volatile("msr basepri, %0\n isb" ::"r"(state) : "memory");
}

bool lm_port_in_isr(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    return ipsr != 0u;
}

void lm_port_switch_pend(void)
{
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSVSET;
}

/* ---- threads ---- */

void lm_port_stack_init(lm_thread_t *t)
{
    uint32_t *bottom = (uint32_t *)t->stack;
    for (unsigned i = 0; i < STACK_GUARD_WORDS; i++) {
        bottom[i] = STACK_GUARD;
    }
    uint32_t *sp = (uint32_t *)((uintptr_t)((uint8_t *)t->stack + t->stack_size) & ~(uintptr_t)7u);
    /* Hardware frame: R0-R3, R12, LR, PC, xPSR. */
    *--sp = XPSR_THUMB;
    *--sp = (uint32_t)(uintptr_t)t->entry & ~1u;
    *--sp = (uint32_t)(uintptr_t)lmk_thread_exit; /* where entry returns */
    *--sp = 0u;                                   /* R12 */
    *--sp = 0u;                                   /* R3 */
    *--sp = 0u;                                   /* R2 */
    *--sp = 0u;                                   /* R1 */
    *--sp = (uint32_t)(uintptr_t)t->arg;          /* R0 */
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
        const uint32_t *guard = (const uint32_t *)prev->stack;
        if ((uint8_t *)sp < (uint8_t *)prev->stack + STACK_GUARD_WORDS * 4u ||
            guard[0] != STACK_GUARD || guard[STACK_GUARD_WORDS - 1u] != STACK_GUARD) {
            lm_fatal(LM_FATAL_STACK, lm_thread_name(prev));
        }
    }
    port.started = true;
    return lmk_switch_select()->ctx.sp;
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
    lmk_tick_announce(1);
}

void lm_port_start(lm_thread_t *first)
{
    (void)first; /* the kernel made it current; the first PendSV picks it */
    port.started = false;
    if (setjmp(port.exit_to) != 0) {
        return; /* lm_port_stop() */
    }
    LM_SCB_SHPR3 = (LM_SCB_SHPR3 & 0x0000FFFFu) | (0xFFu << 16) |
                   ((uint32_t)LM_PORT_SYSTICK_PRIO << 24);
    LM_SYST_RVR = LM_PORT_CPU_HZ / LM_CFG_TICK_HZ - 1u;
    LM_SYST_CVR = 0u;
    LM_SYST_CSR = LM_SYST_CSR_CLKSOURCE | LM_SYST_CSR_TICKINT | LM_SYST_CSR_ENABLE;
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
    LM_SYST_CSR = 0u;
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSVCLR | LM_SCB_ICSR_PENDSTCLR;
    /* Back to the main stack, FPU context inactive, then into main's frame. */
    __asm volatile("msr control, %0\n isb" ::"r"(0u) : "memory");
    lm_port_irq_unlock(0u);
    longjmp(port.exit_to, 1);
}

void lm_port_idle(void)
{
    /* Called with BASEPRI raised. WFI wakes only for an interrupt that could
     * preempt, so BASEPRI drops to 0 for the wait; PRIMASK keeps any
     * interrupt from running before the kernel's own unlock. */
    __asm volatile("cpsid i\n"
                   "msr basepri, %0\n"
                   "dsb\n"
                   "wfi\n"
                   "msr basepri, %1\n"
                   "cpsie i\n"
                   "isb\n" ::"r"(0u), "r"(LM_PORT_BASEPRI) : "memory");
}

void lm_port_timer_arm(lm_tick_t ticks)
{
    (void)ticks; /* periodic tick: nothing to program */
}

_Noreturn void lm_port_fatal_halt(void)
{
    extern _Noreturn void lm_board_exit(int code);
    lm_board_exit(3);
}
