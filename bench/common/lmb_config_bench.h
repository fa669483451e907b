/* SPDX-License-Identifier: Apache-2.0 */
/* The bench configuration of the figures: the project's configs/bench.h
 * (argument checks, asserts, switch hook, stack watermark off) with
 * statistics off too, as targets.md measures. */
#include "../../configs/bench.h"
#define LM_CFG_STATS 0
