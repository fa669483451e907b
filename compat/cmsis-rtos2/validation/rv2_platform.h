/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The suite's settings for Limen (included by the generated RV2_Config.h,
 * which also enables every test case the suite lists). Control blocks and
 * static memory sized for Limen's objects: the suite's 200-byte defaults
 * are below LM_PORT_MIN_STACK (stacks) and Limen's control blocks.
 */
#ifndef RV2_PLATFORM_H
#define RV2_PLATFORM_H

#include "lm_cmsis.h"

#define MAIN_THREAD_STACK 1024
#define RTOS2_TICK_FREQ LM_CFG_TICK_HZ
#define MAX_THREADFLAGS_CNT 31
#define MAX_EVENTFLAGS_CNT 31
#define MAX_MUTEX_LOCK_CNT 255
#define MAX_SEMAPHORE_TOKEN_CNT 255

#define DEFINE_OBJECT_SIZES 1
#define THREAD_OBJECT_SIZE LM_CMSIS_THREAD_CB_SIZE
#define TIMER_OBJECT_SIZE LM_CMSIS_TIMER_CB_SIZE
#define EVENT_FLAGS_OBJECT_SIZE LM_CMSIS_EVENT_FLAGS_CB_SIZE
#define MUTEX_OBJECT_SIZE LM_CMSIS_MUTEX_CB_SIZE
#define SEMAPHORE_OBJECT_SIZE LM_CMSIS_SEMAPHORE_CB_SIZE
#define MEMORY_POOL_OBJECT_SIZE LM_CMSIS_MEMPOOL_CB_SIZE
#define MESSAGE_QUEUE_OBJECT_SIZE LM_CMSIS_MSGQUEUE_CB_SIZE

#define THREAD_STACK_MEM_SIZE 1024
#define MEMORYPOOL_DATA_MEM_SIZE 400
#define MESSAGEQUEUE_DATA_MEM_SIZE 400

#endif
