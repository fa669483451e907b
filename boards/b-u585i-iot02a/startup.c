/* SPDX-License-Identifier: Apache-2.0 */
/*
 * B-U585I-IOT02A start-up: vector table, reset (MSPLIM, VTOR, FPU, clocks,
 * around the steps every board shares, ../common/reset.c), default handler.
 * The clock tree is fixed: PLL1 from the 4 MHz MSIS (the reset clock) to
 * 160 MHz, checked at compile time below against RM0456's limits.
 */
#include <stdbool.h>
#include <stdint.h>

#include "limen_port.h"
#include "board.h"
#include "reset.h"
#include "stm32u585.h"

extern uint32_t __main_stack_top[], __main_stack_bottom[];

LM_BOARD_WEAK_SYSTEM_HANDLERS();

/* The 125 interrupts of the STM32U575/585 (RM0456 vector table), by
 * position. Each has a weak handler an application overrides by defining
 * <name>_IRQHandler. */
#define STM32_IRQS(X)                                                                          \
    X(0, WWDG) X(1, PVD_AVD) X(2, RTC) X(3, RTC_S) X(4, TAMP) X(5, RAMCFG) X(6, FLASH)         \
    X(7, FLASH_S) X(8, GTZC) X(9, RCC) X(10, RCC_S) X(11, EXTI0) X(12, EXTI1) X(13, EXTI2)     \
    X(14, EXTI3) X(15, EXTI4) X(16, EXTI5) X(17, EXTI6) X(18, EXTI7) X(19, EXTI8)              \
    X(20, EXTI9) X(21, EXTI10) X(22, EXTI11) X(23, EXTI12) X(24, EXTI13) X(25, EXTI14)         \
    X(26, EXTI15) X(27, IWDG) X(28, SAES) X(29, GPDMA1_Channel0) X(30, GPDMA1_Channel1)        \
    X(31, GPDMA1_Channel2) X(32, GPDMA1_Channel3) X(33, GPDMA1_Channel4)                       \
    X(34, GPDMA1_Channel5) X(35, GPDMA1_Channel6) X(36, GPDMA1_Channel7) X(37, ADC1)           \
    X(38, DAC1) X(39, FDCAN1_IT0) X(40, FDCAN1_IT1) X(41, TIM1_BRK) X(42, TIM1_UP)             \
    X(43, TIM1_TRG_COM) X(44, TIM1_CC) X(45, TIM2) X(46, TIM3) X(47, TIM4) X(48, TIM5)         \
    X(49, TIM6) X(50, TIM7) X(51, TIM8_BRK) X(52, TIM8_UP) X(53, TIM8_TRG_COM) X(54, TIM8_CC)  \
    X(55, I2C1_EV) X(56, I2C1_ER) X(57, I2C2_EV) X(58, I2C2_ER) X(59, SPI1) X(60, SPI2)        \
    X(61, USART1) X(62, USART2) X(63, USART3) X(64, UART4) X(65, UART5) X(66, LPUART1)         \
    X(67, LPTIM1) X(68, LPTIM2) X(69, TIM15) X(70, TIM16) X(71, TIM17) X(72, COMP)             \
    X(73, OTG_FS) X(74, CRS) X(75, FMC) X(76, OCTOSPI1) X(77, PWR_S3WU) X(78, SDMMC1)          \
    X(79, SDMMC2) X(80, GPDMA1_Channel8) X(81, GPDMA1_Channel9) X(82, GPDMA1_Channel10)        \
    X(83, GPDMA1_Channel11) X(84, GPDMA1_Channel12) X(85, GPDMA1_Channel13)                    \
    X(86, GPDMA1_Channel14) X(87, GPDMA1_Channel15) X(88, I2C3_EV) X(89, I2C3_ER) X(90, SAI1)  \
    X(91, SAI2) X(92, TSC) X(93, AES) X(94, RNG) X(95, FPU) X(96, HASH) X(97, PKA)             \
    X(98, LPTIM3) X(99, SPI3) X(100, I2C4_ER) X(101, I2C4_EV) X(102, MDF1_FLT0)                \
    X(103, MDF1_FLT1) X(104, MDF1_FLT2) X(105, MDF1_FLT3) X(106, UCPD1) X(107, ICACHE)         \
    X(108, OTFDEC1) X(109, OTFDEC2) X(110, LPTIM4) X(111, DCACHE1) X(112, ADF1) X(113, ADC4)   \
    X(114, LPDMA1_Channel0) X(115, LPDMA1_Channel1) X(116, LPDMA1_Channel2)                    \
    X(117, LPDMA1_Channel3) X(118, DMA2D) X(119, DCMI_PSSI) X(120, OCTOSPI2)                   \
    X(121, MDF1_FLT4) X(122, MDF1_FLT5) X(123, CORDIC) X(124, FMAC)

#define DECLARE_IRQ(n, name) LM_BOARD_WEAK_HANDLER(name##_IRQHandler);
STM32_IRQS(DECLARE_IRQ)

/* Entry 7 (SecureFault) is reserved in a Non-secure table: 0, as
 * LM_BOARD_SYSTEM_VECTORS leaves it. */
#define VECTOR_IRQ(n, name) [16 + (n)] = name##_IRQHandler,
__attribute__((section(".vectors"), used)) const lm_board_vector_t
    lm_board_vectors[16 + STM32_IRQ_COUNT] = {
    LM_BOARD_SYSTEM_VECTORS(__main_stack_top),
    STM32_IRQS(VECTOR_IRQ)
};

/* Count the entries the list defines: a gap or a duplicate would leave the
 * total short of 125. */
#define COUNT_IRQ(n, name) +1
_Static_assert(0 STM32_IRQS(COUNT_IRQ) == STM32_IRQ_COUNT, "one handler per interrupt");

/* ---- clocks ----
 * MSIS 4 MHz -> PLL1 (M 1, N 80) -> VCO 320 MHz -> R 2 -> SYSCLK 160 MHz;
 * AHB and APB1-3 undivided. RM0456: PLL input 4-16 MHz (range 4-8 MHz),
 * VCO 128-544 MHz, the EPOD booster's clock 4-16 MHz (PLL1MBOOST 1), voltage
 * range 1 above 110 MHz, 4 flash wait states at 160 MHz in range 1. */
#define PLL1_M 1u
#define PLL1_N 80u
#define PLL1_PQR 2u
#define PLL1_IN_HZ (STM32_MSIS_HZ / PLL1_M)
#define VCO_HZ (PLL1_IN_HZ * PLL1_N)
#define FLASH_WAIT_STATES 4u
_Static_assert(PLL1_IN_HZ >= 4000000u && PLL1_IN_HZ <= 8000000u, "PLL1 input range 4-8 MHz");
_Static_assert(VCO_HZ >= 128000000u && VCO_HZ <= 544000000u, "VCO 128-544 MHz");
_Static_assert(VCO_HZ / PLL1_PQR == STM32_SYSCLK_HZ, "SYSCLK is PLL1's R output");
_Static_assert(STM32_SYSCLK_HZ <= 160000000u, "160 MHz is the STM32U585's maximum");
_Static_assert(LM_PORT_CPU_HZ == STM32_SYSCLK_HZ,
               "the port's SysTick clock must be the board's core clock");

/* At 4 MHz a polling iteration takes a few cycles: this is some 100 ms. */
#define READY_LOOPS 100000u

static bool clock_ok;

static bool wait_bits(volatile uint32_t *reg, uint32_t mask, uint32_t value)
{
    for (uint32_t i = 0; i < READY_LOOPS; i++) {
        if ((*reg & mask) == value) {
            return true;
        }
    }
    return (*reg & mask) == value;
}

static void clock_init(void)
{
    /* Voltage range 1 first (the reset range 4 allows 25 MHz). */
    RCC_AHB3ENR |= RCC_AHB3ENR_PWREN;
    (void)RCC_AHB3ENR; /* the enable takes effect before PWR is written */
    PWR_VOSR = (PWR_VOSR & ~PWR_VOSR_VOS_MASK) | PWR_VOSR_VOS_RANGE1;
    if (!wait_bits(&PWR_VOSR, PWR_VOSR_VOSRDY, PWR_VOSR_VOSRDY)) {
        return;
    }
    /* Wait states before the clock goes up; they must read back first. */
    FLASH_ACR = (FLASH_ACR & ~FLASH_ACR_LATENCY_MASK) | FLASH_ACR_PRFTEN | FLASH_WAIT_STATES;
    (void)wait_bits(&FLASH_ACR, FLASH_ACR_LATENCY_MASK, FLASH_WAIT_STATES);

    /* PLL1 from the MSIS, the booster clocked from the same input. */
    RCC_CR &= ~RCC_CR_PLL1ON;
    (void)wait_bits(&RCC_CR, RCC_CR_PLL1RDY, 0u);
    RCC_PLL1CFGR = RCC_PLL1CFGR_SRC_MSIS | RCC_PLL1CFGR_RGE_4_8MHZ | RCC_PLL1CFGR_M(PLL1_M) |
                   RCC_PLL1CFGR_MBOOST_DIV1 | RCC_PLL1CFGR_REN;
    PWR_VOSR |= PWR_VOSR_BOOSTEN;
    if (!wait_bits(&PWR_VOSR, PWR_VOSR_BOOSTRDY, PWR_VOSR_BOOSTRDY)) {
        return;
    }
    RCC_PLL1DIVR = RCC_PLL1DIVR_N(PLL1_N) | RCC_PLL1DIVR_P(PLL1_PQR) | RCC_PLL1DIVR_Q(PLL1_PQR) |
                   RCC_PLL1DIVR_R(PLL1_PQR);
    RCC_CR |= RCC_CR_PLL1ON;
    if (!wait_bits(&RCC_CR, RCC_CR_PLL1RDY, RCC_CR_PLL1RDY)) {
        return; /* stays on the MSIS: lm_board_init reports it */
    }

    /* Buses undivided; the switch above 80 MHz goes through AHB / 2 for a
     * microsecond (RM0456: the current step must stay small). */
    RCC_CFGR3 &= ~RCC_CFGR3_PPRE3_MASK;
    RCC_CFGR2 = (RCC_CFGR2 & ~(RCC_CFGR2_HPRE_MASK | RCC_CFGR2_PPRE_MASK)) | RCC_CFGR2_HPRE_DIV2;
    RCC_CFGR1 = (RCC_CFGR1 & ~RCC_CFGR1_SW_MASK) | RCC_CFGR1_SW_PLL1;
    if (!wait_bits(&RCC_CFGR1, RCC_CFGR1_SWS_MASK, RCC_CFGR1_SWS_PLL1)) {
        return;
    }
    for (volatile uint32_t i = 0; i < 160u; i++) { /* over 1 us at 80 MHz */
    }
    RCC_CFGR2 &= ~RCC_CFGR2_HPRE_MASK;
    ICACHE_CR |= ICACHE_CR_EN;
    clock_ok = true;
}

bool stm32_board_clock_ok(void)
{
    return clock_ok;
}

/* ---- reset ---- */

void Reset_Handler(void)
{
    /* The main stack's limit first: an overflow of it faults from here on. */
    __asm volatile("msr msplim, %0" ::"r"(__main_stack_bottom));
    lm_board_memory_init();
    /* Where the table really is, whatever a boot loader left in VTOR. */
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
