/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The stack check the Cortex-M ports share (ports/armv6m, ports/armv7m,
 * and through it ports/armv8m): guard words at the bottom of every stack,
 * and copies of what the check needs in the thread's port context, which a
 * check word vouches for. Header only: each port's switch handler makes the
 * fast part of the check in its own assembly (docs/porting.md), and the
 * reference harness builds a port from its port.c alone.
 *
 * The port context (the port's limen_port.h) has the fields `guard_top`,
 * `name` and `check`. They come first in the control block, so an overflow
 * running down from a stack into a control block placed below it reaches
 * them last.
 */
#ifndef LIMEN_PORTS_STACK_CHECK_H
#define LIMEN_PORTS_STACK_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "limen/limen.h"

/* Words at the bottom of every stack, written at thread start and checked
 * at every switch away from the thread. One byte repeated: Armv7-M's
 * switch compares with it in one instruction. */
#define LMP_STACK_GUARD_WORDS 4u
#define LMP_STACK_GUARD 0xDEDEDEDEu
#define LMP_STACK_CHECK_KEY 0x4C6D5374u /* "LmSt" */

/* The check word over the port's copies in t->ctx. */
static inline uint32_t lmp_stack_check_word(const lm_thread_t *t, const void *guard_top,
                                            const char *name)
{
    return (uint32_t)(uintptr_t)t ^ (uint32_t)(uintptr_t)guard_top ^
           (uint32_t)(uintptr_t)name ^ LMP_STACK_CHECK_KEY;
}

/* The stack's bottom, from the copy of its top guard word's address. */
static inline void *lmp_stack_bottom(const lm_port_context_t *c)
{
    return (uint32_t *)c->guard_top - (LMP_STACK_GUARD_WORDS - 1u);
}

/* lm_port_stack_init: the guard words, and the copies the checks trust.
 * The copy kept is the top guard word's address, the one an overflow
 * reaches first: the switch's fast check compares the saved stack pointer
 * with it and reads the word there, with no arithmetic. */
static inline void lmp_stack_prepare(lm_thread_t *t)
{
    uint32_t *bottom = (uint32_t *)t->stack;
    for (unsigned i = 0; i < LMP_STACK_GUARD_WORDS; i++) {
        bottom[i] = LMP_STACK_GUARD;
    }
    t->ctx.guard_top = bottom + LMP_STACK_GUARD_WORDS - 1u;
    t->ctx.name = t->name;
    t->ctx.check = lmp_stack_check_word(t, t->ctx.guard_top, t->name);
}

/* At every switch away from t, with its saved stack pointer: true if the
 * stack pointer is above the guard words, the guard words are intact and
 * the control block still agrees with the port's copies. Reads only the
 * copies' targets after the check word has vouched for them. Cost: about
 * 20 instructions, no branch taken when all is well; the switch handlers
 * call it only when their fast check fails. */
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

#endif
