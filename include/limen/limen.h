/* SPDX-License-Identifier: Apache-2.0 */
/* Limen: the whole public API. */
#ifndef LIMEN_LIMEN_H
#define LIMEN_LIMEN_H

#include "limen/base.h"
#include "limen/kernel.h"
#include "limen/thread.h"
#include "limen/trace.h"
#if LM_CFG_SEM
#include "limen/sem.h"
#endif
#if LM_CFG_MUTEX
#include "limen/mutex.h"
#endif
#if LM_CFG_QUEUE
#include "limen/queue.h"
#endif
#if LM_CFG_FLAGS
#include "limen/flags.h"
#endif
#if LM_CFG_POOL
#include "limen/pool.h"
#endif
#if LM_CFG_TIMER
#include "limen/timer.h"
#endif

#endif
