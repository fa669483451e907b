/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An application outside Limen's tree: a producer and a consumer thread
 * that meet at a counting semaphore. The consumer is more urgent, so every
 * give wakes it at once and the output alternates in a fixed order. It also
 * checks that the kernel it links was built with this application's
 * configuration (app_limen_config.h: 16 priorities), then ends.
 *
 * Builds for the hosted port (a Linux program) and for a board (an image
 * whose main() the board's start-up calls).
 */
#include <stdio.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/version.h"

_Static_assert(LM_CFG_PRIORITIES == 16, "app_limen_config.h is not in effect");

#define ITEMS 5u
/* Stacks: the port's minimum twice over (64 KiB on the hosted port, room
 * for glibc and AddressSanitizer), and at least 2 KiB for printf on a board. */
#define APP_STACK_BYTES (LM_PORT_MIN_STACK * 2u > 2048u ? LM_PORT_MIN_STACK * 2u : 2048u)

static lm_sem_t items;
static lm_thread_t producer, consumer, probe, probe_bad;
static LM_STACK_DEFINE(producer_stack, APP_STACK_BYTES);
static LM_STACK_DEFINE(consumer_stack, APP_STACK_BYTES);
static unsigned consumed;

static void fail(const char *what, lm_status_t s)
{
    printf("external-app: FAILED: %s: %s\n", what, lm_status_name(s));
    lm_port_stop();
}

static void consumer_main(void *arg)
{
    (void)arg;
    for (unsigned i = 1; i <= ITEMS; i++) {
        lm_status_t s = lm_sem_take(&items, LM_WAIT_FOREVER);
        if (s != LM_OK) {
            fail("lm_sem_take", s);
        }
        consumed++;
        printf("consumer: took item %u\n", i);
    }
    printf("external-app: %u items through the semaphore, done\n", consumed);
    lm_port_stop(); /* lm_kernel_start() returns to main() */
}

static void producer_main(void *arg)
{
    (void)arg;
    for (unsigned i = 1; i <= ITEMS; i++) {
        printf("producer: gives item %u\n", i);
        lm_status_t s = lm_sem_give(&items); /* the consumer runs here */
        if (s != LM_OK) {
            fail("lm_sem_give", s);
        }
        s = lm_thread_sleep(2);
        if (s != LM_OK) {
            fail("lm_thread_sleep", s);
        }
    }
}

static lm_status_t spawn(lm_thread_t *t, const char *name, lm_thread_entry_t fn, void *stack,
                         size_t size, uint16_t priority)
{
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = name;
    a.entry = fn;
    a.stack = stack;
    a.stack_size = size;
    a.priority = priority;
    return lm_thread_create(t, &a);
}

int main(void)
{
    /* The library linked and the headers compiled against: the same build. */
    printf("external-app: Limen %s, headers %d.%d.%d\n", lm_version(), LM_VERSION_MAJOR,
           LM_VERSION_MINOR, LM_VERSION_PATCH);
    lm_kernel_init();
    /* The kernel itself must have 16 priorities: 15 is the least urgent it
     * accepts, 16 is out of range (with the default 32 it would be fine). */
    lm_status_t s15 = spawn(&probe, "probe15", producer_main, producer_stack,
                            sizeof producer_stack, 15u);
    lm_status_t s16 = spawn(&probe_bad, "probe16", producer_main, consumer_stack,
                            sizeof consumer_stack, 16u);
    printf("external-app: kernel priorities %u: priority 15 %s, priority 16 %s\n",
           (unsigned)LM_CFG_PRIORITIES, lm_status_name(s15), lm_status_name(s16));
    if (s15 != LM_OK || s16 != LM_ERR_PRIORITY || lm_thread_delete(&probe) != LM_OK) {
        printf("external-app: FAILED: the kernel was built with another configuration\n");
        return 1;
    }

    lm_status_t s = lm_sem_create(&items, 0u, ITEMS);
    if (s == LM_OK) {
        s = spawn(&consumer, "consumer", consumer_main, consumer_stack, sizeof consumer_stack, 1u);
    }
    if (s == LM_OK) {
        s = spawn(&producer, "producer", producer_main, producer_stack, sizeof producer_stack, 2u);
    }
    if (s == LM_OK) {
        s = lm_thread_start(&consumer);
    }
    if (s == LM_OK) {
        s = lm_thread_start(&producer);
    }
    if (s != LM_OK) {
        printf("external-app: FAILED: set-up: %s\n", lm_status_name(s));
        return 1;
    }
    lm_kernel_start();
    return consumed == ITEMS ? 0 : 1;
}
