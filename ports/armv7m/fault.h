/* SPDX-License-Identifier: Apache-2.0 */
/* Between port.c (stack checks, the fatal report's text) and fault.c (fault
 * handlers, MPU guard): not part of the API. */
#ifndef LIMEN_ARMV7M_FAULT_H
#define LIMEN_ARMV7M_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "limen/limen.h"

#include "../common/stack_check.h"

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
