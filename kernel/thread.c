/* SPDX-License-Identifier: Apache-2.0 */
/* Threads: life cycle, suspension, sleep, relinquish, priorities. */
#include <stddef.h>
#include <string.h>
#include "lmk.h"

#define STACK_FILL 0xA5u

/* The watermark reads and fills whole stacks, red zones of old frames
 * included; those bytes are the kernel's to read, not an overflow. GCC and
 * clang accept the attribute (and ignore it) without AddressSanitizer. */
#define LMK_NO_ASAN __attribute__((no_sanitize_address))

void lm_thread_attr_init(lm_thread_attr_t *attr)
{
    if (attr == NULL) {
        return;
    }
    memset(attr, 0, sizeof *attr);
    attr->priority = (uint16_t)(LM_CFG_PRIORITIES / 2);
    attr->threshold = LM_THRESHOLD_NONE;
}

static bool thread_live(const lm_thread_t *t)
{
    return t->state != LM_THREAD_INACTIVE && t->state != LM_THREAD_TERMINATED;
}

/* May t be created or started anew? Not while it is live, while a start is
 * filling its stack, or while it is still the running thread after ending
 * itself (its stack is in use until the switch away from it).
 * Lock: held. Cost: O(1). */
static bool thread_reusable_locked(const lm_thread_t *t)
{
    return !thread_live(t) && t->starting == 0u && t != lmk.current;
}

#if LM_CFG_ARG_CHECKS
/* The attribute checks of lm_thread_create (docs/errors.md). Plain returns:
 * lm_thread_create reports a refusal (LMK_FAIL) as its own. */
static lm_status_t attr_check(const lm_thread_attr_t *attr)
{
    if (attr->entry == NULL || attr->stack == NULL ||
        ((uintptr_t)attr->stack & (LM_PORT_STACK_ALIGN - 1u)) != 0u ||
        attr->stack_size < LM_PORT_MIN_STACK) {
        return LM_ERR_PARAM;
    }
    if (attr->priority >= LM_CFG_PRIORITIES ||
        (attr->threshold != LM_THRESHOLD_NONE && attr->threshold > attr->priority)) {
        return LM_ERR_PRIORITY;
    }
    if (attr->time_slice > LM_TICK_MAX_TIMEOUT) {
        return LM_ERR_PARAM;
    }
    return LM_OK;
}
#endif

/* Context: thread or before start. Lock: taken. Cost: O(1). */
lm_status_t lm_thread_create(lm_thread_t *t, const lm_thread_attr_t *attr)
{
    LMK_CHECK(t != NULL && attr != NULL, LM_ERR_PARAM);
#if LM_CFG_ARG_CHECKS
    lm_status_t bad = attr_check(attr);
    if (bad != LM_OK) {
        return LMK_FAIL(bad);
    }
#endif
    LMK_CHECK(!lm_port_in_isr(), LM_ERR_ISR);
#if LM_CFG_ARG_CHECKS
    if (!lmk.initialised) {
        return LMK_FAIL(LM_ERR_INIT);
    }
#endif
    /* Under the lock, so that a start or delete from an interrupt sees the
     * block either before or after the check and the clearing, never
     * halfway. A control block is a fixed size: O(1) masked. */
    lm_irqstate_t s = lm_port_irq_lock();
#if LM_CFG_ARG_CHECKS
    if (t->magic == LM_MAGIC_THREAD && !thread_reusable_locked(t)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_STATE);
    }
#endif
#if LM_CFG_MUTEX
    /* All but the inheritance counts (the last field, thread.h): the
     * masked clearing stays the same size whatever LM_CFG_PRIORITIES. */
    memset(t, 0, offsetof(lm_thread_t, pi_count));
#else
    memset(t, 0, sizeof *t);
#endif
    t->base_prio = attr->priority;
    t->prio = attr->priority;
    t->threshold = (attr->threshold == LM_THRESHOLD_NONE) ? attr->priority : attr->threshold;
    t->preempt_limit = t->threshold;
    t->state = LM_THREAD_INACTIVE;
    t->time_slice = attr->time_slice;
    t->entry = attr->entry;
    t->arg = attr->arg;
    t->stack = attr->stack;
    t->stack_size = attr->stack_size & ~(size_t)(LM_PORT_STACK_ALIGN - 1u);
    t->name = attr->name;
    lmk_list_init(&t->held);
#if LM_CFG_ARG_CHECKS
    t->magic = LM_MAGIC_THREAD;
#endif
    lmk_trace_thread_create(t);
    lm_port_irq_unlock(s);
    return LM_OK;
}

#if LM_CFG_STACK_WATERMARK
LMK_NO_ASAN static void stack_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = STACK_FILL;
    }
}

void lmk_thread_stack_fill(lm_thread_t *t)
{
    stack_fill((uint8_t *)t->stack, t->stack_size);
}
#endif

/* Context: thread, isr. Lock: taken. Cost: O(1) masked; O(stack) unmasked
 * with the watermark, during which the thread is claimed (`starting`: a
 * start, create or delete of it from an interrupt returns LM_ERR_STATE) and
 * the caller holds the scheduler lock, as a walk does (R9): no other thread
 * runs and no interrupt can stop the caller, so the claim always ends. */
lm_status_t lm_thread_start(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    if (!thread_reusable_locked(t)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_STATE);
    }
#if LM_CFG_STACK_WATERMARK
    t->starting = 1u;
    lmk_walk_begin_locked();
    lm_port_irq_unlock(s);
    stack_fill((uint8_t *)t->stack, t->stack_size);
    s = lm_port_irq_lock();
    t->starting = 0u;
    lmk_walk_end_locked();
#endif
    lm_port_stack_init(t); /* O(1): the first frame only */
    t->prio = t->base_prio;
    t->preempt_limit = (uint16_t)lmk_min_prio(t->threshold, t->prio);
    t->slice_left = t->time_slice;
    t->yielded = 0u;
    t->suspended = 0u;
    t->wait_kind = LMK_WAIT_NONE;
    t->state = LM_THREAD_READY;
    lmk_list_push_back(&lmk.live, &t->live);
    lmk_trace_thread(LM_TRACE_THREAD_START, t, 0u);
    lmk_stats_resumed(t, LM_OK);
    /* t->held: empty since t ended, or still being released (R5.6) by the
     * switch handler, which runs before t can. */
    lmk_ready_insert_locked(t);
    lm_port_irq_unlock(s);
    return LM_OK;
}

/* End t wherever it is. Lock: held. Cost: O(1); the release of a second
 * mutex and more, and chains, go on in the switch handler (mutex.c). */
static void thread_end_locked(lm_thread_t *t)
{
    lmk_trace_thread(LM_TRACE_THREAD_END, t, 0u);
    lmk_list_remove(&t->live);
    switch (t->state) {
    case LM_THREAD_READY:
        if (t == lmk.current) {
            lmk_sched_stop_current_locked(LM_THREAD_TERMINATED);
            lmk.sched_lock = 0u; /* R6.4: an ending thread drops the lock */
        } else {
            lmk_ready_remove_locked(t);
            lmk_sched_decide_locked(); /* R3.6: a hold t had may have ended */
        }
        break;
    case LM_THREAD_BLOCKED:
    case LM_THREAD_SLEEPING:
        lmk_wait_unlink_locked(t);
        break;
    default:
        break;
    }
    t->state = LM_THREAD_TERMINATED;
    t->suspended = 0u;
#if LM_CFG_MUTEX
    if (!lmk_list_empty(&t->held)) {
        lmk_mutex_release_begin_locked(t); /* R5.6 */
    }
#endif
}

static lm_status_t thread_stop_checks(const lm_thread_t *t)
{
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        return LM_ERR_OBJECT;
    }
    if (t == &lmk_idle_thread) {
        return LM_ERR_STATE;
    }
    if (t == lmk.current && lmk.sched_lock != 0u && lm_port_in_isr()) {
        return LM_ERR_LOCKED;
    }
    return LM_OK;
}

lm_status_t lm_thread_terminate(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = thread_stop_checks(t);
    if (st == LM_OK && !thread_live(t)) {
        st = LM_ERR_STATE;
    }
    if (st == LM_OK) {
        thread_end_locked(t);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st); /* not reached when t is the calling thread */
}

lm_status_t lm_thread_delete(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = thread_stop_checks(t);
    if (st == LM_OK && t->starting != 0u) {
        st = LM_ERR_STATE; /* a start is filling its stack (lm_thread_start) */
    }
    if (st == LM_OK) {
        lmk_trace_thread(LM_TRACE_THREAD_DELETE, t, 0u);
        if (thread_live(t)) {
            thread_end_locked(t);
        }
#if LM_CFG_ARG_CHECKS
        t->magic = 0u;
#endif
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

_Noreturn void lmk_thread_exit(void)
{
    (void)lm_thread_terminate(lmk.current);
    /* Not reached: terminating oneself does not return (R11.3). Only a
     * broken port gets here (docs/coverage.md). */
    lm_fatal(LM_FATAL_PORT, "a terminated thread ran again"); /* GCOVR_EXCL_LINE */
}

lm_status_t lm_thread_suspend(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lm_status_t st = LM_OK;
    switch (t->state) {
    case LM_THREAD_READY:
        if (t == &lmk_idle_thread) {
            st = LM_ERR_STATE;
        } else if (t == lmk.current) {
            if (lmk.sched_lock != 0u) {
                st = LM_ERR_LOCKED;
            } else {
                lmk_sched_stop_current_locked(LM_THREAD_SUSPENDED);
            }
        } else {
            lmk_ready_remove_locked(t);
            t->state = LM_THREAD_SUSPENDED;
            lmk_sched_decide_locked(); /* R3.6: a hold t had may have ended */
        }
        break;
    case LM_THREAD_BLOCKED:
    case LM_THREAD_SLEEPING:
        if (t->suspended != 0u) {
            st = LM_ERR_STATE;
        } else {
            t->suspended = 1u; /* R11.2 */
        }
        break;
    default:
        st = LM_ERR_STATE;
        break;
    }
    lmk_trace_thread(LM_TRACE_THREAD_SUSPEND, t, (uint16_t)st);
    if (st == LM_OK) {
        lmk_stats_suspended(t);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_status_t lm_thread_resume(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = LM_OK;
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        st = LM_ERR_OBJECT;
    } else if (t->state == LM_THREAD_SUSPENDED) {
        t->state = LM_THREAD_READY;
        t->slice_left = t->time_slice; /* R2.6 */
        lmk_ready_insert_locked(t);
    } else if ((t->state == LM_THREAD_BLOCKED || t->state == LM_THREAD_SLEEPING) &&
               t->suspended != 0u) {
        t->suspended = 0u;
    } else {
        st = LM_ERR_STATE;
    }
    lmk_trace_thread(LM_TRACE_THREAD_RESUME, t, (uint16_t)st);
    if (st == LM_OK) {
        lmk_stats_resumed(t, LM_OK);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_status_t lm_thread_sleep(lm_tick_t ticks)
{
    LMK_CHECK(lmk_timeout_valid(ticks), LM_ERR_PARAM);
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR); /* docs/errors.md: sleep from a handler, even of 0 ticks */
    }
    if (ticks == 0u) {
        return LM_OK;
    }
    lm_status_t st = lmk_wait_allowed(ticks);
    if (st != LM_OK) {
        return LMK_FAIL(st);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lmk_block_current_locked(LMK_WAIT_SLEEP, NULL, ticks);
    lm_port_irq_unlock(s);
    return lmk.current->wait_status;
}

/* Context: thread. Lock: taken. Cost: O(1), one masked step (R8.6).
 * The deadline comes from *wake, never from the time of the call, so a late
 * wake-up or a long piece of work shortens the next sleep instead of moving
 * every later deadline: a periodic thread never drifts. The time left is
 * read under the lock, so a tick between the read and the arming cannot
 * move the wake-up off the deadline. */
lm_status_t lm_thread_sleep_until(lm_tick_t *wake, lm_tick_t period)
{
    LMK_CHECK(wake != NULL, LM_ERR_PARAM);
    LMK_CHECK(period != 0u && period <= LM_TICK_MAX_TIMEOUT, LM_ERR_PARAM);
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    lm_tick_t deadline = *wake + period;
    lm_irqstate_t s = lm_port_irq_lock();
    lm_tick_t left = deadline - lmk.now;
    if ((int32_t)left <= 0) {
        /* The deadline is this tick (on time) or has passed (late): the
         * period is counted all the same, so the caller can tell how many
         * it missed and the schedule stays on its grid. */
        *wake = deadline;
        lm_port_irq_unlock(s);
        return (left == 0u) ? LM_OK : LM_ERR_TIMEOUT;
    }
    lm_status_t st = lmk_wait_allowed(left);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(st);
    }
    *wake = deadline;
    lmk_block_current_locked(LMK_WAIT_SLEEP, NULL, left);
    lm_port_irq_unlock(s);
    return lmk.current->wait_status;
}

/* Context: thread. Lock: taken. Cost: O(1). R2.3, R3.3. */
lm_status_t lm_thread_yield(void)
{
    if (lm_port_in_isr()) {
        return LMK_FAIL(LM_ERR_ISR);
    }
    if (lmk.sched_lock != 0u) {
        return LMK_FAIL(LM_ERR_LOCKED);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *cur = lmk.current;
    lmk_trace_yield(cur);
    lmk_stats_relinquished(cur);
    /* The idle thread alone has the priority LM_CFG_PRIORITIES (kernel.c):
     * the test reads the priority the rest needs rather than an address. */
    if (cur->prio < LM_CFG_PRIORITIES) {
        /* cur is ready and not the idle thread: its ring is not empty. */
        unsigned best = lmk_prioq_best_prio_of_nonempty(&lmk.ready);
        bool peer = lmk_prioq_has_peer(&lmk.ready, cur->prio);
        /* A bit for cur's ring in `held` is the one cur may have kept from
         * its own hold (sched.c): a yield ends it (R3.3), and it must not
         * pass to a peer. */
        bool no_holds = lmk_prioset_empty(&lmk.held); /* read once: holds are rare */
        if (!no_holds) {
            lmk_prioset_remove(&lmk.held, cur->prio);
            no_holds = lmk_prioset_empty(&lmk.held);
        }
        if (peer) {
            lmk_prioq_rotate(&lmk.ready, cur->prio);
            cur->slice_left = cur->time_slice; /* R2.3: a full slice next time */
        }
        /* Anyone to give the CPU to: an equal, or one the threshold held back. */
        if (peer || best < cur->prio) {
            cur->yielded = 1u;
            /* cur is ready, so `best` is a priority: with no hold marked the
             * answer is the head of its ring (the peer now ahead of cur, or
             * the more urgent thread cur's threshold held back). */
            if (no_holds) {
                lmk_sched_choose_locked(best);
            } else {
                lmk_sched_decide_locked();
            }
        }
    }
    lm_port_irq_unlock(s);
    return LM_OK;
}

lm_status_t lm_thread_set_priority(lm_thread_t *t, unsigned priority)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    LMK_CHECK(priority < LM_CFG_PRIORITIES, LM_ERR_PRIORITY);
    if (t == &lmk_idle_thread) {
        return LMK_FAIL(LM_ERR_STATE);
    }
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    /* R4.5: never less urgent than the priority. R3.2: a threshold equal to
     * the priority means none, and keeps meaning none. */
    if (t->threshold > priority || t->threshold == t->base_prio) {
        t->threshold = (uint16_t)priority;
    }
    t->base_prio = (uint16_t)priority;
    if (thread_live(t)) {
#if LM_CFG_MUTEX
        /* With no mutex in the image (lmk.h), nothing is inherited. */
        if (lmk_prio_update_locked != NULL) {
            lmk_prio_update_locked(t);
        } else if (t->prio != priority) {
            lmk_thread_move_prio_locked(t, priority);
        }
#else
        if (t->prio != priority) {
            lmk_thread_move_prio_locked(t, priority);
        }
#endif
    } else {
        t->prio = (uint16_t)priority;
    }
    t->preempt_limit = (uint16_t)lmk_min_prio(t->threshold, t->prio);
    if (t->state == LM_THREAD_READY) {
        /* Its threshold may have moved too: as the running thread's, or as
         * a preempted thread's hold (R3.6). */
        lmk_sched_decide_locked();
    }
    lm_port_irq_unlock(s);
    return LM_OK;
}

lm_status_t lm_thread_set_threshold(lm_thread_t *t, unsigned threshold)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    if (t == &lmk_idle_thread) {
        return LMK_FAIL(LM_ERR_STATE); /* docs/errors.md: any change of the idle thread */
    }
    bool none = (threshold == LM_THRESHOLD_NONE);
    LMK_CHECK(none || (threshold < LM_CFG_PRIORITIES && threshold <= t->base_prio),
              LM_ERR_PRIORITY);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    /* The base priority is read again under the lock: a handler may have
     * changed it since the check above (R3.2 must hold afterwards). */
    if (none) {
        threshold = t->base_prio;
    } else if (threshold > t->base_prio) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_PRIORITY);
    }
    t->threshold = (uint16_t)threshold;
    t->preempt_limit = (uint16_t)lmk_min_prio(t->threshold, t->prio);
    if (t->state == LM_THREAD_READY) {
        /* R4.6: a lowered threshold may let one in, whether t runs or is a
         * preempted thread holding the CPU for its band (R3.6). */
        lmk_sched_decide_locked();
        lmk_trace_decided_own(t);
    }
    lm_port_irq_unlock(s);
    return LM_OK;
}

lm_status_t lm_thread_wait_abort(lm_thread_t *t)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = LM_OK;
    if (LMK_DEAD_LOCKED(t, LM_MAGIC_THREAD)) {
        st = LM_ERR_OBJECT;
    } else if (t->state == LM_THREAD_BLOCKED || t->state == LM_THREAD_SLEEPING) {
        lmk_wait_end_locked(t, LM_ERR_ABORTED);
    } else {
        st = LM_ERR_STATE;
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

lm_thread_t *lm_thread_self(void)
{
    return lmk.current;
}

lm_thread_state_t lm_thread_state(const lm_thread_t *t)
{
    return (lm_thread_state_t)t->state;
}

unsigned lm_thread_priority(const lm_thread_t *t)
{
    return t->prio;
}

unsigned lm_thread_base_priority(const lm_thread_t *t)
{
    return t->base_prio;
}

unsigned lm_thread_threshold(const lm_thread_t *t)
{
    return t->threshold;
}

const char *lm_thread_name(const lm_thread_t *t)
{
    return t->name != NULL ? t->name : "";
}

#if LM_CFG_STACK_WATERMARK
/* A port may write an overflow guard at the low end after the fill (the
 * Armv7-M port keeps 16 bytes there). Those bytes are never the thread's:
 * skip them (up to this bound) instead of reporting 0 bytes unused. */
#define STACK_GUARD_MAX 64u
_Static_assert(LM_PORT_MIN_STACK > STACK_GUARD_MAX,
               "the guard skip in stack_untouched relies on it");

LMK_NO_ASAN static size_t stack_untouched(const uint8_t *p, size_t n)
{
    size_t g = 0;
    /* n >= LM_PORT_MIN_STACK > STACK_GUARD_MAX: the skip stays inside. */
    while (g < STACK_GUARD_MAX && p[g] != STACK_FILL) { /* GCOVR_EXCL_BR_LINE: see docs/coverage.md */
        g++;
    }
    size_t i = g;
    /* A thread that has run has used the top of its stack (the port's first
     * frame), so the scan stops there; the bound is for safety. */
    while (i < n && p[i] == STACK_FILL) { /* GCOVR_EXCL_BR_LINE: see docs/coverage.md */
        i++;
    }
    return i - g;
}
#endif

lm_status_t lm_thread_stack_unused(const lm_thread_t *t, size_t *unused)
{
    LMK_CHECK_OBJ(t, LM_MAGIC_THREAD);
    LMK_CHECK(unused != NULL, LM_ERR_PARAM);
#if LM_CFG_STACK_WATERMARK
    /* Stacks grow down on every supported port: the untouched bytes are at
     * the low end. */
    *unused = stack_untouched((const uint8_t *)t->stack, t->stack_size);
    return LM_OK;
#else
    (void)t;
    *unused = 0;
    return LMK_FAIL(LM_ERR_STATE);
#endif
}
