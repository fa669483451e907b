/* SPDX-License-Identifier: Apache-2.0 */
/* Everything on (the defaults, spelled out). Used by `./limen size`. */
#define LM_CFG_ARG_CHECKS 1
#define LM_CFG_ASSERT 1
#define LM_CFG_STATS 1
#define LM_CFG_SWITCH_HOOK 1
#define LM_CFG_STACK_WATERMARK 1
