/* SPDX-License-Identifier: Apache-2.0 */
/* The producer-consumer scenario (see pc.h). */
#include <string.h>
#include "pc.h"

/* 1 KiB: the tests' cycle hook formats text on the producer's stack (a
 * port's smallest stack, 256 bytes on Armv6-M, is too little for that). */
#define STACK_BYTES (LM_PORT_MIN_STACK * 2u > 1024u ? LM_PORT_MIN_STACK * 2u : 1024u)
#define MSG_WORDS 1u
#define MAX_CAPACITY 3u

void (*pc_cycle_hook)(uint32_t cycle);
uint32_t (*pc_timestamp)(void);

static lm_thread_t consumer[3], producer;
static LM_STACK_DEFINE(consumer_stack0, STACK_BYTES);
static LM_STACK_DEFINE(consumer_stack1, STACK_BYTES);
static LM_STACK_DEFINE(consumer_stack2, STACK_BYTES);
static LM_STACK_DEFINE(producer_stack, STACK_BYTES);
static uint8_t *const consumer_stack[3] = {consumer_stack0, consumer_stack1, consumer_stack2};
static lm_queue_t queue[3];
static LM_QUEUE_BUFFER_DEFINE(qbuf0, sizeof(uint32_t) * MSG_WORDS, MAX_CAPACITY);
static LM_QUEUE_BUFFER_DEFINE(qbuf1, sizeof(uint32_t) * MSG_WORDS, MAX_CAPACITY);
static LM_QUEUE_BUFFER_DEFINE(qbuf2, sizeof(uint32_t) * MSG_WORDS, MAX_CAPACITY);
static uint8_t *const qbuf[3] = {qbuf0, qbuf1, qbuf2};

static struct {
    uint32_t warmup;
    uint32_t cycles;
    uint32_t received;
    lm_kernel_stats_t start;
    uint32_t t0;
    uint32_t received_start;
    pc_result_t *out;
} run;

static void consumer_entry(void *arg)
{
    lm_queue_t *q = (lm_queue_t *)arg;
    uint32_t msg[MSG_WORDS];
    for (;;) {
        if (lm_queue_receive(q, msg, sizeof msg, LM_WAIT_FOREVER) == LM_OK) {
            run.received++;
        }
    }
}

static void producer_entry(void *arg)
{
    (void)arg;
    uint32_t msg[MSG_WORDS] = {0};
    for (uint32_t cycle = 0;; cycle++) {
        for (unsigned round = 0; round < 3u; round++) {
            for (unsigned i = 0; i < 3u; i++) {
                msg[0]++;
                (void)lm_queue_send(&queue[i], msg, sizeof msg, LM_WAIT_FOREVER);
            }
        }
        (void)lm_thread_yield();
        /* A cycle boundary: one return of D's relinquish. */
        if (pc_cycle_hook != NULL) {
            pc_cycle_hook(cycle);
        }
        if (cycle + 1u == run.warmup) {
            lm_kernel_stats(&run.start);
            run.received_start = run.received;
            run.t0 = (pc_timestamp != NULL) ? pc_timestamp() : 0u;
        } else if (cycle + 1u == run.warmup + run.cycles) {
            uint32_t t1 = (pc_timestamp != NULL) ? pc_timestamp() : 0u;
            lm_kernel_stats_t end;
            lm_kernel_stats(&end);
            run.out->timestamp_delta = t1 - run.t0;
            run.out->cycles = run.cycles;
            run.out->messages = run.received - run.received_start;
            run.out->context_switches = end.context_switches - run.start.context_switches;
            run.out->preemptions = end.preemptions - run.start.preemptions;
            pc_stop();
        }
    }
}

const char *pc_case_name(pc_case_t c)
{
    static const char *const names[] = {"equal", "unique", "threshold", "control"};
    return names[c];
}

void pc_run(pc_case_t c, uint32_t warmup, uint32_t cycles, lm_switch_hook_t switch_hook,
            pc_result_t *out)
{
    static const char *const names[3] = {"A", "B", "C"};
    memset(&run, 0, sizeof run);
    memset(out, 0, sizeof *out);
    run.warmup = warmup == 0u ? 1u : warmup;
    run.cycles = cycles;
    run.out = out;
    out->name = pc_case_name(c);

    /* Control blocks of a previous run are stale after lm_kernel_init(). */
    memset(consumer, 0, sizeof consumer);
    memset(&producer, 0, sizeof producer);
    memset(queue, 0, sizeof queue);
    lm_kernel_init();
    (void)lm_switch_hook_set(switch_hook);
    size_t capacity = (c == PC_CONTROL) ? 1u : MAX_CAPACITY;
    for (unsigned i = 0; i < 3u; i++) {
        (void)lm_queue_create(&queue[i], qbuf[i], sizeof(uint32_t) * MSG_WORDS, capacity);
#if LM_CFG_TRACE
        static const char *const qnames[3] = {"queue A", "queue B", "queue C"};
        (void)lm_trace_name(LM_TRACE_KIND_OBJECT, &queue[i], sizeof queue[i], qnames[i]);
#endif
        lm_thread_attr_t a;
        lm_thread_attr_init(&a);
        a.name = names[i];
        a.entry = consumer_entry;
        a.arg = &queue[i];
        a.stack = consumer_stack[i];
        a.stack_size = STACK_BYTES;
        a.priority = (uint16_t)((c == PC_UNIQUE || c == PC_THRESHOLD) ? i + 1u : 4u);
        (void)lm_thread_create(&consumer[i], &a);
        (void)lm_thread_start(&consumer[i]);
    }
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "D";
    a.entry = producer_entry;
    a.stack = producer_stack;
    a.stack_size = STACK_BYTES;
    a.priority = 4;
    a.threshold = (c == PC_THRESHOLD) ? 1u : LM_THRESHOLD_NONE;
    (void)lm_thread_create(&producer, &a);
    (void)lm_thread_start(&producer);
    lm_kernel_start();
}
