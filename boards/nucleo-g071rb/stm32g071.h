/* SPDX-License-Identifier: Apache-2.0 */
/* The STM32G071 registers the NUCLEO-G071RB board uses, with addresses and
 * bits from RM0444 (STM32G0x1 reference manual). */
#ifndef LIMEN_BOARD_STM32G071_H
#define LIMEN_BOARD_STM32G071_H

#include "limen/armv6m.h"

/* RCC */
#define RCC_BASE 0x40021000u
#define RCC_CR LM_REG32(RCC_BASE + 0x00u)
#define RCC_CFGR LM_REG32(RCC_BASE + 0x08u)
#define RCC_PLLCFGR LM_REG32(RCC_BASE + 0x0Cu)
#define RCC_IOPENR LM_REG32(RCC_BASE + 0x34u)
#define RCC_APBENR1 LM_REG32(RCC_BASE + 0x3Cu)
#define RCC_CR_HSION (1u << 8)
#define RCC_CR_HSIRDY (1u << 10)
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_CFGR_SW_MASK 7u
#define RCC_CFGR_SW_PLLRCLK 2u
#define RCC_CFGR_SWS_MASK (7u << 3)
#define RCC_CFGR_SWS_PLLRCLK (2u << 3)
#define RCC_PLLCFGR_PLLSRC_HSI16 2u
#define RCC_PLLCFGR_PLLM(m) (((m) - 1u) << 4)   /* /1 .. /8 */
#define RCC_PLLCFGR_PLLN(n) ((n) << 8)          /* x8 .. x86 */
#define RCC_PLLCFGR_PLLREN (1u << 28)
#define RCC_PLLCFGR_PLLR(r) (((r) - 1u) << 29)  /* /2 .. /8 */
#define RCC_IOPENR_GPIOAEN (1u << 0)
#define RCC_APBENR1_TIM2EN (1u << 0)
#define RCC_APBENR1_USART2EN (1u << 17)

/* FLASH */
#define FLASH_ACR LM_REG32(0x40022000u)
#define FLASH_ACR_LATENCY_MASK 7u
#define FLASH_ACR_PRFTEN (1u << 8)
#define FLASH_ACR_ICEN (1u << 9)

/* GPIOA */
#define GPIOA_BASE 0x50000000u
#define GPIOA_MODER LM_REG32(GPIOA_BASE + 0x00u)
#define GPIOA_AFRL LM_REG32(GPIOA_BASE + 0x20u)
#define GPIO_MODE_AF 2u
#define GPIO_AF1 1u

/* USART2 */
#define USART2_BASE 0x40004400u
#define USART2_CR1 LM_REG32(USART2_BASE + 0x00u)
#define USART2_BRR LM_REG32(USART2_BASE + 0x0Cu)
#define USART2_ISR LM_REG32(USART2_BASE + 0x1Cu)
#define USART2_TDR LM_REG32(USART2_BASE + 0x28u)
#define USART_CR1_UE (1u << 0)
#define USART_CR1_TE (1u << 3)
#define USART_ISR_TC (1u << 6)
#define USART_ISR_TXE (1u << 7)

/* TIM2 (32 bits) */
#define TIM2_BASE 0x40000000u
#define TIM2_CR1 LM_REG32(TIM2_BASE + 0x00u)
#define TIM2_EGR LM_REG32(TIM2_BASE + 0x14u)
#define TIM2_CNT LM_REG32(TIM2_BASE + 0x24u)
#define TIM2_PSC LM_REG32(TIM2_BASE + 0x28u)
#define TIM2_ARR LM_REG32(TIM2_BASE + 0x2Cu)
#define TIM_CR1_CEN (1u << 0)
#define TIM_EGR_UG (1u << 0)

#define STM32G0_IRQ_COUNT 32u

#endif
