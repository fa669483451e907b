/* SPDX-License-Identifier: Apache-2.0 */
/* The few STM32U585 registers the board uses, from RM0456, at their
 * Non-secure addresses: with TrustZone disabled (option bit TZEN 0, as the
 * board ships) the core runs Non-secure and the Secure aliases (address
 * bit 28 set) are not used. */
#ifndef LIMEN_STM32U585_H
#define LIMEN_STM32U585_H

#include "limen/armv7m.h"

/* RCC */
#define RCC_BASE 0x46020C00u
#define RCC_CR LM_REG32(RCC_BASE + 0x000u)
#define RCC_CR_MSISON (1u << 0)
#define RCC_CR_MSISRDY (1u << 2)
#define RCC_CR_PLL1ON (1u << 24)
#define RCC_CR_PLL1RDY (1u << 25)
#define RCC_CFGR1 LM_REG32(RCC_BASE + 0x01Cu)
#define RCC_CFGR1_SW_MASK (3u << 0)
#define RCC_CFGR1_SW_MSIS (0u << 0)
#define RCC_CFGR1_SW_PLL1 (3u << 0)
#define RCC_CFGR1_SWS_MASK (3u << 2)
#define RCC_CFGR1_SWS_PLL1 (3u << 2)
#define RCC_CFGR2 LM_REG32(RCC_BASE + 0x020u)
#define RCC_CFGR2_HPRE_MASK (0xFu << 0)
#define RCC_CFGR2_HPRE_DIV2 (8u << 0)
#define RCC_CFGR2_PPRE_MASK ((7u << 4) | (7u << 8)) /* APB1, APB2: not divided */
#define RCC_CFGR3 LM_REG32(RCC_BASE + 0x024u)
#define RCC_CFGR3_PPRE3_MASK (7u << 4)              /* APB3: not divided */
#define RCC_PLL1CFGR LM_REG32(RCC_BASE + 0x028u)
#define RCC_PLL1CFGR_SRC_MSIS (1u << 0)
#define RCC_PLL1CFGR_RGE_4_8MHZ (0u << 2)
#define RCC_PLL1CFGR_M(m) (((m) - 1u) << 8)
#define RCC_PLL1CFGR_MBOOST_DIV1 (0u << 12)
#define RCC_PLL1CFGR_REN (1u << 18)
#define RCC_PLL1DIVR LM_REG32(RCC_BASE + 0x034u)
#define RCC_PLL1DIVR_N(n) (((n) - 1u) << 0)
#define RCC_PLL1DIVR_P(p) (((p) - 1u) << 9)
#define RCC_PLL1DIVR_Q(q) (((q) - 1u) << 16)
#define RCC_PLL1DIVR_R(r) (((r) - 1u) << 24)
#define RCC_AHB2ENR1 LM_REG32(RCC_BASE + 0x08Cu)
#define RCC_AHB2ENR1_GPIOAEN (1u << 0)
#define RCC_AHB3ENR LM_REG32(RCC_BASE + 0x094u)
#define RCC_AHB3ENR_PWREN (1u << 2)
#define RCC_APB2ENR LM_REG32(RCC_BASE + 0x0A4u)
#define RCC_APB2ENR_USART1EN (1u << 14)
#define RCC_CCIPR1 LM_REG32(RCC_BASE + 0x0E0u)
#define RCC_CCIPR1_USART1SEL_MASK (3u << 0) /* 0: PCLK2 */

/* PWR: voltage scaling and the EPOD booster the PLL needs above 55 MHz. */
#define PWR_BASE 0x46020800u
#define PWR_VOSR LM_REG32(PWR_BASE + 0x00Cu)
#define PWR_VOSR_VOS_MASK (3u << 16)
#define PWR_VOSR_VOS_RANGE1 (3u << 16)
#define PWR_VOSR_BOOSTEN (1u << 18)
#define PWR_VOSR_VOSRDY (1u << 15)
#define PWR_VOSR_BOOSTRDY (1u << 14)

/* FLASH */
#define FLASH_ACR LM_REG32(0x40022000u)
#define FLASH_ACR_LATENCY_MASK (0xFu << 0)
#define FLASH_ACR_PRFTEN (1u << 8)

/* Instruction cache */
#define ICACHE_CR LM_REG32(0x40030400u)
#define ICACHE_CR_EN (1u << 0)

/* GPIOA: PA9 USART1_TX, PA10 USART1_RX, alternate function 7. */
#define GPIOA_BASE 0x42020000u
#define GPIOA_MODER LM_REG32(GPIOA_BASE + 0x00u)
#define GPIOA_OSPEEDR LM_REG32(GPIOA_BASE + 0x08u)
#define GPIOA_PUPDR LM_REG32(GPIOA_BASE + 0x0Cu)
#define GPIOA_AFRH LM_REG32(GPIOA_BASE + 0x24u)
#define GPIO_MODE_AF 2u
#define GPIO_SPEED_HIGH 2u
#define GPIO_PULL_UP 1u
#define GPIO_AF7_USART1 7u

/* USART1 */
#define USART1_BASE 0x40013800u
#define USART1_CR1 LM_REG32(USART1_BASE + 0x00u)
#define USART1_CR2 LM_REG32(USART1_BASE + 0x04u)
#define USART1_CR3 LM_REG32(USART1_BASE + 0x08u)
#define USART1_BRR LM_REG32(USART1_BASE + 0x0Cu)
#define USART1_ISR LM_REG32(USART1_BASE + 0x1Cu)
#define USART1_TDR LM_REG32(USART1_BASE + 0x28u)
#define USART_CR1_UE (1u << 0)
#define USART_CR1_RE (1u << 2)
#define USART_CR1_TE (1u << 3)
#define USART_ISR_TC (1u << 6)
#define USART_ISR_TXE (1u << 7)

/* Core debug: cycle counter (DWT) and debugger presence (DHCSR). */
#define DHCSR LM_REG32(0xE000EDF0u)
#define DHCSR_C_DEBUGEN (1u << 0)
#define DEMCR LM_REG32(0xE000EDFCu)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL LM_REG32(0xE0001000u)
#define DWT_CYCCNT LM_REG32(0xE0001004u)
#define DWT_CTRL_CYCCNTENA (1u << 0)

#endif
