/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Races outside the kernel lock (docs/rules.md R9, R11.1, R12.3;
 * docs/errors.md). On hardware an interrupt can arrive at any instruction,
 * also where a call has checked something without the lock and not yet
 * taken it, and between the masked steps of a call that works in steps.
 * The hosted port delivers interrupts at unmasks (lm_hosted_irq_at_unmask)
 * and just before a lock (lm_hosted_irq_at_lock), so each case puts one
 * exactly at the window it tests and asserts the exact order of events.
 *
 *   - a walk (delete, flush, flags set, thread start with the watermark)
 *     runs to its end before any other thread runs, one waiter per step,
 *     and cannot be stopped or overtaken by a create halfway;
 *   - a call whose object is deleted between its check and its lock
 *     returns LM_ERR_OBJECT and changes nothing;
 *   - lm_thread_start and lm_thread_create are atomic against a start from
 *     an interrupt;
 *   - calls before lm_kernel_init are refused (LM_ERR_INIT).
 */
#include <string.h>
#include "harness.h"
#include "lmk.h"

#if LM_CFG_ARG_CHECKS

static lm_sem_t sem;
static lm_flags_t fl;
static lm_queue_t q;
static uint32_t qbuf[4];
static lm_thread_t *w[6];

static void fresh_sem(uint32_t initial)
{
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, initial, 10), LM_OK);
}

/* ---- R9.1: a delete's walk ---------------------------------------- */

/* A woken waiter that would re-create the semaphore and wait on it again:
 * it runs only once the walk is over, so the old waiters have all been
 * woken by then and none is left on, or taken from, the new queue. */
static void take_recreate_take(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem, 50), LM_ERR_DELETED);
    lmt_log("%s:DELETED", lmt_me());
    if (lm_thread_self() == w[0]) {
        LMT_ST(lm_sem_create(&sem, 0, 10), LM_OK);
        LMT_ST(lm_sem_take(&sem, 100), LM_OK);
        lmt_log("%s:OK@%u", lmt_me(), (unsigned)lm_tick_now());
    }
}

static void isr_recreate(void *arg)
{
    (void)arg;
    /* Under deletion: neither live nor free. */
    lmt_log("isr:create=%s:give=%s:del=%s", lmt_sn(lm_sem_create(&sem, 0, 10)),
            lmt_sn(lm_sem_give(&sem)), lmt_sn(lm_sem_delete(&sem)));
    /* The deleter cannot be stopped halfway (R6.5). */
    lmt_log("isr:terminate=%s:suspend=%s", lmt_sn(lm_thread_terminate(lm_thread_self())),
            lmt_sn(lm_thread_suspend(lm_thread_self())));
}

static void deleter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* every waiter blocks */
    lmt_log("D:del");
    LMT_EQ(lm_hosted_irq_at_unmask(2, isr_recreate, NULL), 0); /* after one wake */
    LMT_ST(lm_sem_delete(&sem), LM_OK);
    lmt_log("D:deleted");
    LMT_ST(lm_thread_sleep(10), LM_OK);
    LMT_ST(lm_sem_give(&sem), LM_OK); /* to the new semaphore's one waiter */
    lmt_log("D:gave");
}

LMT_CASE(delete_walk_not_overtaken)
{
    lmt_begin();
    fresh_sem(0);
    w[0] = lmt_spawn("H", 1, take_recreate_take, NULL);
    w[1] = lmt_spawn("M", 2, take_recreate_take, NULL);
    w[2] = lmt_spawn("L", 3, take_recreate_take, NULL);
    lmt_spawn("D", 5, deleter, NULL);
    lmt_run();
    /* Before the fix H preempted D at the first step, re-created the
     * semaphore and waited on it: M and L were then woken from the new
     * queue, or left blocked, and L's timeout later unlinked it from H's
     * ring. */
    lmt_expect("D:del isr:create=STATE:give=OBJECT:del=OBJECT isr:terminate=LOCKED:suspend=LOCKED "
               "H:DELETED M:DELETED L:DELETED D:deleted H:OK@11 D:gave");
    uint32_t c = 99;
    LMT_ST(lm_sem_count(&sem, &c), LM_OK);
    LMT_EQ(c, 0);
}

/* One waiter per step, most urgent first (R9.1, R10.6), seen from an
 * interrupt at every unmask of the delete. */
static unsigned probe_step;
static char probe_seen[8][8];

static void probe_blocked(void *arg)
{
    (void)arg;
    char *s = probe_seen[probe_step++];
    for (unsigned i = 0; i < 4u; i++) {
        *s++ = lm_thread_state(w[i]) == LM_THREAD_BLOCKED ? lm_thread_name(w[i])[0] : '-';
    }
    *s = '\0';
}

static void waiter(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void probing_deleter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    for (uint64_t n = 1; n <= 5u; n++) {
        LMT_EQ(lm_hosted_irq_at_unmask(n, probe_blocked, NULL), 0);
    }
    LMT_ST(lm_sem_delete(&sem), LM_OK);
    lmt_log("D:deleted");
}

LMT_CASE(delete_one_waiter_per_step)
{
    lmt_begin();
    probe_step = 0;
    fresh_sem(0);
    w[0] = lmt_spawn("a", 3, waiter, NULL);
    w[1] = lmt_spawn("b", 1, waiter, NULL);
    w[2] = lmt_spawn("c", 2, waiter, NULL);
    w[3] = lmt_spawn("d", 1, waiter, NULL);
    lmt_spawn("D", 5, probing_deleter, NULL);
    lmt_run();
    LMT_EQ(probe_step, 5);
    lmt_log("%s %s %s %s %s", probe_seen[0], probe_seen[1], probe_seen[2], probe_seen[3],
            probe_seen[4]);
    lmt_expect("b:DELETED d:DELETED c:DELETED a:DELETED D:deleted "
               "abcd a-cd a-c- a--- ----");
}

/* ---- R9.3: a flags set ---------------------------------------------- */

static lm_thread_t *unrelated;

static void flags_waiter(void *arg)
{
    uint32_t got = 0;
    LMT_ST(lm_flags_wait(&fl, (uint32_t)(uintptr_t)arg, LM_FLAGS_ANY, &got, LM_WAIT_FOREVER),
           LM_OK);
    lmt_log("%s:%x", lmt_me(), (unsigned)got);
}

static void unrelated_main(void *arg)
{
    (void)arg;
    lmt_log("M:runs");
}

static void ready_unrelated(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_start(unrelated), LM_OK);
    /* The setter cannot be ended or suspended in the middle of its scan. */
    lmt_log("isr:terminate=%s", lmt_sn(lm_thread_terminate(lm_thread_self())));
}

static void setter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_EQ(lm_hosted_irq_at_unmask(2, ready_unrelated, NULL), 0); /* after W's wake */
    LMT_ST(lm_flags_set(&fl, 0x3u), LM_OK);
    lmt_log("S:set");
}

LMT_CASE(flags_set_no_inversion)
{
    lmt_begin();
    memset(&fl, 0, sizeof fl);
    LMT_ST(lm_flags_create(&fl, 0), LM_OK);
    /* Arrival order W (less urgent than the setter), then H. */
    lmt_spawn("W", 7, flags_waiter, (void *)(uintptr_t)0x1u);
    lmt_spawn("H", 1, flags_waiter, (void *)(uintptr_t)0x2u);
    unrelated = lmt_spawn_ex("M", 3, LM_THRESHOLD_NONE, 0, unrelated_main, NULL, false);
    lmt_spawn("S", 6, setter, NULL);
    lmt_run();
    /* Before the fix M, made ready by the interrupt after W's wake, ran at
     * once and H, whose bits were set, waited behind it; and the interrupt
     * could terminate S with H left blocked. */
    lmt_expect("isr:terminate=LOCKED H:3 M:runs S:set W:3");
}

/* ---- R9.2: a flush ---------------------------------------------------- */

static void sender(void *arg)
{
    uint32_t m = (uint32_t)(uintptr_t)arg;
    lm_status_t st = lm_queue_send(&q, &m, sizeof m, LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
    if (st == LM_OK && m == 7u) {
        /* The most urgent sender sends again at once: after the flush, the
         * queue is full, so it waits. Before the fix it took the room that
         * the flush was still to give to G. */
        m = 8u;
        st = lm_queue_send(&q, &m, sizeof m, LM_NO_WAIT);
        lmt_log("%s:again:%s", lmt_me(), lmt_sn(st));
    }
}

static void isr_delete_queue(void *arg)
{
    (void)arg;
    lm_status_t del = lm_queue_delete(&q);
    lmt_log("isr:delete=%s:terminate=%s", lmt_sn(del),
            lmt_sn(lm_thread_terminate(lm_thread_self()))); /* the flusher, mid-walk */
}

static void flusher(void *arg)
{
    LMT_ST(lm_thread_sleep(1), LM_OK);
    if (arg != NULL) {
        LMT_EQ(lm_hosted_irq_at_unmask(2, isr_delete_queue, NULL), 0); /* after F's admission */
    }
    LMT_ST(lm_queue_flush(&q), LM_OK);
    uint32_t c = 99;
    lm_status_t st = lm_queue_count(&q, &c);
    lmt_log("K:flushed:%s:%u", lmt_sn(st), (unsigned)c);
}

static void make_full_queue(void)
{
    memset(&q, 0, sizeof q);
    LMT_ST(lm_queue_create(&q, qbuf, sizeof qbuf[0], 2), LM_OK);
    uint32_t m = 1;
    LMT_ST(lm_queue_send(&q, &m, sizeof m, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(&q, &m, sizeof m, LM_NO_WAIT), LM_OK);
}

LMT_CASE(flush_admits_every_room)
{
    lmt_begin();
    make_full_queue();
    lmt_spawn("F", 1, sender, (void *)(uintptr_t)7u);
    lmt_spawn("G", 2, sender, (void *)(uintptr_t)9u);
    lmt_spawn("K", 5, flusher, NULL);
    lmt_run();
    lmt_expect("F:OK F:again:WOULD_BLOCK G:OK K:flushed:OK:2");
}

/* An interrupt that deletes the queue between a flush's steps: the flush
 * admits nobody more, the delete wakes G (R9.1). */
LMT_CASE(flush_interrupted_by_delete)
{
    lmt_begin();
    make_full_queue();
    lmt_spawn("F", 1, sender, (void *)(uintptr_t)5u);
    lmt_spawn("G", 2, sender, (void *)(uintptr_t)9u);
    lmt_spawn("K", 5, flusher, (void *)1);
    lmt_run();
    lmt_expect("isr:delete=OK:terminate=LOCKED F:OK G:DELETED K:flushed:OBJECT:99");
}

/* ---- R11.1: lm_thread_start and lm_thread_create are atomic ----------- */

static lm_thread_t *target;
static unsigned target_runs;
static bool target_stays; /* the target stays live once it has run */

static void target_main(void *arg)
{
    (void)arg;
    target_runs++;
    lmt_log("T:runs");
    if (target_stays) {
        LMT_ST(lm_thread_sleep(LM_WAIT_FOREVER), LM_OK);
    }
}

static void isr_start_target(void *arg)
{
    (void)arg;
    lmt_log("isr:start=%s", lmt_sn(lm_thread_start(target)));
}

static void isr_start_delete_target(void *arg)
{
    (void)arg;
    lmt_log("isr:start=%s:delete=%s", lmt_sn(lm_thread_start(target)),
            lmt_sn(lm_thread_delete(target)));
}

static void starter(void *arg)
{
    uintptr_t where = (uintptr_t)arg;
    if (where == 0u) {
        /* Between start's check and its lock (hardware: any instruction
         * before the lock; here: just before it). */
        LMT_EQ(lm_hosted_irq_at_lock(1, isr_start_target, NULL), 0);
    } else {
        /* During the watermark fill, between start's two masked steps. */
        LMT_EQ(lm_hosted_irq_at_unmask(1, isr_start_delete_target, NULL), 0);
    }
    lmt_log("S:start=%s", lmt_sn(lm_thread_start(target)));
}

LMT_CASE(start_is_atomic_before_lock)
{
    lmt_begin();
    target_runs = 0;
    target_stays = true;
    target = lmt_spawn_ex("T", 1, LM_THRESHOLD_NONE, 0, target_main, NULL, false);
    lmt_spawn("S", 5, starter, (void *)0);
    lmt_run();
    /* Before the fix both starts returned LM_OK and the entry ran twice. */
    lmt_expect("isr:start=OK T:runs S:start=STATE");
    LMT_EQ(target_runs, 1);
}

LMT_CASE(start_is_atomic_during_fill)
{
    lmt_begin();
    target_runs = 0;
    target_stays = true;
    target = lmt_spawn_ex("T", 1, LM_THRESHOLD_NONE, 0, target_main, NULL, false);
    lmt_spawn("S", 5, starter, (void *)1);
    lmt_run();
    lmt_expect("isr:start=STATE:delete=STATE T:runs S:start=OK");
    LMT_EQ(target_runs, 1);
}

static LM_STACK_DEFINE(recreated_stack, 64u * 1024u);

static void creator(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the target has ended */
    target_stays = true;
    LMT_EQ(lm_hosted_irq_at_lock(1, isr_start_target, NULL), 0);
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.entry = target_main;
    a.stack = recreated_stack;
    a.stack_size = sizeof recreated_stack;
    a.priority = 1;
    lmt_log("C:create=%s", lmt_sn(lm_thread_create(target, &a)));
}

LMT_CASE(create_is_atomic)
{
    lmt_begin();
    target_runs = 0;
    target_stays = false;
    target = lmt_spawn("T", 1, target_main, NULL);
    lmt_spawn("C", 5, creator, NULL);
    lmt_run();
    /* The interrupt restarts the ended thread just before the create takes
     * the lock: the create must then refuse a live thread, not clear it
     * while it is in the ready queue. */
    lmt_expect("T:runs isr:start=OK T:runs C:create=STATE");
    LMT_EQ(target_runs, 2);
}

/* ---- R9.1 for every object that has waiters ---------------------------- */

enum walk_obj { WO_SEM, WO_MUTEX, WO_QUEUE, WO_FLAGS, WO_POOL, WO_COUNT };
static const char *const walk_names[WO_COUNT] = {"sem", "mutex", "queue", "flags", "pool"};
static enum walk_obj walk_obj;
static lm_thread_t *walker, *walk_waiter[2];

static lm_mutex_t mtx;
static lm_pool_t pool;
static LM_POOL_BUFFER_DEFINE(pbuf, 8, 2);

static lm_status_t walk_wait(void)
{
    uint32_t m = 0;
    void *b = NULL;
    switch (walk_obj) {
    case WO_SEM: return lm_sem_take(&sem, LM_WAIT_FOREVER);
    case WO_MUTEX: return lm_mutex_lock(&mtx, LM_WAIT_FOREVER);
    case WO_QUEUE: return lm_queue_receive(&q, &m, sizeof m, LM_WAIT_FOREVER);
    case WO_FLAGS: return lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &m, LM_WAIT_FOREVER);
    default: return lm_pool_alloc(&pool, &b, LM_WAIT_FOREVER);
    }
}

static lm_status_t walk_delete(void)
{
    switch (walk_obj) {
    case WO_SEM: return lm_sem_delete(&sem);
    case WO_MUTEX: return lm_mutex_delete(&mtx);
    case WO_QUEUE: return lm_queue_delete(&q);
    case WO_FLAGS: return lm_flags_delete(&fl);
    default: return lm_pool_delete(&pool);
    }
}

static lm_status_t walk_create(void)
{
    switch (walk_obj) {
    case WO_SEM: return lm_sem_create(&sem, 0, 1);
    case WO_MUTEX: return lm_mutex_create(&mtx, 0);
    case WO_QUEUE: return lm_queue_create(&q, qbuf, sizeof qbuf[0], 2);
    case WO_FLAGS: return lm_flags_create(&fl, 0);
    default: return lm_pool_create(&pool, pbuf, sizeof pbuf, 8, 2);
    }
}

static void walk_waiter_main(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* D owns the mutex, holds the blocks */
    lm_status_t st = walk_wait();
    /* R9.1: by the time any woken waiter runs, the walk has woken all. */
    bool others_woken = true;
    for (unsigned i = 0; i < 2u; i++) {
        others_woken = others_woken && lm_thread_state(walk_waiter[i]) != LM_THREAD_BLOCKED;
    }
    lmt_log("%s:%s:%s", lmt_me(), lmt_sn(st), others_woken ? "all" : "some");
}

static void walk_isr(void *arg)
{
    (void)arg;
    lmt_log("isr:create=%s:terminate=%s", lmt_sn(walk_create()),
            lmt_sn(lm_thread_terminate(walker)));
}

static void walk_deleter(void *arg)
{
    (void)arg;
    if (walk_obj == WO_MUTEX) {
        LMT_ST(lm_mutex_lock(&mtx, LM_NO_WAIT), LM_OK);
    }
    if (walk_obj == WO_POOL) {
        void *b = NULL;
        LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_OK);
        LMT_ST(lm_pool_alloc(&pool, &b, LM_NO_WAIT), LM_OK);
    }
    LMT_ST(lm_thread_sleep(2), LM_OK); /* both waiters block */
    LMT_EQ(lm_hosted_irq_at_unmask(2, walk_isr, NULL), 0); /* after the first wake */
    LMT_ST(walk_delete(), LM_OK);
    lmt_log("D:deleted");
}

LMT_CASE(every_delete_walk)
{
    for (walk_obj = WO_SEM; walk_obj < WO_COUNT; walk_obj++) {
        lmt_begin();
        memset(&sem, 0, sizeof sem);
        memset(&mtx, 0, sizeof mtx);
        memset(&q, 0, sizeof q);
        memset(&fl, 0, sizeof fl);
        memset(&pool, 0, sizeof pool);
        LMT_ST(walk_create(), LM_OK);
        walk_waiter[0] = lmt_spawn("H", 1, walk_waiter_main, NULL);
        walk_waiter[1] = lmt_spawn("L", 2, walk_waiter_main, NULL);
        walker = lmt_spawn("D", 5, walk_deleter, NULL);
        lmt_run();
        lmt_log("(%s)", walk_names[walk_obj]);
        char want[160];
        (void)snprintf(want, sizeof want,
                       "isr:create=STATE:terminate=LOCKED H:DELETED:all L:DELETED:all D:deleted (%s)",
                       walk_names[walk_obj]);
        lmt_expect(want);
    }
}

/* ---- docs/errors.md: deleted between the check and the lock ----------- */

static lm_timer_t tmr;
static lm_thread_t *victim;
static void *blk;

static void timer_fn(void *arg)
{
    (void)arg;
}

static void make_objects(void)
{
    fresh_sem(1);
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_mutex_create(&mtx, LM_MUTEX_INHERIT), LM_OK);
    memset(&q, 0, sizeof q);
    LMT_ST(lm_queue_create(&q, qbuf, sizeof qbuf[0], 2), LM_OK);
    memset(&fl, 0, sizeof fl);
    LMT_ST(lm_flags_create(&fl, 0x1u), LM_OK);
    memset(&pool, 0, sizeof pool);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, 8, 2), LM_OK);
    LMT_ST(lm_pool_alloc(&pool, &blk, LM_NO_WAIT), LM_OK);
    memset(&tmr, 0, sizeof tmr);
    LMT_ST(lm_timer_create(&tmr, timer_fn, NULL), LM_OK);
}

/* Each call, and the interrupt that deletes its object just before the
 * call takes the lock. */
enum race_call {
    RC_SEM_TAKE, RC_SEM_GIVE, RC_SEM_DELETE, RC_MTX_LOCK, RC_MTX_UNLOCK, RC_MTX_DELETE,
    RC_Q_SEND, RC_Q_SEND_FRONT, RC_Q_RECEIVE, RC_Q_PEEK, RC_Q_FLUSH, RC_Q_DELETE, RC_F_SET, RC_F_CLEAR,
    RC_F_WAIT, RC_F_DELETE, RC_P_ALLOC, RC_P_FREE, RC_P_DELETE, RC_T_START, RC_T_STOP,
    RC_T_DELETE, RC_TH_START, RC_TH_TERMINATE, RC_TH_DELETE, RC_TH_SUSPEND, RC_TH_RESUME,
    RC_TH_PRIORITY, RC_TH_THRESHOLD, RC_TH_ABORT, RC_COUNT
};

static const char *const race_names[RC_COUNT] = {
    "sem_take", "sem_give", "sem_delete", "mutex_lock", "mutex_unlock", "mutex_delete",
    "queue_send", "queue_send_front", "queue_receive", "queue_peek", "queue_flush", "queue_delete", "flags_set",
    "flags_clear", "flags_wait", "flags_delete", "pool_alloc", "pool_free", "pool_delete",
    "timer_start", "timer_stop", "timer_delete", "thread_start", "thread_terminate",
    "thread_delete", "thread_suspend", "thread_resume", "thread_set_priority",
    "thread_set_threshold", "thread_wait_abort"};

static enum race_call race;

static void isr_delete_object(void *arg)
{
    (void)arg;
    lm_status_t st = LM_ERR_PARAM;
    if (race <= RC_SEM_DELETE) {
        st = lm_sem_delete(&sem);
    } else if (race <= RC_MTX_DELETE) {
        st = lm_mutex_delete(&mtx);
    } else if (race <= RC_Q_DELETE) {
        st = lm_queue_delete(&q);
    } else if (race <= RC_F_DELETE) {
        st = lm_flags_delete(&fl);
    } else if (race <= RC_P_DELETE) {
        st = lm_pool_delete(&pool);
    } else if (race <= RC_T_DELETE) {
        st = lm_timer_delete(&tmr);
    } else {
        st = lm_thread_delete(victim);
    }
    LMT_ST(st, LM_OK);
}

static lm_status_t race_call(void)
{
    uint32_t m = 5, got = 0;
    void *b = NULL;
    switch (race) {
    case RC_SEM_TAKE: return lm_sem_take(&sem, 10);
    case RC_SEM_GIVE: return lm_sem_give(&sem);
    case RC_SEM_DELETE: return lm_sem_delete(&sem);
    case RC_MTX_LOCK: return lm_mutex_lock(&mtx, 10);
    case RC_MTX_UNLOCK: return lm_mutex_unlock(&mtx);
    case RC_MTX_DELETE: return lm_mutex_delete(&mtx);
    case RC_Q_SEND: return lm_queue_send(&q, &m, sizeof m, 10);
    case RC_Q_SEND_FRONT: return lm_queue_send_front(&q, &m, sizeof m, 10);
    case RC_Q_RECEIVE: return lm_queue_receive(&q, &m, sizeof m, 10);
    case RC_Q_PEEK: return lm_queue_peek(&q, &m, sizeof m);
    case RC_Q_FLUSH: return lm_queue_flush(&q);
    case RC_Q_DELETE: return lm_queue_delete(&q);
    case RC_F_SET: return lm_flags_set(&fl, 0x2u);
    case RC_F_CLEAR: return lm_flags_clear(&fl, 0x1u);
    case RC_F_WAIT: return lm_flags_wait(&fl, 0x1u, LM_FLAGS_ANY, &got, 10);
    case RC_F_DELETE: return lm_flags_delete(&fl);
    case RC_P_ALLOC: return lm_pool_alloc(&pool, &b, 10);
    case RC_P_FREE: return lm_pool_free(&pool, blk);
    case RC_P_DELETE: return lm_pool_delete(&pool);
    case RC_T_START: return lm_timer_start(&tmr, 5, 0);
    case RC_T_STOP: return lm_timer_stop(&tmr);
    case RC_T_DELETE: return lm_timer_delete(&tmr);
    case RC_TH_START: return lm_thread_start(victim);
    case RC_TH_TERMINATE: return lm_thread_terminate(victim);
    case RC_TH_DELETE: return lm_thread_delete(victim);
    case RC_TH_SUSPEND: return lm_thread_suspend(victim);
    case RC_TH_RESUME: return lm_thread_resume(victim);
    case RC_TH_PRIORITY: return lm_thread_set_priority(victim, 2);
    case RC_TH_THRESHOLD: return lm_thread_set_threshold(victim, 2);
    default: return lm_thread_wait_abort(victim);
    }
}

static void victim_main(void *arg)
{
    (void)arg;
    (void)lm_thread_sleep(LM_WAIT_FOREVER);
}

static void racer(void *arg)
{
    (void)arg;
    if (race == RC_MTX_UNLOCK) {
        LMT_ST(lm_mutex_lock(&mtx, LM_NO_WAIT), LM_OK);
    }
    if (race == RC_T_STOP) {
        LMT_ST(lm_timer_start(&tmr, 5, 0), LM_OK);
    }
    LMT_EQ(lm_hosted_irq_at_lock(1, isr_delete_object, NULL), 0);
    lm_status_t st = race_call();
    lmt_log("%s=%s", race_names[race], lmt_sn(st));
}

LMT_CASE(deleted_between_check_and_lock)
{
    for (race = RC_SEM_TAKE; race < RC_COUNT; race++) {
        lmt_begin();
        make_objects();
        victim = lmt_spawn_ex("V", 3, LM_THRESHOLD_NONE, 0, victim_main, NULL,
                              race != RC_TH_START);
        lmt_spawn("R", 5, racer, NULL);
        lmt_run();
        char want[64];
        (void)snprintf(want, sizeof want, "%s=OBJECT", race_names[race]);
        lmt_expect(want);
        /* Nothing changed by the refused call: no waiter left anywhere, no
         * timer armed, the thread not started again. */
        LMT_CHECK(!lm_timer_active(&tmr));
        LMT_EQ(lmk_waitq_best_prio(&sem.waiters), LMK_PRIO_NONE);
        LMT_EQ(lmk_waitq_best_prio(&mtx.waiters), LMK_PRIO_NONE);
        LMT_EQ(lmk_waitq_best_prio(&q.waiters), LMK_PRIO_NONE);
        LMT_EQ(lmk_waitq_best_prio(&pool.waiters), LMK_PRIO_NONE);
        LMT_CHECK(lmk_list_empty(&fl.waiters) && lmk_list_empty(&fl.scan));
    }
}

/* ---- R3.2, R4.5: a threshold against a priority changed meanwhile ------ */

static void isr_raise_victim(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(victim, 1), LM_OK);
}

static void isr_victim_to_3(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(victim, 3), LM_OK);
}

static void threshold_setter(void *arg)
{
    (void)arg;
    /* Base 4: a threshold of 3 passes the check, then a handler raises the
     * base to 1 just before the lock; 3 would now be less urgent than the
     * priority (R3.2). */
    LMT_EQ(lm_hosted_irq_at_lock(1, isr_raise_victim, NULL), 0);
    lm_status_t st = lm_thread_set_threshold(victim, 3);
    lmt_log("3:%s:%u", lmt_sn(st), lm_thread_threshold(victim));
    LMT_ST(lm_thread_set_priority(victim, 4), LM_OK);
    LMT_ST(lm_thread_set_threshold(victim, 2), LM_OK);
    /* "None" means the priority as it is when the call takes effect: the
     * handler's 3, not the 4 read before the lock. */
    LMT_EQ(lm_hosted_irq_at_lock(1, isr_victim_to_3, NULL), 0);
    st = lm_thread_set_threshold(victim, LM_THRESHOLD_NONE);
    lmt_log("none:%s:%u", lmt_sn(st), lm_thread_threshold(victim));
}

LMT_CASE(threshold_against_changed_priority)
{
    lmt_begin();
    victim = lmt_spawn_ex("V", 4, LM_THRESHOLD_NONE, 0, victim_main, NULL, false);
    lmt_spawn("S", 5, threshold_setter, NULL);
    lmt_run();
    lmt_expect("3:PRIORITY:1 none:OK:3");
}

/* ---- calls before lm_kernel_init -------------------------------------- */

static lm_fatal_t fatal_reason;

static void record_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *t)
{
    (void)where;
    (void)t;
    fatal_reason = reason;
    exit(40 + (int)reason);
}

static void start_uninitialised(void)
{
    memset(&lmk, 0, sizeof lmk); /* as at reset */
    lm_fatal_hook_set(record_fatal);
    lm_kernel_start();
}

LMT_CASE(calls_before_init)
{
    lmt_begin();
    memset(&lmk, 0, sizeof lmk); /* the kernel's state at reset (zeroed bss) */
    LMT_CHECK(!lm_kernel_initialised() && !lm_kernel_running());
    lm_thread_t t;
    memset(&t, 0, sizeof t);
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.entry = target_main;
    a.stack = recreated_stack;
    a.stack_size = sizeof recreated_stack;
    LMT_ST(lm_thread_create(&t, &a), LM_ERR_INIT);
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_ERR_INIT);
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_mutex_create(&mtx, 0), LM_ERR_INIT);
    memset(&q, 0, sizeof q);
    LMT_ST(lm_queue_create(&q, qbuf, sizeof qbuf[0], 2), LM_ERR_INIT);
    memset(&fl, 0, sizeof fl);
    LMT_ST(lm_flags_create(&fl, 0), LM_ERR_INIT);
    memset(&pool, 0, sizeof pool);
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, 8, 2), LM_ERR_INIT);
    memset(&tmr, 0, sizeof tmr);
    LMT_ST(lm_timer_create(&tmr, timer_fn, NULL), LM_ERR_INIT);
    /* Nothing was made live: after init each create succeeds. */
    lmt_begin();
    LMT_CHECK(lm_kernel_initialised());
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    LMT_ST(lm_thread_create(&t, &a), LM_OK);
    /* lm_kernel_start without lm_kernel_init stops at once, loudly. */
    LMT_EQ(lmt_in_child(start_uninitialised, NULL, 0), 40 + (int)LM_FATAL_ASSERT);
}

/* ---- R8.5: a tick between two expiry steps ------------------------------ */

#define SLOTS ((lm_tick_t)LM_CFG_TIMER_WHEEL_SLOTS)

static lm_thread_t *sleeper_x, *sleeper_y;
static lm_timer_t order_tmr;
static int tick_landings;
static uint64_t landing_unmask;

static void sleep_10(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(10), LM_OK);
}

/* Due a revolution after X, in X's slot: still on the `expiring` list
 * (kernel/timeout.c) when X's step is over. */
static void sleep_10_and_a_revolution(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(10 + SLOTS), LM_OK);
    lmt_log("Y@%u", (unsigned)lm_tick_now());
}

static void order_timer_fn(void *arg)
{
    (void)arg;
    /* Armed after Y's sleep for the same tick: R8.5 expires Y first. */
    lmt_log("timer@%u:Y=%s", (unsigned)lm_tick_now(),
            lm_thread_state(sleeper_y) == LM_THREAD_READY ? "ready" : "sleeping");
}

static void isr_tick_between_expiry_steps(void *arg)
{
    (void)arg;
    if (lm_thread_state(sleeper_x) != LM_THREAD_READY ||
        lm_thread_state(sleeper_y) != LM_THREAD_SLEEPING || lmk.timeout_work == 0u) {
        return; /* not the window between X's step and Y's */
    }
    tick_landings++;
    /* The next two tick interrupts, as they can land there on hardware
     * (the second finds the wheel's visit two ticks behind); then a timer
     * for Y's tick, whose slot Y's node has not gone back to yet. */
    lmk_tick_announce(1);
    lmk_tick_announce(1);
    LMT_ST(lm_timer_start(&order_tmr, 10 + SLOTS - lm_tick_now(), 0), LM_OK);
}

static void isr_at_tick_10(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_unmask(landing_unmask, isr_tick_between_expiry_steps, NULL), 0);
}

/* R8.5, R9.4: a tick that lands between two expiry steps of the previous
 * tick, while a node of the slot being visited is still on `expiring`,
 * must leave the wheel's visit where it is; a timeout armed then for that
 * node's tick expires after it. The unmask that reaches the window is found
 * by trying each of the first few after tick 10. */
LMT_CASE(tick_between_expiry_steps_keeps_arming_order)
{
    tick_landings = 0;
    for (landing_unmask = 1; landing_unmask <= 16u; landing_unmask++) {
        lmt_begin();
        memset(&order_tmr, 0, sizeof order_tmr);
        LMT_ST(lm_timer_create(&order_tmr, order_timer_fn, NULL), LM_OK);
        int before = tick_landings;
        /* X sleeps first: its node is ahead of Y's in their slot. */
        sleeper_x = lmt_spawn("X", 2, sleep_10, NULL);
        sleeper_y = lmt_spawn("Y", 3, sleep_10_and_a_revolution, NULL);
        LMT_EQ(lm_hosted_irq_at_tick(10, isr_at_tick_10, NULL), 0);
        lmt_run();
        if (tick_landings != before) {
            lmt_expect("timer@74:Y=ready Y@74");
        } else {
            lmt_expect("Y@74");
        }
    }
    LMT_CHECK(tick_landings >= 1); /* the window was reached */
}

/* ---- R8.5, R9.4: a tick between two runs of expiring sleeps ----------- */

#define TR_N (2u * LM_CFG_EXPIRIES_PER_STEP)
static lm_thread_t *tr_s[TR_N];
static unsigned tr_probes;
static int tr_landed;

static unsigned tr_woken(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < TR_N; i++) {
        n += (tr_s[i]->state != LM_THREAD_SLEEPING && tr_s[i]->state != LM_THREAD_BLOCKED) ? 1u : 0u;
    }
    return n;
}

/* At every unmask of tick 10's expiry work: once the first run of sleeps
 * is awake, the next tick interrupt lands (as it can on hardware). */
static void tr_probe(void *arg)
{
    (void)arg;
    unsigned n = tr_woken();
    if (n == TR_N || ++tr_probes > 64u + 4u * TR_N) {
        return; /* all awake (or the test is lost): stop probing */
    }
    if (tr_landed == 0 && n == LM_CFG_EXPIRIES_PER_STEP) {
        tr_landed = 1;
        lmk_tick_announce(1);
    }
    LMT_EQ(lm_hosted_irq_at_unmask(1, tr_probe, NULL), 0);
}

static void tr_at_tick(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_unmask(1, tr_probe, NULL), 0);
}

static void tr_sleep_until(void *arg)
{
    lm_tick_t when = (lm_tick_t)(uintptr_t)arg;
    LMT_ST(lm_thread_sleep(when - lm_tick_now()), LM_OK);
    lmt_log("%s@%u", lmt_me(), (unsigned)lm_tick_now());
}

static lm_sem_t tr_sem; /* never given */

static void tr_take_until(void *arg)
{
    lm_tick_t when = (lm_tick_t)(uintptr_t)arg;
    LMT_ST(lm_sem_take(&tr_sem, when - lm_tick_now()), LM_ERR_TIMEOUT);
    lmt_log("%s@%u", lmt_me(), (unsigned)lm_tick_now());
}

/* 2K threads running `entry` until tick 10 (K = LM_CFG_EXPIRIES_PER_STEP,
 * K per step) and one until tick 11, armed last; tick 11 lands between
 * the two runs of tick 10. The second run still takes tick 10's threads,
 * the wheel then visits tick 11's slot, and the switch handler is done
 * only then: every thread wakes in the order its timeout was armed. */
static void expect_tick_between_runs(void (*entry)(void *))
{
    memset(&tr_sem, 0, sizeof tr_sem); /* the takers' */
    LMT_ST(lm_sem_create(&tr_sem, 0, 1), LM_OK);
    tr_probes = 0;
    tr_landed = 0;
    static const char *const names[] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
                                        "s8", "s9", "s10", "s11", "s12", "s13", "s14",
                                        "s15", "s16", "s17", "s18", "s19", "s20", "s21",
                                        "s22", "s23", "s24", "s25", "s26", "s27", "s28",
                                        "s29", "s30", "s31"};
    _Static_assert(TR_N <= sizeof names / sizeof names[0] && TR_N < LMT_MAX_THREADS, "2K+1 threads");
    for (unsigned i = 0; i < TR_N; i++) {
        tr_s[i] = lmt_spawn(names[i], 4, entry, (void *)(uintptr_t)10u);
    }
    lmt_spawn("T", 4, entry, (void *)(uintptr_t)11u);
    LMT_EQ(lm_hosted_irq_at_tick(10, tr_at_tick, NULL), 0);
    lmt_run();
    LMT_EQ(tr_landed, 1);
    char want[(TR_N + 1u) * 8u] = "";
    for (unsigned i = 0; i < TR_N; i++) {
        strcat(want, names[i]);
        strcat(want, "@11 ");
    }
    strcat(want, "T@11");
    lmt_expect(want);
}

/* R8.5, R9.4: sleeps. */
LMT_CASE(tick_between_runs_of_sleeps)
{
    lmt_begin();
    expect_tick_between_runs(tr_sleep_until);
}

/* R8.5, R9.4: takes of a semaphore, which time out in runs as sleeps do. */
LMT_CASE(tick_between_runs_of_takes)
{
    lmt_begin();
    expect_tick_between_runs(tr_take_until);
}

/* ---- R8.5, R9.4: a visit more than a revolution behind ---------------- */

static lm_thread_t *lag_sleeper;
static lm_timer_t lag_tmr;

/* A handler that holds the switch handler off while more than a
 * revolution of ticks goes by (a long handler of higher priority). */
static void lag_isr(void *arg)
{
    (void)arg;
    for (lm_tick_t i = 0; i < SLOTS + 10u; i++) {
        lmk_tick_announce(1);
    }
}

static void lag_timer_fn(void *arg)
{
    (void)arg;
    lmt_log("timer@%u:S=%s", (unsigned)lm_tick_now(),
            lm_thread_state(lag_sleeper) == LM_THREAD_SLEEPING ? "sleeping" : "ready");
}

static void lag_sleep(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(3u + SLOTS), LM_OK);
    lmt_log("S@%u", (unsigned)lm_tick_now());
}

static void lag_main(void *arg)
{
    (void)arg;
    LMT_ST(lm_timer_start(&lag_tmr, 5, 0), LM_OK);
    LMT_EQ(lm_hosted_irq_raise(lag_isr, NULL), 0);
}

/* R8.5, R9.4: the wheel's visit falls more than a revolution behind `now`.
 * S's sleep, due at 3 + SLOTS, sits in the slot of tick 3, which the visit
 * reaches before the timer's tick 5: it is not due at that visit (it is a
 * revolution later) and goes back to its slot, so the timer still finds S
 * asleep, and timeouts expire in the order of their deadlines however far
 * behind the visit is. */
LMT_CASE(visit_a_revolution_behind_keeps_deadline_order)
{
    lmt_begin();
    memset(&lag_tmr, 0, sizeof lag_tmr);
    LMT_ST(lm_timer_create(&lag_tmr, lag_timer_fn, NULL), LM_OK);
    lag_sleeper = lmt_spawn("S", 2, lag_sleep, NULL);
    lmt_spawn("M", 3, lag_main, NULL);
    lmt_run();
    char buf[64];
    snprintf(buf, sizeof buf, "timer@%u:S=sleeping S@%u", 10u + (unsigned)SLOTS,
             10u + (unsigned)SLOTS);
    lmt_expect(buf);
}

LMT_MAIN(LMT_RUN(delete_walk_not_overtaken), LMT_RUN(delete_one_waiter_per_step),
         LMT_RUN(every_delete_walk),
         LMT_RUN(flags_set_no_inversion), LMT_RUN(flush_admits_every_room),
         LMT_RUN(flush_interrupted_by_delete), LMT_RUN(start_is_atomic_before_lock),
         LMT_RUN(start_is_atomic_during_fill), LMT_RUN(create_is_atomic),
         LMT_RUN(deleted_between_check_and_lock), LMT_RUN(threshold_against_changed_priority),
         LMT_RUN(calls_before_init), LMT_RUN(tick_between_expiry_steps_keeps_arming_order),
         LMT_RUN(tick_between_runs_of_sleeps), LMT_RUN(tick_between_runs_of_takes),
         LMT_RUN(visit_a_revolution_behind_keeps_deadline_order))
#else
#error "test_races needs LM_CFG_ARG_CHECKS (it runs on the default kernel only)"
#endif /* LM_CFG_ARG_CHECKS */
