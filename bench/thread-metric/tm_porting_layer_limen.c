/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread-Metric's porting layer on Limen's public API (tm_api.h). Every
 * service is a plain function, as the suite requires, and adds only the id
 * lookup and the status translation to the kernel call.
 *
 * Mapping:
 * - priorities: Thread-Metric's 1 (most urgent) .. 31 are Limen's 1 .. 31
 *   (0 is the most urgent there; the idle thread lies below 31);
 * - a created thread is started and at once suspended, before the kernel
 *   runs, so tm_thread_resume is lm_thread_resume whether or not the
 *   thread ever ran;
 * - queues hold TM_QUEUE_DEPTH messages of 16 bytes; semaphores are binary
 *   (initial count 1, maximum 1); pools hold TM_POOL_BLOCKS blocks of 128
 *   bytes; every get, send, receive and allocation is non-blocking, as the
 *   suite's reference port makes them;
 * - tm_thread_sleep sleeps `seconds` x TM "ticks per second" ticks (1,000
 *   at the 1 kHz tick: one second of virtual time, 1e9 instructions under
 *   -icount shift=0).
 *
 * The image's semihosting command line may carry two numbers after the
 * image name: ticks per "second" (default 1,000) and the number of
 * reporting periods to run (default 1). Only the reporting thread sleeps in
 * the suite; when it asks to sleep once more than the periods asked for,
 * every period has been reported, and the image ends QEMU (exit code 0).
 */
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "limen/limen.h"
#include "tm_api.h"

#define TM_MAX_THREADS 10
#define TM_MAX_QUEUES 2
#define TM_MAX_SEMAPHORES 2
#define TM_MAX_POOLS 2
#define TM_STACK_BYTES 2048u
#define TM_MSG_BYTES 16u
#define TM_QUEUE_DEPTH 4u
#define TM_BLOCK_BYTES 128u
#define TM_POOL_BLOCKS 4u
#define TM_IRQ_PRIORITY 0xC0u
#define TM_NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define TM_NVIC_IPR(n) (*(volatile uint8_t *)(0xE000E400u + (n)))

typedef void (*tm_entry_t)(void);

static lm_thread_t threads[TM_MAX_THREADS];
static tm_entry_t entries[TM_MAX_THREADS];
static LM_STACK_DEFINE(stacks[TM_MAX_THREADS], TM_STACK_BYTES);
static lm_queue_t queues[TM_MAX_QUEUES];
static LM_QUEUE_BUFFER_DEFINE(queue_buffers[TM_MAX_QUEUES], TM_MSG_BYTES, TM_QUEUE_DEPTH);
static lm_sem_t semaphores[TM_MAX_SEMAPHORES];
static lm_pool_t pools[TM_MAX_POOLS];
static LM_POOL_BUFFER_DEFINE(pool_buffers[TM_MAX_POOLS], TM_BLOCK_BYTES, TM_POOL_BLOCKS);

static uint32_t ticks_per_second = 1000u;
static uint32_t periods = 1u;
static uint32_t sleeps;

static int tm_status(lm_status_t st)
{
    return st == LM_OK ? TM_SUCCESS : TM_ERROR;
}

static void thread_trampoline(void *arg)
{
    entries[(uintptr_t)arg]();
}

/* The test's interrupt handler, run for line TM_IRQ_LINE (the board sends
 * every spare line to IRQ_Handler). TM_ISR names it: tm_interrupt_handler
 * or tm_interrupt_preemption_handler; images without one keep the board's
 * default. */
#ifdef TM_ISR
void TM_ISR(void);
void IRQ_Handler(void);
void IRQ_Handler(void)
{
    TM_ISR();
}
#endif

void tm_initialize(void (*test_initialization_function)(void))
{
    lm_kernel_init();
    TM_NVIC_IPR(TM_IRQ_LINE) = TM_IRQ_PRIORITY;
    TM_NVIC_ISER0 = 1u << TM_IRQ_LINE;
    test_initialization_function();
    lm_kernel_start();
}

int tm_thread_create(int thread_id, int priority, void (*entry_function)(void))
{
    if (thread_id < 0 || thread_id >= TM_MAX_THREADS || priority < 1 || priority > 31) {
        return TM_ERROR;
    }
    entries[thread_id] = entry_function;
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "tm";
    a.entry = thread_trampoline;
    a.arg = (void *)(uintptr_t)thread_id;
    a.stack = stacks[thread_id];
    a.stack_size = sizeof stacks[thread_id];
    a.priority = (uint16_t)priority;
    lm_thread_t *t = &threads[thread_id];
    if (lm_thread_create(t, &a) != LM_OK || lm_thread_start(t) != LM_OK) {
        return TM_ERROR;
    }
    return tm_status(lm_thread_suspend(t));
}

int tm_thread_resume(int thread_id)
{
    return tm_status(lm_thread_resume(&threads[thread_id]));
}

int tm_thread_suspend(int thread_id)
{
    return tm_status(lm_thread_suspend(&threads[thread_id]));
}

void tm_thread_relinquish(void)
{
    (void)lm_thread_yield();
}

void tm_thread_sleep(int seconds)
{
    if (++sleeps > periods) {
        (void)fflush(stdout);
        lm_board_exit(0);
    }
    (void)lm_thread_sleep((lm_tick_t)seconds * ticks_per_second);
}

int tm_queue_create(int queue_id)
{
    return tm_status(lm_queue_create(&queues[queue_id], queue_buffers[queue_id], TM_MSG_BYTES,
                                     TM_QUEUE_DEPTH));
}

int tm_queue_send(int queue_id, unsigned long *message_ptr)
{
    return tm_status(lm_queue_send(&queues[queue_id], message_ptr, TM_MSG_BYTES, LM_NO_WAIT));
}

int tm_queue_receive(int queue_id, unsigned long *message_ptr)
{
    return tm_status(lm_queue_receive(&queues[queue_id], message_ptr, TM_MSG_BYTES, LM_NO_WAIT));
}

int tm_semaphore_create(int semaphore_id)
{
    return tm_status(lm_sem_create(&semaphores[semaphore_id], 1u, 1u));
}

int tm_semaphore_get(int semaphore_id)
{
    return tm_status(lm_sem_take(&semaphores[semaphore_id], LM_NO_WAIT));
}

int tm_semaphore_put(int semaphore_id)
{
    return tm_status(lm_sem_give(&semaphores[semaphore_id]));
}

int tm_memory_pool_create(int pool_id)
{
    return tm_status(lm_pool_create(&pools[pool_id], pool_buffers[pool_id],
                                    sizeof pool_buffers[pool_id], TM_BLOCK_BYTES,
                                    TM_POOL_BLOCKS));
}

int tm_memory_pool_allocate(int pool_id, unsigned char **memory_ptr)
{
    void *block;
    lm_status_t st = lm_pool_alloc(&pools[pool_id], &block, LM_NO_WAIT);
    *memory_ptr = (unsigned char *)block;
    return tm_status(st);
}

int tm_memory_pool_deallocate(int pool_id, unsigned char *memory_ptr)
{
    return tm_status(lm_pool_free(&pools[pool_id], memory_ptr));
}

/* Reads "<image> <ticks per second> <periods>" from the semihosting command
 * line; either number may be missing. */
static uint32_t parse_u32(const char **p)
{
    uint32_t v = 0u;
    while (**p == ' ') {
        (*p)++;
    }
    while (**p >= '0' && **p <= '9') {
        v = v * 10u + (uint32_t)(**p - '0');
        (*p)++;
    }
    return v;
}

static void read_command_line(void)
{
    static char line[160];
    struct {
        char *buf;
        uint32_t len;
    } block = {line, sizeof line - 1u};
    register uint32_t r0 __asm("r0") = 0x15u; /* SYS_GET_CMDLINE */
    register void *r1 __asm("r1") = &block;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    if (r0 != 0u || block.len >= sizeof line) {
        return;
    }
    line[block.len] = '\0';
    const char *p = line;
    while (*p != '\0' && *p != ' ') { /* the image name */
        p++;
    }
    uint32_t tps = parse_u32(&p);
    uint32_t n = parse_u32(&p);
    if (tps != 0u) {
        ticks_per_second = tps;
    }
    if (n != 0u) {
        periods = n;
    }
}

void tm_main(void);

int main(void)
{
    read_command_line();
    tm_main();
    return 1;
}
