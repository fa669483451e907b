/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An application written against the CMSIS-RTOS2 API only: a producer
 * sends five readings through a message queue, urgent ones at a higher
 * message priority, and a consumer prints them in the order it receives
 * them; a periodic timer counts in the timer service thread. Builds on
 * Limen through find_package(limen) or add_subdirectory
 * (docs/cmsis-rtos2.md). Its one Limen call ends the run: CMSIS-RTOS2 has
 * no call that stops the kernel, and an example must end (osKernelStart
 * then returns to main, whose return ends the program or the QEMU run).
 */
#include <stdio.h>
#include "cmsis_os2.h"
#include "limen/port.h"

typedef struct {
    uint32_t seq;
    uint32_t value;
} reading_t;

static osMessageQueueId_t readings;
static osThreadId_t consumer_id;
static volatile uint32_t timer_runs;

static void producer(void *arg)
{
    (void)arg;
    for (uint32_t i = 1; i <= 5; i++) {
        reading_t r = {i, i * 10u};
        uint8_t prio = (i == 4u) ? 1u : 0u; /* reading 4 is urgent */
        (void)osMessageQueuePut(readings, &r, prio, osWaitForever);
    }
    (void)osThreadFlagsSet(consumer_id, 0x1u); /* all sent */
}

static void consumer(void *arg)
{
    (void)arg;
    (void)osThreadFlagsWait(0x1u, osFlagsWaitAny, osWaitForever);
    reading_t r;
    uint8_t prio;
    while (osMessageQueueGet(readings, &r, &prio, 0) == osOK) {
        printf("consumer: reading %lu = %lu (priority %u)\n", (unsigned long)r.seq,
               (unsigned long)r.value, (unsigned)prio);
    }
    (void)osDelay(10);
    printf("cmsis-rtos2-app: timer ran %lu times in 10 ticks\n", (unsigned long)timer_runs);
    lm_port_stop();
}

static void tick(void *arg)
{
    (void)arg;
    timer_runs++;
}

int main(void)
{
    osVersion_t v;
    char id[32];
    (void)osKernelInitialize();
    (void)osKernelGetInfo(&v, id, sizeof id);
    printf("cmsis-rtos2-app: %s, API %lu\n", id, (unsigned long)v.api);
    readings = osMessageQueueNew(8, sizeof(reading_t), NULL);
    const osThreadAttr_t ca = {.name = "consumer", .priority = osPriorityBelowNormal};
    const osThreadAttr_t pa = {.name = "producer", .priority = osPriorityNormal};
    consumer_id = osThreadNew(consumer, NULL, &ca);
    (void)osThreadNew(producer, NULL, &pa);
    osTimerId_t t = osTimerNew(tick, osTimerPeriodic, NULL, NULL);
    (void)osTimerStart(t, 2);
    (void)osKernelStart();
    printf("cmsis-rtos2-app: done\n");
    return 0;
}
