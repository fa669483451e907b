/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the CMSIS-RTOS2 layer adds to a call: each pair of calls (give and
 * take, lock and unlock, ...) timed 10,000 times through the native API and
 * through the layer, without contention, by the board's timestamp (under
 * QEMU -icount shift=0 one count is 40 instructions, docs/measuring.md).
 * Prints instructions per pair; docs/cmsis-rtos2.md quotes them. The check:
 * the layer never costs less than the call it wraps, and every call
 * succeeded.
 */
#include "harness.h"
#include "board.h"
#include "cmsis_os2.h"
#include "lm_cmsis.h"
#include "limen/port.h"

#define N 10000u

typedef void (*pair_fn)(void);

static lm_sem_t sem;
static lm_mutex_t mtx;
static lm_flags_t flg;
static lm_pool_t pool;
static lm_queue_t queue;
static LM_POOL_BUFFER_DEFINE(pool_buf, 16, 4);
static LM_QUEUE_BUFFER_DEFINE(queue_buf, 4, 4);
static lm_pqueue_t pqueue;
static LM_PQUEUE_BUFFER_DEFINE(pqueue_buf, 4, 4);
static osSemaphoreId_t csem;
static osMutexId_t cmtx;
static osEventFlagsId_t cflg;
static osMemoryPoolId_t cpool;
static osMessageQueueId_t cqueue;
static volatile uint32_t failures;

/* 1 if the call failed, else 0. */
static uint32_t bad(bool failed)
{
    return failed ? 1u : 0u;
}

static void nothing(void) {}
static void n_sem(void)
{
    failures += bad(lm_sem_give(&sem) != LM_OK) + bad(lm_sem_take(&sem, 0) != LM_OK);
}
static void c_sem(void)
{
    failures += bad(osSemaphoreRelease(csem) != osOK) + bad(osSemaphoreAcquire(csem, 0) != osOK);
}
static void n_mutex(void)
{
    failures += bad(lm_mutex_lock(&mtx, 0) != LM_OK) + bad(lm_mutex_unlock(&mtx) != LM_OK);
}
static void c_mutex(void)
{
    failures += bad(osMutexAcquire(cmtx, 0) != osOK) + bad(osMutexRelease(cmtx) != osOK);
}
static void n_flags(void)
{
    uint32_t got;
    failures += bad(lm_flags_set(&flg, 1u) != LM_OK) +
                bad(lm_flags_wait(&flg, 1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &got, 0) != LM_OK);
}
static void c_flags(void)
{
    failures += bad(osEventFlagsSet(cflg, 1u) != 1u) +
                bad(osEventFlagsWait(cflg, 1u, osFlagsWaitAny, 0) != 1u);
}
static void n_pool(void)
{
    void *b = NULL;
    failures += bad(lm_pool_alloc(&pool, &b, 0) != LM_OK) + bad(lm_pool_free(&pool, b) != LM_OK);
}
static void c_pool(void)
{
    void *b = osMemoryPoolAlloc(cpool, 0);
    failures += bad(b == NULL) + bad(osMemoryPoolFree(cpool, b) != osOK);
}
static void n_queue(void)
{
    uint32_t v = 7, r = 0;
    failures += bad(lm_queue_send(&queue, &v, 4, 0) != LM_OK) +
                bad(lm_queue_receive(&queue, &r, 4, 0) != LM_OK);
}
/* The kernel call the layer's message queue maps onto. */
static void n_pqueue(void)
{
    uint32_t v = 7, r = 0;
    uint8_t p = 0;
    failures += bad(lm_pqueue_send(&pqueue, &v, 4, LM_PQUEUE_PRIO_MAX, 0) != LM_OK) +
                bad(lm_pqueue_receive(&pqueue, &r, 4, &p, 0) != LM_OK);
}
static void c_queue(void)
{
    uint32_t v = 7, r = 0;
    failures += bad(osMessageQueuePut(cqueue, &v, 0, 0) != osOK) +
                bad(osMessageQueueGet(cqueue, &r, NULL, 0) != osOK);
}

static uint32_t measure(pair_fn fn)
{
    uint32_t t0 = lm_board_timestamp();
    for (uint32_t i = 0; i < N; i++) {
        fn();
    }
    uint32_t t1 = lm_board_timestamp();
    return (t1 - t0) * LM_BOARD_UNITS_PER_COUNT / N;
}

/* max_added: what the layer may add to a pair (docs/cmsis-rtos2.md,
 * "Cost"), with room for the boards' code generation (Armv6-M adds the
 * most). The semaphore's and the message queue's calls leave their checks
 * to the kernel, so they add a call and return and little else. */
static const struct {
    const char *name;
    pair_fn native, layer;
    uint32_t max_added;
} pairs[] = {
    {"semaphore release+acquire", n_sem, c_sem, 25},
    {"mutex acquire+release", n_mutex, c_mutex, 64},
    {"event flags set+wait", n_flags, c_flags, 100},
    {"memory pool alloc+free", n_pool, c_pool, 48},
    {"message queue put+get (4 bytes)", n_queue, c_queue, 130},
    {"message queue, native priority queue", n_pqueue, c_queue, 12},
};

static void body(void *arg)
{
    (void)arg;
    uint32_t base = measure(nothing);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        uint32_t n = measure(pairs[i].native) - base;
        uint32_t c = measure(pairs[i].layer) - base;
        printf("cost: %-32s native %4lu  cmsis %4lu  (+%lu)\n", pairs[i].name,
               (unsigned long)n, (unsigned long)c, (unsigned long)(c - n));
        LMT_CHECK(c <= n + pairs[i].max_added);
    }
    LMT_EQ(failures, 0);
    lm_port_stop();
}

LMT_CASE(cost)
{
    lmt_begin();
    lm_cmsis_reset();
    LMT_EQ(osKernelInitialize(), osOK);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    LMT_ST(lm_mutex_create(&mtx, 0), LM_OK);
    LMT_ST(lm_flags_create(&flg, 0), LM_OK);
    LMT_ST(lm_pool_create(&pool, pool_buf, sizeof pool_buf, 16, 4), LM_OK);
    LMT_ST(lm_queue_create(&queue, queue_buf, 4, 4), LM_OK);
    LMT_ST(lm_pqueue_create(&pqueue, pqueue_buf, 4, 4), LM_OK);
    csem = osSemaphoreNew(1, 0, NULL);
    cmtx = osMutexNew(NULL);
    cflg = osEventFlagsNew(NULL);
    cpool = osMemoryPoolNew(4, 16, NULL);
    cqueue = osMessageQueueNew(4, 4, NULL);
    LMT_CHECK(csem && cmtx && cflg && cpool && cqueue);
    lmt_spawn("bench", 10, body, NULL);
    lmt_run();
}

LMT_MAIN(LMT_RUN(cost))
