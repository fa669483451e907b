/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The few Armv7-M system registers Limen uses, with addresses and bits from
 * the Armv7-M Architecture Reference Manual (System Control Space).
 */
#ifndef LIMEN_ARMV7M_H
#define LIMEN_ARMV7M_H

#include <stdbool.h>
#include <stdint.h>

#define LM_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* SCB */
#define LM_SCB_ICSR LM_REG32(0xE000ED04u)
#define LM_SCB_ICSR_PENDSVSET (1u << 28)
#define LM_SCB_ICSR_PENDSVCLR (1u << 27)
#define LM_SCB_ICSR_PENDSTSET (1u << 26)
#define LM_SCB_ICSR_PENDSTCLR (1u << 25)
#define LM_SCB_VTOR LM_REG32(0xE000ED08u)
#define LM_SCB_AIRCR LM_REG32(0xE000ED0Cu)
#define LM_SCB_CPUID LM_REG32(0xE000ED00u)
#define LM_SCB_AIRCR_PRIGROUP(v) (((v) >> 8) & 7u)
#define LM_SCB_AIRCR_VECTKEY (0x05FAu << 16)
/* The priority byte of system exception n (4..15): SHPR1-SHPR3. */
#define LM_SCB_SHPR_BYTE(n) (*(volatile uint8_t *)(uintptr_t)(0xE000ED18u + (n) - 4u))
#define LM_SCB_SHPR2 LM_REG32(0xE000ED1Cu) /* SVCall priority in [31:24] */
#define LM_SCB_SHPR3 LM_REG32(0xE000ED20u) /* SysTick [31:24], PendSV [23:16] */
#define LM_SCB_CFSR LM_REG32(0xE000ED28u)
#define LM_SCB_HFSR LM_REG32(0xE000ED2Cu)
#define LM_SCB_CPACR LM_REG32(0xE000ED88u)
#define LM_SCB_CPACR_CP10_CP11_FULL (0xFu << 20)
#define LM_FPU_FPCCR LM_REG32(0xE000EF34u)
#define LM_FPU_FPCCR_ASPEN (1u << 31)
#define LM_FPU_FPCCR_LSPEN (1u << 30)

/* SysTick */
#define LM_SYST_CSR LM_REG32(0xE000E010u)
#define LM_SYST_RVR LM_REG32(0xE000E014u)
#define LM_SYST_CVR LM_REG32(0xE000E018u)
#define LM_SYST_CSR_ENABLE (1u << 0)
#define LM_SYST_CSR_TICKINT (1u << 1)
#define LM_SYST_CSR_CLKSOURCE (1u << 2)
#define LM_SYST_CSR_COUNTFLAG (1u << 16)

/* NVIC */
#define LM_NVIC_ISER(n) LM_REG32(0xE000E100u + 4u * (n))
#define LM_NVIC_ICER(n) LM_REG32(0xE000E180u + 4u * (n))
#define LM_NVIC_ISPR(n) LM_REG32(0xE000E200u + 4u * (n))
#define LM_NVIC_ICPR(n) LM_REG32(0xE000E280u + 4u * (n))
#define LM_NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(uintptr_t)(0xE000E400u + (irq)))
#define LM_NVIC_STIR LM_REG32(0xE000EF00u)

static inline void lm_nvic_enable(unsigned irq)
{
    LM_NVIC_ISER(irq / 32u) = 1u << (irq % 32u);
}

static inline void lm_nvic_set_priority(unsigned irq, uint8_t prio)
{
    LM_NVIC_IPR_BYTE(irq) = prio;
}

/* Software-trigger an interrupt (the measurement point of targets.md). */
static inline void lm_nvic_trigger(unsigned irq)
{
    LM_NVIC_STIR = irq;
}

/* Fault status and address registers, system handler control, MPU */
#define LM_SCB_SHCSR LM_REG32(0xE000ED24u)
#define LM_SCB_MMFAR LM_REG32(0xE000ED34u)
#define LM_SCB_BFAR LM_REG32(0xE000ED38u)
#define LM_CFSR_MSTKERR (1u << 4)    /* MemManage on exception entry stacking */
#define LM_CFSR_MMARVALID (1u << 7)  /* MMFAR holds the address */
#define LM_CFSR_STKERR (1u << 12)    /* BusFault on exception entry stacking */
#define LM_MPU_TYPE LM_REG32(0xE000ED90u)
#define LM_MPU_CTRL LM_REG32(0xE000ED94u)
#define LM_MPU_RNR LM_REG32(0xE000ED98u)
#define LM_MPU_RBAR LM_REG32(0xE000ED9Cu)
#define LM_MPU_RASR LM_REG32(0xE000EDA0u)
#define LM_MPU_CTRL_ENABLE (1u << 0)
#define LM_MPU_CTRL_PRIVDEFENA (1u << 2)

/* ---- what the Armv7-M port tells about itself (tests, diagnostics) ---- */

/* What the port's fault handler saw (ports/armv7m/fault.c). The stacked
 * frame's registers are valid only if frame_valid: a fault while the
 * processor stacked the frame (CFSR MSTKERR, STKERR) leaves none. */
typedef struct lm_armv7m_fault {
    uint32_t exception;  /* 3 HardFault, 4 MemManage, 5 BusFault, 6 UsageFault */
    bool frame_valid;
    bool in_handler;     /* the fault interrupted a handler, not a thread */
    uint32_t pc, lr, xpsr; /* from the stacked frame */
    uint32_t cfsr, hfsr, mmfar, bfar;
} lm_armv7m_fault_t;
/* The last fault the port reported (for a fatal-error hook), or NULL if
 * none since reset. */
const lm_armv7m_fault_t *lm_armv7m_last_fault(void);


/* SysTick expiries so far: tick interrupts taken plus expiries that ended a
 * tickless sleep (counted with LM_CFG_TICKLESS only; 0 otherwise). */
uint32_t lm_armv7m_tick_interrupts(void);
/* True from the first context switch until lm_port_stop(): threads run. */
bool lm_armv7m_threads_running(void);
/* Called by lm_port_irq_lock() in a handler (LM_PORT_CHECK_PRIORITY):
 * lm_fatal(LM_FATAL_PORT) if the running exception, number `exception`
 * (IPSR), has a priority the kernel lock does not mask. */
void lm_armv7m_check_caller_priority(uint32_t exception);
/* Whether a core with this CPUID value has erratum 837070 (Cortex-M7 r0p1). */
bool lm_armv7m_cpuid_has_837070(uint32_t cpuid);
/* With LM_PORT_ERRATUM_837070 2: whether the locks apply the workaround
 * (true until the port has read CPUID, then what CPUID says). */
extern bool lm_armv7m_erratum_837070;

/* LM_CFG_NEWLIB: how often a thread found a newlib lock held by another
 * thread and had to wait for it. */
uint32_t lm_armv7m_newlib_contended(void);

#endif
