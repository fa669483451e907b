/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv6-M port: the HardFault report (docs/porting.md). Armv6-M has one
 * fault exception and no fault status registers: the report gives the
 * stacked PC, LR and xPSR and the thread, then lm_fatal(LM_FATAL_FAULT).
 */
#include <stddef.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/armv6m.h"
#include "fault.h"

_Noreturn void lmk_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *thread);

static struct lmp_text where;
static lm_armv6m_fault_t last_fault;
static bool have_fault;

const lm_armv6m_fault_t *lm_armv6m_last_fault(void)
{
    return have_fault ? &last_fault : NULL;
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
    lm_armv6m_fault_t *f = &last_fault;
    f->in_handler = (exc_return & 0x8u) == 0u; /* EXC_RETURN: back to Handler mode */
    /* Armv6-M has no status bits telling a fault while stacking (the
     * Armv7-M port's MSTKERR, STKERR): the frame is read as it is. */
    f->lr = frame[5];
    f->pc = frame[6];
    f->xpsr = frame[7];
    have_fault = true;

    struct lmp_text line = {.len = 0u};
    const lm_thread_t *thread = NULL;
    where.len = 0u;
    lmp_text_put(&line, "limen: HardFault");
    if (lm_armv6m_threads_running()) {
        thread = lmp_describe(lm_thread_self(), &where);
        lmp_text_put(&line, f->in_handler ? " in a handler, thread " : " in thread ");
        lmp_text_put(&line, where.buf);
    } else {
        lmp_text_put(&line, " before the kernel runs");
    }
    lmp_text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    line.len = 0u;
    print_reg(&line, " PC", f->pc);
    print_reg(&line, "LR", f->lr);
    print_reg(&line, "xPSR", f->xpsr);
    lmp_text_put(&line, "\n");
    lm_port_fatal_print(line.buf);

    where.len = 0u;
    lmp_text_put(&where, "HardFault");
    lmk_fatal(LM_FATAL_FAULT, where.buf, thread);
}

/* Hands lmp_fault the stacked frame (on PSP if a thread was running, else
 * on MSP) and EXC_RETURN. Thumb-1 has no IT block: a branch instead. */
__attribute__((naked)) void HardFault_Handler(void);
__attribute__((naked)) void HardFault_Handler(void)
{
    __asm volatile(".syntax unified\n"
                   "mov r1, lr\n"
                   "movs r2, #4\n"
                   "tst r1, r2\n"
                   "bne 1f\n"
                   "mrs r0, msp\n"
                   "b 2f\n"
                   "1:\n"
                   "mrs r0, psp\n"
                   "2:\n"
                   "ldr r2, =lmp_fault\n"
                   "bx r2\n"
                   ".ltorg\n");
}
