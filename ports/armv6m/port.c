/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv6-M port: PRIMASK critical sections, PendSV context switch, SysTick
 * periodic tick (or the board's timer, LM_PORT_BOARD_TICK).
 *
 * Threads run in Thread mode on the process stack (PSP); handlers, and the
 * start-up code, use the main stack (MSP). A switched-out thread's stack
 * holds, from the top: the exception frame the hardware pushed (8 words),
 * then R8-R11 and, lowest, R4-R7. There is no FPU and no EXC_RETURN to keep:
 * PendSV, at the lowest priority, only ever interrupts a thread, so it
 * always returns with 0xFFFFFFFD (Thread mode, PSP).
 *
 * What Armv6-M lacks and the Armv7-M port uses: BASEPRI (the lock is
 * PRIMASK), STMDB/LDMIA of R8-R11 (they go through R4-R7), IT blocks and
 * CBZ (branches), CLZ (bitscan.c), unaligned accesses (none here: every
 * access below is to a word or halfword at its own alignment).
 */
#include <setjmp.h>
#include <stddef.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/armv6m.h"
#include "fault.h"

lm_irqstate_t lmk_switch_work(void);
lm_thread_t *lmk_switch_commit_locked(void);
void lmk_tick_announce(lm_tick_t n);
_Noreturn void lmk_thread_exit(void);
_Noreturn void lmk_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *thread);

#define XPSR_THUMB 0x01000000u

#if !LM_PORT_BOARD_TICK
/* SysTick counts per tick, and the control word that runs it. */
#define TICK_COUNTS ((uint32_t)(LM_PORT_CPU_HZ / LM_CFG_TICK_HZ))
#define SYST_RUN (LM_SYST_CSR_CLKSOURCE | LM_SYST_CSR_TICKINT | LM_SYST_CSR_ENABLE)
_Static_assert(TICK_COUNTS >= 2u && TICK_COUNTS <= 0x01000000u,
               "LM_PORT_CPU_HZ / LM_CFG_TICK_HZ must fit SysTick's 24-bit counter");
_Static_assert(LM_PORT_SYSTICK_PRIO <= 0xFFu, "LM_PORT_SYSTICK_PRIO is one byte");
#endif
#define PENDSV_PRIO 0xFFu /* the lowest: a switch waits for every handler */

static struct {
    volatile bool started; /* threads run: lm_port_start until lm_port_stop */
    jmp_buf exit_to;       /* lm_port_stop() returns from lm_port_start() */
} port;

/* ---- fatal reports and stack checks ----
 * As in the Armv7-M port: a control block placed just below its thread's
 * stack is what an overflow overwrites first, from its last fields down,
 * so the checks trust the copies in the context (its first fields), with a
 * check word over them. */

/* The board's console (boards/common/board_services.h). Weak: a board
 * without one still links, and fatal reports are then silent. */
void lm_board_puts(const char *s) __attribute__((weak));

void lm_port_fatal_print(const char *s)
{
    if (lm_board_puts != NULL) {
        lm_board_puts(s);
    }
}

void lmp_text_put(struct lmp_text *t, const char *s)
{
    while (*s != '\0' && t->len + 1u < LMP_TEXT_BYTES) {
        t->buf[t->len++] = *s++;
    }
    t->buf[t->len] = '\0';
}

void lmp_text_hex(struct lmp_text *t, uint32_t v)
{
    char h[11] = "0x";
    for (unsigned i = 0; i < 8u; i++) {
        h[2u + i] = "0123456789abcdef"[(v >> (28u - 4u * i)) & 0xFu];
    }
    h[10] = '\0';
    lmp_text_put(t, h);
}

const lm_thread_t *lmp_describe(const lm_thread_t *t, struct lmp_text *out)
{
    const lm_port_context_t *c = &t->ctx;
    if (c->check != lmp_stack_check_word(t, c->guard_top, c->name)) {
        lmp_text_put(out, "corrupted thread at ");
        lmp_text_hex(out, (uint32_t)(uintptr_t)t);
        return NULL;
    }
    if (t->stack == lmp_stack_bottom(c) && t->name == c->name) {
        lmp_text_put(out, t->name != NULL ? t->name : "(unnamed)");
        return t;
    }
    lmp_text_put(out, c->name != NULL ? c->name : "(unnamed)");
    lmp_text_put(out, " (control block at ");
    lmp_text_hex(out, (uint32_t)(uintptr_t)t);
    lmp_text_put(out, " overwritten)");
    return NULL;
}

static struct lmp_text where;

_Noreturn void lmp_stack_overflow(const lm_thread_t *t)
{
    where.len = 0u;
    const lm_thread_t *named = lmp_describe(t, &where);
    lmk_fatal(LM_FATAL_STACK, where.buf, named);
}

/* PendSV's stack check found prev's saved stack pointer in its guard words,
 * or the guard word nearest its stack overwritten: the full check decides
 * and names the thread as far as it can. */
void lmp_switch_stack_check(lm_thread_t *prev);
void lmp_switch_stack_check(lm_thread_t *prev)
{
    if (!lmp_stack_ok(prev, prev->ctx.sp)) {
        lmp_stack_overflow(prev);
    }
}

/* Every image has the HardFault report: a reference to fault.c (not to the
 * handler, which the board's weak minimal one already defines when the
 * library is searched) brings it in, and its handler replaces the weak one. */
__attribute__((used)) static const lm_armv6m_fault_t *(*const lmp_fault_report)(void) =
    lm_armv6m_last_fault;

bool lm_armv6m_threads_running(void)
{
    return port.started;
}

/* ---- threads ---- */

/* Cost: O(1), 24 stores and the guard words. */
void lm_port_stack_init(lm_thread_t *t)
{
    lmp_stack_prepare(t); /* guard words, the copies the checks trust */
    uintptr_t top = (uintptr_t)((uint8_t *)t->stack + t->stack_size);
    uint32_t *sp = (uint32_t *)(top & ~(uintptr_t)7u);
    /* Hardware frame: R0-R3, R12, LR, PC, xPSR. */
    *--sp = XPSR_THUMB;
    *--sp = (uint32_t)(uintptr_t)t->entry & ~1u;
    *--sp = (uint32_t)(uintptr_t)lmk_thread_exit; /* where entry returns */
    *--sp = 0u;                                   /* R12 */
    *--sp = 0u;                                   /* R3 */
    *--sp = 0u;                                   /* R2 */
    *--sp = 0u;                                   /* R1 */
    *--sp = (uint32_t)(uintptr_t)t->arg;          /* R0 */
    /* Saved by the switch: R8-R11, then R4-R7. */
    for (unsigned i = 0; i < 8u; i++) {
        *--sp = 0u;
    }
    t->ctx.sp = sp;
}

/*
 * The context switch (include/limen/port.h). The kernel has decided at the
 * event (lmk.next); PendSV, at the lowest priority, saves the running
 * thread's registers, makes lmk.next current under the lock and restores
 * its registers. Deferred kernel work (expiries, inheritance chains) goes
 * first, on a branch the common switch does not take.
 *
 * Armv6-M's STM and LDM reach R0-R7 only: R8-R11 are copied through R4-R7,
 * once these are saved (and before they are restored). Once R4-R7 are
 * saved they are free, so the handler keeps EXC_RETURN in R7 across its
 * calls instead of pushing it.
 *
 * With statistics, the switch hook and the trace off the commit is in
 * assembly; otherwise it is the kernel's C function.
 * Cost, from the handler's first instruction to its return, no deferred
 * work, stack check on: 45 instructions with the commit in assembly (by
 * count), 57 with statistics on (configs/bench.h), 71 in the default
 * configuration (tests/target/hotpath_cycles.py, docs/porting.md). Deferred
 * work adds its own cost and about 12 instructions around it.
 */
#define LMP_COMMIT_IN_C (LM_CFG_STATS || LM_CFG_SWITCH_HOOK || LM_CFG_TRACE)

__attribute__((naked)) void PendSV_Handler(void);
__attribute__((naked)) void PendSV_Handler(void)
{
    __asm volatile(
        ".syntax unified\n" /* GCC reads Thumb-1 inline assembly as divided */
        "ldr r3, =lmk\n"
        "ldrh r1, [r3, %[work]]\n"
        "mrs r0, psp\n"
        "cmp r1, #0\n"
        "bne 3f\n"
        "1:\n"
        "subs r0, #32\n"
        "stmia r0!, {r4-r7}\n"
        "mov r4, r8\n"
        "mov r5, r9\n"
        "mov r6, r10\n"
        "mov r7, r11\n"
        "stmia r0!, {r4-r7}\n"
        "subs r0, #32\n"
        "ldr r1, [r3, %[current]]\n"
        "str r0, [r1]\n" /* prev->ctx.sp: the context is the first field */
#if LM_CFG_STACK_CHECK
        /* The saved stack pointer above the guard words, and the guard
         * word an overflow reaches first intact; else the full check. */
        "ldr r2, [r1, %[guard_top]]\n"
        "cmp r0, r2\n"
        "bls 4f\n"
        "ldr r2, [r2]\n"
        "ldr r4, =%c[guard]\n"
        "cmp r2, r4\n"
        "bne 4f\n"
        "5:\n"
#endif
#if LMP_COMMIT_IN_C
        "mov r7, lr\n"
        "cpsid i\n"
        "bl lmk_switch_commit_locked\n"
        "cpsie i\n" /* PendSV runs only with PRIMASK clear */
        "mov lr, r7\n"
        "ldr r0, [r0]\n"
#else
        "cpsid i\n"
        "ldr r2, [r3, %[next]]\n"
        "str r2, [r3, %[current]]\n"
        "ldrh r1, [r3, %[bar_next]]\n"
        "strh r1, [r3, %[bar]]\n"
        "movs r1, #0\n"
        "movs r0, %[yielded]\n"
        "strb r1, [r2, r0]\n" /* the decision takes effect (R3.5) */
        "cpsie i\n"
        "ldr r0, [r2]\n"
#endif
        "adds r0, #16\n"
        "ldmia r0!, {r4-r7}\n"
        "mov r8, r4\n"
        "mov r9, r5\n"
        "mov r10, r6\n"
        "mov r11, r7\n"
        "subs r0, #32\n"
        "ldmia r0!, {r4-r7}\n"
        "adds r0, #16\n"
        "msr psp, r0\n"
        "bx lr\n"
        /* Deferred work: returns with the lock held and none left. Its
         * wakes pended this handler again: withdraw that, as lmk.next has
         * their decision, and this pass carries it out. */
        "3:\n"
        "push {r0, lr}\n"
        "bl lmk_switch_work\n"
        "ldr r1, =0xE000ED04\n" /* ICSR */
        "ldr r2, =0x08000000\n" /* PENDSVCLR */
        "str r2, [r1]\n"
        "msr primask, r0\n" /* the state lmk_switch_work's lock returned */
        "pop {r0, r1}\n"
        "mov lr, r1\n"
        "ldr r3, =lmk\n"
        "b 1b\n"
#if LM_CFG_STACK_CHECK
        "4:\n"
        "mov r4, lr\n"
        "mov r0, r1\n"
        "bl lmp_switch_stack_check\n" /* returns only if all is well */
        "mov lr, r4\n"
        "ldr r3, =lmk\n"
        "b 5b\n"
#endif
        ".ltorg\n"
        :
        : [work] "i"(LMK_SWITCH_WORK), [current] "i"(LMK_SWITCH_CURRENT),
          [guard_top] "i"(offsetof(lm_port_context_t, guard_top)),
          [guard] "i"(LMP_STACK_GUARD),
          [next] "i"(LMK_SWITCH_NEXT), [bar] "i"(LMK_SWITCH_BAR),
          [bar_next] "i"(LMK_SWITCH_BAR + 2u), [yielded] "i"(offsetof(lm_thread_t, yielded)));
}
_Static_assert(offsetof(lm_thread_t, yielded) <= 255u, "MOVS takes an 8-bit immediate");

/* The first thread starts from thread mode, without an exception: its saved
 * context is unstacked by hand onto its own stack (PSP), the lock drops,
 * and control passes to its entry. Interrupts pending at the unlock run on
 * that stack, before the entry, as they would after an exception return. */
__attribute__((naked, noreturn)) static void start_first(void *sp)
{
    (void)sp; /* in r0 */
    __asm volatile(
        ".syntax unified\n"
        "adds r0, #16\n"
        "ldmia r0!, {r4-r7}\n"
        "mov r8, r4\n"
        "mov r9, r5\n"
        "mov r10, r6\n"
        "mov r11, r7\n"
        "subs r0, #32\n"
        "ldmia r0!, {r4-r7}\n"
        "adds r0, #16\n"            /* the hardware frame */
        "ldr r1, [r0, #24]\n"       /* its pc: the entry */
        "ldr r2, [r0, #20]\n"       /* its lr: where the entry returns */
        "mov lr, r2\n"
        "ldr r2, [r0, #0]\n"        /* its r0: the entry's argument */
        "adds r0, #32\n"
        "msr psp, r0\n"
        "movs r0, #2\n"             /* CONTROL.SPSEL: thread mode on PSP */
        "msr control, r0\n"
        "isb\n"
        "mov r0, r2\n"
        "movs r3, #1\n"             /* Thumb */
        "orrs r1, r3\n"
        "cpsie i\n"
        "bx r1\n");
}

/* ---- the tick ---- */

void lm_armv6m_tick(void)
{
    lmk_tick_announce(1);
}

#if LM_PORT_BOARD_TICK
static void tick_start(void)
{
    lm_board_tick_start();
}

static void tick_stop(void)
{
    lm_board_tick_stop();
}
#else
void SysTick_Handler(void);
void SysTick_Handler(void)
{
    lmk_tick_announce(1);
}

/* The periodic tick, from its first boundary one period from now. The
 * priority registers take word writes only: SHPR3 as a whole. */
static void tick_start(void)
{
    LM_SCB_SHPR3 = (LM_SCB_SHPR3 & 0x00FFFFFFu) | ((uint32_t)LM_PORT_SYSTICK_PRIO << 24);
    LM_SYST_CSR = 0u;
    LM_SYST_RVR = TICK_COUNTS - 1u;
    LM_SYST_CVR = 0u;
    LM_SYST_CSR = SYST_RUN;
}

static void tick_stop(void)
{
    LM_SYST_CSR = 0u;
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSTCLR;
}
#endif

/* ---- start, stop, idle ---- */

void lm_port_start(lm_thread_t *first)
{
    /* Entered with the kernel lock held (include/limen/port.h): nothing
     * below can be interrupted by a handler that calls the kernel. */
    port.started = false;
    if (setjmp(port.exit_to) != 0) {
        return; /* lm_port_stop() */
    }
    LM_SCB_SHPR3 = (LM_SCB_SHPR3 & 0xFF00FFFFu) | (PENDSV_PRIO << 16);
    tick_start();
    port.started = true;
    /* Only at its unlock may an interrupt ready a thread: the switch it
     * asks for finds PSP and the tick in place. */
    start_first(first->ctx.sp);
}

_Noreturn void lm_port_stop(void)
{
    (void)lm_port_irq_lock();
    port.started = false;
    tick_stop();
    LM_SCB_ICSR = LM_SCB_ICSR_PENDSVCLR;
    /* Back to the main stack, then into main's frame. */
    __asm volatile("msr control, %0\n isb" ::"r"(0u) : "memory");
    lm_port_irq_unlock(0u);
    longjmp(port.exit_to, 1);
}

/* Cost: O(1). Called with the lock held (PRIMASK set): WFI still wakes for an interrupt
 * that PRIMASK keeps from running, which then runs at the kernel's unlock. */
void lm_port_idle(void)
{
    __asm volatile("dsb\n wfi" ::: "memory");
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
