/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The few Armv6-M system registers Limen uses, with addresses and bits from
 * the Armv6-M Architecture Reference Manual (System Control Space). The
 * names are those of limen/armv7m.h where the register is the same: board
 * and test code that touches only these builds for either architecture.
 *
 * Armv6-M differences the code below respects:
 *   - the priority registers (NVIC_IPRn, SHPR2, SHPR3) are word-accessible
 *     only, and a core implements 2 bits of priority ([7:6]);
 *   - there is no BASEPRI, no STIR (pend an interrupt through ISPR), no
 *     CFSR/HFSR/MMFAR/BFAR (every fault is a HardFault), no DWT cycle
 *     counter, and VTOR is optional (Cortex-M0+ only).
 */
#ifndef LIMEN_ARMV6M_H
#define LIMEN_ARMV6M_H

#include <stdbool.h>
#include <stdint.h>

#define LM_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* SCB */
#define LM_SCB_CPUID LM_REG32(0xE000ED00u)
#define LM_SCB_ICSR LM_REG32(0xE000ED04u)
#define LM_SCB_ICSR_PENDSVSET (1u << 28)
#define LM_SCB_ICSR_PENDSVCLR (1u << 27)
#define LM_SCB_ICSR_PENDSTSET (1u << 26)
#define LM_SCB_ICSR_PENDSTCLR (1u << 25)
#define LM_SCB_AIRCR LM_REG32(0xE000ED0Cu)
#define LM_SCB_AIRCR_VECTKEY (0x05FAu << 16)
#define LM_SCB_SHPR2 LM_REG32(0xE000ED1Cu) /* SVCall priority in [31:24] */
#define LM_SCB_SHPR3 LM_REG32(0xE000ED20u) /* SysTick [31:24], PendSV [23:16] */

/* SysTick (optional on Armv6-M: the nRF51 has none, the board then ticks) */
#define LM_SYST_CSR LM_REG32(0xE000E010u)
#define LM_SYST_RVR LM_REG32(0xE000E014u)
#define LM_SYST_CVR LM_REG32(0xE000E018u)
#define LM_SYST_CSR_ENABLE (1u << 0)
#define LM_SYST_CSR_TICKINT (1u << 1)
#define LM_SYST_CSR_CLKSOURCE (1u << 2)

/* NVIC: 32 interrupts at most, one register each. */
#define LM_NVIC_ISER(n) LM_REG32(0xE000E100u + 4u * (n))
#define LM_NVIC_ICER(n) LM_REG32(0xE000E180u + 4u * (n))
#define LM_NVIC_ISPR(n) LM_REG32(0xE000E200u + 4u * (n))
#define LM_NVIC_ICPR(n) LM_REG32(0xE000E280u + 4u * (n))
#define LM_NVIC_IPR(n) LM_REG32(0xE000E400u + 4u * (n))

static inline void lm_nvic_enable(unsigned irq)
{
    LM_NVIC_ISER(irq / 32u) = 1u << (irq % 32u);
}

/* A read-modify-write of the word that holds the byte: the priority
 * registers take no byte stores here. Not atomic: call it at set-up, or
 * with interrupts masked. */
static inline void lm_nvic_set_priority(unsigned irq, uint8_t prio)
{
    unsigned shift = 8u * (irq % 4u);
    uint32_t v = LM_NVIC_IPR(irq / 4u) & ~(0xFFu << shift);
    LM_NVIC_IPR(irq / 4u) = v | ((uint32_t)prio << shift);
}

/* Software-trigger an interrupt: no STIR on Armv6-M, so its pending bit. */
static inline void lm_nvic_trigger(unsigned irq)
{
    LM_NVIC_ISPR(irq / 32u) = 1u << (irq % 32u);
}

/* ---- what the Armv6-M port tells about itself (tests, diagnostics) ---- */

/* What the port's HardFault handler saw (ports/armv6m/fault.c). */
typedef struct lm_armv6m_fault {
    bool in_handler;       /* the fault interrupted a handler, not a thread */
    uint32_t pc, lr, xpsr; /* from the stacked frame */
} lm_armv6m_fault_t;
/* The last fault the port reported (for a fatal-error hook), or NULL. */
const lm_armv6m_fault_t *lm_armv6m_last_fault(void);

/* True from the first context switch until lm_port_stop(): threads run. */
bool lm_armv6m_threads_running(void);

/* The index of the lowest set bit of x (x != 0): the bit scan the kernel's
 * priority sets use (ports/armv6m/bitscan.c). */
unsigned lm_armv6m_ctz(uint32_t x);

/* With LM_PORT_BOARD_TICK: the board's tick interrupt handler calls this
 * once per tick (limen_port.h). */
void lm_armv6m_tick(void);

#endif
