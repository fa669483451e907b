/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 1 (m1_pc.c) written against the CMSIS-RTOS2 API on Limen: the
 * same threads, queues (3 messages of 4 bytes), order and timing, through
 * osMessageQueuePut/Get and osThreadYield. Threads and queues live in the
 * image's memory (cb_mem, stack_mem, mq_mem). CMSIS has no
 * preemption-threshold: the threshold case raises the producer's priority
 * to its threshold around the sends and lowers it before the yield (the way
 * the reference harness runs it on RTX5). App priority p (0 most urgent)
 * is the CMSIS priority that maps to Limen priority p
 * (lm_cmsis_from_lm_priority; checked), so the kernel sees the priorities
 * of m1_pc.c.
 */
#include "lmb.h"
#include "cmsis_os2.h"
#include "lm_cmsis.h"

#ifndef PC_CASE
#error "PC_CASE: 0 equal, 1 unique, 2 threshold"
#endif

#define WARMUP 16u
#define CYCLES 1000u
#define OS_PRIO(p) ((osPriority_t)lm_cmsis_from_lm_priority(p))

static const char *const case_name[3] = {"equal", "unique", "threshold"};

static lm_cmsis_thread_t consumers[3], producer;
static uint64_t stacks[4][LMB_STACK_BYTES / sizeof(uint64_t)];
static lm_cmsis_msgqueue_t queues[3];
static _Alignas(sizeof(void *)) uint8_t storage[3][LM_CMSIS_MSGQUEUE_MEM_SIZE(3u, 4u)];
/* Not static: each count is a load, an add and a store, as in the demo. */
uint32_t lmb_received;

static void consumer_entry(void *arg)
{
    osMessageQueueId_t q = arg;
    uint32_t msg;
    for (;;) {
        (void)osMessageQueueGet(q, &msg, NULL, osWaitForever);
        lmb_received++;
    }
}

static void producer_entry(void *arg)
{
    (void)arg;
    uint32_t msg = 0u;
    uint32_t start = 0u;
    uint32_t received = 0u;
    for (uint32_t cycle = 0u;; cycle++) {
        if (PC_CASE == 2) {
            (void)osThreadSetPriority(&producer, OS_PRIO(1));
        }
        for (unsigned round = 0u; round < 3u; round++) {
            for (unsigned i = 0u; i < 3u; i++) {
                msg++;
                (void)osMessageQueuePut(&queues[i], &msg, 0u, osWaitForever);
            }
        }
        if (PC_CASE == 2) {
            (void)osThreadSetPriority(&producer, OS_PRIO(4));
        }
        (void)osThreadYield();
        if (cycle + 1u == WARMUP) {
            start = lmb_now();
            received = lmb_received;
        } else if (cycle + 1u == WARMUP + CYCLES) {
            uint32_t end = lmb_now();
            uint32_t got = lmb_received - received;
            lmb_begin("m1");
            lmb_text("case", case_name[PC_CASE]);
            lmb_text("api", "cmsis-rtos2");
            lmb_value("instructions", (start - end) * LMB_INSTR_PER_COUNT);
            lmb_value("cycles", CYCLES);
            lmb_value("messages", got);
            lmb_end();
        }
    }
}

static void thread(lm_cmsis_thread_t *t, void (*entry)(void *), void *arg, void *stack,
                   unsigned prio)
{
    const osThreadAttr_t a = {.name = "b", .cb_mem = t, .cb_size = sizeof *t,
                              .stack_mem = stack, .stack_size = LMB_STACK_BYTES,
                              .priority = OS_PRIO(prio)};
    if (osThreadNew(entry, arg, &a) != (osThreadId_t)t ||
        lm_thread_base_priority(&t->thread) != prio) {
        lmb_fail("thread");
    }
}

void lmb_app_setup(void)
{
    if (osKernelInitialize() != osOK) {
        lmb_fail("osKernelInitialize");
    }
    for (unsigned i = 0u; i < 3u; i++) {
        const osMessageQueueAttr_t a = {.cb_mem = &queues[i], .cb_size = sizeof queues[i],
                                        .mq_mem = storage[i], .mq_size = sizeof storage[i]};
        if (osMessageQueueNew(3u, sizeof(uint32_t), &a) != (osMessageQueueId_t)&queues[i]) {
            lmb_fail("queue");
        }
    }
    for (unsigned i = 0u; i < 3u; i++) {
        thread(&consumers[i], consumer_entry, &queues[i], stacks[i], (PC_CASE == 0) ? 4u : i + 1u);
    }
    thread(&producer, producer_entry, 0, stacks[3], 4u);
}
