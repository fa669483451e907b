/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NUCLEO-G071RB start-up: vector table, reset (memory, clocks, then the
 * steps every board shares, ../common/reset.c), default handler. The clock
 * plan is fixed: HSI16, PLL x8 /2, SYSCLK = HCLK = PCLK = 64 MHz, two flash
 * wait states (RM0444: range 1 above 48 MHz).
 */
#include <stdbool.h>
#include <stdint.h>

#include "limen_port.h"
#include "board.h"
#include "reset.h"
#include "stm32g071.h"

_Static_assert(LM_PORT_CPU_HZ == STM32G0_SYSCLK_HZ,
               "the port's SysTick clock must be the board's core clock");
_Static_assert(STM32G0_SYSCLK_HZ == 16000000u * 8u / 2u, "the PLL plan below gives 64 MHz");

extern uint32_t __main_stack_top[];

LM_BOARD_WEAK_HANDLER(NMI_Handler);
LM_BOARD_WEAK_HANDLER(SVC_Handler);
LM_BOARD_WEAK_HANDLER(PendSV_Handler);
LM_BOARD_WEAK_HANDLER(SysTick_Handler);

/* The 32 interrupt lines of the STM32G071 (RM0444 vector table), by
 * position; an application overrides <name>_IRQHandler. Line 31 is the
 * AES and RNG of the STM32G081, reserved on the G071. */
#define STM32G0_IRQS(X)                                                                     \
    X(0, WWDG) X(1, PVD) X(2, RTC_TAMP) X(3, FLASH) X(4, RCC) X(5, EXTI0_1) X(6, EXTI2_3)  \
    X(7, EXTI4_15) X(8, UCPD1_2) X(9, DMA1_Channel1) X(10, DMA1_Channel2_3)                 \
    X(11, DMA1_Ch4_7_DMAMUX) X(12, ADC1_COMP) X(13, TIM1_BRK_UP_TRG_COM) X(14, TIM1_CC)   \
    X(15, TIM2) X(16, TIM3) X(17, TIM6_DAC_LPTIM1) X(18, TIM7_LPTIM2) X(19, TIM14)        \
    X(20, TIM15) X(21, TIM16) X(22, TIM17) X(23, I2C1) X(24, I2C2) X(25, SPI1) X(26, SPI2) \
    X(27, USART1) X(28, USART2) X(29, USART3_4_LPUART1) X(30, CEC) X(31, AES_RNG)

#define DECLARE_IRQ(n, name) LM_BOARD_WEAK_HANDLER(name##_IRQHandler);
STM32G0_IRQS(DECLARE_IRQ)

#define VECTOR_IRQ(n, name) [16 + (n)] = name##_IRQHandler,
__attribute__((section(".vectors"), used)) const lm_board_vector_t
    lm_board_vectors[16 + STM32G0_IRQ_COUNT] = {
    LM_BOARD_SYSTEM_VECTORS_ARMV6M(__main_stack_top),
    STM32G0_IRQS(VECTOR_IRQ)
};

#define COUNT_IRQ(n, name) +1
_Static_assert(0 STM32G0_IRQS(COUNT_IRQ) == STM32G0_IRQ_COUNT, "one handler per interrupt");

/* ---- clocks ---- */

/* Polling bounds: the HSI and the PLL are ready within microseconds. */
#define READY_LOOPS 100000u

static bool clock_ok;

static bool wait_bits(const volatile uint32_t *reg, uint32_t mask, uint32_t value)
{
    for (uint32_t i = 0; i < READY_LOOPS; i++) {
        if ((*reg & mask) == value) {
            return true;
        }
    }
    return (*reg & mask) == value;
}

/* Returns whether SYSCLK is the PLL's 64 MHz (else the HSI16's 16 MHz). */
static bool clock_init(void)
{
    /* From the HSI16 with the PLL off, whatever a debugger left behind. */
    RCC_CR |= RCC_CR_HSION;
    (void)wait_bits(&RCC_CR, RCC_CR_HSIRDY, RCC_CR_HSIRDY);
    RCC_CFGR &= ~RCC_CFGR_SW_MASK;
    (void)wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, 0u);
    RCC_CR &= ~RCC_CR_PLLON;
    (void)wait_bits(&RCC_CR, RCC_CR_PLLRDY, 0u);

    /* Wait states first: the flash must keep up before the clock rises. */
    FLASH_ACR = (FLASH_ACR & ~FLASH_ACR_LATENCY_MASK) | 2u | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN;
    if (!wait_bits(&FLASH_ACR, FLASH_ACR_LATENCY_MASK, 2u)) {
        return false;
    }
    /* 16 MHz / 1 = 16 MHz in, x8 = 128 MHz VCO, /2 = 64 MHz out (R). */
    RCC_PLLCFGR = RCC_PLLCFGR_PLLSRC_HSI16 | RCC_PLLCFGR_PLLM(1u) | RCC_PLLCFGR_PLLN(8u) |
                  RCC_PLLCFGR_PLLREN | RCC_PLLCFGR_PLLR(2u);
    RCC_CR |= RCC_CR_PLLON;
    if (!wait_bits(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY)) {
        RCC_CR &= ~RCC_CR_PLLON;
        return false; /* stays on the HSI16: lm_board_init reports it */
    }
    RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_MASK) | RCC_CFGR_SW_PLLRCLK;
    return wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_PLLRCLK);
}

bool stm32g0_clock_ok(void);
bool stm32g0_clock_ok(void)
{
    return clock_ok;
}

void Reset_Handler(void)
{
    bool ok = clock_init(); /* at full speed before copying .data */
    lm_board_memory_init();
    clock_ok = ok;
    lm_board_run_main();
}

void Default_Handler(void)
{
    lm_board_puts("limen: unexpected exception\n");
    lm_board_exit(2);
}
