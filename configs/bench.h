/* SPDX-License-Identifier: Apache-2.0 */
/* What the published comparisons measure: the fast paths as a production
 * build runs them. Argument checks, kernel asserts, the switch hook, the
 * per-switch stack check and the stack watermark are compiled out; statistics stay on, because the
 * producer-consumer demo reads its switch and preemption counts from them.
 * Used by `./limen demo --config bench` (docs/measuring.md). */
#define LM_CFG_ARG_CHECKS 0
#define LM_CFG_ASSERT 0
#define LM_CFG_SWITCH_HOOK 0
#define LM_CFG_STACK_WATERMARK 0
#define LM_CFG_STACK_CHECK 0
