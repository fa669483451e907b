/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bit scan without CLZ. The kernel finds the most urgent member of a
 * priority set with __builtin_ctz (kernel/include/prioset.h); Armv6-M has
 * no instruction for it, so GCC calls __ctzsi2, whose libgcc version is a
 * binary search: 19 instructions and three data-dependent branches. This
 * port defines __ctzsi2 itself (an object file's definition is linked
 * before libgcc's archive is searched): a de Bruijn multiply, 8
 * instructions with no branch, the same time for every priority.
 *
 * x & -x keeps the lowest set bit, 2^n. Multiplied by the de Bruijn
 * constant 0x077CB531 (a sequence in which every 5-bit window differs),
 * its top five bits are the window at n, which the table maps back to n.
 * Cost: 8 instructions, one of them MULS (1 cycle on a Cortex-M0+ and on a
 * Cortex-M0 with the fast multiplier; 32 with the small one,
 * docs/porting.md). An argument of 0 returns 0 (the kernel never asks).
 */
#include <stdint.h>

#include "limen/armv6m.h"

/* The bit number of each 5-bit window of the de Bruijn constant. */
const uint8_t lmp_ctz_table[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20,
                                   15, 25, 17, 4,  8,  31, 27, 13, 23, 21, 19,
                                   16, 7,  26, 12, 18, 6,  11, 5,  10, 9};

/* In assembly: written in C, GCC may recognise the idiom and turn it back
 * into a call of __ctzsi2, this very function. __ctzsi2 (GCC's name for
 * the count of trailing zeros, libgcc's ABI) is a second name for it. */
__asm__(".section .text.lm_armv6m_ctz,\"ax\",%progbits\n"
        ".syntax unified\n"
        ".thumb\n"
        ".p2align 1\n"
        ".global lm_armv6m_ctz\n"
        ".global __ctzsi2\n"
        ".type lm_armv6m_ctz, %function\n"
        ".type __ctzsi2, %function\n"
        ".thumb_func\n"
        "lm_armv6m_ctz:\n"
        ".thumb_func\n"
        "__ctzsi2:\n"
        "negs r1, r0\n"
        "ands r0, r1\n"
        "ldr r1, =0x077CB531\n"
        "muls r0, r1\n"
        "lsrs r0, r0, #27\n"
        "ldr r1, =lmp_ctz_table\n"
        "ldrb r0, [r1, r0]\n"
        "bx lr\n"
        ".ltorg\n"
        ".size lm_armv6m_ctz, . - lm_armv6m_ctz\n"
        ".size __ctzsi2, . - __ctzsi2\n"
        ".text\n");
