/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The few STM32F429 registers the board code uses: base addresses, offsets
 * and bit positions from RM0090 (memory map and the RCC, PWR, FLASH, GPIO
 * and USART register descriptions), plus the Cortex-M4 debug registers from
 * the Armv7-M Architecture Reference Manual.
 */
#ifndef STM32F429_H
#define STM32F429_H

#include "limen/armv7m.h"

/* Memory (STM32F429ZI): 2 MiB flash, 192 KiB SRAM (SRAM1+2+3 contiguous),
 * 64 KiB core-coupled RAM (data only, no DMA). */
#define STM32_FLASH_BASE 0x08000000u
#define STM32_FLASH_SIZE (2048u * 1024u)
#define STM32_SRAM_BASE 0x20000000u
#define STM32_SRAM_SIZE (192u * 1024u)
#define STM32_CCM_BASE 0x10000000u
#define STM32_CCM_SIZE (64u * 1024u)

/* External interrupts (the vector table holds 16 + STM32_IRQ_COUNT). */
#define STM32_IRQ_COUNT 91u
#define STM32_IRQ_USART1 37u

/* RCC, 0x40023800 */
#define RCC_BASE 0x40023800u
#define RCC_CR LM_REG32(RCC_BASE + 0x00u)
#define RCC_PLLCFGR LM_REG32(RCC_BASE + 0x04u)
#define RCC_CFGR LM_REG32(RCC_BASE + 0x08u)
#define RCC_AHB1ENR LM_REG32(RCC_BASE + 0x30u)
#define RCC_APB1ENR LM_REG32(RCC_BASE + 0x40u)
#define RCC_APB2ENR LM_REG32(RCC_BASE + 0x44u)
#define RCC_CR_HSION (1u << 0)
#define RCC_CR_HSIRDY (1u << 1)
#define RCC_CR_HSEON (1u << 16)
#define RCC_CR_HSERDY (1u << 17)
#define RCC_CR_HSEBYP (1u << 18)
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_CFGR_SW_MASK (3u << 0)
#define RCC_CFGR_SW_HSI (0u << 0)
#define RCC_CFGR_SW_PLL (2u << 0)
#define RCC_CFGR_SWS_MASK (3u << 2)
#define RCC_CFGR_SWS_PLL (2u << 2)
#define RCC_CFGR_PRESCALER_MASK 0xFFF0u /* HPRE[7:4], PPRE1[12:10], PPRE2[15:13] */
#define RCC_AHB1ENR_GPIOAEN (1u << 0)
#define RCC_APB1ENR_PWREN (1u << 28)
#define RCC_APB2ENR_USART1EN (1u << 4)

/* PWR, 0x40007000 */
#define PWR_BASE 0x40007000u
#define PWR_CR LM_REG32(PWR_BASE + 0x00u)
#define PWR_CR_VOS_MASK (3u << 14)

/* Flash interface, 0x40023C00 */
#define FLASH_BASE 0x40023C00u
#define FLASH_ACR LM_REG32(FLASH_BASE + 0x00u)
#define FLASH_ACR_LATENCY_MASK (0xFu << 0)
#define FLASH_ACR_PRFTEN (1u << 8)
#define FLASH_ACR_ICEN (1u << 9)
#define FLASH_ACR_DCEN (1u << 10)

/* GPIOA, 0x40020000 */
#define GPIOA_BASE 0x40020000u
#define GPIOA_MODER LM_REG32(GPIOA_BASE + 0x00u)
#define GPIOA_OSPEEDR LM_REG32(GPIOA_BASE + 0x08u)
#define GPIOA_PUPDR LM_REG32(GPIOA_BASE + 0x0Cu)
#define GPIOA_AFRH LM_REG32(GPIOA_BASE + 0x24u) /* pins 8..15, 4 bits each */
#define GPIO_MODE_AF 2u
#define GPIO_SPEED_HIGH 2u
#define GPIO_PULL_UP 1u
#define GPIO_AF7_USART1 7u

/* USART1, 0x40011000 (APB2) */
#define USART1_BASE 0x40011000u
#define USART1_SR LM_REG32(USART1_BASE + 0x00u)
#define USART1_DR LM_REG32(USART1_BASE + 0x04u)
#define USART1_BRR LM_REG32(USART1_BASE + 0x08u)
#define USART1_CR1 LM_REG32(USART1_BASE + 0x0Cu)
#define USART1_CR2 LM_REG32(USART1_BASE + 0x10u)
#define USART1_CR3 LM_REG32(USART1_BASE + 0x14u)
#define USART_SR_TC (1u << 6)
#define USART_SR_TXE (1u << 7)
#define USART_CR1_RE (1u << 2)
#define USART_CR1_TE (1u << 3)
#define USART_CR1_UE (1u << 13)

/* Device identification: REV_ID[31:16] (0x1000 = revision A). */
#define DBGMCU_IDCODE LM_REG32(0xE0042000u)
#define DBGMCU_REV_ID_A 0x1000u

/* Core debug: cycle counter (DWT) and debugger presence (DHCSR). */
#define DHCSR LM_REG32(0xE000EDF0u)
#define DHCSR_C_DEBUGEN (1u << 0)
#define DEMCR LM_REG32(0xE000EDFCu)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL LM_REG32(0xE0001000u)
#define DWT_CYCCNT LM_REG32(0xE0001004u)
#define DWT_CTRL_CYCCNTENA (1u << 0)

#endif
