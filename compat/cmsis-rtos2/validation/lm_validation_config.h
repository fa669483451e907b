/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel and layer configuration of the validation image
 * (./limen cmsis-validate, docs/cmsis-rtos2.md). */
#ifndef LM_VALIDATION_CONFIG_H
#define LM_VALIDATION_CONFIG_H

/* One Limen priority per CMSIS priority. */
#define LM_CFG_PRIORITIES 64
#define LM_CMSIS_THREAD_COUNT 16
#define LM_CMSIS_STACK_COUNT 16
#define LM_CMSIS_STACK_SIZE 1024u
#define LM_CMSIS_TIMER_COUNT 16
#define LM_CMSIS_EVENT_FLAGS_COUNT 16
#define LM_CMSIS_MUTEX_COUNT 16
#define LM_CMSIS_SEMAPHORE_COUNT 16
#define LM_CMSIS_MEMPOOL_COUNT 8
#define LM_CMSIS_MSGQUEUE_COUNT 8

#endif
