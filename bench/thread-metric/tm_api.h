/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Thread-Metric porting interface, as the suite's readme publishes it:
 * the services its eight tests call, implemented for Limen in
 * tm_porting_layer_limen.c (docs/benchmarks.md). The suite's own test
 * sources build against this header and that file unchanged; the tests in
 * this folder are Limen's own, written from the readme's definitions.
 *
 * Thread priorities run from 1 (most urgent) to 31. Ids index small static
 * tables (TM_MAX_ID of each kind).
 */
#ifndef TM_API_H
#define TM_API_H

#include "tm_porting_layer.h"

#define TM_SUCCESS 0
#define TM_ERROR 1

/* Length of one reporting period in the suite's "seconds". The suite
 * recommends 30; the published figures beside Limen's (targets.md) are per
 * period of 1 s of virtual time, so that is the default here. A "second"
 * is 1,000 ticks unless the image's command line says otherwise
 * (tm_porting_layer_limen.c). */
#ifndef TM_TEST_DURATION
#define TM_TEST_DURATION 1
#endif

void tm_initialize(void (*test_initialization_function)(void));
int tm_thread_create(int thread_id, int priority, void (*entry_function)(void));
int tm_thread_resume(int thread_id);
int tm_thread_suspend(int thread_id);
void tm_thread_relinquish(void);
void tm_thread_sleep(int seconds);
int tm_queue_create(int queue_id);
int tm_queue_send(int queue_id, unsigned long *message_ptr);
int tm_queue_receive(int queue_id, unsigned long *message_ptr);
int tm_semaphore_create(int semaphore_id);
int tm_semaphore_get(int semaphore_id);
int tm_semaphore_put(int semaphore_id);
int tm_memory_pool_create(int pool_id);
int tm_memory_pool_allocate(int pool_id, unsigned char **memory_ptr);
int tm_memory_pool_deallocate(int pool_id, unsigned char *memory_ptr);

#endif
