/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's hot paths, each taken the same way several times: semaphore
 * give and take, queue send and receive of a 4-byte message, a context
 * switch each way between two threads, and ticks with nothing due (with
 * and without a timeout armed).
 * tests/target/hotpath_cycles.py traces this image under QEMU and counts
 * the instructions of each path (docs/measuring.md); as a test, it checks
 * that every path did what it should (R10.3, R10.5, R2.2, R8.2).
 */
#include <string.h>

#include "board.h"
#include "harness.h"

#define ROUNDS 8u

static lm_sem_t sem, ping;
static lm_queue_t queue;
static LM_QUEUE_BUFFER_DEFINE(queue_buf, sizeof(uint32_t), 4);
static volatile uint32_t partner_rounds;
static lm_timer_t far;

static void never(void *arg)
{
    (void)arg;
    lmt_log("fired"); /* stopped before it is due */
}

static void partner(void *arg)
{
    (void)arg;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        /* Blocks: a switch to D; woken by D's give: a switch back. */
        LMT_ST(lm_sem_take(&ping, LM_WAIT_FOREVER), LM_OK);
        partner_rounds = r + 1u;
    }
}

static void driver(void *arg)
{
    (void)arg;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint32_t out = 0, count = 9;
        LMT_ST(lm_sem_give(&sem), LM_OK); /* nobody waits: count 0 -> 1 */
        LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_OK);
        LMT_ST(lm_sem_count(&sem, &count), LM_OK);
        LMT_EQ(count, 0);
        uint32_t msg = 0xC0DE0000u + r;
        LMT_ST(lm_queue_send(&queue, &msg, sizeof msg, LM_NO_WAIT), LM_OK);
        LMT_ST(lm_queue_receive(&queue, &out, sizeof out, LM_NO_WAIT), LM_OK);
        LMT_EQ(out, msg);
        LMT_ST(lm_sem_give(&ping), LM_OK); /* wakes P, which preempts */
        LMT_EQ(partner_rounds, r + 1u);    /* P ran before the give returned */
    }
    /* Ticks with nothing due: three with no timeout armed, three with one
     * armed far away (a timer, stopped again before it fires). */
    lm_tick_t t0 = lm_tick_now();
    while (lm_tick_now() - t0 < 3u) {
    }
    LMT_ST(lm_timer_start(&far, 1000, 0), LM_OK);
    t0 = lm_tick_now();
    while (lm_tick_now() - t0 < 3u) {
    }
    LMT_ST(lm_timer_stop(&far), LM_OK);
    lmt_log("done");
}

LMT_CASE(hot_paths)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    memset(&ping, 0, sizeof ping);
    memset(&queue, 0, sizeof queue);
    memset(&far, 0, sizeof far);
    LMT_ST(lm_timer_create(&far, never, NULL), LM_OK);
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    memset(&ping, 0, sizeof ping);
    LMT_ST(lm_sem_create(&ping, 0, 1), LM_OK);
    memset(&queue, 0, sizeof queue);
    LMT_ST(lm_queue_create(&queue, queue_buf, sizeof(uint32_t), 4), LM_OK);
    lmt_spawn("P", 3, partner, NULL);
    lmt_spawn("D", 5, driver, NULL);
    lmt_run();
    lmt_expect("done");
}

LMT_MAIN(LMT_RUN(hot_paths))
