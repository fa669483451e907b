/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The first-day mistake of a main() that creates and starts threads and
 * returns without lm_kernel_start(): the board's start-up code must say so
 * on the console (ctest passes this image only if the message appears).
 */
#include "board.h"
#include "limen/limen.h"

static lm_thread_t worker;
static LM_STACK_DEFINE(worker_stack, 1024);

static void worker_main(void *arg)
{
    (void)arg;
}

int main(void)
{
    lm_kernel_init();
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.entry = worker_main;
    a.stack = worker_stack;
    a.stack_size = sizeof worker_stack;
    a.priority = 3;
    if (lm_thread_create(&worker, &a) != LM_OK || lm_thread_start(&worker) != LM_OK) {
        return 1;
    }
    return 0; /* lm_kernel_start() left out */
}
