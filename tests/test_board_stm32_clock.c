/* SPDX-License-Identifier: Apache-2.0 */
/*
 * STM32F429I-DISC1 clock arithmetic (boards/stm32f429i-disc1/clock.c), on
 * the host: the board is built here but not run, so the numbers its start-up
 * code writes are checked against RM0090's limits instead. Register images
 * are decoded here independently (field positions and encodings of
 * RCC_PLLCFGR, RCC_CFGR, PWR_CR) and the frequencies recomputed from the
 * decoded fields, so an encoding slip in clock.c fails too.
 *
 * Not a scheduling test: no rule of docs/rules.md applies; the cases cite
 * the RM0090 facts they check.
 */
#include "harness.h"

#include "../boards/stm32f429i-disc1/clock.c"

#define MHZ 1000000u
#define HSE_HZ (8u * MHZ)

typedef struct decoded {
    uint32_t m, n, p, q;
    bool hse;
    uint32_t ahb_div, apb1_div, apb2_div;
    uint32_t vos;
} decoded_t;

/* RCC_PLLCFGR: PLLM[5:0], PLLN[14:6], PLLP[17:16] (00 /2, 01 /4, 10 /6,
 * 11 /8), PLLSRC[22] (1 = HSE), PLLQ[27:24]. */
static void decode_pllcfgr(uint32_t r, decoded_t *d)
{
    d->m = r & 0x3Fu;
    d->n = (r >> 6) & 0x1FFu;
    d->p = 2u * (((r >> 16) & 0x3u) + 1u);
    d->hse = ((r >> 22) & 1u) != 0u;
    d->q = (r >> 24) & 0xFu;
}

/* RCC_CFGR PPREx: 0xx /1, 100 /2, 101 /4, 110 /8, 111 /16. */
static uint32_t ppre_div(uint32_t bits)
{
    static const uint32_t div[8] = {1u, 1u, 1u, 1u, 2u, 4u, 8u, 16u};
    return div[bits & 7u];
}

/* RCC_CFGR HPRE: 0xxx /1, 1000 /2 .. 1011 /16, 1100 /64 .. 1111 /512. */
static uint32_t hpre_div(uint32_t bits)
{
    static const uint32_t div[16] = {1u, 1u, 1u, 1u, 1u, 1u, 1u, 1u,
                                     2u, 4u, 8u, 16u, 64u, 128u, 256u, 512u};
    return div[bits & 15u];
}

static void decode_cfgr(uint32_t r, decoded_t *d)
{
    d->ahb_div = hpre_div(r >> 4);
    d->apb1_div = ppre_div(r >> 10);
    d->apb2_div = ppre_div(r >> 13);
    LMT_EQ(r & ~0xFCF0u, 0u); /* nothing outside HPRE, PPRE1, PPRE2 */
}

/* Baud error of a BRR value (16x oversampling: baud = pclk / BRR), in
 * millionths. */
static uint32_t baud_error_ppm(uint32_t pclk_hz, uint32_t brr, uint32_t baud)
{
    uint64_t actual_x = (uint64_t)pclk_hz * 1000000u / brr; /* baud x 1e6 */
    uint64_t want_x = (uint64_t)baud * 1000000u;
    uint64_t diff = actual_x > want_x ? actual_x - want_x : want_x - actual_x;
    return (uint32_t)(diff * 1000000u / want_x);
}

/* Everything RM0090 demands of a plan for `sysclk` from `src`, recomputed
 * from the register images. */
static void check_plan(uint32_t src, uint32_t sysclk, bool from_hse, bool want_usb48)
{
    stm32_clock_plan_t plan;
    LMT_CHECK(stm32_clock_plan(src, sysclk, &plan));
    decoded_t d;
    decode_pllcfgr(stm32_pllcfgr(&plan, from_hse), &d);
    decode_cfgr(stm32_cfgr_prescalers(&plan), &d);

    /* Factor ranges: 2 <= M <= 63, 50 <= N <= 432, 2 <= Q <= 15. */
    LMT_CHECK(d.m >= 2u && d.m <= 63u);
    LMT_CHECK(d.n >= 50u && d.n <= 432u);
    LMT_CHECK(d.q >= 2u && d.q <= 15u);
    LMT_EQ(d.hse, from_hse);
    /* VCO input 1..2 MHz: src/M, compared as src against M x limit. */
    LMT_CHECK((uint64_t)src >= (uint64_t)d.m * 1u * MHZ);
    LMT_CHECK((uint64_t)src <= (uint64_t)d.m * 2u * MHZ);
    /* VCO output 100..432 MHz, exactly a whole number of Hz. */
    uint64_t vco_x_m = (uint64_t)src * d.n;
    LMT_EQ(vco_x_m % d.m, 0u);
    uint64_t vco = vco_x_m / d.m;
    LMT_CHECK(vco >= 100u * MHZ && vco <= 432u * MHZ);
    /* SYSCLK = VCO / P exactly the target. */
    LMT_EQ(vco % d.p, 0u);
    LMT_EQ(vco / d.p, sysclk);
    /* PLL48CK: never above 48 MHz; exactly 48 MHz where asked. */
    LMT_CHECK(vco / d.q <= 48u * MHZ);
    if (want_usb48) {
        LMT_EQ(vco % d.q, 0u);
        LMT_EQ(vco / d.q, 48u * MHZ);
    }
    /* Buses: HCLK = SYSCLK (SysTick counts it), APB1 <= 42, APB2 <= 84. */
    LMT_EQ(d.ahb_div, 1u);
    uint32_t hclk = sysclk / d.ahb_div;
    LMT_CHECK(hclk / d.apb1_div <= 42u * MHZ);
    LMT_CHECK(hclk / d.apb2_div <= 84u * MHZ);
    /* ...and no slower than needed: one step less would exceed the limit. */
    LMT_CHECK(d.apb1_div == 1u || hclk / (d.apb1_div / 2u) > 42u * MHZ);
    LMT_CHECK(d.apb2_div == 1u || hclk / (d.apb2_div / 2u) > 84u * MHZ);
    /* The plan's own figures agree with the registers. */
    LMT_EQ(plan.sysclk_hz, sysclk);
    LMT_EQ(plan.hclk_hz, hclk);
    LMT_EQ(plan.pclk1_hz, hclk / d.apb1_div);
    LMT_EQ(plan.pclk2_hz, hclk / d.apb2_div);
    LMT_EQ(plan.vco_hz, vco);
    /* Flash: one wait state per started 30 MHz beyond the first (3.3 V). */
    LMT_EQ(plan.flash_latency, (hclk + 30u * MHZ - 1u) / (30u * MHZ) - 1u);
    /* USART1 on APB2, 115200 baud within 1 %. */
    uint32_t brr = stm32_usart_brr(plan.pclk2_hz, 115200u);
    LMT_CHECK(brr >= 16u && brr <= 0xFFFFu);
    LMT_CHECK(baud_error_ppm(plan.pclk2_hz, brr, 115200u) < 10000u);
}

/* RM0090 RCC: 84 MHz (the default, as in the seed 002 measurements) from the
 * 8 MHz HSE: M=4 (2 MHz VCO input), N=168 (336 MHz VCO), P=4, Q=7 (48 MHz);
 * APB1 /2 = 42 MHz, APB2 /1 = 84 MHz; 2 wait states; scale 3 suffices. */
LMT_CASE(pll_84mhz_from_hse)
{
    check_plan(HSE_HZ, 84u * MHZ, true, true);
    stm32_clock_plan_t plan;
    LMT_CHECK(stm32_clock_plan(HSE_HZ, 84u * MHZ, &plan));
    LMT_EQ(stm32_pllcfgr(&plan, true), 0x07412A04u);
    LMT_EQ(stm32_cfgr_prescalers(&plan), 0x1000u);
    LMT_EQ(plan.flash_latency, 2u);
    LMT_EQ(plan.pclk1_hz, 42u * MHZ);
    LMT_EQ(plan.pclk2_hz, 84u * MHZ);
    LMT_EQ(plan.pll48_hz, 48u * MHZ);
    LMT_EQ(plan.vos_scale, 3u);
    LMT_EQ(stm32_pwr_vos_bits(&plan), 1u << 14);
    /* 84e6 / 115200 = 729.17: BRR 729 (mantissa 45, fraction 9), +0.02 %. */
    LMT_EQ(stm32_usart_brr(plan.pclk2_hz, 115200u), 729u);
    LMT_CHECK(baud_error_ppm(plan.pclk2_hz, 729u, 115200u) < 300u);
}

/* RM0090 RCC: 168 MHz from the HSE: M=4, N=168, P=2, Q=7 (USB 48 MHz);
 * APB1 /4 = 42 MHz, APB2 /2 = 84 MHz; 5 wait states; regulator scale 1. */
LMT_CASE(pll_168mhz_from_hse)
{
    check_plan(HSE_HZ, 168u * MHZ, true, true);
    stm32_clock_plan_t plan;
    LMT_CHECK(stm32_clock_plan(HSE_HZ, 168u * MHZ, &plan));
    LMT_EQ(stm32_pllcfgr(&plan, true), 0x07402A04u);
    LMT_EQ(stm32_cfgr_prescalers(&plan), 0x9400u);
    LMT_EQ(plan.flash_latency, 5u);
    LMT_EQ(plan.pclk1_hz, 42u * MHZ);
    LMT_EQ(plan.pclk2_hz, 84u * MHZ);
    LMT_EQ(plan.vos_scale, 1u);
    LMT_EQ(stm32_pwr_vos_bits(&plan), 3u << 14);
    LMT_EQ(stm32_usart_brr(plan.pclk2_hz, 115200u), 729u);
}

/* The start-up falls back to the 16 MHz HSI when no HSE starts: the same
 * SYSCLK must come out (M=8), so the kernel tick stays right. */
LMT_CASE(same_sysclk_from_hsi)
{
    check_plan(STM32_HSI_HZ, 84u * MHZ, false, true);
    check_plan(STM32_HSI_HZ, 168u * MHZ, false, true);
    stm32_clock_plan_t hse, hsi;
    LMT_CHECK(stm32_clock_plan(HSE_HZ, 168u * MHZ, &hse));
    LMT_CHECK(stm32_clock_plan(STM32_HSI_HZ, 168u * MHZ, &hsi));
    LMT_EQ(hsi.pllm, 8u);
    LMT_EQ(stm32_pllcfgr(&hsi, false), stm32_pllcfgr(&hse, true) + 4u - (1u << 22));
}

/* Other inputs and targets: a 25 MHz crystal still gives 84 MHz exactly;
 * unreachable or out-of-range requests are refused, never approximated. */
LMT_CASE(other_inputs_and_refusals)
{
    check_plan(25u * MHZ, 84u * MHZ, true, true);
    check_plan(HSE_HZ, 100u * MHZ, true, false);
    check_plan(HSE_HZ, 120u * MHZ, true, true);
    stm32_clock_plan_t plan;
    LMT_CHECK(!stm32_clock_plan(HSE_HZ, 180u * MHZ, &plan)); /* needs over-drive */
    LMT_CHECK(!stm32_clock_plan(HSE_HZ, 84u * MHZ + 1u, &plan));
    LMT_CHECK(!stm32_clock_plan(HSE_HZ, 0u, &plan));
    LMT_CHECK(!stm32_clock_plan(0u, 84u * MHZ, &plan));
    LMT_CHECK(!stm32_clock_plan(500000u, 84u * MHZ, &plan)); /* VCO input < 1 MHz */
    LMT_CHECK(!stm32_clock_plan(HSE_HZ, 84u * MHZ, NULL));
}

/* RM0090 flash wait states, STM32F42x/43x at 2.7-3.6 V: 0 WS up to 30 MHz,
 * 1 up to 60, 2 up to 90, 3 up to 120, 4 up to 150, 5 up to 180. */
LMT_CASE(flash_latency_table)
{
    static const struct { uint32_t hz, ws; } rows[] = {
        {16u * MHZ, 0u}, {30u * MHZ, 0u}, {30u * MHZ + 1u, 1u}, {60u * MHZ, 1u},
        {60u * MHZ + 1u, 2u}, {84u * MHZ, 2u}, {90u * MHZ, 2u}, {90u * MHZ + 1u, 3u},
        {120u * MHZ, 3u}, {120u * MHZ + 1u, 4u}, {150u * MHZ, 4u}, {150u * MHZ + 1u, 5u},
        {168u * MHZ, 5u}, {180u * MHZ, 5u},
    };
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        LMT_EQ(stm32_flash_latency(rows[i].hz), rows[i].ws);
    }
}

/* RM0090 PWR_CR.VOS without over-drive: scale 3 up to 120 MHz, scale 2 up
 * to 144 MHz, scale 1 up to 168 MHz. */
LMT_CASE(regulator_scale_table)
{
    LMT_EQ(stm32_vos_scale(84u * MHZ), 3u);
    LMT_EQ(stm32_vos_scale(120u * MHZ), 3u);
    LMT_EQ(stm32_vos_scale(120u * MHZ + 1u), 2u);
    LMT_EQ(stm32_vos_scale(144u * MHZ), 2u);
    LMT_EQ(stm32_vos_scale(144u * MHZ + 1u), 1u);
    LMT_EQ(stm32_vos_scale(168u * MHZ), 1u);
    LMT_EQ(stm32_vos_scale(168u * MHZ + 1u), 0u);
}

/* RM0090 USART_BRR with OVER8 = 0: USARTDIV = pclk / (16 x baud) in 12.4
 * fixed point, i.e. BRR = pclk / baud rounded; common rates within 1 %. */
LMT_CASE(usart_brr)
{
    LMT_EQ(stm32_usart_brr(16u * MHZ, 115200u), 139u);  /* 138.9: 0x08B */
    LMT_EQ(stm32_usart_brr(42u * MHZ, 115200u), 365u);  /* 364.6 */
    LMT_EQ(stm32_usart_brr(84u * MHZ, 9600u), 8750u);   /* exact */
    LMT_EQ(stm32_usart_brr(84u * MHZ, 0u), 0u);
    LMT_EQ(stm32_usart_brr(84u * MHZ, 84u * MHZ), 16u); /* USARTDIV never below 1 */
    static const uint32_t pclks[] = {16u * MHZ, 42u * MHZ, 84u * MHZ};
    static const uint32_t bauds[] = {9600u, 19200u, 38400u, 57600u, 115200u, 230400u};
    for (unsigned i = 0; i < 3u; i++) {
        for (unsigned j = 0; j < 6u; j++) {
            uint32_t brr = stm32_usart_brr(pclks[i], bauds[j]);
            LMT_CHECK(baud_error_ppm(pclks[i], brr, bauds[j]) < 10000u);
        }
    }
}

LMT_MAIN(LMT_RUN(pll_84mhz_from_hse), LMT_RUN(pll_168mhz_from_hse), LMT_RUN(same_sysclk_from_hsi),
         LMT_RUN(other_inputs_and_refusals), LMT_RUN(flash_latency_table),
         LMT_RUN(regulator_scale_table), LMT_RUN(usart_brr))
