/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv7-M port: the fault handlers' report and the optional MPU stack guard
 * (docs/porting.md, "Stack overflow and the fatal-error hook"). The stack
 * checks at every switch, and the text helpers both use, are in port.c.
 */
#include <stddef.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/armv7m.h"
#include "fault.h"

_Noreturn void lmk_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *thread);

#if !LM_PORT_ARMV8M
#define LMP_FAULT_ENTRY "" /* Armv8-M: ../armv8m/stack_limit.h */
#endif

/* What a fault report passes to lm_fatal as `where`. */
static struct lmp_text where;

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
    uintptr_t base = ((uintptr_t)lmp_stack_bottom(&t->ctx) + GUARD_REGION_BYTES - 1u) &
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

static void print_reg(struct lmp_text *line, const char *name, uint32_t v)
{
    lmp_text_put(line, " ");
    lmp_text_put(line, name);
    lmp_text_put(line, " ");
    lmp_text_hex(line, v);
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
#if LM_PORT_ARMV8M
    f->frame_valid = f->frame_valid && !lmp_stack_limit_frame_lost(f->cfsr, frame, exc_return);
#endif
    f->lr = f->frame_valid ? frame[5] : 0u;
    f->pc = f->frame_valid ? frame[6] : 0u;
    f->xpsr = f->frame_valid ? frame[7] : 0u;
    have_fault = true;

    bool overflow = false;
#if LM_CFG_MPU_STACK_GUARD
    overflow = guard_hit(f);
#endif
    bool main_stack = false; /* the overflow is the main stack's */
#if LM_PORT_ARMV8M
    overflow = lmp_stack_limit_hit(f->cfsr);
    main_stack = overflow && (exc_return & 0x4u) == 0u; /* EXC_RETURN.SPSEL: MSP */
#endif
    struct lmp_text line = {.len = 0u};
    const lm_thread_t *thread = NULL;
    where.len = 0u;
    lmp_text_put(&line, "limen: ");
    lmp_text_put(&line, exception_name(f->exception));
    lmp_text_put(&line, main_stack ? " (main stack overflow)" : overflow ? " (stack overflow)" : "");
    if (lm_armv7m_threads_running()) {
        thread = lmp_describe(lm_thread_self(), &where);
        lmp_text_put(&line, f->in_handler ? " in a handler, thread " : " in thread ");
        lmp_text_put(&line, where.buf);
    } else {
        lmp_text_put(&line, " before the kernel runs");
    }
    lmp_text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    line.len = 0u;
    if (f->frame_valid) {
        print_reg(&line, " PC", f->pc);
        print_reg(&line, "LR", f->lr);
        print_reg(&line, "xPSR", f->xpsr);
    } else {
        lmp_text_put(&line, "  no frame: the fault came while stacking it");
    }
    lmp_text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    line.len = 0u;
    print_reg(&line, " CFSR", f->cfsr);
    print_reg(&line, "HFSR", f->hfsr);
    print_reg(&line, "MMFAR", f->mmfar);
    print_reg(&line, "BFAR", f->bfar);
    lmp_text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    if (!overflow) {
        where.len = 0u;
        lmp_text_put(&where, exception_name(f->exception));
    } else if (main_stack) {
        /* Not the running thread's stack: the hook must not blame it. */
        where.len = 0u;
        lmp_text_put(&where, "main stack");
        thread = NULL;
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
    __asm volatile(LMP_FAULT_ENTRY
                   "tst lr, #4\n"
                   "ite eq\n"
                   "mrseq r0, msp\n"
                   "mrsne r0, psp\n"
                   "mov r1, lr\n"
                   "b lmp_fault\n");
}
void MemManage_Handler(void) __attribute__((alias("HardFault_Handler")));
void BusFault_Handler(void) __attribute__((alias("HardFault_Handler")));
void UsageFault_Handler(void) __attribute__((alias("HardFault_Handler")));
