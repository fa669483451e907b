/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Armv8-M: the security state the kernel runs in, and the EXC_RETURN value
 * a new thread starts with (docs/porting.md, "Armv8-M"). With the Security
 * Extension, EXC_RETURN says which state's stack a return goes to (S, bit
 * 6) and which state took the exception (ES, bit 0); without it, or in the
 * Non-secure state, both are 0 and DCRS (bit 5) is 1. One image serves
 * either: the state is asked of the core, not fixed at build time.
 */
#include <stdbool.h>
#include <stdint.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "../armv7m/fault.h"

#define EXC_RETURN_SECURE_THREAD_PSP 0xFFFFFFFDu    /* S, DCRS, FType, Mode, SPSEL, ES */
#define EXC_RETURN_NONSECURE_THREAD_PSP 0xFFFFFFBCu /* DCRS, FType, Mode, SPSEL */

bool lmp_secure_state(void)
{
    /* TT's S bit (22) is the address's security, read as 0 except in the
     * Secure state: asked of this code's own address, it is 1 only when
     * the core runs Secure. */
    uint32_t resp;
    uint32_t here = (uint32_t)(uintptr_t)&lmp_secure_state;
    __asm volatile("tt %0, %1" : "=r"(resp) : "r"(here));
    return (resp & (1u << 22)) != 0u;
}

uint32_t lmp_exc_return_thread(void)
{
    return lmp_secure_state() ? EXC_RETURN_SECURE_THREAD_PSP : EXC_RETURN_NONSECURE_THREAD_PSP;
}
