/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hosted port: Limen inside one Linux process, each kernel thread on its own
 * stack (ucontext), one host thread of execution, virtual time.
 */
#ifndef LIMEN_PORT_HOSTED_H
#define LIMEN_PORT_HOSTED_H

#include <ucontext.h>

#define LM_PORT_HOSTED 1

typedef struct lm_port_context {
    ucontext_t uc;
} lm_port_context_t;

/* 0: interrupts were unmasked before the lock; 1: already masked. */
typedef unsigned lm_irqstate_t;

#define LM_PORT_STACK_ALIGN 16u
/* Thread stacks on the host hold glibc and, under AddressSanitizer, red
 * zones around every local: 32 KiB is the floor, 64 KiB is comfortable
 * for threads that call printf (docs/hosted.md). The overflow guard takes
 * up to 8 KiB of that at the low end (64-byte pattern, alignment, one
 * 4 KiB page): at least 24 KiB stay usable. */
#define LM_PORT_MIN_STACK 32768u

#endif
