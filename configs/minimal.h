/* SPDX-License-Identifier: Apache-2.0 */
/* Smallest useful Limen: threads and semaphores, no checks, no statistics.
 * Used by `./limen size` to report the kernel's minimal footprint. */
#define LM_CFG_ARG_CHECKS 0
#define LM_CFG_ASSERT 0
#define LM_CFG_STATS 0
#define LM_CFG_SWITCH_HOOK 0
#define LM_CFG_STACK_WATERMARK 0
#define LM_CFG_STACK_CHECK 0
#define LM_CFG_MUTEX 0
#define LM_CFG_QUEUE 0
#define LM_CFG_FLAGS 0
#define LM_CFG_POOL 0
#define LM_CFG_TIMER 0
