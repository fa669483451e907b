/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv7-M port: stack overflow checks, the optional MPU stack guard, and the
 * fault handlers' report (docs/porting.md, "Stack overflow and the
 * fatal-error hook").
 *
 * A control block placed just below its thread's stack (the natural order of
 * two definitions in C) is what an overflow overwrites first, from its last
 * fields down: name, stack, ... So the checks do not trust those fields.
 * At thread start the port copies the stack's bottom and the name into the
 * context, the first fields of the control block (the last an overflow
 * reaches), with a check word over them and the control block's address.
 * A report then names the thread from the copies, and says so when even the
 * copies are gone, rather than following an overwritten name pointer.
 */
#include <stddef.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/armv7m.h"
#include "fault.h"

_Noreturn void lmk_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *thread);

/* The board's console (boards/common/board_services.h). Weak: a board
 * without one still links, and fatal reports are then silent. */
void lm_board_puts(const char *s) __attribute__((weak));

void lm_port_fatal_print(const char *s)
{
    if (lm_board_puts != NULL) {
        lm_board_puts(s);
    }
}

/* ---- text without a formatter (this runs in fault handlers) ---- */

#define TEXT_BYTES 96u

struct text {
    char buf[TEXT_BYTES];
    size_t len;
};

static void text_put(struct text *t, const char *s)
{
    while (*s != '\0' && t->len + 1u < TEXT_BYTES) {
        t->buf[t->len++] = *s++;
    }
    t->buf[t->len] = '\0';
}

static void text_hex(struct text *t, uint32_t v)
{
    char h[11] = "0x";
    for (unsigned i = 0; i < 8u; i++) {
        h[2u + i] = "0123456789abcdef"[(v >> (28u - 4u * i)) & 0xFu];
    }
    h[10] = '\0';
    text_put(t, h);
}

/* ---- stack checks ---- */

void lmp_stack_prepare(lm_thread_t *t)
{
    uint32_t *bottom = (uint32_t *)t->stack;
    for (unsigned i = 0; i < LMP_STACK_GUARD_WORDS; i++) {
        bottom[i] = LMP_STACK_GUARD;
    }
    t->ctx.stack_bottom = t->stack;
    t->ctx.name = t->name;
    t->ctx.check = lmp_stack_check_word(t, t->stack, t->name);
}

enum cb_state {
    CB_INTACT,  /* the control block agrees with the copies */
    CB_DAMAGED, /* the copies hold, the control block's fields do not */
    CB_LOST     /* the copies are overwritten too */
};

static enum cb_state cb_state(const lm_thread_t *t)
{
    const lm_port_context_t *c = &t->ctx;
    if (c->check != lmp_stack_check_word(t, c->stack_bottom, c->name)) {
        return CB_LOST;
    }
    return (t->stack == c->stack_bottom && t->name == c->name) ? CB_INTACT : CB_DAMAGED;
}

/* Writes what names t into `out`; returns t if its control block can be
 * handed to a hook, NULL if not. */
static const lm_thread_t *describe(const lm_thread_t *t, struct text *out)
{
    switch (cb_state(t)) {
    case CB_INTACT:
        text_put(out, t->name != NULL ? t->name : "(unnamed)");
        return t;
    case CB_DAMAGED:
        text_put(out, t->ctx.name != NULL ? t->ctx.name : "(unnamed)");
        text_put(out, " (control block at ");
        text_hex(out, (uint32_t)(uintptr_t)t);
        text_put(out, " overwritten)");
        return NULL;
    default:
        text_put(out, "corrupted thread at ");
        text_hex(out, (uint32_t)(uintptr_t)t);
        return NULL;
    }
}

static struct text where;

_Noreturn void lmp_stack_overflow(const lm_thread_t *t)
{
    where.len = 0u;
    const lm_thread_t *named = describe(t, &where);
    lmk_fatal(LM_FATAL_STACK, where.buf, named);
}

/* ---- MPU stack guard (LM_CFG_MPU_STACK_GUARD) ---- */

#if LM_CFG_MPU_STACK_GUARD
#define GUARD_REGION_BYTES 32u
#define RBAR_VALID (1u << 4)
#define RASR_XN (1u << 28)
#define RASR_AP_READ_ONLY (6u << 24) /* privileged and unprivileged: read only */
#define RASR_NORMAL_WT (1u << 17)                         /* TEX 000, C 1, B 0 */
#define RASR_NORMAL_WBWA ((1u << 19) | (1u << 17) | (1u << 16)) /* TEX 001, C 1, B 1 */
#define RASR_SIZE_32 (4u << 1) /* 2^(4+1) bytes */
#define RASR_ENABLE 1u
/* The largest exception frame (with the FPU): stacking below the stack
 * pointer reaches this far. */
#define MAX_FRAME_BYTES 104u

static struct {
    bool ready;         /* set up since lm_port_start */
    bool turned_on;     /* the MPU was off: the port enabled it */
    uint32_t region;    /* the highest-numbered region: it wins overlaps */
    uintptr_t base;     /* the guarded 32 bytes of the running thread */
} mpu;

static void mpu_setup(void)
{
    uint32_t regions = (LM_MPU_TYPE >> 8) & 0xFFu;
    if (regions == 0u) {
        /* Asked for and impossible: say so rather than run unguarded. */
        lm_fatal(LM_FATAL_PORT, "LM_CFG_MPU_STACK_GUARD: this core has no MPU");
    }
    mpu.region = regions - 1u;
    mpu.turned_on = (LM_MPU_CTRL & LM_MPU_CTRL_ENABLE) == 0u;
    if (mpu.turned_on) {
        /* The default memory map for everything else, privileged code. */
        LM_MPU_CTRL = LM_MPU_CTRL_ENABLE | LM_MPU_CTRL_PRIVDEFENA;
    }
    mpu.ready = true;
}

/* The default memory map's attributes at `base`, so that the 32 bytes are
 * cached as the rest of the stack is (Cortex-M7): write-through in the Code
 * region and at 0x80000000-0x9FFFFFFF, write-back with allocation in SRAM
 * and external RAM. */
static uint32_t region_attributes(uintptr_t base)
{
    bool wt = base < 0x20000000u || (base >= 0x80000000u && base < 0xA0000000u);
    return RASR_XN | RASR_AP_READ_ONLY | (wt ? RASR_NORMAL_WT : RASR_NORMAL_WBWA) |
           RASR_SIZE_32 | RASR_ENABLE;
}

/* Cost per switch: 23 instructions, call included, two of them stores to
 * the MPU and one a DSB. */
void lmp_stack_guard_set(const lm_thread_t *t)
{
    if (!mpu.ready) {
        mpu_setup();
    }
    /* The region's base must be aligned to its size: the first 32-byte
     * boundary at or above the stack's bottom (docs/porting.md). */
    uintptr_t base = ((uintptr_t)t->ctx.stack_bottom + GUARD_REGION_BYTES - 1u) &
                     ~(uintptr_t)(GUARD_REGION_BYTES - 1u);
    mpu.base = base;
    LM_MPU_RBAR = (uint32_t)base | RBAR_VALID | mpu.region;
    LM_MPU_RASR = region_attributes(base);
    __asm volatile("dsb" ::: "memory"); /* in force before the thread runs */
}

void lmp_stack_guard_off(void)
{
    if (mpu.ready) {
        LM_MPU_RNR = mpu.region;
        LM_MPU_RASR = 0u;
        if (mpu.turned_on) {
            LM_MPU_CTRL = 0u;
        }
        mpu.ready = false;
        __asm volatile("dsb\n isb" ::: "memory");
    }
}

/* A MemManage fault on the running thread's guard: a store into it (by the
 * thread, or by PendSV saving its registers), or the processor stacking a
 * thread's exception frame into it. */
static bool guard_hit(const lm_armv7m_fault_t *f)
{
    if (!mpu.ready) {
        return false;
    }
    if ((f->cfsr & LM_CFSR_MMARVALID) != 0u && f->mmfar - mpu.base < GUARD_REGION_BYTES) {
        return true;
    }
    uint32_t psp;
    __asm volatile("mrs %0, psp" : "=r"(psp));
    return !f->in_handler && (f->cfsr & LM_CFSR_MSTKERR) != 0u &&
           psp + MAX_FRAME_BYTES - mpu.base < GUARD_REGION_BYTES + 2u * MAX_FRAME_BYTES;
}
#endif

/* ---- fault handlers ---- */

static lm_armv7m_fault_t last_fault;
static bool have_fault;

const lm_armv7m_fault_t *lm_armv7m_last_fault(void)
{
    return have_fault ? &last_fault : NULL;
}

static const char *exception_name(uint32_t n)
{
    switch (n) {
    case 3u: return "HardFault";
    case 4u: return "MemManage";
    case 5u: return "BusFault";
    case 6u: return "UsageFault";
    default: return "fault";
    }
}

static void print_reg(struct text *line, const char *name, uint32_t v)
{
    text_put(line, " ");
    text_put(line, name);
    text_put(line, " ");
    text_hex(line, v);
}

_Noreturn void lmp_fault(const uint32_t *frame, uint32_t exc_return);
_Noreturn void lmp_fault(const uint32_t *frame, uint32_t exc_return)
{
    lm_armv7m_fault_t *f = &last_fault;
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    f->exception = ipsr & 0x1FFu;
    f->cfsr = LM_SCB_CFSR;
    f->hfsr = LM_SCB_HFSR;
    f->mmfar = LM_SCB_MMFAR;
    f->bfar = LM_SCB_BFAR;
    f->in_handler = (exc_return & 0x8u) == 0u; /* EXC_RETURN: back to Handler mode */
    /* A fault while stacking leaves no frame to read. */
    f->frame_valid = (f->cfsr & (LM_CFSR_MSTKERR | LM_CFSR_STKERR)) == 0u;
    f->lr = f->frame_valid ? frame[5] : 0u;
    f->pc = f->frame_valid ? frame[6] : 0u;
    f->xpsr = f->frame_valid ? frame[7] : 0u;
    have_fault = true;

    bool overflow = false;
#if LM_CFG_MPU_STACK_GUARD
    overflow = guard_hit(f);
#endif
    struct text line = {.len = 0u};
    const lm_thread_t *thread = NULL;
    where.len = 0u;
    text_put(&line, "limen: ");
    text_put(&line, exception_name(f->exception));
    text_put(&line, overflow ? " (stack overflow)" : "");
    if (lm_armv7m_threads_running()) {
        thread = describe(lm_thread_self(), &where);
        text_put(&line, f->in_handler ? " in a handler, thread " : " in thread ");
        text_put(&line, where.buf);
    } else {
        text_put(&line, " before the kernel runs");
    }
    text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    line.len = 0u;
    if (f->frame_valid) {
        print_reg(&line, " PC", f->pc);
        print_reg(&line, "LR", f->lr);
        print_reg(&line, "xPSR", f->xpsr);
    } else {
        text_put(&line, "  no frame: the fault came while stacking it");
    }
    text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    line.len = 0u;
    print_reg(&line, " CFSR", f->cfsr);
    print_reg(&line, "HFSR", f->hfsr);
    print_reg(&line, "MMFAR", f->mmfar);
    print_reg(&line, "BFAR", f->bfar);
    text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    if (!overflow) {
        where.len = 0u;
        text_put(&where, exception_name(f->exception));
    }
    lmk_fatal(overflow ? LM_FATAL_STACK : LM_FATAL_FAULT, where.buf, thread);
}

/* Hands lmp_fault the stacked frame (on PSP if a thread was running, else
 * on MSP) and EXC_RETURN. Runs on MSP: a thread's overflowed stack is not
 * used again. The configurable faults share it, if an application enables
 * them (SHCSR); by default they escalate to HardFault and CFSR tells which
 * it was. */
__attribute__((naked)) void HardFault_Handler(void);
__attribute__((naked)) void HardFault_Handler(void)
{
    __asm volatile("tst lr, #4\n"
                   "ite eq\n"
                   "mrseq r0, msp\n"
                   "mrsne r0, psp\n"
                   "mov r1, lr\n"
                   "b lmp_fault\n");
}
void MemManage_Handler(void) __attribute__((alias("HardFault_Handler")));
void BusFault_Handler(void) __attribute__((alias("HardFault_Handler")));
void UsageFault_Handler(void) __attribute__((alias("HardFault_Handler")));
