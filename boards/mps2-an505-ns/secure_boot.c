/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Secure firmware that starts Limen in the Non-secure state on MPS2
 * AN505 under QEMU (docs/porting.md, "Security Extension"): what a
 * Non-secure build needs from the Secure side, and nothing more. It runs
 * from the Secure alias of SSRAM1's first MiB (the core boots Secure, with
 * VTOR at 0x10000000) on a stack of its own, and returns never: Limen, its
 * threads and handlers all run Non-secure, with no Secure calls.
 *
 *   - SAU off with ALLNS: every address the IDAU calls Non-secure (address
 *     bit 28 clear) is so;
 *   - the memory filters (MPCs): SSRAM1 above its first MiB (the
 *     Non-secure image's code) and SSRAM2-3 (its data) Non-secure;
 *   - the peripheral filters (PPCs): every peripheral Non-secure;
 *   - every interrupt targets the Non-secure state (NVIC_ITNS), and so do
 *     HardFault, BusFault and NMI (AIRCR.BFHFNMINS): the port's fault
 *     report is a Non-secure handler;
 *   - the FPU (CP10, CP11) granted to the Non-secure state (NSACR);
 *   - VTOR_NS and MSP_NS from the Non-secure vector table, then BXNS to its
 *     reset handler.
 *
 * It calls nothing of the Non-secure image (which is not Secure memory):
 * its code is in .secure_text, and no loop here becomes a library call.
 */
#include <stdint.h>

#include "limen/armv7m.h"

#define SAU_CTRL LM_REG32(0xE000EDD0u)
#define SAU_CTRL_ALLNS (1u << 1)
#define NVIC_ITNS(n) LM_REG32(0xE000E380u + 4u * (n))
#define SCB_NSACR LM_REG32(0xE000ED8Cu)
#define NSACR_CP10_CP11 ((1u << 10) | (1u << 11))
#define AIRCR_BFHFNMINS (1u << 13)
#define AIRCR_PRIGROUP_MASK (7u << 8)
#define VTOR_NS LM_REG32(0xE002ED08u) /* the SCB's Non-secure alias */

/* SSE-200 Secure privilege control: the PPCs' Non-secure bits. */
#define SPCTRL(off) LM_REG32(0x50080000u + (off))
#define AHBNSPPCEXP0 0x60u /* to EXP3, 0x6C */
#define APBNSPPC0 0x70u    /* and PPC1, 0x74 */
#define APBNSPPCEXP0 0x80u /* to EXP3, 0x8C */

/* The AN505's memory filters (MPCs) of SSRAM1, 2, 3. */
#define MPC_SSRAM1 0x58007000u
#define MPC_SSRAM2 0x58008000u
#define MPC_SSRAM3 0x58009000u
#define MPC_BLK_CFG 0x14u
#define MPC_BLK_IDX 0x18u
#define MPC_BLK_LUT 0x1Cu

#define SSRAM1_BYTES 0x00400000u
#define SSRAM23_BYTES 0x00200000u
#define SECURE_BYTES 0x00100000u /* SSRAM1's first MiB stays Secure */

extern uint32_t __secure_stack_top[];
extern const uint32_t __ns_vectors[];

/* Blocks of the memory behind MPC `mpc` (`bytes` long) at or above `from`
 * become Non-secure; those below stay Secure. */
__attribute__((section(".secure_text"))) static void mpc_nonsecure_from(uint32_t mpc,
                                                                         uint32_t bytes,
                                                                         uint32_t from)
{
    uint32_t block = 1u << (LM_REG32(mpc + MPC_BLK_CFG) + 5u);
    uint32_t blocks = bytes / block;
    for (volatile uint32_t word = 0; word * 32u < blocks; word++) {
        uint32_t lut = 0u;
        for (uint32_t bit = 0; bit < 32u && word * 32u + bit < blocks; bit++) {
            if ((word * 32u + bit) * block >= from) {
                lut |= 1u << bit;
            }
        }
        LM_REG32(mpc + MPC_BLK_IDX) = word;
        LM_REG32(mpc + MPC_BLK_LUT) = lut;
    }
}

__attribute__((section(".secure_text"), noreturn)) void lm_secure_boot(void);
__attribute__((section(".secure_text"), noreturn)) void lm_secure_boot(void)
{
    SAU_CTRL = SAU_CTRL_ALLNS;
    mpc_nonsecure_from(MPC_SSRAM1, SSRAM1_BYTES, SECURE_BYTES);
    mpc_nonsecure_from(MPC_SSRAM2, SSRAM23_BYTES, 0u);
    mpc_nonsecure_from(MPC_SSRAM3, SSRAM23_BYTES, 0u);
    for (uint32_t off = AHBNSPPCEXP0; off <= APBNSPPCEXP0 + 0xCu; off += 4u) {
        if (off <= AHBNSPPCEXP0 + 0xCu || off == APBNSPPC0 || off == APBNSPPC0 + 4u ||
            off >= APBNSPPCEXP0) {
            SPCTRL(off) = 0xFFFFFFFFu;
        }
    }
    for (uint32_t n = 0; n < 4u; n++) {
        NVIC_ITNS(n) = 0xFFFFFFFFu;
    }
    SCB_NSACR |= NSACR_CP10_CP11;
    LM_SCB_AIRCR = LM_SCB_AIRCR_VECTKEY | (LM_SCB_AIRCR & AIRCR_PRIGROUP_MASK) | AIRCR_BFHFNMINS;
    VTOR_NS = (uint32_t)(uintptr_t)__ns_vectors;
    __asm volatile("dsb\n isb\n"
                   "msr msp_ns, %0\n"
                   "bxns %1\n" ::"r"(__ns_vectors[0]), "r"(__ns_vectors[1] & ~1u)
                   : "memory");
    for (;;) {
    }
}

/* A Secure fault while the above runs: nothing to report it with. */
__attribute__((section(".secure_text"), noreturn)) static void secure_hang(void)
{
    for (;;) {
    }
}

typedef void (*secure_vector_t)(void);
__attribute__((section(".secure_vectors"), used)) static const secure_vector_t
    secure_vectors[16] = {
    (secure_vector_t)(uintptr_t)__secure_stack_top, lm_secure_boot, secure_hang, secure_hang,
    secure_hang, secure_hang, secure_hang, secure_hang, 0, 0, 0, secure_hang, secure_hang, 0,
    secure_hang, secure_hang,
};
