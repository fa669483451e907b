/* SPDX-License-Identifier: Apache-2.0 */
/*
 * STM32F429I-DISC1 start-up: vector table, reset (CCM, VTOR and clocks,
 * around the steps every board shares, ../common/reset.c), default handler.
 * Clock arithmetic is in clock.c; this file only writes the registers in the
 * order RM0090 asks for.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "limen_port.h"
#include "board.h"
#include "clock.h"
#include "reset.h"
#include "stm32f429.h"

_Static_assert(LM_PORT_CPU_HZ == STM32_SYSCLK_HZ,
               "the port's SysTick clock must be the board's core clock");

extern uint32_t __ccm_bss_start[], __ccm_bss_end[];
extern uint32_t __main_stack_top[];

LM_BOARD_WEAK_SYSTEM_HANDLERS();

/* The 91 external interrupts of the STM32F429 (RM0090 vector table), by
 * position. Each has a weak handler an application overrides by defining
 * <name>_IRQHandler. */
#define STM32_IRQS(X)                                                                      \
    X(0, WWDG) X(1, PVD) X(2, TAMP_STAMP) X(3, RTC_WKUP) X(4, FLASH) X(5, RCC)             \
    X(6, EXTI0) X(7, EXTI1) X(8, EXTI2) X(9, EXTI3) X(10, EXTI4)                           \
    X(11, DMA1_Stream0) X(12, DMA1_Stream1) X(13, DMA1_Stream2) X(14, DMA1_Stream3)        \
    X(15, DMA1_Stream4) X(16, DMA1_Stream5) X(17, DMA1_Stream6) X(18, ADC)                 \
    X(19, CAN1_TX) X(20, CAN1_RX0) X(21, CAN1_RX1) X(22, CAN1_SCE) X(23, EXTI9_5)          \
    X(24, TIM1_BRK_TIM9) X(25, TIM1_UP_TIM10) X(26, TIM1_TRG_COM_TIM11) X(27, TIM1_CC)     \
    X(28, TIM2) X(29, TIM3) X(30, TIM4) X(31, I2C1_EV) X(32, I2C1_ER) X(33, I2C2_EV)       \
    X(34, I2C2_ER) X(35, SPI1) X(36, SPI2) X(37, USART1) X(38, USART2) X(39, USART3)       \
    X(40, EXTI15_10) X(41, RTC_Alarm) X(42, OTG_FS_WKUP) X(43, TIM8_BRK_TIM12)             \
    X(44, TIM8_UP_TIM13) X(45, TIM8_TRG_COM_TIM14) X(46, TIM8_CC) X(47, DMA1_Stream7)      \
    X(48, FMC) X(49, SDIO) X(50, TIM5) X(51, SPI3) X(52, UART4) X(53, UART5)               \
    X(54, TIM6_DAC) X(55, TIM7) X(56, DMA2_Stream0) X(57, DMA2_Stream1)                    \
    X(58, DMA2_Stream2) X(59, DMA2_Stream3) X(60, DMA2_Stream4) X(61, ETH) X(62, ETH_WKUP) \
    X(63, CAN2_TX) X(64, CAN2_RX0) X(65, CAN2_RX1) X(66, CAN2_SCE) X(67, OTG_FS)           \
    X(68, DMA2_Stream5) X(69, DMA2_Stream6) X(70, DMA2_Stream7) X(71, USART6)              \
    X(72, I2C3_EV) X(73, I2C3_ER) X(74, OTG_HS_EP1_OUT) X(75, OTG_HS_EP1_IN)               \
    X(76, OTG_HS_WKUP) X(77, OTG_HS) X(78, DCMI) X(79, CRYP) X(80, HASH_RNG) X(81, FPU)    \
    X(82, UART7) X(83, UART8) X(84, SPI4) X(85, SPI5) X(86, SPI6) X(87, SAI1) X(88, LTDC)  \
    X(89, LTDC_ER) X(90, DMA2D)

#define DECLARE_IRQ(n, name) LM_BOARD_WEAK_HANDLER(name##_IRQHandler);
STM32_IRQS(DECLARE_IRQ)

#define VECTOR_IRQ(n, name) [16 + (n)] = name##_IRQHandler,
__attribute__((section(".vectors"), used)) const lm_board_vector_t
    lm_board_vectors[16 + STM32_IRQ_COUNT] = {
    LM_BOARD_SYSTEM_VECTORS(__main_stack_top),
    STM32_IRQS(VECTOR_IRQ)
};

/* Count the entries the list defines: a gap or a duplicate would leave the
 * total short of 91. */
#define COUNT_IRQ(n, name) +1
_Static_assert(0 STM32_IRQS(COUNT_IRQ) == STM32_IRQ_COUNT, "one handler per interrupt");

/* ---- clocks ---- */

/* At 16 MHz a polling iteration takes a few cycles: this is some 100 ms,
 * far longer than a crystal needs to start. */
#define HSE_START_LOOPS 400000u
#define PLL_LOCK_LOOPS 100000u

static stm32_clock_plan_t clock_plan = {
    /* The reset state: HSI, no PLL, no prescalers, no wait states. */
    .src_hz = STM32_HSI_HZ, .sysclk_hz = STM32_HSI_HZ, .ahb_div = 1u, .apb1_div = 1u,
    .apb2_div = 1u, .hclk_hz = STM32_HSI_HZ, .pclk1_hz = STM32_HSI_HZ,
    .pclk2_hz = STM32_HSI_HZ, .vos_scale = 1u,
};
static const char *clock_source = "HSI-no-PLL";

static bool wait_bits(volatile uint32_t *reg, uint32_t mask, uint32_t value, uint32_t loops)
{
    for (uint32_t i = 0; i < loops; i++) {
        if ((*reg & mask) == value) {
            return true;
        }
    }
    return (*reg & mask) == value;
}

/* Start the HSE from a crystal or, with `bypass`, from an external clock on
 * OSC_IN (HSEBYP may only change while the HSE is off). */
static bool hse_start(bool bypass)
{
    RCC_CR &= ~RCC_CR_HSEON;
    (void)wait_bits(&RCC_CR, RCC_CR_HSERDY, 0u, HSE_START_LOOPS);
    if (bypass) {
        RCC_CR |= RCC_CR_HSEBYP;
    } else {
        RCC_CR &= ~RCC_CR_HSEBYP;
    }
    RCC_CR |= RCC_CR_HSEON;
    return wait_bits(&RCC_CR, RCC_CR_HSERDY, RCC_CR_HSERDY, HSE_START_LOOPS);
}

static void clock_init(void)
{
    /* Run from the HSI with the PLL off, whatever a debugger or a boot
     * loader left behind. */
    RCC_CR |= RCC_CR_HSION;
    (void)wait_bits(&RCC_CR, RCC_CR_HSIRDY, RCC_CR_HSIRDY, PLL_LOCK_LOOPS);
    RCC_CFGR &= ~RCC_CFGR_SW_MASK;
    (void)wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, 0u, PLL_LOCK_LOOPS);
    RCC_CR &= ~RCC_CR_PLLON;
    (void)wait_bits(&RCC_CR, RCC_CR_PLLRDY, 0u, PLL_LOCK_LOOPS);

    /* PLL input: the 8 MHz HSE in the board's usual form first, then the
     * other form, then the HSI. The plan gives the same SYSCLK from either
     * (only PLLM differs), so the kernel tick stays right. */
#if defined(STM32_HSE_BYPASS_FIRST)
    static const bool order[2] = {true, false};
#else
    static const bool order[2] = {false, true};
#endif
    bool hse = false;
    const char *source = "HSI";
    for (unsigned i = 0; i < 2u && !hse; i++) {
        hse = hse_start(order[i]);
        if (hse) {
            source = order[i] ? "HSE-bypass" : "HSE";
        }
    }
    if (!hse) {
        RCC_CR &= ~(RCC_CR_HSEON | RCC_CR_HSEBYP);
    }
    stm32_clock_plan_t plan;
    if (!stm32_clock_plan(hse ? STM32_HSE_HZ : STM32_HSI_HZ, STM32_SYSCLK_HZ, &plan)) {
        return; /* cannot happen for 84 or 168 MHz (host-tested) */
    }

    /* Regulator scale: written while the PLL is off, takes effect with it. */
    RCC_APB1ENR |= RCC_APB1ENR_PWREN;
    (void)RCC_APB1ENR; /* the enable takes effect before PWR is written */
    PWR_CR = (PWR_CR & ~PWR_CR_VOS_MASK) | stm32_pwr_vos_bits(&plan);

    RCC_PLLCFGR = stm32_pllcfgr(&plan, hse);
    RCC_CR |= RCC_CR_PLLON;
    if (!wait_bits(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY, PLL_LOCK_LOOPS)) {
        RCC_CR &= ~RCC_CR_PLLON;
        return; /* stays on the HSI: lm_board_init reports it */
    }

    /* Wait states before the clock goes up; the new latency must read back
     * before the switch. Prefetch stays off on the first silicon revision
     * (REV_ID 0x1000): the F40x errata sheet says revision A does not
     * support it, and nothing here shows the F42x's revision A does. */
    uint32_t acr = FLASH_ACR_ICEN | FLASH_ACR_DCEN | plan.flash_latency;
    if ((DBGMCU_IDCODE >> 16) != DBGMCU_REV_ID_A) {
        acr |= FLASH_ACR_PRFTEN;
    }
    FLASH_ACR = acr;
    (void)wait_bits(&FLASH_ACR, FLASH_ACR_LATENCY_MASK, plan.flash_latency, PLL_LOCK_LOOPS);

    /* Bus prescalers first (harmless at 16 MHz), then the switch. */
    RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_PRESCALER_MASK) | stm32_cfgr_prescalers(&plan);
    RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_MASK) | RCC_CFGR_SW_PLL;
    if (!wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_PLL, PLL_LOCK_LOOPS)) {
        return;
    }
    clock_plan = plan;
    clock_source = source;
}

const stm32_clock_plan_t *stm32_board_clock(void)
{
    return &clock_plan;
}

const char *stm32_board_clock_source(void)
{
    return clock_source;
}

/* ---- reset ---- */

void Reset_Handler(void)
{
    lm_board_memory_init();
    memset(__ccm_bss_start, 0,
           (size_t)((uint8_t *)__ccm_bss_end - (uint8_t *)__ccm_bss_start));
    /* The table is also visible at 0 when booting from flash; say where it
     * really is, in case something else (a boot loader) changed that. */
    LM_SCB_VTOR = (uint32_t)(uintptr_t)lm_board_vectors;
    lm_board_fpu_init();
    clock_init();
    lm_board_run_main();
}

void Default_Handler(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    char msg[] = "limen: unexpected exception 000\n";
    msg[28] = (char)('0' + ipsr / 100u % 10u);
    msg[29] = (char)('0' + ipsr / 10u % 10u);
    msg[30] = (char)('0' + ipsr % 10u);
    lm_board_puts(msg);
    lm_board_exit(2);
}
