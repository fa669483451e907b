/* SPDX-License-Identifier: Apache-2.0 */
/*
 * STM32F429 clock tree arithmetic (RM0090, "Reset and clock control"): PLL
 * factors, bus prescalers, flash wait states, regulator scale
 * and USART baud divisor for a target SYSCLK. Pure computation with no
 * register access, so the host tests check it (tests/test_board_stm32_clock.c).
 */
#ifndef STM32_CLOCK_H
#define STM32_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Limits the plan respects. The VCO input, VCO output, PLLN/PLLM/PLLQ ranges
 * and the 48 MHz PLL48CK come from RM0090 (RCC_PLLCFGR). The bus limits are
 * the ones that hold at 168 MHz across the STM32F4 family (the F429 itself
 * allows 45/90 MHz); keeping them gives APB2 = SYSCLK/2 at 168 MHz. */
#define STM32_HSI_HZ 16000000u
#define STM32_VCO_IN_MIN_HZ 1000000u
#define STM32_VCO_IN_MAX_HZ 2000000u
#define STM32_VCO_MIN_HZ 100000000u
#define STM32_VCO_MAX_HZ 432000000u
#define STM32_PLLM_MIN 2u
#define STM32_PLLM_MAX 63u
#define STM32_PLLN_MIN 50u
#define STM32_PLLN_MAX 432u
#define STM32_PLLQ_MIN 2u
#define STM32_PLLQ_MAX 15u
#define STM32_USB_HZ 48000000u
#define STM32_SYSCLK_MAX_HZ 168000000u /* without over-drive */
#define STM32_APB1_MAX_HZ 42000000u
#define STM32_APB2_MAX_HZ 84000000u

typedef struct stm32_clock_plan {
    uint32_t src_hz;            /* PLL input: HSE or HSI */
    uint32_t pllm, plln, pllp, pllq; /* the factors themselves (P is 2/4/6/8) */
    uint32_t vco_in_hz, vco_hz; /* src/M, src/M*N */
    uint32_t sysclk_hz;         /* VCO/P */
    uint32_t pll48_hz;          /* VCO/Q: USB OTG FS, SDIO, RNG */
    uint32_t ahb_div, apb1_div, apb2_div;
    uint32_t hclk_hz, pclk1_hz, pclk2_hz;
    uint32_t flash_latency;     /* wait states, FLASH_ACR.LATENCY */
    uint32_t vos_scale;         /* regulator scale 1, 2 or 3 (PWR_CR.VOS) */
} stm32_clock_plan_t;

/* Plan the clocks for `sysclk_hz` from a PLL input of `src_hz`. Among exact
 * solutions it prefers a PLL48CK of exactly 48 MHz, then the highest VCO
 * input (RM0090 recommends 2 MHz to limit PLL jitter), then the lowest VCO.
 * Returns false if no PLL setting gives exactly `sysclk_hz` within the
 * limits above. */
bool stm32_clock_plan(uint32_t src_hz, uint32_t sysclk_hz, stm32_clock_plan_t *plan);

/* Flash wait states for an HCLK at 2.7-3.6 V (RM0090, the wait-state table
 * for STM32F42x/43x):
 * one per started 30 MHz above the first. */
uint32_t stm32_flash_latency(uint32_t hclk_hz);

/* Regulator scale that allows `hclk_hz` without over-drive: 3 up to
 * 120 MHz, 2 up to 144 MHz, 1 up to 168 MHz; 0 above. */
uint32_t stm32_vos_scale(uint32_t hclk_hz);

/* Register images (RM0090 RCC_PLLCFGR, RCC_CFGR, PWR_CR):
 * PLLM[5:0] PLLN[14:6] PLLP[17:16] PLLSRC[22] PLLQ[27:24]; HPRE[7:4]
 * PPRE1[12:10] PPRE2[15:13] (SW left 0); VOS[15:14]. */
uint32_t stm32_pllcfgr(const stm32_clock_plan_t *plan, bool src_hse);
uint32_t stm32_cfgr_prescalers(const stm32_clock_plan_t *plan);
uint32_t stm32_pwr_vos_bits(const stm32_clock_plan_t *plan);

/* USART_BRR for `baud` from `pclk_hz` with 16x oversampling (OVER8 = 0):
 * USARTDIV = pclk / (16 x baud) as 12.4 fixed point, rounded to nearest.
 * That fixed-point value is pclk / baud. */
uint32_t stm32_usart_brr(uint32_t pclk_hz, uint32_t baud);

#endif
