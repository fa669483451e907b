/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The consistency check of the sweep (tests/kcheck.c) must see what it
 * claims to see: on a consistent kernel it reports nothing, and each kind of
 * broken invariant, made by hand inside a live system, is reported with its
 * code. White-box: the cases corrupt kernel structures directly, under the
 * kernel lock, and restore them before anything else runs.
 */
#include <string.h>
#include "harness.h"
#include "kcheck.h"
#include "lmk.h"

static lm_sem_t sem, gate;
static lm_mutex_t mtx;
static lm_flags_t flg;
static lm_pool_t pool;
static lm_timer_t tmr;
static LM_POOL_BUFFER_DEFINE(pbuf, 16, 2);
static lm_thread_t *w_sem, *w_mtx, *w_flg, *owner;

static void tick_fn(void *arg)
{
    (void)arg;
}

static void take(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_ERR_DELETED);
}

static void lock(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

static void wait_bit(void *arg)
{
    (void)arg;
    LMT_ST(lm_flags_wait(&flg, 0x2u, LM_FLAGS_ANY, NULL, LM_WAIT_FOREVER), LM_OK);
}

/* Expect the check to report `code` (e.g. "K6"); the caller restores. */
static void expect_code(bool settled, const char *code)
{
    const char *v = lmt_kc_check(settled);
    if (v == NULL || strncmp(v, code, strlen(code)) != 0) {
        lmt_fail(__FILE__, __LINE__, "expected %s, got %s", code, v != NULL ? v : "(none)");
    }
    lmt_log("%s", code);
}

/* Runs with the waiters blocked and `owner` holding mtx (O inherits). */
static void checker(void *arg)
{
    (void)arg;
    LMT_CHECK(lmt_kc_check(true) == NULL);
    lmt_log("clean");

    lm_irqstate_t s = lm_port_irq_lock();
    /* K1: a busy bit without its ring. */
    lmk_prioset_add(&lmk.ready.busy, 25); /* no thread at 25 */
    expect_code(false, "K1");
    lmk_prioset_remove(&lmk.ready.busy, 25);
    /* K3: a queued waiter that says it waits on something else. */
    void *obj = w_sem->wait_obj;
    w_sem->wait_obj = &flg;
    expect_code(false, "K3");
    w_sem->wait_obj = obj;
    /* K6: a count with a waiter. */
    sem.count = 1;
    expect_code(false, "K6");
    sem.count = 0;
    /* K6: a pool whose free count disagrees with its free list. */
    pool.free_count++;
    expect_code(false, "K6");
    pool.free_count--;
    /* K8: an effective priority that is not what R5.2 gives (the owner
     * inherits 2 from its waiter; a base of 1 would make it 1). */
    uint16_t base = owner->base_prio;
    owner->base_prio = 1;
    expect_code(false, "K8");
    owner->base_prio = base;
    /* K7: an owned mutex missing from its owner's held list. */
    struct lm_dnode held = owner->held;
    lmk_list_init(&owner->held);
    expect_code(false, "K7");
    owner->held = held;
    /* K5: a timeout armed for a thread that does not wait (this one). */
    lmk_timeout_arm_locked(&lmk.current->timeout, 5);
    expect_code(false, "K5");
    lmk_timeout_cancel_locked(&lmk.current->timeout);
    /* K10: a timer armed but not active. */
    tmr.active = 0u;
    expect_code(false, "K10");
    tmr.active = 1u;
    /* S4 (settled only): a flags waiter whose bit is set. */
    flg.bits = 0x2u;
    LMT_CHECK(lmt_kc_check(false) == NULL);
    expect_code(true, "S4");
    flg.bits = 0u;
    lm_port_irq_unlock(s);

    LMT_CHECK(lmt_kc_check(true) == NULL);
    LMT_ST(lm_flags_set(&flg, 0x2u), LM_OK);
    LMT_ST(lm_sem_delete(&sem), LM_OK);
    LMT_ST(lm_sem_give(&gate), LM_OK);
    LMT_ST(lm_timer_stop(&tmr), LM_OK);
}

/* Owns mtx, then waits for the checker. */
static void own(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mtx, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_start(w_mtx), LM_OK); /* blocks on mtx: we inherit */
    LMT_ST(lm_sem_take(&gate, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
}

LMT_CASE(check_reports_each_broken_invariant)
{
    lmt_begin();
    lmt_kc_reset();
    memset(&sem, 0, sizeof sem);
    memset(&gate, 0, sizeof gate);
    LMT_ST(lm_sem_create(&gate, 0, 1), LM_OK);
    lmt_kc_add_sem(&gate);
    memset(&mtx, 0, sizeof mtx);
    memset(&flg, 0, sizeof flg);
    memset(&pool, 0, sizeof pool);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    LMT_ST(lm_mutex_create(&mtx, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_flags_create(&flg, 0), LM_OK);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, 16, 2), LM_OK);
    memset(&tmr, 0, sizeof tmr);
    LMT_ST(lm_timer_create(&tmr, tick_fn, NULL), LM_OK);
    LMT_ST(lm_timer_start(&tmr, 1000, 0), LM_OK);
    lmt_kc_add_timer(&tmr);
    lmt_kc_add_sem(&sem);
    lmt_kc_add_mutex(&mtx);
    lmt_kc_add_flags(&flg);
    lmt_kc_add_pool(&pool);
    w_sem = lmt_spawn("S", 3, take, NULL);
    w_flg = lmt_spawn("F", 4, wait_bit, NULL);
    w_mtx = lmt_spawn_ex("M", 2, LM_THRESHOLD_NONE, 0, lock, NULL, false);
    owner = lmt_spawn("O", 10, own, NULL);
    lm_thread_t *c = lmt_spawn("C", 20, checker, NULL);
    lmt_kc_add_thread(w_sem);
    lmt_kc_add_thread(w_flg);
    lmt_kc_add_thread(w_mtx);
    lmt_kc_add_thread(owner);
    lmt_kc_add_thread(c);
    lmt_run();
    LMT_CHECK(lmt_kc_check(true) == NULL);
    lmt_expect("clean K1 K3 K6 K6 K8 K7 K5 K10 S4");
}

LMT_MAIN(LMT_RUN(check_reports_each_broken_invariant))
