/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API from interrupt context (R12.1-R12.3, R6.5, R7.1(i), R9.5).
 *
 * Interrupt handlers here are simulated ones (lm_hosted_irq_raise, _at_tick,
 * _at_unmask) on the hosted port, and timer callbacks, which run in the
 * kernel's deferred interrupt context on every port (R9.5) and so give the
 * portable cases an interrupt context on target boards too.
 *
 * Every non-blocking form must work from a handler; every blocking form,
 * the mutex calls, sleep, relinquish and the scheduler lock must be refused
 * with LM_ERR_ISR and change nothing; a switch a handler makes necessary
 * happens when it returns; and a handler that runs between the masked steps
 * of a long operation always finds a consistent state.
 */
#include <string.h>
#include "harness.h"
#include "limen/port.h"

static lm_thread_t *th(const char *name, unsigned prio, lm_thread_entry_t fn)
{
    return lmt_spawn(name, prio, fn, NULL);
}

/* ======================================================================
 * Objects and the calls a handler makes on them (portable)
 * ====================================================================== */

/* Non-blocking object calls: fresh objects, each call's effect checked. */
static lm_sem_t o_sem;
static lm_queue_t o_q;
static LM_QUEUE_BUFFER_DEFINE(o_qbuf, sizeof(uint32_t), 2);
static lm_flags_t o_fl;
static lm_pool_t o_pool;
static LM_POOL_BUFFER_DEFINE(o_pbuf, 16, 2);
static lm_timer_t o_tm;
static lm_mutex_t o_m;

static void o_tm_fn(void *arg)
{
    (void)arg;
    lmt_fail(__FILE__, __LINE__, "a stopped timer fired");
}

static void objects_setup(void)
{
    memset(&o_sem, 0, sizeof o_sem);
    memset(&o_q, 0, sizeof o_q);
    memset(&o_fl, 0, sizeof o_fl);
    memset(&o_pool, 0, sizeof o_pool);
    memset(&o_tm, 0, sizeof o_tm);
    memset(&o_m, 0, sizeof o_m);
    LMT_ST(lm_mutex_create(&o_m, 0), LM_OK);
    LMT_ST(lm_sem_create(&o_sem, 0, 2), LM_OK);
    LMT_ST(lm_queue_create(&o_q, o_qbuf, sizeof(uint32_t), 2), LM_OK);
    LMT_ST(lm_flags_create(&o_fl, 0), LM_OK);
    LMT_ST(lm_pool_create(&o_pool, o_pbuf, sizeof o_pbuf, 16, 2), LM_OK);
    LMT_ST(lm_timer_create(&o_tm, o_tm_fn, NULL), LM_OK);
}

/* R12.1: every object call in its non-blocking form, from a handler. */
static void object_calls_nonblocking(void)
{
    LMT_CHECK(lm_port_in_isr());
    uint32_t c = 0, v = 0;

    /* Semaphore: give up to the maximum, take down to zero. */
    LMT_ST(lm_sem_give(&o_sem), LM_OK);
    LMT_ST(lm_sem_give(&o_sem), LM_OK);
    LMT_ST(lm_sem_give(&o_sem), LM_ERR_OVERFLOW);
    LMT_ST(lm_sem_count(&o_sem, &c), LM_OK);
    LMT_EQ(c, 2);
    LMT_ST(lm_sem_take(&o_sem, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_sem_take(&o_sem, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_sem_take(&o_sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_sem_count(&o_sem, &c), LM_OK);
    LMT_EQ(c, 0);

    /* Queue: back, front, full, peek, receive in order, empty, flush. */
    v = 1;
    LMT_ST(lm_queue_send(&o_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    v = 2;
    LMT_ST(lm_queue_send_front(&o_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    v = 3;
    LMT_ST(lm_queue_send(&o_q, &v, sizeof v, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_queue_count(&o_q, &c), LM_OK);
    LMT_EQ(c, 2);
    LMT_ST(lm_queue_peek(&o_q, &v, sizeof v), LM_OK);
    LMT_EQ(v, 2);
    LMT_ST(lm_queue_receive(&o_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    LMT_EQ(v, 2);
    LMT_ST(lm_queue_receive(&o_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    LMT_EQ(v, 1);
    LMT_ST(lm_queue_receive(&o_q, &v, sizeof v, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    v = 4;
    LMT_ST(lm_queue_send(&o_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_flush(&o_q), LM_OK);
    LMT_ST(lm_queue_count(&o_q, &c), LM_OK);
    LMT_EQ(c, 0);

    /* Flags: set, a satisfied wait that consumes, an unsatisfied one. */
    LMT_ST(lm_flags_set(&o_fl, 0x5u), LM_OK);
    LMT_ST(lm_flags_get(&o_fl, &v), LM_OK);
    LMT_EQ(v, 0x5u);
    LMT_ST(lm_flags_wait(&o_fl, 0x4u, LM_FLAGS_ALL | LM_FLAGS_CONSUME, &v, LM_NO_WAIT), LM_OK);
    LMT_EQ(v, 0x5u); /* R10.1: as they were before the consumption */
    LMT_ST(lm_flags_get(&o_fl, &v), LM_OK);
    LMT_EQ(v, 0x1u);
    LMT_ST(lm_flags_wait(&o_fl, 0x2u, LM_FLAGS_ANY, &v, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_flags_clear(&o_fl, 0x1u), LM_OK);
    LMT_ST(lm_flags_get(&o_fl, &v), LM_OK);
    LMT_EQ(v, 0);

    /* Pool: both blocks, then empty, then both back. */
    void *b1 = NULL, *b2 = NULL, *b3 = NULL;
    LMT_ST(lm_pool_alloc(&o_pool, &b1, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_pool_alloc(&o_pool, &b2, LM_NO_WAIT), LM_OK);
    LMT_CHECK(b1 != NULL && b2 != NULL && b1 != b2);
    LMT_ST(lm_pool_alloc(&o_pool, &b3, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_CHECK(b3 == NULL);
    LMT_ST(lm_pool_available(&o_pool, &c), LM_OK);
    LMT_EQ(c, 0);
    LMT_ST(lm_pool_free(&o_pool, b1), LM_OK);
    LMT_ST(lm_pool_free(&o_pool, b2), LM_OK);
    LMT_ST(lm_pool_available(&o_pool, &c), LM_OK);
    LMT_EQ(c, 2);

    /* Timer: start and stop (its callback must never run). */
    LMT_ST(lm_timer_start(&o_tm, 3, 0), LM_OK);
    LMT_CHECK(lm_timer_active(&o_tm));
    LMT_ST(lm_timer_stop(&o_tm), LM_OK);
    LMT_CHECK(!lm_timer_active(&o_tm));
    LMT_ST(lm_timer_stop(&o_tm), LM_ERR_STATE);

    /* Queries. */
    LMT_EQ(lm_sched_lock_depth(), 0);
    LMT_CHECK(lm_mutex_owner(&o_m) == NULL);
    lm_kernel_stats_t ks;
    lm_kernel_stats(&ks);
    LMT_CHECK(lm_tick_next_deadline() == LM_WAIT_FOREVER || lm_tick_next_deadline() > 0u);

    /* Deletes: none of them blocks, so all are legal here too. */
    LMT_ST(lm_timer_delete(&o_tm), LM_OK);
    LMT_ST(lm_sem_delete(&o_sem), LM_OK);
    LMT_ST(lm_queue_delete(&o_q), LM_OK);
    LMT_ST(lm_flags_delete(&o_fl), LM_OK);
    LMT_ST(lm_pool_delete(&o_pool), LM_OK);
    LMT_ST(lm_mutex_delete(&o_m), LM_OK);
#if LM_CFG_ARG_CHECKS
    LMT_ST(lm_timer_start(&o_tm, 3, 0), LM_ERR_OBJECT);
    LMT_ST(lm_sem_give(&o_sem), LM_ERR_OBJECT);
    LMT_ST(lm_queue_count(&o_q, &c), LM_ERR_OBJECT);
    LMT_ST(lm_flags_set(&o_fl, 1u), LM_ERR_OBJECT);
    LMT_ST(lm_pool_available(&o_pool, &c), LM_ERR_OBJECT);
#endif
}

/* Objects in known states for the refusal checks. */
static lm_sem_t r_sem0;    /* count 0, r_waiter waits on it */
static lm_sem_t r_sem1;    /* count 1 */
static lm_queue_t r_qfull; /* capacity 1, holding 1 */
static lm_queue_t r_qpart; /* capacity 2, holding 1: room and a message */
static lm_queue_t r_qempty;
static LM_QUEUE_BUFFER_DEFINE(r_qbuf1, sizeof(uint32_t), 1);
static LM_QUEUE_BUFFER_DEFINE(r_qbuf2, sizeof(uint32_t), 2);
static LM_QUEUE_BUFFER_DEFINE(r_qbuf3, sizeof(uint32_t), 1);
static lm_flags_t r_fl; /* bits 0x1 */
static lm_pool_t r_pfree;  /* one block free */
static lm_pool_t r_pempty; /* its one block allocated */
static LM_POOL_BUFFER_DEFINE(r_pbuf1, 16, 1);
static LM_POOL_BUFFER_DEFINE(r_pbuf2, 16, 1);
static lm_mutex_t r_mfree;
static lm_mutex_t r_mown; /* owned by r_waiter, depth 1 */
static lm_thread_t r_new; /* never created */
static LM_STACK_DEFINE(r_new_stack, LM_PORT_MIN_STACK);
static lm_thread_t *r_waiter;

static void refusal_setup(void)
{
    uint32_t v = 9;
    void *blk = NULL;
    memset(&r_sem0, 0, sizeof r_sem0);
    memset(&r_sem1, 0, sizeof r_sem1);
    memset(&r_qfull, 0, sizeof r_qfull);
    memset(&r_qpart, 0, sizeof r_qpart);
    memset(&r_qempty, 0, sizeof r_qempty);
    memset(&r_fl, 0, sizeof r_fl);
    memset(&r_pfree, 0, sizeof r_pfree);
    memset(&r_pempty, 0, sizeof r_pempty);
    memset(&r_mfree, 0, sizeof r_mfree);
    memset(&r_mown, 0, sizeof r_mown);
    memset(&r_new, 0, sizeof r_new);
    LMT_ST(lm_sem_create(&r_sem0, 0, 5), LM_OK);
    LMT_ST(lm_sem_create(&r_sem1, 1, 5), LM_OK);
    LMT_ST(lm_queue_create(&r_qfull, r_qbuf1, sizeof(uint32_t), 1), LM_OK);
    LMT_ST(lm_queue_create(&r_qpart, r_qbuf2, sizeof(uint32_t), 2), LM_OK);
    LMT_ST(lm_queue_create(&r_qempty, r_qbuf3, sizeof(uint32_t), 1), LM_OK);
    LMT_ST(lm_queue_send(&r_qfull, &v, sizeof v, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(&r_qpart, &v, sizeof v, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_flags_create(&r_fl, 0x1u), LM_OK);
    LMT_ST(lm_pool_create(&r_pfree, r_pbuf1, sizeof r_pbuf1, 16, 1), LM_OK);
    LMT_ST(lm_pool_create(&r_pempty, r_pbuf2, sizeof r_pbuf2, 16, 1), LM_OK);
    LMT_ST(lm_pool_alloc(&r_pempty, &blk, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_mutex_create(&r_mfree, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_mutex_create(&r_mown, LM_MUTEX_INHERIT), LM_OK);
}

/* What refusal_setup and r_waiter built, unchanged. */
static void refusal_state_unchanged(void)
{
    uint32_t c = 0;
    LMT_ST(lm_sem_count(&r_sem0, &c), LM_OK);
    LMT_EQ(c, 0);
    LMT_ST(lm_sem_count(&r_sem1, &c), LM_OK);
    LMT_EQ(c, 1);
    LMT_ST(lm_queue_count(&r_qfull, &c), LM_OK);
    LMT_EQ(c, 1);
    LMT_ST(lm_queue_count(&r_qpart, &c), LM_OK);
    LMT_EQ(c, 1);
    LMT_ST(lm_queue_count(&r_qempty, &c), LM_OK);
    LMT_EQ(c, 0);
    LMT_ST(lm_flags_get(&r_fl, &c), LM_OK);
    LMT_EQ(c, 0x1u);
    LMT_ST(lm_pool_available(&r_pfree, &c), LM_OK);
    LMT_EQ(c, 1);
    LMT_ST(lm_pool_available(&r_pempty, &c), LM_OK);
    LMT_EQ(c, 0);
    LMT_CHECK(lm_mutex_owner(&r_mfree) == NULL);
    LMT_CHECK(lm_mutex_owner(&r_mown) == r_waiter);
    LMT_EQ(lm_thread_state(r_waiter), LM_THREAD_BLOCKED);
    LMT_EQ(lm_sched_lock_depth(), 0);
}

static void r_new_entry(void *arg)
{
    (void)arg;
}

/* R12.1, docs/errors.md: from a handler every blocking form is refused with
 * LM_ERR_ISR whatever the object holds (timeout other than LM_NO_WAIT), and
 * so are the mutex calls, sleep, relinquish, the scheduler lock and thread
 * creation. Nothing changes. */
static void calls_refused_in_isr(void)
{
    LMT_CHECK(lm_port_in_isr());
    uint32_t v = 0xDEADu;
    void *blk = &v;

    LMT_ST(lm_sem_take(&r_sem0, 5), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&r_sem0, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&r_sem1, 5), LM_ERR_ISR); /* even with a unit there */

    LMT_ST(lm_queue_send(&r_qfull, &v, sizeof v, 5), LM_ERR_ISR);
    LMT_ST(lm_queue_send(&r_qpart, &v, sizeof v, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_queue_send_front(&r_qpart, &v, sizeof v, 5), LM_ERR_ISR);
    LMT_ST(lm_queue_receive(&r_qpart, &v, sizeof v, 5), LM_ERR_ISR);
    LMT_ST(lm_queue_receive(&r_qempty, &v, sizeof v, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_EQ(v, 0xDEADu);

    LMT_ST(lm_flags_wait(&r_fl, 0x1u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &v, 5), LM_ERR_ISR);
    LMT_ST(lm_flags_wait(&r_fl, 0x2u, LM_FLAGS_ANY, &v, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_EQ(v, 0xDEADu);

    LMT_ST(lm_pool_alloc(&r_pfree, &blk, 5), LM_ERR_ISR);
    LMT_ST(lm_pool_alloc(&r_pempty, &blk, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_CHECK(blk == &v);

    LMT_ST(lm_mutex_lock(&r_mfree, LM_NO_WAIT), LM_ERR_ISR);
    LMT_ST(lm_mutex_lock(&r_mfree, 5), LM_ERR_ISR);
    LMT_ST(lm_mutex_lock(&r_mown, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_mutex_unlock(&r_mown), LM_ERR_ISR);
    LMT_ST(lm_mutex_unlock(&r_mfree), LM_ERR_ISR);

    LMT_ST(lm_thread_sleep(0), LM_ERR_ISR); /* docs/errors.md: sleep, always */
    LMT_ST(lm_thread_sleep(5), LM_ERR_ISR);
    LMT_ST(lm_thread_sleep(LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_thread_yield(), LM_ERR_ISR);
    LMT_ST(lm_sched_lock(), LM_ERR_ISR);
    LMT_ST(lm_sched_unlock(), LM_ERR_ISR);

#if LM_CFG_ARG_CHECKS
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.entry = r_new_entry;
    a.stack = r_new_stack;
    a.stack_size = sizeof r_new_stack;
    LMT_ST(lm_thread_create(&r_new, &a), LM_ERR_ISR);
    LMT_ST(lm_thread_start(&r_new), LM_ERR_OBJECT); /* it was not created */
#else
    (void)r_new_entry;
#endif

    refusal_state_unchanged();
}

/* Owns r_mown and waits on r_sem0; after the refusals the driver's give
 * must reach it (its wait survived them) and one unlock frees the mutex
 * (the refused lock and unlock left the depth at 1). */
static void r_waiter_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&r_mown, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_sem_take(&r_sem0, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_unlock(&r_mown), LM_OK);
    LMT_CHECK(lm_mutex_owner(&r_mown) == NULL);
    lmt_log("W");
}

/* ---- portable: timer callbacks are interrupt context (R9.5) ---- */

static lm_sem_t cb_done;
static lm_timer_t cb_tm;

static void cb_nonblocking(void *arg)
{
    (void)arg;
    lmt_log("cb");
    object_calls_nonblocking();
    LMT_ST(lm_sem_give(&cb_done), LM_OK);
}

static void cb_driver(void *arg)
{
    (void)arg;
    LMT_ST(lm_timer_start(&cb_tm, 2, 0), LM_OK);
    LMT_ST(lm_sem_take(&cb_done, LM_WAIT_FOREVER), LM_OK);
    lmt_log("D@%u", (unsigned)lm_tick_now());
}

/* R12.1, R9.5: every object call in its non-blocking form works from a
 * timer callback, the deferred interrupt context of every port. */
LMT_CASE(nonblocking_object_calls_from_timer_callback)
{
    lmt_begin();
    objects_setup();
    memset(&cb_done, 0, sizeof cb_done);
    memset(&cb_tm, 0, sizeof cb_tm);
    LMT_ST(lm_sem_create(&cb_done, 0, 1), LM_OK);
    LMT_ST(lm_timer_create(&cb_tm, cb_nonblocking, NULL), LM_OK);
    th("D", 5, cb_driver);
    lmt_run();
    lmt_expect("cb D@2");
}

static void cb_refusals(void *arg)
{
    (void)arg;
    lmt_log("cb");
    calls_refused_in_isr();
    LMT_ST(lm_sem_give(&cb_done), LM_OK);
}

static void refusal_driver(void *arg)
{
    (void)arg;
    LMT_ST(lm_timer_start(&cb_tm, 2, 0), LM_OK);
    LMT_ST(lm_sem_take(&cb_done, LM_WAIT_FOREVER), LM_OK);
    refusal_state_unchanged();
    LMT_ST(lm_sem_give(&r_sem0), LM_OK); /* the waiter's wait is intact */
    lmt_log("D");
}

/* R12.1, R9.5: blocking forms from a timer callback return LM_ERR_ISR and
 * change nothing, also when the object could satisfy them at once. */
LMT_CASE(blocking_calls_refused_from_timer_callback)
{
    lmt_begin();
    refusal_setup();
    memset(&cb_done, 0, sizeof cb_done);
    memset(&cb_tm, 0, sizeof cb_tm);
    LMT_ST(lm_sem_create(&cb_done, 0, 1), LM_OK);
    LMT_ST(lm_timer_create(&cb_tm, cb_refusals, NULL), LM_OK);
    r_waiter = th("W", 3, r_waiter_entry);
    th("D", 5, refusal_driver);
    lmt_run();
    lmt_expect("cb W D");
}

#if defined(LM_PORT_HOSTED)

/* ======================================================================
 * Hosted: simulated interrupts
 * ====================================================================== */

/* ---- R12.1: thread calls from a handler, and everything else ---- */

static lm_thread_t *nb_a, *nb_b, *nb_c, *nb_e, *nb_g, *nb_d;
static lm_sem_t nb_sem, nb_dsem;
static lm_mutex_t nb_mutex;

static void nb_handler(void *arg)
{
    (void)arg;
    lmt_log("i0");
    LMT_CHECK(lm_thread_self() == nb_a); /* the interrupted thread */
    LMT_CHECK(lm_mutex_owner(&nb_mutex) == nb_a);
    object_calls_nonblocking();

    /* Thread control from the handler. */
    LMT_ST(lm_thread_start(nb_e), LM_OK);          /* prio 2: runs after us */
    LMT_ST(lm_thread_start(nb_e), LM_ERR_STATE);
    LMT_ST(lm_thread_wait_abort(nb_b), LM_OK);     /* prio 3: runs after E */
    LMT_ST(lm_thread_wait_abort(nb_b), LM_ERR_STATE);
    LMT_ST(lm_thread_suspend(nb_c), LM_OK);
    LMT_EQ(lm_thread_state(nb_c), LM_THREAD_SUSPENDED);
    LMT_ST(lm_thread_suspend(nb_c), LM_ERR_STATE);
    LMT_ST(lm_thread_resume(nb_c), LM_OK);
    LMT_EQ(lm_thread_state(nb_c), LM_THREAD_READY);
    LMT_ST(lm_thread_resume(nb_c), LM_ERR_STATE);
    LMT_ST(lm_thread_set_priority(nb_c, 8), LM_OK);
    LMT_EQ(lm_thread_priority(nb_c), 8);
    LMT_ST(lm_thread_set_threshold(nb_c, 7), LM_OK);
    LMT_EQ(lm_thread_threshold(nb_c), 7);
    LMT_ST(lm_thread_terminate(nb_c), LM_OK);
    LMT_EQ(lm_thread_state(nb_c), LM_THREAD_TERMINATED);
    LMT_ST(lm_thread_terminate(nb_c), LM_ERR_STATE);
    LMT_ST(lm_thread_delete(nb_g), LM_OK);
    LMT_ST(lm_sem_delete(&nb_dsem), LM_OK);      /* prio 4: runs after B */
    LMT_EQ(lm_thread_state(nb_d), LM_THREAD_READY);
    size_t unused = 0;
    LMT_ST(lm_thread_stack_unused(nb_a, &unused), LM_OK);
    LMT_CHECK(unused > 0u);
    lm_thread_stats_t ts;
    LMT_ST(lm_thread_stats(nb_a, &ts), LM_OK);
    LMT_CHECK(ts.switches_in >= 1u);
    LMT_EQ(lm_tick_now(), 0);
    LMT_CHECK(strcmp(lm_thread_name(nb_a), "A") == 0);
    /* No switch inside the handler: E and B are ready, A still current. */
    LMT_EQ(lm_thread_state(nb_e), LM_THREAD_READY);
    LMT_EQ(lm_thread_state(nb_b), LM_THREAD_READY);
    LMT_CHECK(lm_thread_self() == nb_a);
    lmt_log("i1");
}

static void nb_a_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&nb_mutex, LM_WAIT_FOREVER), LM_OK);
    lmt_log("A1");
    LMT_EQ(lm_hosted_irq_raise(nb_handler, NULL), 0);
    lmt_log("A2");
    LMT_ST(lm_mutex_unlock(&nb_mutex), LM_OK);
}

static void nb_b_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&nb_sem, LM_WAIT_FOREVER), LM_ERR_ABORTED);
    lmt_log("B");
}

static void nb_d_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&nb_dsem, LM_WAIT_FOREVER), LM_ERR_DELETED);
    lmt_log("D");
}

static void nb_e_entry(void *arg)
{
    (void)arg;
    lmt_log("E");
}

static void nb_idle_entry(void *arg)
{
    (void)arg;
    lmt_fail(__FILE__, __LINE__, "a thread stopped by the handler ran");
}

/* R12.1: thread control, queries and a delete with a waiter from a raised
 * interrupt succeed; R12.2: the threads it made ready (E, B, D) run when it
 * returns, in priority order, before the interrupted A continues. */
LMT_CASE(nonblocking_calls_from_raised_interrupt)
{
    lmt_begin();
    objects_setup();
    memset(&nb_sem, 0, sizeof nb_sem);
    memset(&nb_mutex, 0, sizeof nb_mutex);
    memset(&nb_dsem, 0, sizeof nb_dsem);
    LMT_ST(lm_sem_create(&nb_sem, 0, 1), LM_OK);
    LMT_ST(lm_sem_create(&nb_dsem, 0, 1), LM_OK);
    LMT_ST(lm_mutex_create(&nb_mutex, LM_MUTEX_INHERIT), LM_OK);
    nb_b = th("B", 3, nb_b_entry);
    nb_d = th("D", 4, nb_d_entry);
    nb_a = th("A", 5, nb_a_entry);
    nb_c = th("C", 6, nb_idle_entry);
    nb_g = th("G", 7, nb_idle_entry);
    nb_e = lmt_spawn_ex("E", 2, LM_THRESHOLD_NONE, 0, nb_e_entry, NULL, false);
    lmt_trace_switches(true);
    lmt_run();
    lmt_expect("->B B>D D>A A1 i0 i1 A>E E E>B B B>D D D>A A2 A>idle");
    LMT_EQ(lm_thread_state(nb_c), LM_THREAD_TERMINATED);
}

/* ---- R12.1: refusals from every kind of simulated interrupt ---- */

static lm_sem_t rk_sem;
static lm_thread_t *rk_driver;
static unsigned rk_expect_idle;

static void rk_handler(void *arg)
{
    lmt_log("%s", (const char *)arg);
    /* Whom it interrupted: the driver, or the idle thread while it waits. */
    LMT_CHECK(rk_expect_idle ? lm_thread_self() != rk_driver : lm_thread_self() == rk_driver);
    calls_refused_in_isr();
}

static void rk_driver_entry(void *arg)
{
    (void)arg;
    /* Raised from the thread: taken at once. */
    LMT_EQ(lm_hosted_irq_raise(rk_handler, "raise"), 0);
    /* At a tick while every thread waits: it interrupts the idle thread. */
    rk_expect_idle = 1;
    LMT_EQ(lm_hosted_irq_at_tick(lm_tick_now() + 2u, rk_handler, "tick-idle"), 0);
    LMT_ST(lm_sem_take(&rk_sem, 4), LM_ERR_TIMEOUT);
    rk_expect_idle = 0;
    /* At a tick in the middle of the thread's computation. */
    LMT_EQ(lm_hosted_irq_at_tick(lm_tick_now() + 2u, rk_handler, "tick-work"), 0);
    lm_hosted_work(4);
    /* At the first unmask inside a kernel call: before that call returns. */
    LMT_EQ(lm_hosted_irq_at_unmask(1, rk_handler, "unmask"), 0);
    LMT_ST(lm_sem_give(&rk_sem), LM_OK);
    lmt_log("given");
    LMT_ST(lm_sem_take(&rk_sem, LM_NO_WAIT), LM_OK);
    refusal_state_unchanged();
    LMT_ST(lm_sem_give(&r_sem0), LM_OK); /* the waiter's wait is intact */
    lmt_log("D@%u", (unsigned)lm_tick_now());
}

/* R12.1: the same refusals (and nothing changed) from an interrupt raised
 * now, at a tick while idle, at a tick during work and at an unmask. */
LMT_CASE(blocking_calls_refused_from_every_interrupt_kind)
{
    lmt_begin();
    refusal_setup();
    memset(&rk_sem, 0, sizeof rk_sem);
    LMT_ST(lm_sem_create(&rk_sem, 0, 1), LM_OK);
    rk_expect_idle = 0;
    r_waiter = th("W", 3, r_waiter_entry);
    rk_driver = th("D", 5, rk_driver_entry);
    lmt_run();
    lmt_expect("raise tick-idle tick-work unmask given W D@8");
}

/* ---- R12.2: the switch happens when the handler returns ---- */

static lm_sem_t sw_a, sw_b;
static lm_thread_t *sw_l;

static void give_a_handler(void *arg)
{
    (void)arg;
    lmt_log("i0");
    LMT_ST(lm_sem_give(&sw_a), LM_OK);
    lmt_log("i1");
}

static void give_b_handler(void *arg)
{
    (void)arg;
    lmt_log("ib");
    LMT_ST(lm_sem_give(&sw_b), LM_OK);
}

static void give_a_second_handler(void *arg)
{
    (void)arg;
    lmt_log("ia");
    LMT_ST(lm_sem_give(&sw_a), LM_OK);
}

static void take_a_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sw_a, LM_WAIT_FOREVER), LM_OK);
    lmt_log("%s@%u", lm_thread_name(lm_thread_self()), (unsigned)lm_tick_now());
}

static void take_b_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sw_b, LM_WAIT_FOREVER), LM_OK);
    lmt_log("%s@%u", lm_thread_name(lm_thread_self()), (unsigned)lm_tick_now());
}

static void sw_begin(void)
{
    lmt_begin();
    memset(&sw_a, 0, sizeof sw_a);
    memset(&sw_b, 0, sizeof sw_b);
    LMT_ST(lm_sem_create(&sw_a, 0, 5), LM_OK);
    LMT_ST(lm_sem_create(&sw_b, 0, 5), LM_OK);
    lmt_trace_switches(true);
}

static void raise_entry(void *arg)
{
    (void)arg;
    lmt_log("L1");
    LMT_EQ(lm_hosted_irq_raise(give_a_handler, NULL), 0);
    lmt_log("L2");
}

/* R12.2, R7.1(g): a handler wakes a more urgent thread; it runs as soon as
 * the handler returns, before the interrupted L logs again. */
LMT_CASE(switch_when_raised_handler_returns)
{
    sw_begin();
    th("H", 1, take_a_entry);
    th("L", 5, raise_entry);
    lmt_run();
    lmt_expect("->H H>L L1 i0 i1 L>H H@0 H>L L2 L>idle");
    lm_kernel_stats_t ks;
    lm_kernel_stats(&ks);
    LMT_EQ(ks.preemptions, 1); /* L>H, R7.1(g) */
}

static void work_entry(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_tick(3, give_a_handler, NULL), 0);
    lmt_log("L1");
    lm_hosted_work(10);
    lmt_log("L2@%u", (unsigned)lm_tick_now());
}

/* R12.2: a tick-time handler during L's computation: H runs at tick 3, in
 * the middle of L's ten ticks of work, which then resumes and ends at 10. */
LMT_CASE(switch_when_tick_handler_returns_mid_work)
{
    sw_begin();
    th("H", 1, take_a_entry);
    th("L", 5, work_entry);
    lmt_run();
    lmt_expect("->H H>L L1 i0 i1 L>H H@3 H>L L2@10 L>idle");
}

static void two_irq_entry(void *arg)
{
    (void)arg;
    /* Both interrupts become pending while masked and are taken one after
     * the other at the unmask. */
    lm_irqstate_t s = lm_port_irq_lock();
    LMT_EQ(lm_hosted_irq_raise(give_b_handler, NULL), 0);
    LMT_EQ(lm_hosted_irq_raise(give_a_second_handler, NULL), 0);
    lmt_log("L1");
    lm_port_irq_unlock(s);
    lmt_log("L2");
}

/* R12.2: with two handlers back to back the switch waits for the last one,
 * and goes to the most urgent thread they made ready (H1, woken second),
 * not to the first woken (H2). */
LMT_CASE(switch_after_last_of_two_handlers)
{
    sw_begin();
    th("H1", 1, take_a_entry);
    th("H2", 2, take_b_entry);
    th("L", 5, two_irq_entry);
    lmt_run();
    lmt_expect("->H1 H1>H2 H2>L L1 ib ia L>H1 H1@0 H1>H2 H2@0 H2>L L2 L>idle");
}

/* R2.2 (control): a handler that readies a thread of the interrupted
 * thread's own priority causes no switch; P runs when L ends. */
LMT_CASE(no_switch_for_equal_priority_from_handler)
{
    sw_begin();
    th("P", 5, take_a_entry);
    th("L", 5, raise_entry);
    lmt_run();
    lmt_expect("->P P>L L1 i0 i1 L2 L>P P@0 P>idle");
}

static void suspend_l_handler(void *arg)
{
    (void)arg;
    lmt_log("i0");
    LMT_ST(lm_thread_suspend(sw_l), LM_OK);
    LMT_EQ(lm_thread_state(sw_l), LM_THREAD_SUSPENDED);
    LMT_CHECK(lm_thread_self() == sw_l); /* still on its way out */
    lmt_log("i1");
}

static void terminate_l_handler(void *arg)
{
    (void)arg;
    lmt_log("i0");
    LMT_ST(lm_thread_terminate(sw_l), LM_OK);
    lmt_log("i1");
}

static lm_hosted_irq_fn_t victim_handler;

static void victim_entry(void *arg)
{
    (void)arg;
    lmt_log("L1");
    LMT_EQ(lm_hosted_irq_raise(victim_handler, NULL), 0);
    lmt_log("L2");
}

static void resumer_entry(void *arg)
{
    (void)arg;
    lmt_log("M1");
    if (lm_thread_state(sw_l) == LM_THREAD_SUSPENDED) {
        LMT_ST(lm_thread_resume(sw_l), LM_OK); /* L preempts at once */
    } else {
        LMT_EQ(lm_thread_state(sw_l), LM_THREAD_TERMINATED);
    }
    lmt_log("M2");
}

/* R7.1(i), R12.2: a handler suspends the thread it interrupted; the switch
 * away happens at the handler's return and L continues only when resumed. */
LMT_CASE(handler_suspends_interrupted_thread)
{
    sw_begin();
    victim_handler = suspend_l_handler;
    sw_l = th("L", 5, victim_entry);
    lm_thread_t *m = th("M", 6, resumer_entry);
    lmt_run();
    lmt_expect("->L L1 i0 i1 L>M M1 M>L L2 L>M M2 M>idle");
    /* R7.2: losing the CPU to a handler's suspension is no preemption;
     * M's loss to the resumed L is one. */
    lm_thread_stats_t ts;
    LMT_ST(lm_thread_stats(sw_l, &ts), LM_OK);
    LMT_EQ(ts.preemptions, 0);
    LMT_ST(lm_thread_stats(m, &ts), LM_OK);
    LMT_EQ(ts.preemptions, 1);
}

/* R7.1(i), R11.3: a handler terminates the thread it interrupted; L never
 * continues. */
LMT_CASE(handler_terminates_interrupted_thread)
{
    sw_begin();
    victim_handler = terminate_l_handler;
    sw_l = th("L", 5, victim_entry);
    lm_thread_t *m = th("M", 6, resumer_entry);
    lmt_run();
    lmt_expect("->L L1 i0 i1 L>M M1 M2 M>idle");
    LMT_EQ(lm_thread_state(sw_l), LM_THREAD_TERMINATED);
    lm_kernel_stats_t ks;
    lm_kernel_stats(&ks);
    LMT_EQ(ks.preemptions, 0); /* R7.2: case (i) is not a preemption */
    (void)m;
}


/* ---- R6.5: a handler cannot stop the scheduler-lock holder ---- */

static lm_thread_t *lk_l, *lk_x;

static void lock_handler(void *arg)
{
    (void)arg;
    lmt_log("i0");
    LMT_CHECK(lm_thread_self() == lk_l);
    LMT_ST(lm_thread_suspend(lk_l), LM_ERR_LOCKED);
    LMT_ST(lm_thread_terminate(lk_l), LM_ERR_LOCKED);
    LMT_ST(lm_thread_delete(lk_l), LM_ERR_LOCKED);
    LMT_EQ(lm_thread_state(lk_l), LM_THREAD_READY);
    LMT_EQ(lm_sched_lock_depth(), 2);
    /* Other threads are fair game, and a wake-up waits for the unlock. */
    LMT_ST(lm_thread_suspend(lk_x), LM_OK);
    LMT_ST(lm_sem_give(&sw_a), LM_OK);
    lmt_log("i1");
}

static void lock_tick_handler(void *arg)
{
    (void)arg;
    lmt_log("t%u", (unsigned)lm_tick_now());
    LMT_ST(lm_thread_terminate(lk_l), LM_ERR_LOCKED);
    LMT_ST(lm_thread_suspend(lk_l), LM_ERR_LOCKED);
    LMT_EQ(lm_sched_lock_depth(), 1);
}

static void unlocked_handler(void *arg)
{
    (void)arg;
    lmt_log("j");
    LMT_ST(lm_thread_suspend(lk_l), LM_OK); /* no lock held any more */
}

static void lock_holder_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_sched_lock(), LM_OK);
    lmt_log("L1");
    LMT_EQ(lm_hosted_irq_raise(lock_handler, NULL), 0);
    lmt_log("L2");
    LMT_ST(lm_sched_unlock(), LM_OK);
    LMT_EQ(lm_hosted_irq_at_tick(lm_tick_now() + 2u, lock_tick_handler, NULL), 0);
    lm_hosted_work(3);
    lmt_log("L3@%u", (unsigned)lm_tick_now());
    LMT_ST(lm_sched_unlock(), LM_OK); /* H, woken at i0..i1, runs now (R6.2) */
    lmt_log("L4");
    LMT_EQ(lm_hosted_irq_raise(unlocked_handler, NULL), 0);
    lmt_fail(__FILE__, __LINE__, "a suspended thread ran");
}

/* R6.5: a handler's suspend, terminate or delete of the lock holder is
 * refused with LM_ERR_LOCKED and changes nothing, at any depth and from a
 * tick handler during its work; other threads can be stopped. The thread
 * the handler woke waits for the outermost unlock (R6.2). Once the lock is
 * released, the same suspension works (R7.1(i)). */
LMT_CASE(handler_cannot_stop_scheduler_lock_holder)
{
    sw_begin();
    th("H", 1, take_a_entry);
    lk_l = th("L", 5, lock_holder_entry);
    lk_x = th("X", 7, nb_idle_entry);
    lmt_run();
    lmt_expect("->H H>L L1 i0 i1 L2 t2 L3@3 L>H H@3 H>L L4 j L>idle");
    LMT_EQ(lm_thread_state(lk_l), LM_THREAD_SUSPENDED);
    LMT_EQ(lm_thread_state(lk_x), LM_THREAD_SUSPENDED);
}

/* ======================================================================
 * R12.3: an interrupt at every window of a multi-step operation
 * ====================================================================== */

#define SWEEP_MAX 40u
#define NW 4u
static lm_thread_t *sw_w[NW];
static lm_status_t sw_status[NW];
static unsigned sw_reports[NW];
static volatile unsigned op_returned; /* the operation has returned */
static unsigned seen_returned;        /* ... when the handler ran */
static unsigned seen_blocked;         /* bit i: waiter i blocked then */
static unsigned handler_runs;

static unsigned blocked_mask(void)
{
    unsigned m = 0;
    for (unsigned i = 0; i < NW; i++) {
        if (lm_thread_state(sw_w[i]) == LM_THREAD_BLOCKED) {
            m |= 1u << i;
        }
    }
    return m;
}

static unsigned popcount(unsigned m)
{
    return (unsigned)__builtin_popcount(m);
}

static unsigned waiter_index(void)
{
    for (unsigned i = 0; i < NW; i++) {
        if (lm_thread_self() == sw_w[i]) {
            return i;
        }
    }
    lmt_fail(__FILE__, __LINE__, "not a waiter");
}

static void sweep_begin(void)
{
    lmt_begin();
    memset(sw_w, 0, sizeof sw_w);
    memset(sw_reports, 0, sizeof sw_reports);
    for (unsigned i = 0; i < NW; i++) {
        sw_status[i] = LM_OK;
    }
    op_returned = 0;
    seen_returned = 0;
    seen_blocked = 0;
    handler_runs = 0;
}

/* The operation has returned. One more unmask (a relinquish with no peer
 * changes nothing else) so that an interrupt due after the operation's last
 * step is taken here, before the checks. */
static void op_done(void)
{
    op_returned = 1;
    LMT_ST(lm_thread_yield(), LM_OK);
    LMT_EQ(handler_runs, 1);
}

/* Let the waiters (less urgent) run and report, then come back. */
static void let_waiters_report(void)
{
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 20), LM_OK);
    LMT_ST(lm_thread_set_threshold(lm_thread_self(), LM_THRESHOLD_NONE), LM_OK);
}

/* Waiters at priorities 4, 3, 4, 6: they block in the order 1, 0, 2, 3,
 * which is also the priority order (FIFO among the two at 4). */
static const unsigned sweep_prio[NW] = {4, 3, 4, 6};
static const unsigned by_urgency[NW] = {1, 0, 2, 3};

/* The blocked waiters are always the least urgent ones: the woken ones are
 * a prefix of the priority order (R9.1). */
static void check_suffix_blocked(unsigned blocked)
{
    bool seen_blocked_one = false;
    for (unsigned k = 0; k < NW; k++) {
        bool b = (blocked & (1u << by_urgency[k])) != 0u;
        LMT_CHECK(!seen_blocked_one || b);
        seen_blocked_one = seen_blocked_one || b;
    }
}

/* ---- semaphore delete with 4 waiters ---- */

static lm_sem_t sd_sem;
static lm_status_t sd_abort;

static void sd_handler(void *arg)
{
    (void)arg;
    handler_runs++;
    seen_returned = op_returned;
    seen_blocked = blocked_mask();
    check_suffix_blocked(seen_blocked);
#if LM_CFG_ARG_CHECKS
    /* The delete marked the semaphore in its first step (R9.1). */
    LMT_ST(lm_sem_give(&sd_sem), LM_ERR_OBJECT);
    LMT_ST(lm_sem_take(&sd_sem, LM_NO_WAIT), LM_ERR_OBJECT);
#endif
    /* Abort the least urgent waiter: it wins only if still waiting (R8.1). */
    sd_abort = lm_thread_wait_abort(sw_w[3]);
    LMT_ST(sd_abort, (seen_blocked & (1u << 3)) != 0u ? LM_OK : LM_ERR_STATE);
}

static void sd_waiter(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sd_sem, LM_WAIT_FOREVER);
    unsigned i = waiter_index();
    sw_status[i] = st;
    sw_reports[i]++;
}

static unsigned sweep_n;

static void sd_driver(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the waiters block meanwhile */
    LMT_EQ(blocked_mask(), 0xFu);
    LMT_EQ(lm_hosted_irq_at_unmask(sweep_n, sd_handler, NULL), 0);
    LMT_ST(lm_sem_delete(&sd_sem), LM_OK);
    op_done();
    LMT_EQ(blocked_mask(), 0);
    let_waiters_report();
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(sw_reports[i], 1); /* exactly one event ended each wait */
        lm_status_t want = (i == 3u && sd_abort == LM_OK) ? LM_ERR_ABORTED : LM_ERR_DELETED;
        LMT_ST(sw_status[i], want);
    }
}

/* R12.3, R9.1, R8.1: an interrupt at each unmask of a semaphore deletion
 * with 4 waiters finds the object already marked deleted, the woken
 * waiters a prefix of the priority order and the rest still blocked; its
 * abort of the last waiter wins exactly when that waiter still waits, and
 * every waiter ends with exactly one status. The sweep covers every window
 * until the interrupt lands after the deletion returned. */
LMT_CASE(sweep_interrupt_across_semaphore_delete)
{
    unsigned counts_seen = 0; /* bit k: a window with k waiters blocked */
    unsigned last_blocked = NW;
    for (sweep_n = 1;; sweep_n++) {
        LMT_CHECK(sweep_n <= SWEEP_MAX);
        sweep_begin();
        memset(&sd_sem, 0, sizeof sd_sem);
        LMT_ST(lm_sem_create(&sd_sem, 0, 5), LM_OK);
        sd_abort = LM_ERR_PARAM;
        th("D", 1, sd_driver);
        for (unsigned i = 0; i < NW; i++) {
            sw_w[i] = th("W", sweep_prio[i], sd_waiter);
        }
        lmt_run();
        unsigned b = popcount(seen_blocked);
        LMT_CHECK(b <= last_blocked); /* later windows, fewer waiters */
        last_blocked = b;
        counts_seen |= 1u << b;
        if (seen_returned != 0u) {
            break;
        }
    }
    /* One waiter woken per step: windows with 4, 3, 2, 1 and 0 blocked. */
    LMT_EQ(counts_seen, 0x1Fu);
    printf("  %u windows\n", sweep_n);
}

/* ---- queue flush with blocked senders ---- */

static lm_queue_t qf_q;
static LM_QUEUE_BUFFER_DEFINE(qf_buf, sizeof(uint32_t), 2);
static uint32_t qf_isr_rx;
static lm_status_t qf_isr_rx_st, qf_isr_tx_st;

static void qf_handler(void *arg)
{
    (void)arg;
    handler_runs++;
    seen_returned = op_returned;
    seen_blocked = blocked_mask();
    check_suffix_blocked(seen_blocked);
    uint32_t c = 0;
    LMT_ST(lm_queue_count(&qf_q, &c), LM_OK);
    LMT_CHECK(c <= 2u);
    /* A receiver and a new sender act between the flush's steps (R9.2). */
    qf_isr_rx_st = lm_queue_receive(&qf_q, &qf_isr_rx, sizeof qf_isr_rx, LM_NO_WAIT);
    uint32_t v = 200;
    qf_isr_tx_st = lm_queue_send(&qf_q, &v, sizeof v, LM_NO_WAIT);
    LMT_CHECK(qf_isr_tx_st == LM_OK || qf_isr_tx_st == LM_ERR_WOULD_BLOCK);
}

static void qf_sender(void *arg)
{
    (void)arg;
    unsigned i = waiter_index();
    uint32_t v = i + 1u; /* messages 1..4 */
    sw_status[i] = lm_queue_send(&qf_q, &v, sizeof v, LM_WAIT_FOREVER);
    sw_reports[i]++;
}

static void qf_driver(void *arg)
{
    (void)arg;
    uint32_t v = 101;
    LMT_ST(lm_queue_send(&qf_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    v = 102;
    LMT_ST(lm_queue_send(&qf_q, &v, sizeof v, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the senders block on the full queue */
    LMT_EQ(blocked_mask(), 0xFu);
    LMT_EQ(lm_hosted_irq_at_unmask(sweep_n, qf_handler, NULL), 0);
    LMT_ST(lm_queue_flush(&qf_q), LM_OK);
    op_done();
    /* Receive everything: each receive from the full queue lets the next
     * blocked sender in (R10.3), so every message comes out. */
    uint32_t got[8];
    unsigned n = 0;
    if (qf_isr_rx_st == LM_OK) {
        got[n++] = qf_isr_rx; /* received first, by the handler */
    } else {
        LMT_ST(qf_isr_rx_st, LM_ERR_WOULD_BLOCK);
    }
    while (lm_queue_receive(&qf_q, &v, sizeof v, LM_NO_WAIT) == LM_OK) {
        LMT_CHECK(n < 8u);
        got[n++] = v;
    }
    LMT_EQ(blocked_mask(), 0);
    let_waiters_report();
    /* Every message exactly once: the senders' in priority order (senders
     * 1, 0, 2, 3, so messages 2, 1, 3, 4), the handler's 200 if its send was
     * accepted, the flushed 101 and 102 never. */
    unsigned k = 0, isr_msgs = 0;
    for (unsigned j = 0; j < n; j++) {
        LMT_CHECK(got[j] != 101u && got[j] != 102u);
        if (got[j] == 200u) {
            isr_msgs++;
            continue;
        }
        LMT_CHECK(k < NW);
        LMT_EQ(got[j], by_urgency[k] + 1u);
        k++;
    }
    LMT_EQ(k, NW);
    LMT_EQ(isr_msgs, qf_isr_tx_st == LM_OK ? 1u : 0u);
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(sw_reports[i], 1);
        LMT_ST(sw_status[i], LM_OK);
    }
}

/* R12.3, R9.2, R10.3: an interrupt at each unmask of a flush of a full
 * queue (capacity 2) with 4 blocked senders receives one message and sends
 * one. Whatever the window, the flushed messages never reappear, every
 * sender's message is received exactly once and in priority order, and the
 * handler's message exactly once if its send was accepted. */
LMT_CASE(sweep_interrupt_across_queue_flush)
{
    unsigned accepted = 0, refused = 0;
    for (sweep_n = 1;; sweep_n++) {
        LMT_CHECK(sweep_n <= SWEEP_MAX);
        sweep_begin();
        memset(&qf_q, 0, sizeof qf_q);
        LMT_ST(lm_queue_create(&qf_q, qf_buf, sizeof(uint32_t), 2), LM_OK);
        qf_isr_rx = 0;
        qf_isr_rx_st = LM_ERR_PARAM;
        qf_isr_tx_st = LM_ERR_PARAM;
        th("D", 1, qf_driver);
        for (unsigned i = 0; i < NW; i++) {
            sw_w[i] = th("S", sweep_prio[i], qf_sender);
        }
        lmt_run();
        if (qf_isr_tx_st == LM_OK) {
            accepted++;
        } else {
            refused++;
        }
        if (seen_returned != 0u) {
            break;
        }
    }
    /* Some windows had room for the handler's message and some had not. */
    LMT_CHECK(accepted > 0u && refused > 0u);
    printf("  %u windows\n", sweep_n);
}

/* ---- tick expiry of 4 waiters against a give ---- */

#define TG_TICK 10u
static lm_sem_t tg_sem;
static int tg_expect; /* waiter the handler's give must reach, -1: count */

/* Arrival (and so expiry, R8.5) order is 0, 1, 2, 3; urgency is not. */
static const unsigned tg_prio[NW] = {3, 5, 2, 4};
static const unsigned tg_urgency[NW] = {2, 0, 3, 1};

static void tg_handler(void *arg)
{
    (void)arg;
    handler_runs++;
    seen_returned = op_returned;
    seen_blocked = blocked_mask();
    LMT_EQ(lm_tick_now(), TG_TICK);
    /* Timeouts are processed in arrival order: the blocked ones are a
     * suffix of it. */
    LMT_EQ(seen_blocked, (0xFu << (NW - popcount(seen_blocked))) & 0xFu);
    /* The give goes to the most urgent waiter whose timeout has not been
     * processed yet, due or not (R8.1, R9.4); with none left, to the count. */
    tg_expect = -1;
    for (unsigned k = 0; k < NW && tg_expect < 0; k++) {
        if ((seen_blocked & (1u << tg_urgency[k])) != 0u) {
            tg_expect = (int)tg_urgency[k];
        }
    }
    LMT_ST(lm_sem_give(&tg_sem), LM_OK);
    uint32_t c = 0;
    LMT_ST(lm_sem_count(&tg_sem, &c), LM_OK);
    LMT_EQ(c, tg_expect < 0 ? 1u : 0u);
    LMT_EQ(blocked_mask(),
           tg_expect < 0 ? seen_blocked : seen_blocked & ~(1u << (unsigned)tg_expect));
}

static lm_timer_t tg_timers[NW];

static void tg_timer_fn(void *arg)
{
    (void)arg;
}

static void tg_waiter(void *arg)
{
    (void)arg;
    unsigned i = waiter_index();
    /* Arrive in index order whatever the priority: waiter i at tick i+1. */
    LMT_ST(lm_thread_sleep(i + 1u), LM_OK);
    if (i != 0u) {
        /* A timer due on the same tick, armed between two waits, ends the
         * previous wait's run (R9.4): each wait times out in a step of its
         * own, with a window for the handler before it. */
        memset(&tg_timers[i], 0, sizeof tg_timers[i]);
        LMT_ST(lm_timer_create(&tg_timers[i], tg_timer_fn, NULL), LM_OK);
        LMT_ST(lm_timer_start(&tg_timers[i], TG_TICK - lm_tick_now(), 0u), LM_OK);
    }
    sw_status[i] = lm_sem_take(&tg_sem, TG_TICK - lm_tick_now());
    sw_reports[i]++;
}

/* Least urgent at first, so it runs once the waiters wait. */
static void tg_clock(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(NW + 1u), LM_OK);
    LMT_EQ(blocked_mask(), 0xFu);
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 1), LM_OK);
    while (lm_tick_now() != TG_TICK - 1u) {
        lm_hosted_work(1);
    }
    LMT_EQ(blocked_mask(), 0xFu);
    LMT_EQ(lm_hosted_irq_at_unmask(sweep_n, tg_handler, NULL), 0);
    lm_hosted_work(1); /* the tick, then the expiry steps */
    op_done();
    LMT_EQ(blocked_mask(), 0);
    let_waiters_report();
    /* The give is accounted exactly once. */
    uint32_t c = 0;
    LMT_ST(lm_sem_count(&tg_sem, &c), LM_OK);
    LMT_EQ(c, tg_expect < 0 ? 1u : 0u);
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(sw_reports[i], 1);
        LMT_ST(sw_status[i], (int)i == tg_expect ? LM_OK : LM_ERR_TIMEOUT);
    }
}

/* R12.3, R9.4, R8.1, R8.5: 4 timeouts fall due on one tick; an interrupt at
 * each unmask of that tick's processing gives the semaphore they wait on.
 * With a timer due between each two, the timeouts are processed one per
 * step in arrival order, which differs from the priority order. Before its timeout is processed a due waiter can
 * still take the give, and the give goes to the most urgent of those: it
 * reaches exactly one waiter, or the count once all have expired. */
LMT_CASE(sweep_interrupt_across_tick_expiry)
{
    unsigned to_waiter = 0, to_count = 0, to_due = 0;
    for (sweep_n = 1;; sweep_n++) {
        LMT_CHECK(sweep_n <= SWEEP_MAX);
        sweep_begin();
        memset(&tg_sem, 0, sizeof tg_sem);
        LMT_ST(lm_sem_create(&tg_sem, 0, 5), LM_OK);
        tg_expect = -2;
        for (unsigned i = 0; i < NW; i++) {
            sw_w[i] = th("W", tg_prio[i], tg_waiter);
        }
        th("C", 25, tg_clock);
        lmt_run();
        if (tg_expect < 0) {
            to_count++;
        } else {
            to_waiter++;
            /* A waiter due at this tick but not yet processed took it. */
            to_due += (seen_blocked != 0xFu) ? 1u : 0u;
        }
        if (seen_returned != 0u) {
            break;
        }
    }
    LMT_CHECK(to_waiter > 0u && to_count > 0u && to_due > 0u);
    printf("  %u windows\n", sweep_n);
}

/* ---- flags set with 4 waiters against a clear ---- */

static lm_flags_t fs_fl;
static unsigned fs_woken_at_clear;

static void fs_handler(void *arg)
{
    (void)arg;
    handler_runs++;
    seen_returned = op_returned;
    seen_blocked = blocked_mask();
    LMT_ST(lm_flags_clear(&fs_fl, 0x1u), LM_OK);
    fs_woken_at_clear = 0xFu & ~seen_blocked;
}

static void fs_waiter(void *arg)
{
    (void)arg;
    unsigned i = waiter_index();
    uint32_t actual = 0;
    sw_status[i] = lm_flags_wait(&fs_fl, 0x1u, LM_FLAGS_ANY, &actual, LM_WAIT_FOREVER);
    LMT_EQ(actual, 0x1u);
    sw_reports[i]++;
}

static void fs_driver(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_EQ(blocked_mask(), 0xFu);
    LMT_EQ(lm_hosted_irq_at_unmask(sweep_n, fs_handler, NULL), 0);
    LMT_ST(lm_flags_set(&fs_fl, 0x1u), LM_OK);
    op_done();
    /* Waiters checked before the clear were woken, the others stay. */
    LMT_EQ(0xFu & ~blocked_mask(), fs_woken_at_clear);
    /* Woken ones are a prefix of the arrival order (R9.3, R10.1). */
    check_suffix_blocked(blocked_mask());
    LMT_ST(lm_flags_set(&fs_fl, 0x1u), LM_OK); /* release the rest */
    LMT_EQ(blocked_mask(), 0);
    let_waiters_report();
    for (unsigned i = 0; i < NW; i++) {
        LMT_EQ(sw_reports[i], 1);
        LMT_ST(sw_status[i], LM_OK);
    }
}

/* R12.3, R9.3: an interrupt at each unmask of a flags set with 4 waiters
 * clears the bit again. The waiters already checked are woken, those not
 * yet checked see the cleared bit and keep waiting: the woken set is the
 * one the handler saw, a prefix of the arrival order. */
LMT_CASE(sweep_interrupt_across_flags_set)
{
    unsigned sizes = 0; /* bit k: a window after k waiters were woken */
    for (sweep_n = 1;; sweep_n++) {
        LMT_CHECK(sweep_n <= SWEEP_MAX);
        sweep_begin();
        memset(&fs_fl, 0, sizeof fs_fl);
        LMT_ST(lm_flags_create(&fs_fl, 0), LM_OK);
        fs_woken_at_clear = 0;
        th("D", 1, fs_driver);
        for (unsigned i = 0; i < NW; i++) {
            sw_w[i] = th("F", sweep_prio[i], fs_waiter);
        }
        lmt_run();
        sizes |= 1u << popcount(fs_woken_at_clear);
        if (seen_returned != 0u) {
            break;
        }
    }
    LMT_EQ(sizes, 0x1Fu); /* windows after 0, 1, 2, 3 and 4 checks */
    printf("  %u windows\n", sweep_n);
}

#endif /* LM_PORT_HOSTED */

#if defined(LM_PORT_HOSTED)
LMT_MAIN(LMT_RUN(nonblocking_object_calls_from_timer_callback),
         LMT_RUN(blocking_calls_refused_from_timer_callback),
         LMT_RUN(nonblocking_calls_from_raised_interrupt),
         LMT_RUN(blocking_calls_refused_from_every_interrupt_kind),
         LMT_RUN(switch_when_raised_handler_returns),
         LMT_RUN(switch_when_tick_handler_returns_mid_work),
         LMT_RUN(switch_after_last_of_two_handlers),
         LMT_RUN(no_switch_for_equal_priority_from_handler),
         LMT_RUN(handler_suspends_interrupted_thread),
         LMT_RUN(handler_terminates_interrupted_thread),
         LMT_RUN(handler_cannot_stop_scheduler_lock_holder),
         LMT_RUN(sweep_interrupt_across_semaphore_delete),
         LMT_RUN(sweep_interrupt_across_queue_flush),
         LMT_RUN(sweep_interrupt_across_tick_expiry),
         LMT_RUN(sweep_interrupt_across_flags_set))
#else
LMT_MAIN(LMT_RUN(nonblocking_object_calls_from_timer_callback),
         LMT_RUN(blocking_calls_refused_from_timer_callback))
#endif
