/* SPDX-License-Identifier: Apache-2.0 */
/* Fails the build when the port's header misses something the kernel needs. */
#ifndef LMK_PORT_CHECK_H
#define LMK_PORT_CHECK_H

#include "limen_port.h"

#ifndef LM_PORT_STACK_ALIGN
#error "the port must define LM_PORT_STACK_ALIGN in limen_port.h"
#endif
#ifndef LM_PORT_MIN_STACK
#error "the port must define LM_PORT_MIN_STACK in limen_port.h"
#endif
#if (LM_PORT_STACK_ALIGN & (LM_PORT_STACK_ALIGN - 1)) != 0
#error "LM_PORT_STACK_ALIGN must be a power of two"
#endif

#endif
