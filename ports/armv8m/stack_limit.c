/* SPDX-License-Identifier: Apache-2.0 */
/* Armv8-M Mainline: the stack limit registers (stack_limit.h). */
#include <stdint.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "../armv7m/fault.h"

/* PendSV saves PSPLIM, R4-R11 and EXC_RETURN, and S16-S31 after an FPU
 * frame, below the exception frame: that room must lie above the limit. */
#if defined(__ARM_FP)
#define SWITCH_SAVE_BYTES ((10u + 16u) * 4u)
#else
#define SWITCH_SAVE_BYTES (10u * 4u)
#endif

/* A stack limit fault must reach the port's report (../armv7m/fault.c),
 * not a board's weak HardFault_Handler: every image that switches
 * threads refers to this file, and through this to that one (a strong
 * symbol of it: the weak handler would satisfy a reference to its own
 * name, and the linker would not look further). */
_Noreturn void lmp_fault(const uint32_t *frame, uint32_t exc_return);
typedef void (*fault_fn)(const uint32_t *frame, uint32_t exc_return);
__attribute__((used)) static const fault_fn fault_report = lmp_fault;

uint32_t lmp_stack_limit(const lm_thread_t *t)
{
    uint32_t guard_end = (uint32_t)(uintptr_t)t->ctx.guard_top + 4u;
    /* PSPLIM's low 3 bits are zero: round up to a double word. */
    return (guard_end + SWITCH_SAVE_BYTES + 7u) & ~7u;
}

uint32_t lmp_main_stack_limit_at_fault;

bool lmp_stack_limit_hit(uint32_t cfsr)
{
    return (cfsr & LMP_CFSR_STKOF) != 0u;
}

bool lmp_stack_limit_frame_lost(uint32_t cfsr, const uint32_t *frame, uint32_t exc_return)
{
    uint32_t limit;
    if ((exc_return & 0x4u) != 0u) { /* EXC_RETURN.SPSEL: the process stack */
        __asm volatile("mrs %0, psplim" : "=r"(limit));
    } else {
        limit = lmp_main_stack_limit_at_fault; /* LMP_FAULT_ENTRY lifted it */
    }
    return lmp_stack_limit_hit(cfsr) && (uint32_t)(uintptr_t)frame == limit;
}
