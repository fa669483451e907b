/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel internals shared by the kernel's .c files and the ports' entry
 * points. Naming: lmk_ = internal; a _locked suffix means the caller holds
 * the kernel lock (lm_port_irq_lock) and the function neither takes nor
 * drops it.
 */
#ifndef LMK_H
#define LMK_H

#include "limen/limen.h"
#include "limen/port.h"
#include "list.h"
#include "prioq.h"
#include "waitq.h"
#include "port_check.h"
#include "lmk_trace.h"

/* What a blocked thread waits on (lm_thread_t.wait_kind). */
enum lmk_wait_kind {
    LMK_WAIT_NONE = 0,
    LMK_WAIT_SLEEP,   /* lm_thread_sleep: timeout only */
    LMK_WAIT_PRIOQ,   /* semaphore, queue, pool: wait_obj is a struct lm_waitq */
    LMK_WAIT_MUTEX,   /* wait_obj is an lm_mutex_t */
    LMK_WAIT_FLAGS    /* wait_obj is an lm_flags_t; qlink in its FIFO */
};

/* What an armed timeout's expiry ends (struct lm_timeout.kind), set when it
 * is armed. The expiry (timeout.c) ends sleeps, and waits in wait queues,
 * in runs of one kind, up to LM_CFG_EXPIRIES_PER_STEP a masked step; the
 * other kinds one per step. */
enum lmk_timeout_kind {
    LMK_TIMEOUT_SLEEP = 0, /* a thread's sleep */
    LMK_TIMEOUT_WAITQ,     /* a wait in a semaphore's, queue's or pool's wait queue */
    LMK_TIMEOUT_WAIT,      /* any other wait on an object: a mutex, event flags */
    LMK_TIMEOUT_TIMER      /* an lm_timer_t, or the head of `expiring` */
};

struct lmk_kernel {
    /* The first three fields are the port's view (include/limen/port.h,
     * LMK_SWITCH_*): its context-switch handler runs the deferred work if
     * any, then makes `next` current. */
    lm_thread_t *current;       /* the running thread */
    lm_thread_t *next;          /* the thread chosen to run: the running one
                                   unless a switch is pending (sched.c) */
    uint8_t timeout_work;       /* deferred expiry work pending (timeout.c) */
    uint8_t pi_work;            /* deferred inheritance work pending (mutex.c) */
    /* A thread made ready runs next if and only if its priority is below
     * (more urgent than) `bar`: the decision's threshold, kept with it so
     * that a wake decides in one compare (sched.c). `bar_next` is what the
     * bar becomes once `next` runs: its own threshold then counts too. */
    uint16_t bar;
    uint16_t bar_next;
    /* Next, what a switch counts and reports: the port may do it in
     * assembly (LMK_SWITCH_HOOK, LMK_SWITCH_STATS in limen/port.h). */
#if LM_CFG_SWITCH_HOOK
    lm_switch_hook_t switch_hook;
#endif
#if LM_CFG_STATS
    lm_kernel_stats_t stats;
#endif
    struct lm_prioq ready;      /* ready threads, running one included;
                                   the idle thread is never in it */
    lm_tick_t now;              /* ticks announced so far */
    uint16_t sched_lock;        /* scheduler lock depth: the application's
                                   (at most 255) plus one during a walk (R9) */
    /* p is in `held`: the head of ready ring p was preempted while its
     * threshold was more urgent than its priority; the threshold still
     * holds (R3.6). */
    struct lm_prio_set held;
    bool started;
    bool initialised;           /* lm_kernel_init has run (zero at reset) */
#if LM_CFG_MUTEX
    /* Links of inheritance chains still to propagate (R5.3) and threads
     * whose mutexes are still to release (R5.6), FIFO through pi_next; the
     * context-switch handler works through them before it chooses a thread
     * (mutex.c). */
    lm_thread_t *pi_head;
    lm_thread_t *pi_tail;
    /* Bumped whenever a mutex changes owner or a thread starts or stops
     * waiting on one: a stepwise R5.7 walk that sees it move starts again. */
    uint32_t chain_gen;
    /* The thread walking a chain for R5.7; no other thread runs meanwhile. */
    lm_thread_t *walker;
#endif
    lm_idle_hook_t idle_hook;
    lm_fatal_hook_t fatal_hook;
    /* The threads started and not ended, idle included, through their
     * `live` nodes: debuggers list threads from it (tools/gdb). */
    struct lm_dnode live;
#if LM_CFG_STATS && LM_CFG_STATS_CPU_TIME
    uint32_t cpu_mark;          /* the timestamp of the last charge (stats.c) */
    uint64_t cpu_elapsed;       /* lm_kernel_elapsed */
#endif
#if LM_STATS_INVERSIONS
    lm_thread_t *inv_owners;    /* owners with a waiter more urgent than
                                   themselves (stats.c) */
#endif
};

extern struct lmk_kernel lmk;
extern lm_thread_t lmk_idle_thread;

#include "lmk_stats.h"

#if LM_CFG_ASSERT
#define LM_ASSERT(cond) \
    do { if (!(cond)) { lm_fatal(LM_FATAL_ASSERT, __FILE__ ":" LMK_STR(__LINE__)); } } while (0)
#else
#define LM_ASSERT(cond) ((void)0)
#endif
#define LMK_STR2(x) #x
#define LMK_STR(x) LMK_STR2(x)

/* Every refusal of a public call leaves through LMK_FAIL, which reports it
 * to the error hook (LM_CFG_ERROR_HOOK). A macro, not a function: the
 * call's name and its caller's address are those of the public function
 * it is written in. */
#if LM_CFG_ERROR_HOOK
void lmk_error(lm_status_t status, const char *call, const void *caller);
static inline lm_status_t lmk_fail(lm_status_t status, const char *call, const void *caller)
{
    if (status <= LM_ERR_PARAM) {
        lmk_error(status, call, caller);
    }
    return status;
}
#define LMK_FAIL(status) lmk_fail((status), LMK_CALL_NAME, __builtin_return_address(0))
/* The public name of the call a refusal is reported for: the function's
 * own, except where a shared body serves two calls (queue.c). */
#define LMK_CALL_NAME __func__
#else
#define LMK_FAIL(status) (status)
#endif

/* Argument checks: present only with LM_CFG_ARG_CHECKS (docs/errors.md). */
#if LM_CFG_ARG_CHECKS
#define LMK_CHECK(cond, status) do { if (!(cond)) { return LMK_FAIL(status); } } while (0)
#define LMK_CHECK_OBJ(obj, magic_value) \
    do { if ((obj) == NULL) { return LMK_FAIL(LM_ERR_PARAM); } \
         if ((obj)->magic != (magic_value)) { return LMK_FAIL(LM_ERR_OBJECT); } } while (0)
/* The hot calls check only for NULL before the lock, and the magic word
 * once, under it (LMK_DEAD_LOCKED): the one check that counts (R12.3). */
#define LMK_CHECK_PTR(obj) \
    do { if ((obj) == NULL) { return LMK_FAIL(LM_ERR_PARAM); } } while (0)
/* The check above runs before the kernel lock is taken, so a delete can
 * come in between (an interrupt, or a more urgent thread it makes ready).
 * Every call that acts on the object reads the magic word again once it
 * holds the lock: one load and compare. */
#define LMK_DEAD_LOCKED(obj, magic_value) ((obj)->magic != (magic_value))
/* The argument checks that need no kernel state, in the calls whose public
 * header makes them inline (LM_ARG_CHECKS_INLINE): made there, not here. */
#if LM_ARG_CHECKS_INLINE
#define LMK_CHECK_ARGS(cond, status) ((void)(false && (cond)))
#else
#define LMK_CHECK_ARGS(cond, status) LMK_CHECK(cond, status)
#endif
/* Where a create or delete keeps its claim on the control block. */
#define LMK_MAGIC_OF(obj) (&(obj)->magic)
#else
/* "false &&" keeps the operands "used" without evaluating them. */
#define LMK_CHECK(cond, status) ((void)(false && (cond)))
#define LMK_CHECK_OBJ(obj, magic_value) ((void)0)
#define LMK_CHECK_PTR(obj) ((void)0)
#define LMK_DEAD_LOCKED(obj, magic_value) false
#define LMK_CHECK_ARGS(cond, status) ((void)(false && (cond)))
#define LMK_MAGIC_OF(obj) ((uint32_t *)NULL)
#endif

static inline bool lmk_timeout_valid(lm_tick_t timeout)
{
    return lm_timeout_valid(timeout);
}

static inline unsigned lmk_min_prio(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

/* ---- scheduler (sched.c) ---- */

/* The scheduler decides at the event: every call that readies, blocks,
 * yields or changes a priority sets lmk.next under the lock, and the port's
 * switch handler only carries the decision out (docs/design.md). */

/* The running thread `cur`, still ready, is about to be switched out by a
 * decision for another thread. If it did not give the CPU up and its
 * preemption-threshold is above its priority, its hold begins (R3.6): it
 * stays at the head of its ring and its threshold still bars its band.
 * Otherwise nothing is marked, and no bit its ring may have is cleared
 * here: a bit left from its own earlier hold goes when it gives the CPU up
 * (a relinquish and a slice's end clear it, and so does leaving the ready
 * queue), and one left after its threshold was lowered to its priority
 * bars nothing its priority does not (its limit is then its priority:
 * lmk_sched_decide_locked chooses and bars as if no hold were marked).
 * The idle thread's limit is its priority: it never holds, and no hold is
 * marked while it runs (tests/kcheck.c K2). Lock: held. Cost: O(1). */
static inline void lmk_sched_hold_mark_locked(const lm_thread_t *cur)
{
    if (cur->preempt_limit < cur->prio && cur->yielded == 0u) { /* most have no threshold */
        lmk_prioset_add(&lmk.held, cur->prio);
    }
}

/* t, ready and more urgent than the decision's bar, runs next: the wake's
 * preemption. Inline in the two hand-over wakes (lmk_wait_hand_over_locked);
 * lmk_sched_preempt_locked is the copy the other wakes call.
 * Context: any. Lock: held. Blocks: no. Cost: O(1). */
static inline void lmk_sched_preempt_inline_locked(lm_thread_t *t)
{
    lm_thread_t *cur = lmk.current;
    /* next == cur means cur was to go on running (it is then ready, and a
     * decision for it cleared its yield): it is preempted now. */
    if (lmk.next == cur) {
        lmk_sched_hold_mark_locked(cur);
    }
    lmk.next = t;
    lmk_trace_wake_preempts();
    /* Until t runs, a more urgent wake still goes first; a peer of t goes
     * behind it (R2.2). Once t runs, its threshold counts (R3.1). */
    lmk.bar = t->prio;
    lmk.bar_next = t->preempt_limit;
    lm_port_switch_pend();
}
void lmk_sched_preempt_locked(lm_thread_t *t);

/* Put t (READY) at the tail of its priority's ring; if it beats the
 * decision's bar, it runs next. Inline: this is every wake.
 * Context: any. Lock: held. Blocks: no. Cost: O(1). */
static inline void lmk_ready_insert_locked(lm_thread_t *t)
{
    lmk_prioq_push_back(&lmk.ready, &t->qlink, t->prio);
    /* R2.2: equal priority never preempts; R3.1: only above the threshold;
     * R6.2: nothing under the scheduler lock (the bar is then 0). */
    if (t->prio < lmk.bar) {
        lmk_sched_preempt_locked(t);
    }
}

/* The thread at the head of ready ring p (not empty). */
static inline lm_thread_t *lmk_ready_head(unsigned p)
{
    return LMK_CONTAINER_OF(lmk.ready.ring[p], lm_thread_t, qlink);
}

/* The decision for the head of ready ring `best`, the most urgent one, when
 * the running thread has given the CPU up and no hold is marked (the end of
 * lmk_sched_decide_given_up_locked, and a relinquish's own, which knows
 * `best` already). Context: any. Lock: held. Cost: O(1), no scan.
 * The running thread is not in an R5.7 walk here (mutex.c): its own calls
 * (a block, a yield) come after the walk has ended, and a handler that
 * stops it mid-walk goes through lmk_sched_leave_locked, which ends it. */
static inline void lmk_sched_choose_locked(unsigned best)
{
    lm_thread_t *next = lmk_ready_head(best);
    lmk.next = next;
    lmk.bar = (uint16_t)best;
    /* min(best, next's threshold): next's priority is best, so that is
     * next's own preemption limit. */
    lmk.bar_next = next->preempt_limit;
    lm_port_switch_pend();
}

/* The most urgent ready thread, first of its ring; idle if none is ready.
 * Context: any. Lock: held. Cost: O(1). */
static inline lm_thread_t *lmk_ready_best(void)
{
    unsigned p = lmk_prioq_best_prio(&lmk.ready);
    return (p != LMK_PRIO_NONE) ? lmk_ready_head(p) : &lmk_idle_thread;
}

/* Take t out of the ready queue and leave its links for the queue it
 * joins at once to write; a preempted thread's hold ends (R3.6). The
 * caller decides again (lmk_sched_decide_locked).
 * Context: any. Lock: held. Blocks: no. Cost: O(1). */
static inline void lmk_ready_unlink_locked(lm_thread_t *t)
{
    /* Holds are rare: the empty set is tested first, so that the usual
     * removal (the running thread, first of its ring) pays one test. */
    if (!lmk_prioset_empty(&lmk.held) && lmk.ready.ring[t->prio] == &t->qlink) {
        lmk_prioset_remove(&lmk.held, t->prio); /* a held thread leaves: its hold ends */
    }
    lmk_prioq_unlink(&lmk.ready, &t->qlink, t->prio);
}

/* The same for a thread that then is in no queue (NULL links). O(1). */
static inline void lmk_ready_remove_locked(lm_thread_t *t)
{
    lmk_ready_unlink_locked(t);
    t->qlink.next = NULL;
    t->qlink.prev = NULL;
}

/* Does the running thread keep the CPU whoever else is ready, as long as it
 * stays ready? Under the scheduler lock (R6.2), and while it walks a chain
 * of mutex owners for R5.7 (mutex.c). Cost: O(1). */
static inline bool lmk_sched_held(void)
{
#if LM_CFG_MUTEX
    return lmk.sched_lock != 0u || lmk.walker == lmk.current;
#else
    return lmk.sched_lock != 0u;
#endif
}

/* The running thread, in thread context, has just made lmk_sched_held()
 * true: nothing may preempt it now. (A thread runs only with no switch
 * pending, so lmk.next is already the running thread.) Lock: held. O(1). */
static inline void lmk_sched_hold_locked(void)
{
    lmk.bar = 0u;
    lmk.bar_next = 0u;
}

/* Decide again which thread runs next, from the whole state: the ready
 * queue, the running thread's threshold and yield, the holds (R3.6) and the
 * scheduler lock. Requests the switch if it is another thread.
 * Context: any. Lock: held. Blocks: no. Cost: O(1). */
void lmk_sched_decide_locked(void);
/*
 * lmk_sched_decide_locked for a running thread that is no longer ready or
 * has just yielded (`yielded` set): the next thread is the most urgent
 * ready one (R3.5). This is lmk_sched_decide_locked's answer when no hold
 * is marked and another thread is ready, reached with less work; anything
 * else goes to it. `no_holds`: the caller has seen the hold set empty under
 * this lock hold (lmk_sched_leave_body_locked), so it is not read again.
 * Inline: it ends every block and sleep.
 * Context: any. Lock: held. Blocks: no. Cost: O(1): one bit scan.
 */
static inline void lmk_sched_decide_given_up_locked(bool no_holds)
{
    unsigned best = lmk_prioq_best_prio(&lmk.ready);
    if ((!no_holds && !lmk_prioset_empty(&lmk.held)) || best == LMK_PRIO_NONE) {
        lmk_sched_decide_locked();
        return;
    }
    /* Not the running thread: it has left the queue, or yielded to a peer
     * now ahead of it or to a more urgent thread. */
    lmk_sched_choose_locked(best);
}
/* The running thread cur leaves the ready queue for new_state; the caller
 * links it into a wait queue at once, or clears its links (it then is in
 * no queue), and decides (lmk_sched_decide_given_up_locked, with what this
 * returns: true if no hold was marked, so none is now). Lock: held. O(1). */
static inline bool lmk_sched_leave_body_locked(lm_thread_t *cur, uint8_t new_state)
{
    bool no_holds = lmk_prioset_empty(&lmk.held);
    cur->state = new_state;
    /* R3.5: should cur be made ready again before the switch (by a
     * handler at the unmask), it is at the tail of its ring and has no
     * claim on the CPU until a decision chooses it. */
    cur->yielded = 1u;
    lmk_ready_unlink_locked(cur); /* reads the hold set again: the same load */
    return no_holds;
}
/* The running thread stops being ready (it blocks, sleeps, is suspended or
 * ends): take it out of the ready queue and decide. O(1). */
void lmk_sched_stop_current_locked(uint8_t new_state);
/* The same without the assert that it is not the idle thread: for the
 * blocking calls, which refuse the idle thread first (lmk_wait_allowed),
 * so that their path pays no second test. O(1). */
void lmk_sched_leave_locked(uint8_t new_state);
/* Move t to effective priority prio (not its current one) wherever it is
 * queued (R4). Does not follow inheritance chains (mutex.c does). O(1). */
void lmk_thread_move_prio_locked(lm_thread_t *t, unsigned prio);

/* For the port's context-switch handler (include/limen/port.h). */
/* Deferred work pending: the handler calls lmk_switch_work() first. */
static inline bool lmk_switch_work_pending(void)
{
    return (lmk.timeout_work | lmk.pi_work) != 0u;
}
lm_irqstate_t lmk_switch_work(void);
lm_thread_t *lmk_switch_commit_locked(void);

/* ---- waiting and waking (wait.c) ---- */

/* May the caller block for `timeout`? LM_OK, or the status to return:
 * LM_ERR_WOULD_BLOCK (no wait asked), LM_ERR_STATE (idle, or not started),
 * LM_ERR_LOCKED. The caller has already refused a handler (LM_ERR_ISR):
 * R12.1 wants that refusal even when the object could serve at once, so it
 * comes before the object is looked at, and is not repeated here.
 * Context: thread. Lock: any. Cost: O(1). */
static inline lm_status_t lmk_wait_allowed(lm_tick_t timeout)
{
    if (timeout == LM_NO_WAIT) {
        return LM_ERR_WOULD_BLOCK;
    }
    /* Until lm_kernel_start the running thread is the idle thread too
     * (lm_kernel_init_tick), so this one test also refuses a wait before
     * the start; before lm_kernel_init no object can exist (LM_ERR_INIT). */
    if (lmk.current == &lmk_idle_thread) {
        return LM_ERR_STATE;
    }
    if (lmk.sched_lock != 0u) {
        return LM_ERR_LOCKED; /* R6.1 */
    }
    return LM_OK;
}
/* Block the running thread on wait queue wq (kind PRIOQ or MUTEX) or as
 * described by kind, arming its timeout. The switch happens when the caller
 * releases the lock; the caller then returns lm_thread_self()->wait_status. */
void lmk_wait_prioq_locked(struct lm_waitq *wq, uint8_t kind, void *obj,
                           lm_tick_t timeout);
void lmk_block_current_locked(uint8_t kind, void *obj, lm_tick_t timeout);
/* End t's wait (any kind) with status: unlink from its wait queue, cancel
 * its timeout, make it ready (or suspended). For a mutex waiter, the owner's
 * inherited priority is recomputed (the chain beyond goes on stepwise,
 * mutex.c). O(1). */
void lmk_wait_end_locked(lm_thread_t *t, lm_status_t status);
/* t, a waiter in a wait queue (LMK_WAIT_PRIOQ), is served: it leaves the
 * queue and its wait ends with LM_OK. O(1). */
void lmk_wait_served_locked(lm_thread_t *t);
/* The rest of a delete begun with lmk_delete_begin_locked (lock NOT held):
 * wake every waiter of wq with LM_ERR_DELETED, one per masked step, then
 * end the delete. */
void lmk_delete_wake_all(struct lm_waitq *wq, uint32_t *magic);
#if LM_CFG_QUEUE
/* The rest of a flush begun with lmk_walk_begin_locked (lock held, state
 * s): admit blocked senders, one per masked step, while admit_one_locked
 * admits one; then end the walk. Releases the lock (wait.c). */
void lmk_walk_admit(void *queue, bool (*admit_one_locked)(void *queue), lm_irqstate_t s);
#endif
/* Most urgent waiter of wq, NULL if none. O(1). */
/* Context: any. Lock: held. Cost: O(1). */
static inline lm_thread_t *lmk_first_waiter(const struct lm_waitq *wq)
{
    return lmk_waitq_first(wq);
}
/* Unlink t from what it waits on and cancel its timeout, without waking. */
void lmk_wait_unlink_locked(lm_thread_t *t);
/* t's wait is over (t already unlinked): cancel the timeout, store status,
 * make t ready (or suspended, R11.2). O(1). */
void lmk_wait_finish_locked(lm_thread_t *t, lm_status_t status);

/* ---- object life cycle (object.c) ---- */

/* The magic word of a control block under deletion: neither live (calls on
 * it return LM_ERR_OBJECT) nor free (a create of it returns LM_ERR_STATE)
 * until the delete's last step. */
#define LMK_MAGIC_BUSY 0x2D2D2D2Du /* "----" */

/* A create is one masked step (its cost is the control block's fixed size),
 * so no other context ever sees an object half made. */
#if LM_CFG_ARG_CHECKS
/* May this control block be created? LM_ERR_INIT before lm_kernel_init,
 * LM_ERR_STATE if it is live or still being deleted. Lock: held. O(1). */
lm_status_t lmk_create_check_locked(const uint32_t *magic, uint32_t live);
#else
static inline lm_status_t lmk_create_check_locked(const uint32_t *magic, uint32_t live)
{
    (void)magic;
    (void)live;
    return LM_OK; /* checks off: no magic word */
}
#endif
/* The object is live from here on. Lock: held. O(1). */
/* With checks off, magic is unused (NULL): not a pointer to const. */
/* NOLINTNEXTLINE(readability-non-const-parameter) */
static inline void lmk_create_publish_locked(uint32_t *magic, uint32_t live)
{
#if LM_CFG_ARG_CHECKS
    *magic = live;
#else
    (void)magic;
    (void)live;
#endif
}

/* A walk over many waiters (R9.1-R9.3) in masked steps. From its start to
 * its end no other thread runs: the walker holds the scheduler lock (so
 * neither a thread it wakes nor an interrupt can end it halfway, R6.5) and
 * interrupts still run between its steps. A walk from a handler needs no
 * lock: no thread runs until the handler returns. Lock: held. O(1). */
static inline void lmk_walk_begin_locked(void)
{
    if (!lm_port_in_isr()) {
        lmk.sched_lock++;
        lmk_sched_hold_locked();
    }
}
void lmk_walk_end_locked(void);

/* First step of a delete: the object is no longer live and stays busy until
 * lmk_delete_end_locked, so no create can reuse the control block while its
 * waiters are still being woken (R9.1). Starts the walk. Lock: held. O(1). */
/* With checks off, magic is unused (NULL): not a pointer to const. */
/* NOLINTNEXTLINE(readability-non-const-parameter) */
static inline void lmk_delete_begin_locked(uint32_t *magic)
{
#if LM_CFG_ARG_CHECKS
    *magic = LMK_MAGIC_BUSY;
#else
    (void)magic;
#endif
    lmk_walk_begin_locked();
}
/* Last step of a delete: the control block is free. Ends the walk (and may
 * request the switch it held back). Lock: held. O(1). */
/* With checks off, magic is unused (NULL): not a pointer to const. */
/* NOLINTNEXTLINE(readability-non-const-parameter) */
static inline void lmk_delete_end_locked(uint32_t *magic)
{
#if LM_CFG_ARG_CHECKS
    *magic = 0u;
#else
    (void)magic;
#endif
    lmk_walk_end_locked();
}

/* ---- time (timeout.c) ---- */

void lmk_timeout_init(void);
/* Arm `to` to expire `ticks` (1..LM_TICK_MAX_TIMEOUT) ticks from now. O(1). */
void lmk_timeout_arm_locked(struct lm_timeout *to, lm_tick_t ticks);
/* Disarm `to` if armed. O(1). */
void lmk_timeout_cancel_locked(struct lm_timeout *to);
static inline bool lmk_timeout_armed(const struct lm_timeout *to)
{
    return to->link.next != NULL;
}
/* Tick interrupt: n ticks elapsed. O(1) under the lock. */
void lmk_tick_announce(lm_tick_t n);
/* One masked step of deferred tick work (lock held on entry, released on
 * return): expire up to LM_CFG_EXPIRIES_PER_STEP due timeouts, or move on
 * one slot, and clear lmk.timeout_work once nothing is left. From
 * lmk_switch_work(). O(LM_CFG_EXPIRIES_PER_STEP), a constant. */
void lmk_timeout_step(lm_irqstate_t s);
/* Ticks until the next timeout could expire (LM_WAIT_FOREVER when none is
 * armed). May be early by design, never late. O(slots/32). */
lm_tick_t lmk_ticks_to_next_event(void);
/* True when deferred tick work is pending. */
static inline bool lmk_timeout_work_pending(void)
{
    return lmk.timeout_work != 0u;
}

/* ---- timers (timer.c) ---- */
#if LM_CFG_TIMER
/* tm's timeout, due, is off the wheel: run its callback, arming it again
 * first if it is periodic. Lock: held on entry, released on return (before
 * the callback). O(1), the callback's excepted. Weak: a timer's node is on
 * the wheel only once lm_timer_start has run, so timeout.c reaches this
 * only in an image that links timer.c, and an image that starts no timer
 * links none of it. */
__attribute__((weak)) void lmk_timer_fire(lm_timer_t *tm, lm_irqstate_t s);
/* Arm `to`, whose expiry is under way, `period` ticks after its deadline
 * (a periodic timer: no drift, R10.2). Lock: held. O(1). */
void lmk_timeout_rearm_locked(struct lm_timeout *to, lm_tick_t period);
#endif

/* ---- fatal errors (kernel.c) ---- */

/* lm_fatal naming `thread`, which may be NULL: for a port that finds the
 * running thread's control block overwritten. */
_Noreturn void lmk_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *thread);

/* ---- threads (thread.c) ---- */

/* Where an entry function returns to: ends the calling thread. */
_Noreturn void lmk_thread_exit(void);
void lmk_idle_entry(void *arg);
#if LM_CFG_STACK_WATERMARK
/* Fill t's whole stack with the watermark pattern (before the port sets up
 * its first frame). Cost: O(stack size). */
void lmk_thread_stack_fill(lm_thread_t *t);
#endif

/* ---- mutexes (mutex.c) ---- */
#if LM_CFG_MUTEX

/* Recompute t's effective priority from its base and what it inherits, and
 * pass a change on along the chain of owners t waits behind (R5.3): a fixed
 * number of links now, the rest one step each in the context-switch
 * handler. O(1). */
__attribute__((weak)) void lmk_prio_update_locked(lm_thread_t *t);
/* The three entry points below are reached from the scheduler, the wait
 * protocol and a thread's end only once a mutex exists (a thread owns one,
 * waits on one, or has inheritance work queued). Weak, so that an image
 * that creates no mutex links none of mutex.c (about 1 KiB on Armv7-M):
 * those callers test for that state first, never for the symbol. */
/* t is ending and owns mutexes: give its first mutex to its next waiter
 * now, the others one per step in the context-switch handler (R5.6). O(1). */
__attribute__((weak)) void lmk_mutex_release_begin_locked(lm_thread_t *t);
/* A waiter left m (timeout, abort, end): recompute the owner. O(1). */
__attribute__((weak)) void lmk_mutex_waiter_left_locked(lm_mutex_t *m);
/* One masked step of the deferred links and releases (lock held on entry,
 * released on return), from lmk_switch_work(). O(1). */
__attribute__((weak)) void lmk_pi_step(lm_irqstate_t s);
#endif

/* ---- flags (flags.c) ---- */
#if LM_CFG_FLAGS
/* Unlink a flags waiter (timeout, abort). O(1). */
void lmk_flags_waiter_left_locked(lm_thread_t *t);
#endif

/* ---- the hottest wakes (wait.c's protocol, inlined) ---- */

/* lmk_wait_done_locked but for the preemption test, which the caller
 * makes if this returns true (t is ready): a run of wakes keeps the bar in
 * a register (timeout.c). Lock: held. O(1). */
static inline bool lmk_wait_resume_locked(lm_thread_t *t, lm_status_t status)
{
    lmk_trace_ready(t, status);
    lmk_stats_resumed(t, status);
    if (status != LM_OK) {
        t->wait_status = status;
    }
    if (t->suspended != 0u) {
        t->suspended = 0u; /* R11.2: a suspension asked during the wait */
        t->wait_kind = LMK_WAIT_NONE;
        t->state = LM_THREAD_SUSPENDED;
        t->qlink.next = NULL; /* in no queue (its waker may only have unlinked it) */
        t->qlink.prev = NULL;
        return false;
    }
    /* Two adjacent bytes, constants: one store (lm_thread_t). */
    t->wait_kind = LMK_WAIT_NONE;
    t->state = LM_THREAD_READY;
    t->slice_left = t->time_slice; /* R2.6 */
    lmk_prioq_push_back(&lmk.ready, &t->qlink, t->prio);
    return true;
}

/* t's wait is over and t is off every wait list and its timeout: store
 * the status, make t ready (or suspended, R11.2). Lock: held. O(1).
 * A wait begins with the status LM_OK (wait.c) and nothing writes it until
 * the wait ends, so an end with LM_OK, the common one, stores nothing:
 * where the status is a constant, the test is decided at compile time. */
static inline void lmk_wait_done_locked(lm_thread_t *t, lm_status_t status)
{
    if (lmk_wait_resume_locked(t, status) && t->prio < lmk.bar) {
        lmk_sched_preempt_locked(t); /* R2.2, R3.1, R6.2 as lmk_ready_insert_locked */
    }
}

/* The hand-over of a message to a waiting receiver (lm_queue_t,
 * lm_pqueue_t), or of a count to a waiting taker, whose wait ends well: t (the first waiter) leaves wq and
 * is made ready, and runs next if it beats the bar, all in the caller's
 * frame. These are the switches of the seeds' producer-consumer cycle and
 * the interrupt-to-thread path (measures 1 and 3). t must be wq's first
 * waiter (lmk_first_waiter). Lock: held. O(1). */
static inline void lmk_wait_hand_over_locked(struct lm_waitq *wq, lm_thread_t *t)
{
    lmk_waitq_unlink_first(wq, t);
    if (lmk_timeout_armed(&t->timeout)) { /* most waits end before their timeout */
        lmk_timeout_cancel_locked(&t->timeout);
    }
    if (lmk_wait_resume_locked(t, LM_OK) && t->prio < lmk.bar) {
#if defined(__OPTIMIZE_SIZE__)
        lmk_sched_preempt_locked(t); /* -Os: one copy, as lmk_wait_done_locked */
#else
        lmk_sched_preempt_inline_locked(t);
#endif
    }
}

#endif /* LMK_H */
