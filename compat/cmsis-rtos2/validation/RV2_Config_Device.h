/* SPDX-License-Identifier: Apache-2.0 */
/* The suite's two test interrupts on MPS2: NVIC lines 30 and 31, which
 * have no device behind them; platform.c routes them to the suite. */
#ifndef RV2_CONFIG_DEVICE_H__
#define RV2_CONFIG_DEVICE_H__

#include "lmv_device.h"

#define TST_IRQ_HANDLER_A lmv_irq_a
#define TST_IRQ_NUM_A 30
#define TST_IRQ_HANDLER_B lmv_irq_b
#define TST_IRQ_NUM_B 31

#endif
