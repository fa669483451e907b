/* SPDX-License-Identifier: Apache-2.0 */
/* Between port.c (stack checks, the fatal report's text) and fault.c (fault
 * handlers, MPU guard): not part of the API. */
#ifndef LIMEN_ARMV7M_FAULT_H
#define LIMEN_ARMV7M_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "limen/limen.h"

/* Words at the bottom of every stack, written at thread start and checked
 * at every switch away from the thread. */
#define LMP_STACK_GUARD_WORDS 4u
#define LMP_STACK_GUARD 0xDEDEDEDEu /* one byte repeated: PendSV compares with it in one instruction */
#define LMP_STACK_CHECK_KEY 0x4C6D5374u /* "LmSt" */

/* The check word over the port's copies in t->ctx (limen_port.h). */
static inline uint32_t lmp_stack_check_word(const lm_thread_t *t, const void *guard_top,
                                            const char *name)
{
    return (uint32_t)(uintptr_t)t ^ (uint32_t)(uintptr_t)guard_top ^
           (uint32_t)(uintptr_t)name ^ LMP_STACK_CHECK_KEY;
}

/* Text without a formatter: reports run in fault handlers (port.c). */
#define LMP_TEXT_BYTES 96u
struct lmp_text {
    char buf[LMP_TEXT_BYTES];
    size_t len;
};
void lmp_text_put(struct lmp_text *t, const char *s);
void lmp_text_hex(struct lmp_text *t, uint32_t v);
/* Writes what names t into `out` as far as its control block can be
 * trusted; returns t if the block can be handed to a hook, NULL if not. */
const lm_thread_t *lmp_describe(const lm_thread_t *t, struct lmp_text *out);

/* The stack's bottom, from the port's trusted copy of its top guard
 * word's address. */
static inline void *lmp_stack_bottom(const lm_port_context_t *c)
{
    return (uint32_t *)c->guard_top - (LMP_STACK_GUARD_WORDS - 1u);
}

/* lm_port_stack_init: the guard words, and the copies the checks trust. */
void lmp_stack_prepare(lm_thread_t *t);

/* At every switch away from t, with its saved stack pointer: true if the
 * stack pointer is above the guard words, the guard words are intact and
 * the control block still agrees with the port's copies. Reads only the
 * copies' targets after the check word has vouched for them. Cost: about
 * 20 instructions, no branch taken when all is well. */
static inline bool lmp_stack_ok(const lm_thread_t *t, const void *sp)
{
    const lm_port_context_t *c = &t->ctx;
    if (c->check != lmp_stack_check_word(t, c->guard_top, c->name) ||
        t->stack != lmp_stack_bottom(c) || t->name != c->name) {
        return false;
    }
    const uint32_t *guard = (const uint32_t *)lmp_stack_bottom(c);
    return (const uint8_t *)sp > (const uint8_t *)c->guard_top &&
           guard[0] == LMP_STACK_GUARD && guard[LMP_STACK_GUARD_WORDS - 1u] == LMP_STACK_GUARD;
}

/* lmp_stack_ok said no: lm_fatal(LM_FATAL_STACK, ...) naming t as well as
 * its control block allows. */
_Noreturn void lmp_stack_overflow(const lm_thread_t *t);

#if LM_CFG_MPU_STACK_GUARD
/* At every switch: the MPU guard region onto the bottom of t's stack (the
 * first switch after lm_port_start also sets the MPU up). */
void lmp_stack_guard_set(const lm_thread_t *t);
/* lm_port_stop: the guard region off, the MPU as it was before. */
void lmp_stack_guard_off(void);
#endif

#if LM_PORT_ARMV8M
#include "../armv8m/stack_limit.h"
#endif

#endif
