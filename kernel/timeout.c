/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Time: the tick, time-slices and the timeout wheel.
 *
 * The wheel has LM_CFG_TIMER_WHEEL_SLOTS slots; a timeout due at tick d sits
 * in slot d % slots, in a doubly linked list, so arming and cancelling are
 * O(1) whatever the number of armed timeouts. A bitmap marks busy slots.
 *
 * The tick interrupt advances the clock and the running thread's
 * time-slice, and visits the slot of the new tick (step A below) when every
 * earlier tick's expiry is done: O(1). Expiry runs later, in the
 * context-switch handler at the lowest interrupt priority, as a sequence of
 * masked steps of bounded cost:
 *
 *     step A  move the next unvisited slot onto the `expiring` list (splice);
 *             the tick's own when nothing is left over from earlier ticks
 *     step B  end a run of up to K = LM_CFG_EXPIRIES_PER_STEP due sleeps,
 *             or of up to K due waits in wait queues (semaphores, queues,
 *             pools), off the front of `expiring`; or take one other node:
 *             time its mutex or flags wait out or fire its timer if due,
 *             else put it back in its slot (a later round)
 *
 * Interrupts are unmasked between steps, so the longest time the kernel
 * holds off an interrupt is one step, whether 1 or 100 timeouts expire on
 * the same tick (R9.4, seed 003). Total work is O(expiring + slot occupants).
 *
 *        slot[0] slot[1] ... slot[k] ... slot[N-1]
 *                               |  splice (step A)
 *                               v
 *                           expiring --> a run of K or one node per step (step B)
 */
#include <string.h>
#include "lmk.h"

#define WHEEL_SLOTS ((lm_tick_t)LM_CFG_TIMER_WHEEL_SLOTS)
#define WHEEL_MASK (WHEEL_SLOTS - 1u)
#define WHEEL_WORDS ((LM_CFG_TIMER_WHEEL_SLOTS + 31) / 32)

static struct {
    struct lm_dnode slot[LM_CFG_TIMER_WHEEL_SLOTS];
    uint32_t busy[WHEEL_WORDS];  /* bit i: slot[i] not empty */
    /* Nodes taken from visited slots. The head is a timeout of the kind
     * LMK_TIMEOUT_TIMER, never armed: a run (runs_of) stops at it as
     * at any timer, with no test of its own. */
    struct lm_timeout expiring;
    /* Slots of ticks up to `done` visited. It moves only while `expiring`
     * is empty, so every node on `expiring` came from, or was armed into,
     * the slot of `done`: its deadline is done + k * slots, k >= 0, and it
     * is due exactly when k is 0, whatever `now` has become meanwhile. */
    lm_tick_t done;
    uint32_t armed;              /* armed timeouts, wherever they sit */
} wheel;

static inline bool slot_busy(lm_tick_t i)
{
    return (wheel.busy[i / 32u] & (1u << (i % 32u))) != 0u;
}

void lmk_timeout_init(void)
{
    for (unsigned i = 0; i < LM_CFG_TIMER_WHEEL_SLOTS; i++) {
        lmk_list_init(&wheel.slot[i]);
    }
    memset(wheel.busy, 0, sizeof wheel.busy);
    lmk_list_init(&wheel.expiring.link);
    wheel.expiring.kind = LMK_TIMEOUT_TIMER;
    wheel.done = lmk.now;
    wheel.armed = 0;
    lmk.timeout_work = 0u;
}

/* Queue `to` in its slot. O(1). */
static void slot_push(struct lm_timeout *to)
{
    lm_tick_t i = to->deadline & WHEEL_MASK;
    lmk_list_push_back(&wheel.slot[i], &to->link);
    wheel.busy[i / 32u] |= 1u << (i % 32u);
}

/* Put a newly armed `to` where its deadline will be seen: its slot, or,
 * while the slot of that deadline is being visited (its nodes are still on
 * `expiring`), the tail of `expiring`: the nodes armed before it and not yet
 * due go back to the slot first, so equal deadlines stay in arming order
 * (R8.5) even when one is armed in the middle of the visit. O(1).
 *
 * Every deadline inserted is after `done`, so its slot is never one the
 * wheel has passed for it: a new timeout is due at now + ticks and
 * done <= now; a periodic timer is re-armed at old + period while `done`
 * is still at old (its node came off `expiring` before `done` moves on).
 * `done` may lag `now` by many ticks while expiry work is pending; a
 * deadline between the two is in a slot `done` has still to reach. */
static void wheel_insert(struct lm_timeout *to)
{
    if (!lmk_list_empty(&wheel.expiring.link) &&
        (to->deadline & WHEEL_MASK) == (wheel.done & WHEEL_MASK)) {
        lmk_list_push_back(&wheel.expiring.link, &to->link);
        lmk.timeout_work = 1u;
        return;
    }
    slot_push(to);
}

/* Context: any. Lock: held. Cost: O(1). */
void lmk_timeout_arm_locked(struct lm_timeout *to, lm_tick_t ticks)
{
    LM_ASSERT(!lmk_timeout_armed(to));
    to->deadline = lmk.now + ticks;
    wheel_insert(to);
    wheel.armed++;
}

#if LM_CFG_TIMER
/* Context: switch handler (timer.c's expiry). Lock: held. Cost: O(1).
 * The node came off `expiring` and `done` is still at its old deadline,
 * so the new one is after `done` (wheel_insert). */
void lmk_timeout_rearm_locked(struct lm_timeout *to, lm_tick_t period)
{
    to->deadline += period;
    wheel_insert(to);
    wheel.armed++;
}
#endif

/* Context: any. Lock: held. Cost: O(1). */
void lmk_timeout_cancel_locked(struct lm_timeout *to)
{
    if (!lmk_timeout_armed(to)) {
        return;
    }
    lmk_list_remove(&to->link);
    lm_tick_t i = to->deadline & WHEEL_MASK;
    /* The node was in slot i or on `expiring`; either way an empty slot i
     * must not stay marked busy. */
    if (lmk_list_empty(&wheel.slot[i])) {
        wheel.busy[i / 32u] &= ~(1u << (i % 32u));
    }
    wheel.armed--;
}

/* The nodes of busy slot i go onto `expiring` (empty: `done` has just
 * moved to i's tick). O(1). */
static inline void slot_take(lm_tick_t i)
{
    lmk_list_splice_back(&wheel.expiring.link, &wheel.slot[i]);
    wheel.busy[i / 32u] &= ~(1u << (i % 32u));
}

/* Move on to the next slot, if `now` is not reached yet: its nodes go onto
 * `expiring`. With nothing left, the tick's work is done. Lock: held. O(1). */
static void visit_next_slot(void)
{
    if (wheel.done == lmk.now) {
        lmk.timeout_work = 0u;
    } else if (wheel.armed == 0u) {
        wheel.done = lmk.now; /* nothing anywhere: skip the empty slots */
    } else {
        wheel.done++;
        lm_tick_t i = wheel.done & WHEEL_MASK;
        if (slot_busy(i)) {
            slot_take(i);
        }
    }
}

/* Context: tick interrupt. Lock: taken. Blocks: no. Cost: O(1). */
void lmk_tick_announce(lm_tick_t n)
{
    lm_irqstate_t s = lm_port_irq_lock();
    lmk.now += n;
    lmk_trace_tick(n, lmk.now);
#if LM_CFG_STATS
    lmk.stats.ticks += n;
#endif
    lmk_stats_cpu_charge_locked(); /* charges at least once a tick (stats.c) */
    /* R2.4: the running thread's time-slice. */
    lm_thread_t *cur = lmk.current;
    /* Before lm_kernel_start the current thread is idle, which has no
     * slice (time_slice 0). */
    if (cur->time_slice != 0u && cur->state == LM_THREAD_READY) {
        if (cur->slice_left > n) {
            cur->slice_left -= n;
        } else if (lmk_sched_held()) {
            /* R6.3: expires at the first tick after unlock; so after an
             * R5.7 walk (mutex.c), which keeps cur at the head of its ring. */
            cur->slice_left = 1u;
        } else {
            cur->slice_left = cur->time_slice;
            lmk_ready_unlink_locked(cur);
            lmk_prioq_push_back(&lmk.ready, &cur->qlink, cur->prio);
            cur->yielded = 1u;
            lmk_trace_slice(cur);
#if LM_CFG_STATS
            lmk.stats.slice_expiries++;
            cur->stats.slice_expiries++;
#endif
            lmk_sched_decide_locked();
        }
    }
    /* Expiries are deferred to the switch handler; the common tick with
     * nothing due ends here, after at most the visit of its own slot.
     * Every node on `expiring` is armed, so `armed` counts them too. */
    if (wheel.armed != 0u) {
        if (n == 1u && wheel.done == lmk.now - 1u && !lmk.timeout_work) {
            /* The common tick, with every earlier tick's expiry done: the
             * one slot to visit is now's, and the visit (step A) is made
             * here, in O(1), rather than in a step of its own. */
            wheel.done = lmk.now;
            lm_tick_t i = lmk.now & WHEEL_MASK;
            if (slot_busy(i)) {
                slot_take(i);
                lmk.timeout_work = 1u;
                lm_port_switch_pend();
            }
        } else {
            lmk.timeout_work = 1u;
            lm_port_switch_pend();
        }
    } else {
        wheel.done = lmk.now;
    }
    lm_port_irq_unlock(s);
}


/* The nodes of `expiring` before n are gone: n (or the head) comes first. */
static inline void expiring_cut(struct lm_dnode *n)
{
    wheel.expiring.link.next = n;
    n->prev = &wheel.expiring.link;
}

/* The first node of `expiring`, n, is not one a run takes (runs_of): it
 * alone makes the step. Put back in its slot if due in a later revolution;
 * else a wait on a mutex or on event flags times out (a mutex's may leave
 * a chain to recompute, R9.6), or a timer fires: a periodic one is armed
 * again first, then the lock is released for the callback.
 * Lock: held on entry, released on return. Cost: O(1), the callback's
 * excepted. */
static void expire_other(struct lm_dnode *n, lm_irqstate_t s)
{
    lmk_list_remove(n);
    struct lm_timeout *to = LMK_CONTAINER_OF(n, struct lm_timeout, link);
    if (to->deadline != wheel.done) {
        slot_push(to); /* due in a later revolution */
        lm_port_irq_unlock(s);
        return;
    }
    wheel.armed--;
#if LM_CFG_TIMER
    if (to->kind == LMK_TIMEOUT_TIMER) {
        lmk_timer_fire(LMK_CONTAINER_OF(to, lm_timer_t, timeout), s);
        return;
    }
#endif
    /* A mutex or flags wait times out. Its node is off `expiring` and
     * marked disarmed (lmk_list_remove), so the general end finds no
     * timeout to cancel: two calls, for an expiry these kinds rarely
     * have, rather than a copy of them in every image. */
    lmk_wait_end_locked(LMK_CONTAINER_OF(to, lm_thread_t, timeout), LM_ERR_TIMEOUT); /* R8.1 */
    lm_port_irq_unlock(s);
}

/* Is n, a node of `expiring`, due at the visit of `done` and of the kind
 * `kind`? The head of `expiring` is marked a timer's, so a run stops there
 * too. */
static inline bool due_of_kind(const struct lm_dnode *n, lm_tick_t done, unsigned kind)
{
    const struct lm_timeout *to = LMK_CONTAINER_OF(n, const struct lm_timeout, link);
    return to->kind == kind && to->deadline == done;
}

/* n, the first node of `expiring`, is due and of the kind `kind`, a sleep
 * or a wait in a wait queue: end the run of such nodes that starts there,
 * up to LM_CFG_EXPIRIES_PER_STEP of them per masked step, with interrupts
 * taken between two steps. A sleep ends well (R8.1); a wait leaves its
 * wait queue and ends with LM_ERR_TIMEOUT. Stops at anything else, which
 * lmk_timeout_step takes next, and at inheritance work a handler queued
 * between two steps, which lmk_switch_work does first (R9.6). Each step
 * walks `expiring` from its head and cuts the nodes it took in one go at
 * its end: masked, nobody else looks at the list, and a taken node is
 * marked disarmed at once (link.next NULL), as a cancel expects.
 * One body for both kinds, made twice (sleep_runs, waitq_runs), so that
 * a sleep's wake, the common expiry, tests nothing for the other kind
 * (once at -Os, runs_of_any).
 * Lock: held on entry, released on return. Cost: O(LM_CFG_EXPIRIES_PER_STEP)
 * per masked step; a wait's unlink from its queue is O(1), bounded by the
 * trie's depth with compact wait queues (R10.6). */
static inline __attribute__((always_inline)) void runs_of(unsigned kind, struct lm_dnode *n,
                                                          lm_irqstate_t s)
{
    struct lm_dnode *const head = &wheel.expiring.link;
    const lm_tick_t done = wheel.done; /* fixed while `expiring` holds nodes */
    for (;;) {
        uint32_t left = LM_CFG_EXPIRIES_PER_STEP;
        unsigned bar = lmk.bar; /* changes only with a preemption, masked */
        do {
            lm_thread_t *t = LMK_CONTAINER_OF(n, lm_thread_t, timeout.link);
            n = n->next;
            t->timeout.link.next = NULL;
            t->timeout.link.prev = NULL;
            lm_status_t status = LM_OK; /* a sleep ends well (R8.1) */
            if (kind == LMK_TIMEOUT_WAITQ) { /* GCOVR_EXCL_BR_LINE: see docs/coverage.md */
                /* wait_obj is the wait queue (LMK_WAIT_PRIOQ); the links
                 * are left for the ready queue to write. */
                lmk_waitq_unlink((struct lm_waitq *)t->wait_obj, t);
                status = LM_ERR_TIMEOUT;
            }
            /* The woken thread preempts as lmk_ready_insert_locked says. */
            if (lmk_wait_resume_locked(t, status) && t->prio < bar) {
                lmk_sched_preempt_locked(t);
                bar = lmk.bar;
            }
        } while (--left != 0u && due_of_kind(n, done, kind));
        expiring_cut(n);
        wheel.armed -= LM_CFG_EXPIRIES_PER_STEP - left;
        if (n == head) {
            /* The last node taken, and the slot of `now` visited: nothing
             * is left, which would otherwise take a step of its own. */
            if (done == lmk.now) {
                lmk.timeout_work = 0u;
            }
            break;
        }
        if (left != 0u) {
            break; /* not this run's: lmk_timeout_step's */
        }
        lm_port_irq_unlock(s); /* interrupts in between */
        s = lm_port_irq_lock();
#if LM_CFG_MUTEX
        if (lmk.pi_work != 0u) {
            break;
        }
#endif
        n = head->next;
        if (!due_of_kind(n, done, kind)) {
            break;
        }
    }
    lm_port_irq_unlock(s);
}

#if defined(__OPTIMIZE_SIZE__)
/* At -Os one copy serves both kinds, `kind` then a variable its loop
 * compares with: the minimal kernel is smaller by the second copy. */
static __attribute__((noinline)) void runs_of_any(unsigned kind, struct lm_dnode *n,
                                                  lm_irqstate_t s)
{
    runs_of(kind, n, s);
}
#else
/* A run of due sleeps (runs_of). */
static __attribute__((noinline)) void sleep_runs(struct lm_dnode *n, lm_irqstate_t s)
{
    runs_of(LMK_TIMEOUT_SLEEP, n, s);
}

/* A run of due waits in wait queues (runs_of). */
static __attribute__((noinline)) void waitq_runs(struct lm_dnode *n, lm_irqstate_t s)
{
    runs_of(LMK_TIMEOUT_WAITQ, n, s);
}
#endif

/* Context: switch handler (lmk_switch_work). Lock: held on entry; released
 * on return (a timer callback runs after the release).
 * Cost: O(LM_CFG_EXPIRIES_PER_STEP) per masked step. A step visits one
 * slot, or ends a run of up to LM_CFG_EXPIRIES_PER_STEP due sleeps, or of
 * due waits in wait queues, the common expiries (runs_of), or takes one other
 * node of `expiring` (a wait on a mutex or flags, a timer, a node due in a
 * later revolution).
 * An expiry of a mutex waiter may leave the rest of an inheritance chain to
 * do, and a handler between two steps may leave a chain or an ended
 * thread's mutexes: lmk_switch_work does that work before the next expiry
 * (R9.6), as it would have had it been one step. */
void lmk_timeout_step(lm_irqstate_t s)
{
    /* The common steps first: a run of sleeps, or of waits (the head of
     * an empty `expiring` is a timer's, never a run's). */
    struct lm_dnode *n = wheel.expiring.link.next;
#if defined(__OPTIMIZE_SIZE__)
    unsigned kind = LMK_CONTAINER_OF(n, struct lm_timeout, link)->kind;
    if (kind <= LMK_TIMEOUT_WAITQ && due_of_kind(n, wheel.done, kind)) {
        runs_of_any(kind, n, s);
        return;
    }
#else
    if (due_of_kind(n, wheel.done, LMK_TIMEOUT_SLEEP)) {
        sleep_runs(n, s);
        return;
    }
    if (due_of_kind(n, wheel.done, LMK_TIMEOUT_WAITQ)) {
        waitq_runs(n, s);
        return;
    }
#endif
    if (n == &wheel.expiring.link) {
        visit_next_slot();
        lm_port_irq_unlock(s);
        return;
    }
    expire_other(n, s);
}

/* Busy bits of word w for the slots numbered `from` or more. */
static inline uint32_t bits_from(lm_tick_t w, lm_tick_t from)
{
    lm_tick_t base = w * 32u;
    if (from <= base) {
        return wheel.busy[w];
    }
    if (from - base >= 32u) {
        return 0u;
    }
    return wheel.busy[w] & ~((1u << (from - base)) - 1u);
}

/* Context: idle (port), tick source. Lock: held.
 * Cost: O(slots/32), the same whatever the distance to the next deadline:
 * every word of the busy bitmap is looked at once, with no early exit,
 * because the idle thread calls this with interrupts masked. */
lm_tick_t lmk_ticks_to_next_event(void)
{
    if (wheel.armed == 0u) {
        return LM_WAIT_FOREVER;
    }
    /* timeout_work is set whenever `done` falls behind `now` or a node goes
     * onto `expiring`, and cleared only once both are settled. */
    if (lmk.timeout_work) {
        return 0;
    }
    /* Slots are visited from now+1 on, round the wheel: a busy slot s at or
     * after `from` is (s - from) slots away, one before it wraps round. */
    lm_tick_t from = (lmk.now + 1u) & WHEEL_MASK;
    lm_tick_t best = WHEEL_SLOTS;
    for (lm_tick_t w = 0; w < (lm_tick_t)WHEEL_WORDS; w++) {
        uint32_t ahead = bits_from(w, from);
        uint32_t behind = wheel.busy[w] & ~ahead;
        if (ahead != 0u) {
            lm_tick_t d = w * 32u + (lm_tick_t)__builtin_ctz(ahead) - from;
            best = d < best ? d : best;
        }
        if (behind != 0u) {
            lm_tick_t d = w * 32u + (lm_tick_t)__builtin_ctz(behind) + WHEEL_SLOTS - from;
            best = d < best ? d : best;
        }
    }
    return best + 1u; /* best < WHEEL_SLOTS while a timeout is armed */
}

lm_tick_t lm_tick_next_deadline(void)
{
    lm_irqstate_t s = lm_port_irq_lock();
    lm_tick_t d = lmk_ticks_to_next_event();
    lm_port_irq_unlock(s);
    return d;
}

lm_tick_t lm_tick_now(void)
{
    return lmk.now;
}
