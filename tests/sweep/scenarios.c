/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sweep's scenarios (sweep.h, docs/sweep.md). Each puts one call in the
 * state where it has the most work, and lists the handler actions that touch
 * the same objects and threads.
 *
 * Threads: W1, W2, W3 (priorities 3, 5, 7) are the waiters; O, O2, O3 own
 * mutexes; A is the actor (it makes the call); Z, the janitor, runs at the
 * least urgent priority, so it runs only when every other thread is blocked
 * or done. Every wait is LM_WAIT_FOREVER: a thread still blocked after the
 * janitor's cleanup is stranded.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "kcheck.h"
#include "sweep.h"

enum { TA, TW1, TW2, TW3, TO, TO2, TO3, TZ, TN };
static const char *const tname[TN] = {"A", "W1", "W2", "W3", "O", "O2", "O3", "Z"};

#define PRIO_A 10u
#define PRIO_Z (LM_CFG_PRIORITIES - 1u)
#define PRIO_LOW (LM_CFG_PRIORITIES - 2u) /* an actor that waits for the others */

static struct {
    const struct sw_scenario *sc;
    const struct sw_action *act;
    uint32_t offset;
    struct sw_result *out;
    volatile bool in_call, janitor;
    lm_thread_t *t[TN];
    lm_status_t st[TN];
    bool has_st[TN];
    bool waiting_at_arm[TN]; /* blocked in its wait when A armed */
    lm_status_t hst; /* the handler's own call */
    bool has_hst;
} sw;

static lm_sem_t S, G;
static lm_mutex_t M1, M2, M3;
static lm_queue_t Q;
static LM_QUEUE_BUFFER_DEFINE(qbuf, 4, 2);
static lm_flags_t F;
static lm_pool_t P;
static LM_POOL_BUFFER_DEFINE(pbuf, 16, 1);
static void *blk;
static lm_timer_t T;
static volatile unsigned t_fired, t_fired_deleted;

/* The timer's callback: one that runs for a deleted timer is counted. */
static void t_callback(void *arg)
{
    (void)arg;
    t_fired++;
    if (T.magic != LM_MAGIC_TIMER) {
        t_fired_deleted++;
    }
}

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void violation(const char *fmt, ...)
{
    if (sw.out->violation) {
        return; /* the first one counts */
    }
    sw.out->violation = true;
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(sw.out->what, sizeof sw.out->what, fmt, ap);
    va_end(ap);
}

static int self_index(void)
{
    for (int i = 0; i < TN; i++) {
        if (sw.t[i] == lm_thread_self()) {
            return i;
        }
    }
    return -1;
}

/* The status of the calling thread's wait (or, for A, of the call). */
static void rec(lm_status_t s)
{
    int i = self_index();
    if (i >= 0 && !sw.has_st[i]) {
        sw.st[i] = s;
        sw.has_st[i] = true;
    }
}

static void hrec(lm_status_t s)
{
    sw.hst = s;
    sw.has_hst = true;
}

/* The scenario's threads other than Z get the smallest stack the port
 * accepts (on the host, 32 KiB instead of the harness's 64 KiB): each run
 * starts six threads, and the watermark fill of their stacks is most of a
 * run's work. Z, which formats messages, keeps a harness stack. */
#if defined(LM_PORT_HOSTED)
#define SW_STACK LM_PORT_MIN_STACK
#else
#define SW_STACK 2048u
#endif
static lm_thread_t sw_threads[TZ];
static LM_STACK_DEFINE(sw_stacks, (size_t)SW_STACK * TZ);

static lm_thread_t *spawn(int idx, unsigned prio, lm_thread_entry_t fn, bool start)
{
    lm_thread_t *t;
    if (idx == TZ) {
        t = lmt_spawn_ex(tname[idx], prio, LM_THRESHOLD_NONE, 0, fn, NULL, start);
    } else {
        t = &sw_threads[idx];
        memset(t, 0, sizeof *t);
        lm_thread_attr_t a;
        lm_thread_attr_init(&a);
        a.name = tname[idx];
        a.entry = fn;
        a.stack = sw_stacks + (size_t)SW_STACK * (size_t)idx;
        a.stack_size = SW_STACK;
        a.priority = (uint16_t)prio;
        LMT_ST(lm_thread_create(t, &a), LM_OK);
        if (start) {
            LMT_ST(lm_thread_start(t), LM_OK);
        }
    }
    sw.t[idx] = t;
    lmt_kc_add_thread(t);
    return t;
}

/* ---- thread bodies ---- */

static void b_sem_take(void *arg)
{
    (void)arg;
    rec(lm_sem_take(&S, LM_WAIT_FOREVER));
}

static void b_q_recv(void *arg)
{
    (void)arg;
    uint32_t m = 0;
    rec(lm_queue_receive(&Q, &m, sizeof m, LM_WAIT_FOREVER));
}

static void b_q_send(void *arg)
{
    (void)arg;
    uint32_t m = 7;
    rec(lm_queue_send(&Q, &m, sizeof m, LM_WAIT_FOREVER));
}

/* W1: bit 0, consumed; W2: bits 0 and 1, all; W3: bit 3 (not set by A). */
static void b_flags(void *arg)
{
    (void)arg;
    int i = self_index();
    uint32_t bits = i == TW1 ? 0x1u : i == TW2 ? 0x3u : 0x8u;
    unsigned opt = i == TW1 ? LM_FLAGS_CONSUME : i == TW2 ? LM_FLAGS_ALL : LM_FLAGS_ANY;
    uint32_t seen = 0;
    rec(lm_flags_wait(&F, bits, opt, &seen, LM_WAIT_FOREVER));
}

static void b_pool(void *arg)
{
    (void)arg;
    void *b = NULL;
    lm_status_t s = lm_pool_alloc(&P, &b, LM_WAIT_FOREVER);
    rec(s);
    if (s == LM_OK) {
        (void)lm_pool_free(&P, b); /* the next waiter's turn */
    }
}

static bool acquired(lm_status_t s)
{
    return s == LM_OK || s == LM_ERR_ABANDONED;
}

static void b_lock_m1(void *arg)
{
    (void)arg;
    lm_status_t s = lm_mutex_lock(&M1, LM_WAIT_FOREVER);
    rec(s);
    if (acquired(s)) {
        (void)lm_mutex_unlock(&M1);
    }
}

static void b_lock_m2(void *arg)
{
    (void)arg;
    lm_status_t s = lm_mutex_lock(&M2, LM_WAIT_FOREVER);
    rec(s);
    if (acquired(s)) {
        (void)lm_mutex_unlock(&M2);
    }
}

/* Owner of M1 and M2 waiting on the gate G. */
static void b_owner2(void *arg)
{
    (void)arg;
    (void)lm_mutex_lock(&M1, LM_WAIT_FOREVER);
    (void)lm_mutex_lock(&M2, LM_WAIT_FOREVER);
    rec(lm_sem_take(&G, LM_WAIT_FOREVER));
    (void)lm_mutex_unlock(&M2);
    (void)lm_mutex_unlock(&M1);
}

/* Owner of M1 waiting on the gate G. */
static void b_owner1(void *arg)
{
    (void)arg;
    (void)lm_mutex_lock(&M1, LM_WAIT_FOREVER);
    rec(lm_sem_take(&G, LM_WAIT_FOREVER));
    (void)lm_mutex_unlock(&M1);
}

/* The chain O (M1) -> M2 (O2) -> M3 (O3) -> gate G. */
static void b_chain3(void *arg)
{
    (void)arg;
    (void)lm_mutex_lock(&M3, LM_WAIT_FOREVER);
    rec(lm_sem_take(&G, LM_WAIT_FOREVER));
    (void)lm_mutex_unlock(&M3);
}

static void b_chain2(void *arg)
{
    (void)arg;
    (void)lm_mutex_lock(&M2, LM_WAIT_FOREVER);
    lm_status_t s = lm_mutex_lock(&M3, LM_WAIT_FOREVER);
    rec(s);
    if (acquired(s)) {
        (void)lm_mutex_unlock(&M3);
    }
    (void)lm_mutex_unlock(&M2);
}

static void b_chain1(void *arg)
{
    (void)arg;
    (void)lm_mutex_lock(&M1, LM_WAIT_FOREVER);
    lm_status_t s = lm_mutex_lock(&M2, LM_WAIT_FOREVER);
    rec(s);
    if (acquired(s)) {
        (void)lm_mutex_unlock(&M2);
    }
    (void)lm_mutex_unlock(&M1);
}

/* ---- setups ---- */

static void mk_sem(void)
{
    LMT_ST(lm_sem_create(&S, 0, 8), LM_OK);
    lmt_kc_add_sem(&S);
}

static void mk_gate(void)
{
    LMT_ST(lm_sem_create(&G, 0, 8), LM_OK);
    lmt_kc_add_sem(&G);
}

static void mk_mutexes(void)
{
    LMT_ST(lm_mutex_create(&M1, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_mutex_create(&M2, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_mutex_create(&M3, LM_MUTEX_INHERIT), LM_OK);
    lmt_kc_add_mutex(&M1);
    lmt_kc_add_mutex(&M2);
    lmt_kc_add_mutex(&M3);
}

static void waiters(lm_thread_entry_t fn)
{
    spawn(TW1, 3, fn, true);
    spawn(TW2, 5, fn, true);
    spawn(TW3, 7, fn, true);
}

static void su_sem_3w(void)
{
    mk_sem();
    waiters(b_sem_take);
}

static void su_sem_1w(void)
{
    mk_sem();
    spawn(TW1, 3, b_sem_take, true);
}

static void su_sem_0w(void)
{
    mk_sem();
}

static void mk_queue(void)
{
    LMT_ST(lm_queue_create(&Q, qbuf, 4, 2), LM_OK);
    lmt_kc_add_queue(&Q);
}

static void su_queue_senders(void)
{
    mk_queue();
    uint32_t m = 1;
    LMT_ST(lm_queue_send(&Q, &m, sizeof m, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(&Q, &m, sizeof m, LM_NO_WAIT), LM_OK);
    waiters(b_q_send);
}

static void su_queue_receivers(void)
{
    mk_queue();
    waiters(b_q_recv);
}

static void su_queue_1r(void)
{
    mk_queue();
    spawn(TW1, 3, b_q_recv, true);
}

static void su_queue_empty(void)
{
    mk_queue();
}

static void su_queue_full(void)
{
    mk_queue();
    uint32_t m = 1;
    LMT_ST(lm_queue_send(&Q, &m, sizeof m, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(&Q, &m, sizeof m, LM_NO_WAIT), LM_OK);
}

static void mk_flags(void)
{
    LMT_ST(lm_flags_create(&F, 0), LM_OK);
    lmt_kc_add_flags(&F);
}

static void su_flags(void)
{
    mk_flags();
    waiters(b_flags);
}

static void mk_pool(void)
{
    LMT_ST(lm_pool_create(&P, pbuf, sizeof pbuf, 16, 1), LM_OK);
    lmt_kc_add_pool(&P);
    LMT_ST(lm_pool_alloc(&P, &blk, LM_NO_WAIT), LM_OK);
}

static void su_pool_empty(void)
{
    mk_pool();
}

static void su_flags_0w(void)
{
    mk_flags();
}

static void su_none(void)
{
}

static void mk_timer(void)
{
    LMT_ST(lm_timer_create(&T, t_callback, NULL), LM_OK);
    lmt_kc_add_timer(&T);
}

static void su_timer(void)
{
    mk_timer();
}

/* The timer runs (periodic, every 3 ticks) when A stops it. */
static void su_timer_running(void)
{
    mk_timer();
    LMT_ST(lm_timer_start(&T, 3, 3), LM_OK);
}

static void su_pool_3w(void)
{
    mk_pool();
    waiters(b_pool);
}

static void su_pool_1w(void)
{
    mk_pool();
    spawn(TW1, 3, b_pool, true);
}

/* O (priority 2, runs first) owns M1 and waits on G; W1-W3 wait for M1. */
static void su_mutex_owned_3w(void)
{
    mk_mutexes();
    mk_gate();
    spawn(TO, 2, b_owner1, true);
    waiters(b_lock_m1);
}

/* O owns M1 and M2; W1, W3 wait for M1, W2 for M2. */
static void su_owner_2m(void)
{
    mk_mutexes();
    mk_gate();
    spawn(TO, 2, b_owner2, true);
    spawn(TW1, 3, b_lock_m1, true);
    spawn(TW2, 5, b_lock_m2, true);
    spawn(TW3, 7, b_lock_m1, true);
}

/* O3 (15) owns M3 and waits on G; O2 (18) owns M2, waits for M3; O (20)
 * owns M1, waits for M2. The most urgent runs first, so the chain forms in
 * that order. */
static void su_chain(void)
{
    mk_mutexes();
    mk_gate();
    spawn(TO3, 15, b_chain3, true);
    spawn(TO2, 18, b_chain2, true);
    spawn(TO, 20, b_chain1, true);
}

/* W1-W3 are created, not started: A starts them once it owns M1. */
static void su_unlock(void)
{
    mk_mutexes();
    spawn(TW1, 3, b_lock_m1, false);
    spawn(TW2, 5, b_lock_m1, false);
    spawn(TW3, 7, b_lock_m1, false);
}

/* W1 exists (not started); A starts it. W1 takes S and blocks. */
static void su_start(void)
{
    mk_sem();
    spawn(TW1, 3, b_sem_take, false);
}

/* ---- the calls (made by A) ---- */

static void c_sem_delete(void) { rec(lm_sem_delete(&S)); }
static void c_sem_give(void) { rec(lm_sem_give(&S)); }
static void c_sem_take(void) { rec(lm_sem_take(&S, LM_WAIT_FOREVER)); }
static void c_queue_flush(void) { rec(lm_queue_flush(&Q)); }
static void c_queue_delete(void) { rec(lm_queue_delete(&Q)); }
static void c_queue_send(void)
{
    uint32_t m = 9;
    rec(lm_queue_send(&Q, &m, sizeof m, LM_WAIT_FOREVER));
}
static void c_flags_set(void) { rec(lm_flags_set(&F, 0x7u)); }
static void c_queue_receive(void)
{
    uint32_t m = 0;
    rec(lm_queue_receive(&Q, &m, sizeof m, LM_WAIT_FOREVER));
}
static void c_flags_wait(void)
{
    uint32_t seen = 0;
    rec(lm_flags_wait(&F, 0x1u, LM_FLAGS_CONSUME, &seen, LM_WAIT_FOREVER));
}
static void c_pool_alloc(void)
{
    void *b = NULL;
    lm_status_t st = lm_pool_alloc(&P, &b, LM_WAIT_FOREVER);
    rec(st);
    if (st == LM_OK) {
        (void)lm_pool_free(&P, b);
    }
}
static void c_sleep(void) { rec(lm_thread_sleep(5)); }
static void c_sleep_until(void)
{
    lm_tick_t wake = lm_tick_now();
    rec(lm_thread_sleep_until(&wake, 5));
}
static void c_timer_start(void) { rec(lm_timer_start(&T, 3, 0)); }
static void c_timer_stop(void) { rec(lm_timer_stop(&T)); }
static void c_flags_delete(void) { rec(lm_flags_delete(&F)); }
static void c_pool_delete(void) { rec(lm_pool_delete(&P)); }
static void c_pool_free(void) { rec(lm_pool_free(&P, blk)); }
static void c_mutex_delete(void) { rec(lm_mutex_delete(&M1)); }
static void c_terminate_owner(void) { rec(lm_thread_terminate(sw.t[TO])); }
static void c_lock_chain(void)
{
    lm_status_t s = lm_mutex_lock(&M1, LM_WAIT_FOREVER);
    rec(s);
    if (acquired(s)) {
        (void)lm_mutex_unlock(&M1);
    }
}
static void c_prio_chain(void) { rec(lm_thread_set_priority(sw.t[TO], 1)); }
static void c_unlock(void) { rec(lm_mutex_unlock(&M1)); }
static void c_start(void) { rec(lm_thread_start(sw.t[TW1])); }
static void c_abort(void) { rec(lm_thread_wait_abort(sw.t[TW2])); }
static void c_thread_delete(void) { rec(lm_thread_delete(sw.t[TW2])); }
static void c_resume(void) { rec(lm_thread_resume(sw.t[TW2])); }

/* ---- before the call (A, not yet armed) ---- */

/* A owns M1 and lets W1-W3 block on it (A then inherits priority 3). */
static void p_unlock(void)
{
    LMT_ST(lm_mutex_lock(&M1, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_thread_start(sw.t[TW1]), LM_OK);
    LMT_ST(lm_thread_start(sw.t[TW2]), LM_OK);
    LMT_ST(lm_thread_start(sw.t[TW3]), LM_OK);
}

/* A ran last (least urgent but Z); it becomes the most urgent, so that its
 * lock propagates down the whole chain. */
static void p_raise(void)
{
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 1), LM_OK);
}

/* W2 is suspended while it waits on S (with W1, W3). */
static void p_suspend_w2(void)
{
    LMT_ST(lm_thread_suspend(sw.t[TW2]), LM_OK);
}

/* ---- cleanups (Z) ---- */

static bool live_sem(const lm_sem_t *s) { return s->magic == LM_MAGIC_SEM; }

/* Gives, not a delete: the cleanup runs twice, and a thread resumed in
 * between may take the semaphore again. */
static void k_sem(void)
{
    for (int i = 0; i < 4 && live_sem(&S); i++) {
        (void)lm_sem_give(&S);
    }
}

/* Receive what is queued (admitting blocked senders), then send to any
 * waiting receiver. */
static void k_queue(void)
{
    uint32_t m = 0;
    for (int i = 0; i < 8 && Q.magic == LM_MAGIC_QUEUE; i++) {
        if (lm_queue_receive(&Q, &m, sizeof m, LM_NO_WAIT) != LM_OK) {
            break;
        }
    }
    for (int i = 0; i < 4 && Q.magic == LM_MAGIC_QUEUE; i++) {
        (void)lm_queue_send(&Q, &m, sizeof m, LM_NO_WAIT);
    }
}

static void k_flags(void)
{
    if (F.magic == LM_MAGIC_FLAGS) {
        (void)lm_flags_set(&F, 0xFu);
    }
}

/* The block goes back; each waiter that gets it frees it again. */
static void k_pool(void)
{
    if (P.magic == LM_MAGIC_POOL && blk != NULL) {
        (void)lm_pool_free(&P, blk);
        blk = NULL;
    }
}

/* A periodic timer left running (its stopper was terminated) would keep
 * the run alive for ever. */
static void k_timer(void)
{
    if (lm_timer_active(&T)) {
        (void)lm_timer_stop(&T);
    }
}

/* Open the gate: the owners finish and hand their mutexes on; every lock
 * in the scenario then completes. */
static void k_gate(void)
{
    for (int i = 0; i < 4 && live_sem(&G); i++) {
        (void)lm_sem_give(&G);
    }
}

/* ---- handler actions ---- */

static void h_give(void) { hrec(lm_sem_give(&S)); }
static void h_sem_delete(void) { hrec(lm_sem_delete(&S)); }
static void h_sem_recreate(void)
{
    (void)lm_sem_delete(&S);
    hrec(lm_sem_create(&S, 0, 8));
}
static void h_gate(void) { hrec(lm_sem_give(&G)); }
static lm_status_t term(int i) { return sw.t[i] != NULL ? lm_thread_terminate(sw.t[i]) : LM_ERR_PARAM; }
static void h_term_a(void) { hrec(term(TA)); }
static void h_term_w1(void) { hrec(term(TW1)); }
static void h_term_w2(void) { hrec(term(TW2)); }
static void h_term_o(void) { hrec(term(TO)); }
static void h_term_o3(void) { hrec(term(TO3)); }
static void h_susp_a(void) { hrec(lm_thread_suspend(sw.t[TA])); }
static void h_susp_w1(void) { hrec(lm_thread_suspend(sw.t[TW1])); }
static void h_susp_o2(void) { hrec(lm_thread_suspend(sw.t[TO2])); }
static void h_resume_w2(void) { hrec(lm_thread_resume(sw.t[TW2])); }
static void h_prio_a(void) { hrec(lm_thread_set_priority(sw.t[TA], 0)); }
static void h_prio_w1(void) { hrec(lm_thread_set_priority(sw.t[TW1], 0)); }
static void h_prio_w3(void) { hrec(lm_thread_set_priority(sw.t[TW3], 0)); }
static void h_prio_o(void) { hrec(lm_thread_set_priority(sw.t[TO], 0)); }
static void h_prio_o2(void) { hrec(lm_thread_set_priority(sw.t[TO2], 0)); }
static void h_abort_a(void) { hrec(lm_thread_wait_abort(sw.t[TA])); }
static void h_abort_w1(void) { hrec(lm_thread_wait_abort(sw.t[TW1])); }
static void h_abort_w2(void) { hrec(lm_thread_wait_abort(sw.t[TW2])); }
static void h_abort_o(void) { hrec(lm_thread_wait_abort(sw.t[TO])); }
static void h_start_w1(void) { hrec(lm_thread_start(sw.t[TW1])); }
static void h_start_w2(void) { hrec(lm_thread_start(sw.t[TW2])); }
static void h_start_o(void) { hrec(lm_thread_start(sw.t[TO])); }
static void h_q_recv(void)
{
    uint32_t m = 0;
    hrec(lm_queue_receive(&Q, &m, sizeof m, LM_NO_WAIT));
}
static void h_q_send(void)
{
    uint32_t m = 5;
    hrec(lm_queue_send(&Q, &m, sizeof m, LM_NO_WAIT));
}
static void h_q_flush(void) { hrec(lm_queue_flush(&Q)); }
static void h_q_delete(void) { hrec(lm_queue_delete(&Q)); }
static void h_q_recreate(void)
{
    (void)lm_queue_delete(&Q);
    hrec(lm_queue_create(&Q, qbuf, 4, 2));
}
static void h_f_set(void) { hrec(lm_flags_set(&F, 0x8u)); }
static void h_f_set1(void) { hrec(lm_flags_set(&F, 0x1u)); }
static void h_f_clear(void) { hrec(lm_flags_clear(&F, 0x7u)); }
static void h_f_delete(void) { hrec(lm_flags_delete(&F)); }
static void h_f_recreate(void)
{
    (void)lm_flags_delete(&F);
    hrec(lm_flags_create(&F, 0));
}
static void h_p_free(void)
{
    hrec(lm_pool_free(&P, blk));
    blk = NULL;
}
static void h_p_delete(void) { hrec(lm_pool_delete(&P)); }
static void h_p_recreate(void)
{
    (void)lm_pool_delete(&P);
    hrec(lm_pool_create(&P, pbuf, sizeof pbuf, 16, 1));
}
static void h_t_delete(void) { hrec(lm_timer_delete(&T)); }
static void h_t_stop(void) { hrec(lm_timer_stop(&T)); }
static void h_t_start(void) { hrec(lm_timer_start(&T, 2, 0)); }
static void h_t_recreate(void)
{
    (void)lm_timer_delete(&T);
    hrec(lm_timer_create(&T, t_callback, NULL));
}
static void h_m1_delete(void) { hrec(lm_mutex_delete(&M1)); }
static void h_m1_recreate(void)
{
    (void)lm_mutex_delete(&M1);
    hrec(lm_mutex_create(&M1, LM_MUTEX_INHERIT));
}
static void h_m2_delete(void) { hrec(lm_mutex_delete(&M2)); }
static void h_m2_recreate(void)
{
    (void)lm_mutex_delete(&M2);
    hrec(lm_mutex_create(&M2, LM_MUTEX_INHERIT));
}

#define ACT(f) {#f + 2, f}
#define NACT(a) (sizeof(a) / sizeof((a)[0]))

static const struct sw_action a_sem_multi[] = {
    ACT(h_give), ACT(h_sem_delete), ACT(h_sem_recreate), ACT(h_term_a), ACT(h_term_w2),
    ACT(h_prio_w3), ACT(h_susp_a), ACT(h_abort_w2), ACT(h_start_w2),
};
static const struct sw_action a_sem_one[] = {
    ACT(h_give), ACT(h_sem_delete), ACT(h_sem_recreate), ACT(h_term_w1), ACT(h_prio_w1),
    ACT(h_susp_w1), ACT(h_abort_w1), ACT(h_start_w1),
};
static const struct sw_action a_sem_take[] = {
    ACT(h_give), ACT(h_sem_delete), ACT(h_sem_recreate), ACT(h_term_a), ACT(h_prio_a),
    ACT(h_susp_a), ACT(h_abort_a),
};
static const struct sw_action a_queue[] = {
    ACT(h_q_recv), ACT(h_q_send), ACT(h_q_flush), ACT(h_q_delete), ACT(h_q_recreate),
    ACT(h_term_a), ACT(h_term_w2), ACT(h_prio_w3), ACT(h_abort_w1), ACT(h_susp_a),
};
static const struct sw_action a_queue_actor[] = {
    ACT(h_q_recv), ACT(h_q_send), ACT(h_q_flush), ACT(h_q_delete), ACT(h_q_recreate),
    ACT(h_term_a), ACT(h_abort_a), ACT(h_prio_a), ACT(h_susp_a),
};
static const struct sw_action a_flags_actor[] = {
    ACT(h_f_set1), ACT(h_f_clear), ACT(h_f_delete), ACT(h_f_recreate), ACT(h_term_a),
    ACT(h_abort_a), ACT(h_prio_a), ACT(h_susp_a),
};
static const struct sw_action a_pool_actor[] = {
    ACT(h_p_free), ACT(h_p_delete), ACT(h_p_recreate), ACT(h_term_a), ACT(h_abort_a),
    ACT(h_prio_a), ACT(h_susp_a),
};
static const struct sw_action a_sleep[] = {
    ACT(h_abort_a), ACT(h_term_a), ACT(h_prio_a), ACT(h_susp_a),
};
static const struct sw_action a_timer[] = {
    ACT(h_t_delete), ACT(h_t_stop), ACT(h_t_start), ACT(h_t_recreate), ACT(h_term_a),
};
static const struct sw_action a_queue_one[] = {
    ACT(h_q_recv), ACT(h_q_send), ACT(h_q_delete), ACT(h_q_recreate), ACT(h_term_w1),
    ACT(h_abort_w1), ACT(h_prio_w1),
};
static const struct sw_action a_flags[] = {
    ACT(h_f_set), ACT(h_f_clear), ACT(h_f_delete), ACT(h_f_recreate), ACT(h_term_a),
    ACT(h_term_w2), ACT(h_abort_w1), ACT(h_prio_w3), ACT(h_susp_a),
};
static const struct sw_action a_pool[] = {
    ACT(h_p_free), ACT(h_p_delete), ACT(h_p_recreate), ACT(h_term_a), ACT(h_term_w2),
    ACT(h_prio_w3), ACT(h_abort_w1),
};
static const struct sw_action a_pool_one[] = {
    ACT(h_p_delete), ACT(h_p_recreate), ACT(h_term_w1), ACT(h_abort_w1), ACT(h_prio_w1),
};
static const struct sw_action a_mutex_del[] = {
    ACT(h_m1_recreate), ACT(h_term_o), ACT(h_term_a), ACT(h_term_w2), ACT(h_prio_w3),
    ACT(h_abort_w1), ACT(h_gate), ACT(h_prio_o),
};
static const struct sw_action a_owner[] = {
    ACT(h_m1_delete), ACT(h_m2_recreate), ACT(h_start_o), ACT(h_prio_o), ACT(h_term_w1),
    ACT(h_abort_w1), ACT(h_gate), ACT(h_term_a),
};
static const struct sw_action a_chain[] = {
    ACT(h_gate), ACT(h_term_o3), ACT(h_term_o), ACT(h_prio_o2), ACT(h_abort_o),
    ACT(h_m2_delete), ACT(h_m2_recreate), ACT(h_susp_o2), ACT(h_term_a),
};
static const struct sw_action a_unlock[] = {
    ACT(h_term_w1), ACT(h_prio_w3), ACT(h_abort_w2), ACT(h_m1_delete), ACT(h_m1_recreate),
    ACT(h_term_a), ACT(h_susp_w1),
};
static const struct sw_action a_start[] = {
    ACT(h_start_w1), ACT(h_term_w1), ACT(h_susp_w1), ACT(h_prio_w1), ACT(h_give),
    ACT(h_sem_delete),
};
static const struct sw_action a_thread_op[] = {
    ACT(h_give), ACT(h_sem_delete), ACT(h_term_w2), ACT(h_start_w2), ACT(h_abort_w2),
    ACT(h_resume_w2), ACT(h_term_a),
};

/* ---- scenario-specific assertions ---- */

/* "Stop and forget the timer" (limen/timer.h): after a delete, the
 * callback never runs. */
static const char *v_timer(void)
{
    if (t_fired_deleted != 0u) {
        return "the callback of a deleted timer ran";
    }
    return NULL;
}

static const char *v_start(void)
{
    if (sw.has_st[TA] && sw.st[TA] == LM_OK && sw.has_hst && sw.hst == LM_OK &&
        sw.act->fn == h_start_w1) {
        return "W1 started twice: both lm_thread_start calls returned LM_OK (docs/errors.md: "
               "LM_ERR_STATE)";
    }
    return NULL;
}

/* A semaphore that was given once and never taken must not have lost the
 * unit, nor handed it to two threads. */
static const char *v_sem_give(void)
{
    if (sw.act->fn != h_give) {
        return NULL;
    }
    unsigned ok = 0;
    for (int i = TW1; i <= TW3; i++) {
        ok += (sw.has_st[i] && sw.st[i] == LM_OK) ? 1u : 0u;
    }
    if (ok > 2u) {
        return "more waiters took the semaphore than there were gives";
    }
    return NULL;
}

#define SCN(nm, callname, su, pre, fn, cl, vf, acts, prio, ct) \
    {nm, callname, su, pre, fn, cl, vf, acts, NACT(acts), prio, ct}

const struct sw_scenario sw_scenarios[] = {
    SCN("sem_delete_3w", "lm_sem_delete", su_sem_3w, NULL, c_sem_delete, k_sem, NULL,
        a_sem_multi, PRIO_A, true),
    SCN("sem_give_1w", "lm_sem_give", su_sem_1w, NULL, c_sem_give, k_sem, v_sem_give,
        a_sem_one, PRIO_A, true),
    SCN("sem_take_blocks", "lm_sem_take", su_sem_0w, NULL, c_sem_take, k_sem, NULL,
        a_sem_take, PRIO_A, true),
    SCN("queue_flush_3senders", "lm_queue_flush", su_queue_senders, NULL, c_queue_flush,
        k_queue, NULL, a_queue, PRIO_A, true),
    SCN("queue_delete_3receivers", "lm_queue_delete", su_queue_receivers, NULL,
        c_queue_delete, k_queue, NULL, a_queue, PRIO_A, true),
    SCN("queue_send_to_receiver", "lm_queue_send", su_queue_1r, NULL, c_queue_send, k_queue,
        NULL, a_queue_one, PRIO_A, false),
    SCN("queue_receive_blocks", "lm_queue_receive", su_queue_empty, NULL, c_queue_receive,
        k_queue, NULL, a_queue_actor, PRIO_A, true),
    SCN("queue_send_blocks", "lm_queue_send", su_queue_full, NULL, c_queue_send, k_queue,
        NULL, a_queue_actor, PRIO_A, true),
    SCN("flags_wait_blocks", "lm_flags_wait", su_flags_0w, NULL, c_flags_wait, k_flags, NULL,
        a_flags_actor, PRIO_A, true),
    SCN("pool_alloc_blocks", "lm_pool_alloc", su_pool_empty, NULL, c_pool_alloc, k_pool, NULL,
        a_pool_actor, PRIO_A, true),
    SCN("thread_sleep", "lm_thread_sleep", su_none, NULL, c_sleep, NULL, NULL, a_sleep, PRIO_A,
        true),
    SCN("thread_sleep_until", "lm_thread_sleep_until", su_none, NULL, c_sleep_until, NULL, NULL,
        a_sleep, PRIO_A, true),
    SCN("timer_start", "lm_timer_start", su_timer, NULL, c_timer_start, k_timer, v_timer,
        a_timer, PRIO_A, true),
    SCN("timer_stop_running", "lm_timer_stop", su_timer_running, NULL, c_timer_stop, k_timer,
        v_timer, a_timer, PRIO_A, true),
    SCN("flags_set_3w", "lm_flags_set", su_flags, NULL, c_flags_set, k_flags, NULL, a_flags,
        PRIO_A, true),
    SCN("flags_delete_3w", "lm_flags_delete", su_flags, NULL, c_flags_delete, k_flags, NULL,
        a_flags, PRIO_A, true),
    SCN("pool_delete_3w", "lm_pool_delete", su_pool_3w, NULL, c_pool_delete, k_pool, NULL,
        a_pool, PRIO_A, true),
    SCN("pool_free_1w", "lm_pool_free", su_pool_1w, NULL, c_pool_free, k_pool, NULL,
        a_pool_one, PRIO_A, false),
    SCN("mutex_delete_owned_3w", "lm_mutex_delete", su_mutex_owned_3w, NULL, c_mutex_delete,
        k_gate, NULL, a_mutex_del, PRIO_A, true),
    SCN("mutex_lock_chain3", "lm_mutex_lock", su_chain, p_raise, c_lock_chain, k_gate, NULL,
        a_chain, PRIO_LOW, true),
    SCN("mutex_unlock_3w", "lm_mutex_unlock", su_unlock, p_unlock, c_unlock, NULL, NULL,
        a_unlock, PRIO_A, true),
    SCN("thread_set_priority_chain3", "lm_thread_set_priority", su_chain, NULL, c_prio_chain,
        k_gate, NULL, a_chain, PRIO_LOW, false),
    SCN("thread_terminate_owner_2m", "lm_thread_terminate", su_owner_2m, NULL,
        c_terminate_owner, k_gate, NULL, a_owner, PRIO_A, true),
    SCN("thread_start_fill", "lm_thread_start", su_start, NULL, c_start, k_sem, v_start,
        a_start, PRIO_A, true),
    SCN("thread_wait_abort", "lm_thread_wait_abort", su_sem_3w, NULL, c_abort, k_sem, NULL,
        a_thread_op, PRIO_A, false),
    SCN("thread_delete_waiter", "lm_thread_delete", su_sem_3w, NULL, c_thread_delete, k_sem,
        NULL, a_thread_op, PRIO_A, false),
    SCN("thread_resume_waiter", "lm_thread_resume", su_sem_3w, p_suspend_w2, c_resume, k_sem,
        NULL, a_thread_op, PRIO_A, false),
};
const unsigned sw_nscenarios = NACT(sw_scenarios);

/* ---- the run ---- */

void sw_irq(void)
{
    sw.out->fired = true;
    if (sw.janitor) {
        sw.out->late = true; /* past the call and what it set off */
        return;
    }
    sw.out->fired_in_call = sw.in_call;
    sw_irq_note();
    sw.act->fn();
}

static void actor(void *arg)
{
    (void)arg;
    if (sw.sc->pre != NULL) {
        sw.sc->pre();
    }
    for (int i = 0; i < TN; i++) {
        sw.waiting_at_arm[i] = sw.t[i] != NULL && lm_thread_state(sw.t[i]) == LM_THREAD_BLOCKED;
    }
    sw.in_call = true;
    sw_arm(sw.offset);
    sw.sc->call_fn();
    sw.in_call = false;
}

/* A wait may also find its object deleted (LM_ERR_OBJECT) by a handler
 * before it began; a call on a thread or a mutex may find it no longer in
 * the state it had (LM_ERR_STATE, LM_ERR_NOT_OWNER). */
static bool legal_wait_status(lm_status_t s)
{
    return s == LM_OK || s == LM_ERR_DELETED || s == LM_ERR_ABORTED ||
           s == LM_ERR_ABANDONED || s == LM_ERR_OBJECT;
}

static bool legal_call_status(lm_status_t s)
{
    return legal_wait_status(s) || s == LM_ERR_STATE || s == LM_ERR_NOT_OWNER;
}

/* A sleeping thread, or a one-shot timer still to fire: time must pass. */
static bool any_sleeping(void)
{
    for (int i = 0; i < TZ; i++) {
        if (sw.t[i] != NULL && lm_thread_state(sw.t[i]) == LM_THREAD_SLEEPING) {
            return true;
        }
    }
    return lm_timer_active(&T) && T.period == 0u;
}

static void resume_all(void)
{
    for (int i = 0; i < TZ; i++) {
        lm_thread_t *t = sw.t[i];
        if (t != NULL && (lm_thread_state(t) == LM_THREAD_SUSPENDED || t->suspended != 0u)) {
            (void)lm_thread_resume(t);
        }
    }
}

static void janitor(void *arg)
{
    (void)arg;
    sw.janitor = true;
    /* A sleep ends by itself: let it (a few ticks at most in the scenarios). */
    for (int round = 0; round < 8 && any_sleeping(); round++) {
        (void)lm_thread_sleep(4);
    }
    const char *v = lmt_kc_check(true);
    if (v != NULL) {
        violation("settled: %s", v);
        return;
    }
    /* Threads the handler suspended go on (resume preempts Z), then the
     * scenario releases its legitimate waiters; a thread resumed only now
     * may block again, so both once more. */
    for (int round = 0; round < 2; round++) {
        resume_all();
        for (int n = 0; n < 8 && any_sleeping(); n++) {
            (void)lm_thread_sleep(4); /* a resumed thread may sleep now */
        }
        if (sw.sc->cleanup != NULL) {
            sw.sc->cleanup();
        }
    }
    v = lmt_kc_check(true);
    if (v != NULL) {
        violation("after cleanup: %s", v);
        return;
    }
    for (int i = 0; i < TZ; i++) {
        const lm_thread_t *t = sw.t[i];
        if (t == NULL) {
            continue;
        }
        lm_thread_state_t st = lm_thread_state(t);
        if (st == LM_THREAD_BLOCKED || st == LM_THREAD_SLEEPING) {
            violation("stranded: %s still waits after cleanup (state %d)", tname[i], (int)st);
            return;
        }
        if (sw.has_st[i] && !(i == TA ? legal_call_status(sw.st[i])
                                      : legal_wait_status(sw.st[i]))) {
            violation("%s returned %s", tname[i], lm_status_name(sw.st[i]));
            return;
        }
        /* A wait under way when the object went away ends with DELETED. */
        if (sw.has_st[i] && sw.waiting_at_arm[i] && sw.st[i] == LM_ERR_OBJECT) {
            violation("%s was waiting when the interrupt was armed, its wait returned "
                      "LM_ERR_OBJECT", tname[i]);
            return;
        }
    }
    if (sw.sc->verify != NULL) {
        v = sw.sc->verify();
        if (v != NULL) {
            violation("%s", v);
        }
    }
}

static void fatal_hook(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    violation("fatal error %d at %s (thread %s)", (int)reason, where != NULL ? where : "?",
              t != NULL ? lm_thread_name(t) : "-");
    sw_fatal_exit();
}

void sw_run_one(unsigned scenario, unsigned action, uint32_t offset, struct sw_result *out)
{
    memset(out, 0, sizeof *out);
    memset(&sw, 0, sizeof sw);
    sw.sc = &sw_scenarios[scenario];
    sw.act = &sw.sc->actions[action];
    sw.offset = offset;
    sw.out = out;
    memset(&S, 0, sizeof S);
    memset(&G, 0, sizeof G);
    memset(&M1, 0, sizeof M1);
    memset(&M2, 0, sizeof M2);
    memset(&M3, 0, sizeof M3);
    memset(&Q, 0, sizeof Q);
    memset(&F, 0, sizeof F);
    memset(&P, 0, sizeof P);
    memset(&T, 0, sizeof T);
    t_fired = t_fired_deleted = 0u;
    blk = NULL;
    lmt_begin();
    lm_fatal_hook_set(fatal_hook);
    lmt_kc_reset();
    sw.sc->setup();
    spawn(TA, sw.sc->actor_prio, actor, true);
    spawn(TZ, PRIO_Z, janitor, true);
    lmt_run();
    if (!out->violation && !sw.janitor) {
        violation("the janitor never ran: a thread is spinning or the run ended early");
    }
}
