/* SPDX-License-Identifier: Apache-2.0 */
/* Counting semaphores: every call of limen/sem.h, wait-queue order, timeouts,
 * deletion and calls from interrupt handlers (docs/rules.md R8, R9.1, R10.5,
 * R10.6, R12; docs/errors.md). */
#include <string.h>
#include "harness.h"

/* Waiters at mixed priorities, in the order they arrive (R10.6). */
#define NW 5
static const char *const wname[NW] = {"a", "b", "c", "d", "e"};
static const unsigned wprio[NW] = {5, 3, 5, 1, 3};
static lm_thread_t *wt[NW];

/* Less urgent than every waiter, so each waiter it starts runs at once and
 * blocks, and each waiter it wakes runs before it goes on. */
#define CTRL_PRIO 10u

static lm_sem_t sem;
static lm_tick_t t0;

/* "TIMEOUT" for LM_ERR_TIMEOUT, "OK" for LM_OK: short trace tokens. */
static unsigned since_t0(void)
{
    return (unsigned)(lm_tick_t)(lm_tick_now() - t0);
}

static uint32_t count_of(const lm_sem_t *s)
{
    uint32_t c = 0xDEADu;
    LMT_ST(lm_sem_count(s, &c), LM_OK);
    return c;
}

static void fresh_sem(uint32_t initial, uint32_t max)
{
    memset(&sem, 0, sizeof sem); /* stale from the previous case */
    LMT_ST(lm_sem_create(&sem, initial, max), LM_OK);
}

/* Create the waiters INACTIVE; the controller starts them in arrival order. */
static void make_waiters(lm_thread_entry_t fn)
{
    for (unsigned i = 0; i < NW; i++) {
        wt[i] = lmt_spawn_ex(wname[i], wprio[i], LM_THRESHOLD_NONE, 0, fn, NULL, false);
    }
}

static void start_waiters(void)
{
    for (unsigned i = 0; i < NW; i++) {
        LMT_ST(lm_thread_start(wt[i]), LM_OK); /* runs and blocks at once */
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_BLOCKED);
    }
}

/* ---------------------------------------------------------------------- */

/* docs/errors.md, R11.7: bad arguments and dead objects are refused and
 * change nothing; blocking before the kernel starts is LM_ERR_STATE. */
LMT_CASE(sem_bad_arguments)
{
    lmt_begin();
    memset(&sem, 0, sizeof sem);
    uint32_t c = 77u;
    /* Never created: the magic word is missing. */
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OBJECT);
    LMT_ST(lm_sem_count(&sem, &c), LM_ERR_OBJECT);
    LMT_ST(lm_sem_delete(&sem), LM_ERR_OBJECT);
    LMT_EQ(c, 77u);
    /* Refused creations leave the block unusable. */
    LMT_ST(lm_sem_create(NULL, 0, 1), LM_ERR_PARAM);
    LMT_ST(lm_sem_create(&sem, 0, 0), LM_ERR_PARAM);
    LMT_ST(lm_sem_create(&sem, 3, 2), LM_ERR_PARAM);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OBJECT);
    /* NULL control block or output pointer. */
    LMT_ST(lm_sem_take(NULL, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_sem_give(NULL), LM_ERR_PARAM);
    LMT_ST(lm_sem_count(NULL, &c), LM_ERR_PARAM);
    LMT_ST(lm_sem_delete(NULL), LM_ERR_PARAM);
    LMT_ST(lm_sem_create(&sem, 2, 2), LM_OK);
    LMT_ST(lm_sem_count(&sem, NULL), LM_ERR_PARAM);
    /* R8.3: a timeout above 2^31-1 that is not LM_WAIT_FOREVER. */
    LMT_ST(lm_sem_take(&sem, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_sem_take(&sem, 0xFFFFFFFEu), LM_ERR_PARAM);
    LMT_EQ(count_of(&sem), 2);
    /* The largest finite timeout is legal (and does not wait: count 2). */
    LMT_ST(lm_sem_take(&sem, LM_TICK_MAX_TIMEOUT), LM_OK);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK);
    LMT_EQ(count_of(&sem), 0);
    /* R11.7: before lm_kernel_start a wait is refused, no wait is not. */
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_sem_take(&sem, 5), LM_ERR_STATE);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_ERR_STATE);
    LMT_EQ(count_of(&sem), 0);
}

/* R10.5: take decrements, give increments up to the maximum; a give at the
 * maximum returns LM_ERR_OVERFLOW and changes nothing. */
static void counting_thread(void *arg)
{
    (void)arg;
    fresh_sem(1, 3);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_OK);
    LMT_EQ(count_of(&sem), 0);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_EQ(count_of(&sem), 0);
    for (uint32_t i = 1; i <= 3u; i++) {
        LMT_ST(lm_sem_give(&sem), LM_OK);
        LMT_EQ(count_of(&sem), i);
    }
    LMT_ST(lm_sem_give(&sem), LM_ERR_OVERFLOW);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OVERFLOW);
    LMT_EQ(count_of(&sem), 3);
    /* The count still works after the refused gives. */
    LMT_ST(lm_sem_take(&sem, 10), LM_OK);
    LMT_EQ(count_of(&sem), 2);
    LMT_ST(lm_sem_delete(&sem), LM_OK);

    /* Binary semaphore: max 1. */
    fresh_sem(0, 1);
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OVERFLOW);
    LMT_EQ(count_of(&sem), 1);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);

    /* The full 32-bit range. */
    fresh_sem(UINT32_MAX - 1u, UINT32_MAX);
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_EQ(count_of(&sem), UINT32_MAX);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OVERFLOW);
    LMT_EQ(count_of(&sem), UINT32_MAX);
    lmt_log("done");
}

LMT_CASE(sem_count_and_overflow)
{
    lmt_begin();
    lmt_spawn("T", 4, counting_thread, NULL);
    lmt_run();
    lmt_expect("done");
}

/* R10.6, R10.5: waiters arriving at priorities 5,3,5,1,3 are served most
 * urgent first, FIFO among equals; a give with waiters does not touch the
 * count. */
static void take_forever(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void give_in_turn(void *arg)
{
    (void)arg;
    start_waiters();
    for (unsigned i = 0; i < NW; i++) {
        lmt_log("g");
        LMT_ST(lm_sem_give(&sem), LM_OK);
        LMT_EQ(count_of(&sem), 0);
    }
    /* No waiter left: the give goes to the count. */
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_EQ(count_of(&sem), 1);
    lmt_log("end");
}

LMT_CASE(sem_give_wakes_most_urgent_first)
{
    lmt_begin();
    fresh_sem(0, 10);
    make_waiters(take_forever);
    lmt_spawn("C", CTRL_PRIO, give_in_turn, NULL);
    lmt_run();
    lmt_expect("g d:OK g b:OK g e:OK g a:OK g c:OK end");
}

/* R10.5, R2.2: a give to a less urgent waiter hands the unit over (the
 * count stays 0) without preempting the giver. */
static void late_taker(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("W:%s@%u", lmt_sn(st), since_t0());
}

static void urgent_giver(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* W runs and blocks */
    LMT_ST(lm_sem_give(&sem), LM_OK);
    lmt_log("G:count=%u", (unsigned)count_of(&sem));
    LMT_ST(lm_sem_give(&sem), LM_OK);
    lmt_log("G:count=%u", (unsigned)count_of(&sem));
}

LMT_CASE(sem_give_to_less_urgent_waiter)
{
    lmt_begin();
    t0 = lm_tick_now();
    fresh_sem(0, 5);
    lmt_spawn("W", 8, late_taker, NULL);
    lmt_spawn("G", 4, urgent_giver, NULL);
    lmt_run();
    lmt_expect("G:count=0 G:count=1 W:OK@1");
}

/* R8.2, R8.3, R8.4: LM_NO_WAIT returns at once, a timeout of n ticks
 * expires at exactly the n-th tick (across the 2^32 wrap), LM_WAIT_FOREVER
 * and the largest finite timeout wait for the give. */
static void timed_taker(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, LM_NO_WAIT);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    st = lm_sem_take(&sem, 7);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    st = lm_sem_take(&sem, 1);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    LMT_EQ(count_of(&sem), 0);
    st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    st = lm_sem_take(&sem, LM_TICK_MAX_TIMEOUT);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    LMT_EQ(count_of(&sem), 0);
}

static void slow_giver(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(5000), LM_OK);
    lmt_log("B:give@%u", since_t0());
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_ST(lm_thread_sleep(1000), LM_OK);
    lmt_log("B:give@%u", since_t0());
    LMT_ST(lm_sem_give(&sem), LM_OK);
}

LMT_CASE(sem_take_timeouts)
{
    lmt_begin_at(0xFFFFFFFCu); /* the 7-tick wait crosses the wrap */
    t0 = lm_tick_now();
    fresh_sem(0, 1);
    lmt_spawn("A", 3, timed_taker, NULL);
    lmt_spawn("B", 6, slow_giver, NULL);
    lmt_run();
    lmt_expect("A:WOULD_BLOCK@0 A:TIMEOUT@7 A:TIMEOUT@8 B:give@5000 A:OK@5000 "
               "B:give@6000 A:OK@6000");
}

/* R9.1: delete marks the semaphore dead first (new calls fail with
 * LM_ERR_OBJECT), then wakes one waiter per step with LM_ERR_DELETED, most
 * urgent first; the others are still blocked in between. A cancelled
 * timeout does not fire later. */
static void take_then_probe(void *arg)
{
    (void)arg;
    /* c waits with a timeout that would fall due after the deletion. */
    lm_tick_t to = (lm_thread_self() == wt[2]) ? 100u : LM_WAIT_FOREVER;
    lm_status_t st = lm_sem_take(&sem, to);
    lmt_log("%s:%s@%u", lmt_me(), lmt_sn(st), since_t0());
    if (lm_thread_self() == wt[3]) { /* the first one woken */
        LMT_ST(lm_sem_give(&sem), LM_ERR_OBJECT);
        LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_OBJECT);
        /* R9.1: no thread runs until the walk ends: the others are woken. */
        LMT_EQ(lm_thread_state(wt[1]), LM_THREAD_READY);
        LMT_EQ(lm_thread_state(wt[2]), LM_THREAD_READY);
    }
}

static void deleter(void *arg)
{
    (void)arg;
    start_waiters();
    LMT_ST(lm_thread_sleep(3), LM_OK);
    lmt_log("C:del");
    LMT_ST(lm_sem_delete(&sem), LM_OK);
    lmt_log("C:deleted");
    uint32_t c = 99u;
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OBJECT);
    LMT_ST(lm_sem_count(&sem, &c), LM_ERR_OBJECT);
    LMT_ST(lm_sem_delete(&sem), LM_ERR_OBJECT);
    LMT_EQ(c, 99u);
    /* Past c's old deadline: nothing may happen to it. */
    LMT_ST(lm_thread_sleep(200), LM_OK);
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_TERMINATED);
    }
    /* The block can be created again and works. */
    fresh_sem(1, 1);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_OK);
    lmt_log("C:end@%u", since_t0());
}

LMT_CASE(sem_delete_wakes_waiters)
{
    lmt_begin();
    t0 = lm_tick_now();
    fresh_sem(0, 3);
    make_waiters(take_then_probe);
    lmt_spawn("C", CTRL_PRIO, deleter, NULL);
    lmt_run();
    lmt_expect("C:del d:DELETED@3 b:DELETED@3 e:DELETED@3 a:DELETED@3 c:DELETED@3 "
               "C:deleted C:end@203");
}

#if defined(LM_PORT_HOSTED)

/* R8.1: a give processed before the timeout, on the very tick it falls due,
 * wins; a give that comes after a timeout is not lost but counted. */
static void give_isr(void *arg)
{
    (void)arg;
    lmt_log("isr:give@%u", since_t0());
    LMT_ST(lm_sem_give(&sem), LM_OK);
}

static void race_taker(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, 5);
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    st = lm_sem_take(&sem, 5); /* due at 10; the give comes at 11 */
    lmt_log("A:%s@%u", lmt_sn(st), since_t0());
    LMT_ST(lm_thread_sleep(2), LM_OK);
    lmt_log("A:count=%u@%u", (unsigned)count_of(&sem), since_t0());
}

LMT_CASE(sem_give_on_timeout_tick)
{
    lmt_begin();
    t0 = lm_tick_now();
    fresh_sem(0, 3);
    lmt_spawn("A", 3, race_taker, NULL);
    LMT_EQ(lm_hosted_irq_at_tick(t0 + 5u, give_isr, NULL), 0);
    LMT_EQ(lm_hosted_irq_at_tick(t0 + 11u, give_isr, NULL), 0);
    lmt_run();
    lmt_expect("isr:give@5 A:OK@5 A:TIMEOUT@10 isr:give@11 A:count=1@12");
}

/* R12.1, R12.2: from a handler, give and take with LM_NO_WAIT work; a take
 * with any other timeout returns LM_ERR_ISR and changes nothing, whether or
 * not a unit is available. The waiter woken by the handler runs when the
 * handler returns, before the interrupted thread. */
static lm_thread_t *isr_waiter;

static void sem_isr(void *arg)
{
    (void)arg;
    LMT_EQ(count_of(&sem), 0);
    LMT_ST(lm_sem_take(&sem, 5), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_EQ(lm_thread_state(isr_waiter), LM_THREAD_BLOCKED);
    LMT_ST(lm_sem_give(&sem), LM_OK); /* to H, which runs after the handler */
    LMT_EQ(lm_thread_state(isr_waiter), LM_THREAD_READY);
    LMT_EQ(count_of(&sem), 0);
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_EQ(count_of(&sem), 1);
    /* Blocking forms are refused even when a unit is there. */
    LMT_ST(lm_sem_take(&sem, 5), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_EQ(count_of(&sem), 1);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_OK);
    LMT_EQ(count_of(&sem), 0);
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_ST(lm_sem_give(&sem), LM_ERR_OVERFLOW);
    LMT_EQ(count_of(&sem), 2);
    lmt_log("isr:end");
}

static void isr_taker(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("H:%s", lmt_sn(st));
}

static void isr_raiser(void *arg)
{
    (void)arg;
    lmt_log("L:raise");
    LMT_EQ(lm_hosted_irq_raise(sem_isr, NULL), 0);
    lmt_log("L:after count=%u", (unsigned)count_of(&sem));
}

LMT_CASE(sem_calls_from_isr)
{
    lmt_begin();
    fresh_sem(0, 2);
    isr_waiter = lmt_spawn("H", 2, isr_taker, NULL);
    lmt_spawn("L", CTRL_PRIO, isr_raiser, NULL);
    lmt_run();
    lmt_expect("L:raise isr:end H:OK L:after count=2");
}

/* R12.1, R9.1, R12.2: delete is legal from a handler. It wakes every waiter
 * with LM_ERR_DELETED; they run when the handler returns, most urgent
 * first, before the interrupted thread. */
static void delete_isr(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_delete(&sem), LM_OK);
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_READY);
    }
    LMT_ST(lm_sem_give(&sem), LM_ERR_OBJECT);
    lmt_log("isr:deleted");
}

static void delete_raiser(void *arg)
{
    (void)arg;
    start_waiters();
    LMT_EQ(lm_hosted_irq_raise(delete_isr, NULL), 0);
    lmt_log("L:after");
}

LMT_CASE(sem_delete_from_isr)
{
    lmt_begin();
    fresh_sem(0, 1);
    make_waiters(take_forever);
    lmt_spawn("L", CTRL_PRIO, delete_raiser, NULL);
    lmt_run();
    lmt_expect("isr:deleted d:DELETED b:DELETED e:DELETED a:DELETED c:DELETED L:after");
}

#define HOSTED_CASES                                                                  \
    , LMT_RUN(sem_give_on_timeout_tick), LMT_RUN(sem_calls_from_isr),                 \
        LMT_RUN(sem_delete_from_isr)
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(sem_bad_arguments), LMT_RUN(sem_count_and_overflow),
         LMT_RUN(sem_give_wakes_most_urgent_first), LMT_RUN(sem_give_to_less_urgent_waiter),
         LMT_RUN(sem_take_timeouts), LMT_RUN(sem_delete_wakes_waiters) HOSTED_CASES)
