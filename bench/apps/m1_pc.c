/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Measure 1, the producer-consumer cycle of seeds 000/001. Consumers A, B
 * and C each receive forever from their own queue (3 messages of 4 bytes)
 * and count what they receive. Producer D sends one message to A, B and C,
 * three times over, then yields. Timed: from one return of D's yield to
 * the one CYCLES cycles later, after WARMUP cycles.
 * PC_CASE 0 equal (all priority 4), 1 unique (A 1, B 2, C 3, D 4),
 * 2 threshold (unique, D's preemption-threshold 1).
 * PC_PQUEUE 1: the queues are priority queues (lm_pqueue_t, every message
 * at priority 0), the kernel calls the CMSIS-RTOS2 layer's message queues
 * make (m1_pc_cmsis.c): what the layer adds is the difference.
 */
#include "lmb.h"

#ifndef PC_CASE
#error "PC_CASE: 0 equal, 1 unique, 2 threshold"
#endif

#define WARMUP 16u
#define CYCLES 1000u

static const char *const case_name[3] = {"equal", "unique", "threshold"};

static lm_thread_t consumers[3], producer;
static uint64_t stacks[4][LMB_STACK_BYTES / sizeof(uint64_t)];
#ifndef PC_PQUEUE
#define PC_PQUEUE 0
#endif
#if PC_PQUEUE
typedef lm_pqueue_t pc_queue_t;
static LM_PQUEUE_BUFFER_DEFINE(storage[3], sizeof(uint32_t), 3);
static lm_status_t pc_create(pc_queue_t *q, void *buf)
{
    return lm_pqueue_create(q, buf, sizeof(uint32_t), 3u);
}
static lm_status_t pc_send(pc_queue_t *q, const uint32_t *msg)
{
    return lm_pqueue_send(q, msg, sizeof *msg, 0u, LM_WAIT_FOREVER);
}
static lm_status_t pc_receive(pc_queue_t *q, uint32_t *msg)
{
    return lm_pqueue_receive(q, msg, sizeof *msg, NULL, LM_WAIT_FOREVER);
}
#else
typedef lm_queue_t pc_queue_t;
static uint32_t storage[3][3];
static lm_status_t pc_create(pc_queue_t *q, void *buf)
{
    return lm_queue_create(q, buf, sizeof(uint32_t), 3u);
}
static lm_status_t pc_send(pc_queue_t *q, const uint32_t *msg)
{
    return lm_queue_send(q, msg, sizeof *msg, LM_WAIT_FOREVER);
}
static lm_status_t pc_receive(pc_queue_t *q, uint32_t *msg)
{
    return lm_queue_receive(q, msg, sizeof *msg, LM_WAIT_FOREVER);
}
#endif
static pc_queue_t queues[3];
/* Not static: each count is a load, an add and a store, as in the demo. */
uint32_t lmb_received;

static void consumer_entry(void *arg)
{
    pc_queue_t *q = arg;
    uint32_t msg;
    for (;;) {
        (void)pc_receive(q, &msg);
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
        for (unsigned round = 0u; round < 3u; round++) {
            for (unsigned i = 0u; i < 3u; i++) {
                msg++;
                (void)pc_send(&queues[i], &msg);
            }
        }
        (void)lm_thread_yield();
        if (cycle + 1u == WARMUP) {
            start = lmb_now();
            received = lmb_received;
        } else if (cycle + 1u == WARMUP + CYCLES) {
            uint32_t end = lmb_now();
            uint32_t got = lmb_received - received;
            lmb_begin("m1");
            lmb_text("case", case_name[PC_CASE]);
            lmb_value("instructions", (start - end) * LMB_INSTR_PER_COUNT);
            lmb_value("cycles", CYCLES);
            lmb_value("messages", got);
            lmb_end();
        }
    }
}

void lmb_app_setup(void)
{
    for (unsigned i = 0u; i < 3u; i++) {
        if (pc_create(&queues[i], storage[i]) != LM_OK) {
            lmb_fail("queue");
        }
    }
    for (unsigned i = 0u; i < 3u; i++) {
        unsigned prio = (PC_CASE == 0) ? 4u : i + 1u;
        lmb_thread(&consumers[i], consumer_entry, &queues[i], stacks[i], prio, prio);
    }
    lmb_thread(&producer, producer_entry, 0, stacks[3], 4u, (PC_CASE == 2) ? 1u : 4u);
}
