/* SPDX-License-Identifier: Apache-2.0 */
/*
 * STM32F429 clock tree arithmetic (see clock.h). No register access: the
 * start-up code writes what this computes, and the host tests check it.
 */
#include "clock.h"

#include <stddef.h>

uint32_t stm32_flash_latency(uint32_t hclk_hz)
{
    /* 0 WS up to 30 MHz, 1 WS up to 60 MHz, ... 5 WS up to 180 MHz. */
    return hclk_hz == 0u ? 0u : (hclk_hz - 1u) / 30000000u;
}

uint32_t stm32_vos_scale(uint32_t hclk_hz)
{
    if (hclk_hz <= 120000000u) {
        return 3u;
    }
    if (hclk_hz <= 144000000u) {
        return 2u;
    }
    if (hclk_hz <= STM32_SYSCLK_MAX_HZ) {
        return 1u;
    }
    return 0u;
}

/* Smallest APB divisor (1, 2, 4, 8, 16) that brings hclk within max. */
static uint32_t apb_divisor(uint32_t hclk_hz, uint32_t max_hz)
{
    uint32_t div = 1u;
    while (div < 16u && hclk_hz / div > max_hz) {
        div *= 2u;
    }
    return div;
}

bool stm32_clock_plan(uint32_t src_hz, uint32_t sysclk_hz, stm32_clock_plan_t *plan)
{
    if (plan == NULL || src_hz == 0u || sysclk_hz == 0u || sysclk_hz > STM32_SYSCLK_MAX_HZ) {
        return false;
    }
    bool found = false;
    stm32_clock_plan_t best = {0};
    for (uint32_t m = STM32_PLLM_MIN; m <= STM32_PLLM_MAX; m++) {
        /* The VCO input need not be a whole number of Hz, only within range. */
        if ((uint64_t)src_hz < (uint64_t)m * STM32_VCO_IN_MIN_HZ ||
            (uint64_t)src_hz > (uint64_t)m * STM32_VCO_IN_MAX_HZ) {
            continue;
        }
        for (uint32_t p = 2u; p <= 8u; p += 2u) {
            /* SYSCLK = src * N / (M * P) exactly. */
            uint64_t num = (uint64_t)sysclk_hz * m * p;
            if (num % src_hz != 0u) {
                continue;
            }
            uint64_t n = num / src_hz;
            if (n < STM32_PLLN_MIN || n > STM32_PLLN_MAX) {
                continue;
            }
            uint64_t vco_num = (uint64_t)src_hz * n; /* VCO = vco_num / m */
            if (vco_num < (uint64_t)STM32_VCO_MIN_HZ * m ||
                vco_num > (uint64_t)STM32_VCO_MAX_HZ * m) {
                continue;
            }
            uint32_t vco = (uint32_t)(vco_num / m); /* exact: SYSCLK * P */
            /* Q: the fastest PLL48CK that does not exceed 48 MHz. */
            uint32_t q = (vco + STM32_USB_HZ - 1u) / STM32_USB_HZ;
            if (q < STM32_PLLQ_MIN) {
                q = STM32_PLLQ_MIN;
            }
            if (q > STM32_PLLQ_MAX) {
                continue;
            }
            stm32_clock_plan_t c = {0};
            c.src_hz = src_hz;
            c.pllm = m;
            c.plln = (uint32_t)n;
            c.pllp = p;
            c.pllq = q;
            c.vco_in_hz = src_hz / m;
            c.vco_hz = vco;
            c.sysclk_hz = vco / p;
            c.pll48_hz = vco / q;
            bool usb = c.pll48_hz == STM32_USB_HZ && vco % q == 0u;
            bool best_usb = found && best.pll48_hz == STM32_USB_HZ && best.vco_hz % best.pllq == 0u;
            bool better;
            if (!found) {
                better = true;
            } else if (usb != best_usb) {
                better = usb;
            } else if (c.vco_in_hz != best.vco_in_hz) {
                better = c.vco_in_hz > best.vco_in_hz;
            } else {
                better = c.vco_hz < best.vco_hz;
            }
            if (better) {
                best = c;
                found = true;
            }
        }
    }
    if (!found) {
        return false;
    }
    best.ahb_div = 1u; /* HCLK = SYSCLK: SysTick counts the core clock */
    best.hclk_hz = best.sysclk_hz;
    best.apb1_div = apb_divisor(best.hclk_hz, STM32_APB1_MAX_HZ);
    best.apb2_div = apb_divisor(best.hclk_hz, STM32_APB2_MAX_HZ);
    best.pclk1_hz = best.hclk_hz / best.apb1_div;
    best.pclk2_hz = best.hclk_hz / best.apb2_div;
    best.flash_latency = stm32_flash_latency(best.hclk_hz);
    best.vos_scale = stm32_vos_scale(best.hclk_hz);
    *plan = best;
    return true;
}

/* PPRE1/PPRE2 encoding: 0 = /1, 0b100 = /2, 0b101 = /4, 0b110 = /8,
 * 0b111 = /16. */
static uint32_t ppre_bits(uint32_t div)
{
    uint32_t bits = 0u;
    if (div > 1u) {
        bits = 4u;
        for (uint32_t d = 2u; d < div; d *= 2u) {
            bits++;
        }
    }
    return bits;
}

/* HPRE encoding: 0 = /1, 0b1000 = /2, /4, /8, /16, then /64 .. /512
 * (there is no /32). */
static uint32_t hpre_bits(uint32_t div)
{
    static const uint16_t divs[] = {2u, 4u, 8u, 16u, 64u, 128u, 256u, 512u};
    for (uint32_t i = 0u; i < sizeof divs / sizeof divs[0]; i++) {
        if (divs[i] == div) {
            return 8u + i;
        }
    }
    return 0u;
}

uint32_t stm32_pllcfgr(const stm32_clock_plan_t *plan, bool src_hse)
{
    return (plan->pllm & 0x3Fu) | ((plan->plln & 0x1FFu) << 6) |
           (((plan->pllp / 2u - 1u) & 0x3u) << 16) | ((src_hse ? 1u : 0u) << 22) |
           ((plan->pllq & 0xFu) << 24);
}

uint32_t stm32_cfgr_prescalers(const stm32_clock_plan_t *plan)
{
    return (hpre_bits(plan->ahb_div) << 4) | (ppre_bits(plan->apb1_div) << 10) |
           (ppre_bits(plan->apb2_div) << 13);
}

uint32_t stm32_pwr_vos_bits(const stm32_clock_plan_t *plan)
{
    /* VOS = 0b11 scale 1, 0b10 scale 2, 0b01 scale 3. */
    return ((4u - plan->vos_scale) & 0x3u) << 14;
}

uint32_t stm32_usart_brr(uint32_t pclk_hz, uint32_t baud)
{
    if (baud == 0u) {
        return 0u;
    }
    uint32_t brr = (uint32_t)(((uint64_t)pclk_hz + baud / 2u) / baud);
    /* Mantissa is 12 bits; USARTDIV below 1 is not allowed. */
    if (brr < 16u) {
        brr = 16u;
    }
    if (brr > 0xFFFFu) {
        brr = 0xFFFFu;
    }
    return brr;
}
