/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference model, from docs/rules.md only. Every decision cites its rule.
 * Threads, ready rings, thresholds, time, semaphores, mutexes, queues.
 * Flags, the pool, timers, deletes and the thread life cycle are in
 * model_*.c.
 */
#include "model.h"

/* 1: R1.4/R3.5 as written (the kernel diverges, README "Known"). */
#ifndef MODEL_STRICT_R1_4
#define MODEL_STRICT_R1_4 1
#endif

#include <stdio.h>
#include <string.h>

static bool ready(const struct md *m, int t)
{
    return m->t[t].state == MD_READY;
}

static int limit(const struct md *m, int t);

bool md_waiting(const struct md *m, int t)
{
    return m->t[t].wait != MD_W_NONE;
}

/* R2.2: a thread made ready joins the tail of its priority's ring. */
void md_make_ready(struct md *m, int t)
{
    m->t[t].state = MD_READY;
    m->t[t].slice_left = m->t[t].slice; /* R2.6: a full slice */
    m->t[t].rseq = ++m->tailc;
    m->t[t].held = false; /* R3.5: comes back preempting by priority only */
    if (t != m->cur) {
        m->t[t].yielded = false; /* the running thread's is cleared by md_resched */
    }
}

void md_init(struct md *m, int n, const int *prio, const int *thr)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->cur = MD_NONE;
    for (int i = 0; i < MD_SEMS; i++) {
        m->sem_count[i] = 0;
    }
    for (int i = 0; i < MD_MUTEXES; i++) {
        m->mtx_owner[i] = MD_NONE;
    }
    for (int i = 0; i < n; i++) {
        struct md_thread *t = &m->t[i];
        t->base = t->prio = prio[i];
        t->thr = thr[i] < 0 ? prio[i] : thr[i]; /* R3.2 none = the priority */
        t->ret = MD_OK;
        md_make_ready(m, i); /* R11.1 start: tail of its priority */
    }
}

/* Most urgent waiter of a wait queue: priority order, FIFO among equals
 * (R10.6, R5.5). */
int md_first_waiter(const struct md *m, int kind, int obj)
{
    int best = MD_NONE;
    for (int i = 0; i < m->n; i++) {
        const struct md_thread *t = &m->t[i];
        if (t->wait != kind || t->wobj != obj) {
            continue;
        }
        if (best == MD_NONE || t->prio < m->t[best].prio ||
            (t->prio == m->t[best].prio && t->wseq < m->t[best].wseq)) {
            best = i;
        }
    }
    return best;
}

static void arm(struct md *m, int t, uint32_t ticks)
{
    m->t[t].armed = true;
    m->t[t].deadline = m->time + ticks; /* R8.2: the n-th tick after the call */
    m->t[t].arm_seq = md_next_arm_seq(m);
}

uint64_t md_next_arm_seq(struct md *m)
{
    return ++m->armc; /* threads' timeouts and timers share one arming order */
}

void md_block(struct md *m, int t, int kind, int obj, uint32_t timeout)
{
    struct md_thread *th = &m->t[t];
#if MODEL_STRICT_R1_4
    /* R7.1 (a)/(b), R3.5: it gave up the CPU; if woken before the switch it
     * is at the tail of its ring and must not keep running (R1.4). */
    th->yielded = true;
#endif
    th->state = kind == MD_W_SLEEP ? MD_SLEEPING : MD_BLOCKED;
    th->wait = kind;
    th->wobj = obj;
    th->wseq = ++m->wseqc;
    th->held = false;
    arm(m, t, timeout);
}

/* End t's wait with `status` (R8.1: exactly one event ends it). */
void md_end_wait(struct md *m, int t, int status)
{
    struct md_thread *th = &m->t[t];
    th->wait = MD_W_NONE;
    th->armed = false;
    th->fpend = false;
    th->ret = status;
    if (th->susp_req) { /* R11.2: suspended instead of ready, keeps its status */
        th->susp_req = false;
        th->state = MD_SUSPENDED;
    } else {
        md_make_ready(m, t);
    }
}


/* The effective priority changed to p: move t where R4.1-R4.3 say. */
static void set_eff(struct md *m, int t, int p)
{
    struct md_thread *th = &m->t[t];
    th->prio = p;
    if (th->state == MD_READY) {
        if (t == m->cur) {
            th->rseq = --m->headc; /* R4.1: running thread, head of its new ring */
            for (int i = 0; i < m->n; i++) {
                if (i != t && m->t[i].prio == p) {
                    m->t[i].held = false; /* it is no longer first of its ring */
                }
            }
        } else {
            th->rseq = ++m->tailc; /* R4.2: tail of the new ring */
            th->held = false;      /* R3.6: a priority change loses the hold */
        }
    } else if (th->wait == MD_W_SEM || th->wait == MD_W_MUTEX || th->wait == MD_W_QSEND ||
               th->wait == MD_W_QRECV || th->wait == MD_W_POOL) {
        /* R4.3: tail of the new priority in the wait queue; a flags waiter
         * keeps its place (arrival order, R10.1). */
        th->wseq = ++m->wseqc;
        if (th->wait == MD_W_MUTEX && m->mtx_owner[th->wobj] != MD_NONE) {
            md_update_eff(m, m->mtx_owner[th->wobj]); /* R5.3: transitive */
        }
    }
}

/* R4.4, R5.2: base priority, raised by the most urgent waiter of every
 * (inheriting) mutex it owns. */
void md_update_eff(struct md *m, int t)
{
    int p = m->t[t].base;
    for (int x = 0; x < MD_MUTEXES; x++) {
        if (m->mtx_owner[x] != t) {
            continue;
        }
        int w = md_first_waiter(m, MD_W_MUTEX, x);
        if (w != MD_NONE && m->t[w].prio < p) {
            p = m->t[w].prio;
        }
    }
    if (p != m->t[t].prio) {
        set_eff(m, t, p);
    }
}

static int limit(const struct md *m, int t)
{
    /* R3.1, R4.7: effective threshold, the more urgent of both. */
    return m->t[t].thr < m->t[t].prio ? m->t[t].thr : m->t[t].prio;
}

bool md_refuse_block(struct md *m)
{
    if (m->lock_depth == 0u) {
        return false;
    }
    m->t[m->cur].ret = MD_LOCKED; /* R6.1: fails and changes nothing */
    m->n_refused++;
    return true;
}

int md_sched_lock(struct md *m)
{
    m->lock_depth++; /* R6: nestable */
    return MD_OK;
}

int md_sched_unlock(struct md *m)
{
    if (m->lock_depth == 0u) {
        return MD_STATE;
    }
    /* R6.2: at the outermost unlock the next decision (md_settle) lets a
     * thread more urgent than the holder's effective threshold run. */
    m->lock_depth--;
    for (int i = 0; i < m->n && m->lock_depth == 0u; i++) {
        if (ready(m, i) && m->t[i].prio < limit(m, m->cur)) {
            m->n_unlock_switches++; /* one was waiting for the unlock */
            break;
        }
    }
    return MD_OK;
}

/* R9: from a thread's first step of a multi-step call to its last, no
 * other thread runs: the call holds the scheduler lock (and so an
 * interrupt cannot suspend or end the caller, R6.5). */
void md_walk_begin(struct md *m)
{
    m->lock_depth++;
}

void md_walk_end(struct md *m)
{
    (void)md_sched_unlock(m);
}

void md_resched(struct md *m)
{
    if (m->lock_depth != 0u && m->cur != MD_NONE && ready(m, m->cur)) {
        m->t[m->cur].yielded = false;
        return; /* R6.2: no other thread runs while the lock is held */
    }
    int best = MD_NONE; /* R1.4: head of the most urgent non-empty ring */
    for (int i = 0; i < m->n; i++) {
        if (!ready(m, i)) {
            continue;
        }
        if (best == MD_NONE || m->t[i].prio < m->t[best].prio ||
            (m->t[i].prio == m->t[best].prio && m->t[i].rseq < m->t[best].rseq)) {
            best = i;
        }
    }
    bool cur_ready = m->cur != MD_NONE && ready(m, m->cur);
    int win = best;
    /* R3.6: the most urgent preempted thread keeps its threshold: it runs
     * before anything that threshold holds back. */
    int h = MD_NONE;
    for (int i = 0; i < m->n; i++) {
        if (ready(m, i) && m->t[i].held &&
            (h == MD_NONE || m->t[i].prio < m->t[h].prio ||
             (m->t[i].prio == m->t[h].prio && m->t[i].rseq < m->t[h].rseq))) {
            h = i;
        }
    }
    if (h != MD_NONE && !(m->t[win].prio < limit(m, h))) {
        win = h;
    }
    /* R1.2, R3.1: the running thread keeps the CPU against anything not more
     * urgent than its effective threshold, unless it gave it up (R3.3). */
    if (cur_ready && !m->t[m->cur].yielded && !(m->t[win].prio < limit(m, m->cur))) {
        win = m->cur;
    }
    if (cur_ready && !m->t[m->cur].yielded && win != m->cur &&
        limit(m, m->cur) < m->t[m->cur].prio) {
        /* R3.6: preempted past a threshold it has; R2.1 stays at the head.
         * (A thread without a threshold when preempted holds nothing.) */
        m->t[m->cur].held = true;
    }
    if (m->cur != MD_NONE) {
        m->t[m->cur].yielded = false;
    }
    if (win != MD_NONE) {
        m->t[win].held = false;
    }
    m->cur = win;
}

void md_sem_take(struct md *m, int s, uint32_t timeout)
{
    int me = m->cur;
    if (m->sem_dead[s]) {
        m->t[me].ret = MD_OBJECT; /* R9.1: deleted, new calls fail */
    } else if (m->sem_count[s] > 0u) {
        m->sem_count[s]--;
        m->t[me].ret = MD_OK;
    } else if (timeout == 0u) {
        m->t[me].ret = MD_WOULD_BLOCK; /* R8.3 LM_NO_WAIT never blocks */
    } else if (!md_refuse_block(m)) { /* R6.1 */
        md_block(m, me, MD_W_SEM, s, timeout);
    }
}

int md_sem_give(struct md *m, int s)
{
    if (m->sem_dead[s]) {
        return MD_OBJECT; /* R9.1 */
    }
    int w = md_first_waiter(m, MD_W_SEM, s); /* R10.5: the most urgent waiter */
    if (w != MD_NONE) {
        md_end_wait(m, w, MD_OK);
        return MD_OK;
    }
    if (m->sem_count[s] >= MD_SEM_MAX) {
        return MD_OVERFLOW; /* R10.5 */
    }
    m->sem_count[s]++;
    return MD_OK;
}

void md_mutex_lock(struct md *m, int x, uint32_t timeout)
{
    int me = m->cur;
    int o = m->mtx_owner[x];
    if (m->mtx_dead[x]) {
        m->t[me].ret = MD_OBJECT; /* R9.1 */
        return;
    }
    if (o == MD_NONE) {
        md_mutex_acquire(m, x, me);
        /* R5.6: the first locker after an owner ended says so, and owns it. */
        m->t[me].ret = m->mtx_abandoned[x] ? MD_ABANDONED : MD_OK;
        m->mtx_abandoned[x] = false;
        return;
    }
    if (o == me) { /* R5.1: recursive */
        m->mtx_depth[x]++;
        m->t[me].ret = MD_OK;
        return;
    }
    if (timeout == 0u) {
        m->t[me].ret = MD_WOULD_BLOCK;
        return;
    }
    /* R6.1 before R5.7: a locked caller is refused whatever it would wait
     * behind (the rules do not order the two; README "Ambiguities"). */
    if (md_refuse_block(m)) {
        return;
    }
    /* R5.7: waiting behind a chain of owners leading back to the caller. */
    for (int y = o; y != MD_NONE;) {
        if (y == me) {
            m->t[me].ret = MD_DEADLOCK;
            return;
        }
        if (m->t[y].wait != MD_W_MUTEX) {
            break;
        }
        y = m->mtx_owner[m->t[y].wobj];
    }
    md_block(m, me, MD_W_MUTEX, x, timeout);
    md_update_eff(m, o); /* R5.2, R5.3 */
}

void md_mutex_unlock(struct md *m, int x)
{
    int me = m->cur;
    if (m->mtx_dead[x]) {
        m->t[me].ret = MD_OBJECT; /* R9.1 */
        return;
    }
    if (m->mtx_owner[x] != me) {
        m->t[me].ret = MD_NOT_OWNER; /* R5.1 */
        return;
    }
    m->t[me].ret = MD_OK;
    if (--m->mtx_depth[x] > 0u) {
        return;
    }
    int w = md_first_waiter(m, MD_W_MUTEX, x);
    if (w != MD_NONE) { /* R5.5: passes directly to the most urgent waiter */
        md_mutex_acquire(m, x, w);
        md_end_wait(m, w, MD_OK);
        md_update_eff(m, w);
    } else {
        m->mtx_owner[x] = MD_NONE;
    }
    md_update_eff(m, me); /* R5.4 */
}

void md_mutex_acquire(struct md *m, int x, int t)
{
    m->mtx_owner[x] = t;
    m->mtx_depth[x] = 1;
    m->mtx_seq[x] = ++m->mtx_seqc;
}

int md_set_priority(struct md *m, int t, int prio)
{
    struct md_thread *th = &m->t[t];
    if (th->dead) {
        return MD_OBJECT;
    }
    /* R4.5: a thread without a threshold follows; otherwise the threshold
     * follows only a base priority more urgent than it. */
    if (th->thr == th->base || prio < th->thr) {
        th->thr = prio;
    }
    th->base = prio;
    md_update_eff(m, t); /* R4.4 */
    return MD_OK;
}

int md_set_threshold(struct md *m, int t, int thr)
{
    struct md_thread *th = &m->t[t];
    if (th->dead) {
        return MD_OBJECT;
    }
    if (thr < 0) {
        thr = th->base; /* R3.2 LM_THRESHOLD_NONE */
    }
    if (thr > th->base) {
        return MD_PRIORITY; /* R3.2 */
    }
    th->thr = thr; /* R4.6: the next decision uses it */
    return MD_OK;
}

/* The running thread goes to the tail of its ring: R2.3, and R2.4 for a
 * time-slice expiry. */
static void to_tail(struct md *m, int me)
{
#if MODEL_STRICT_R1_4
    m->t[me].rseq = ++m->tailc; /* R2.3, R3.3: tail of its own priority */
#else
    /* What the kernel does today: the HEAD of the caller's ring goes to the
     * tail. Same as R2.3 while the caller is the head (R1.4); differs once a
     * thread woken before its own switch kept the CPU (README, "Known"). */
    int h = MD_NONE;
    for (int i = 0; i < m->n; i++) {
        if (ready(m, i) && m->t[i].prio == m->t[me].prio &&
            (h == MD_NONE || m->t[i].rseq < m->t[h].rseq)) {
            h = i;
        }
    }
    m->t[h].rseq = ++m->tailc;
#endif
}

void md_yield(struct md *m)
{
    int me = m->cur;
    if (md_refuse_block(m)) {
        return; /* R6.1: relinquish under the lock */
    }
    m->t[me].ret = MD_OK;
    to_tail(m, me);
    /* R2.3: with no other thread of its priority and none more urgent, the
     * caller just continues: no decision is made at all, so a preempted
     * thread's R3.6 hold does not get a say (README, "Ambiguities"). */
    bool other = false, peer = false;
    for (int i = 0; i < m->n; i++) {
        if (i != me && ready(m, i) && m->t[i].prio <= m->t[me].prio) {
            other = true;
            peer = peer || m->t[i].prio == m->t[me].prio;
        }
    }
    if (peer) {
        /* R2.3: the next of its priority runs, and the caller's slice is
         * reloaded for its next turn (README "Ambiguities": not when only
         * a more urgent thread takes the CPU, R3.3). */
        m->t[me].slice_left = m->t[me].slice;
    }
    m->t[me].yielded = other; /* R3.3 */
}

int md_suspend(struct md *m, int t)
{
    struct md_thread *th = &m->t[t];
    if (th->dead) {
        return MD_OBJECT;
    }
    if (th->state == MD_SUSPENDED || th->susp_req || !md_live(m, t)) {
        return MD_STATE;
    }
    if (t == m->cur && m->lock_depth != 0u) {
        return MD_LOCKED; /* R6.1 (itself), R6.5 (from a handler) */
    }
    if (md_waiting(m, t)) {
        th->susp_req = true; /* R11.2: the wait goes on */
    } else {
        th->state = MD_SUSPENDED;
        th->held = false;
        /* R7.1 (i), R3.5: a handler stopped the running thread; resumed
         * before the switch, it is at the tail of its ring (R2.2) and has
         * no claim on the CPU (as a thread that blocked, md_block). */
        th->yielded = th->yielded || t == m->cur;
    }
    return MD_OK;
}

int md_resume(struct md *m, int t)
{
    struct md_thread *th = &m->t[t];
    if (th->dead) {
        return MD_OBJECT;
    }
    if (th->susp_req) {
        th->susp_req = false; /* R11.2: cancels the suspension */
        return MD_OK;
    }
    if (th->state != MD_SUSPENDED) {
        return MD_STATE;
    }
    md_make_ready(m, t); /* R2.2 */
    return MD_OK;
}

void md_sleep(struct md *m, uint32_t ticks)
{
    if (md_refuse_block(m)) {
        return; /* R6.1 */
    }
    md_block(m, m->cur, MD_W_SLEEP, 0, ticks);
    m->t[m->cur].ret = MD_OK; /* R8.4: a sleep that runs out returns OK */
}

void md_work(struct md *m, uint32_t ticks)
{
    m->t[m->cur].work_left = ticks;
    m->t[m->cur].ret = MD_OK;
}

void md_tick(struct md *m)
{
    m->time++;
    if (m->cur == MD_NONE) {
        return; /* R1.1: the idle thread has no slice */
    }
    struct md_thread *t = &m->t[m->cur];
    if (t->work_left > 0u) {
        t->work_left--;
    }
    /* R2.4: the slice counts the ticks the thread spends running. */
    if (t->slice == 0u || t->state != MD_READY) {
        return;
    }
    if (t->slice_left > 1u) {
        t->slice_left--;
    } else if (m->lock_depth != 0u) {
        t->slice_left = 1u; /* R6.3: expires at the first tick after the unlock */
    } else {
        /* R2.4: reloaded, and as a relinquish: to the tail, and its
         * threshold does not protect it in the decision (R3.4). That
         * decision comes after the timeouts due on this tick (R9.4: the
         * tick only counts the slice), so a thread they wake is in it
         * (README "Ambiguities"). */
        t->slice_left = t->slice;
        to_tail(m, m->cur);
        t->yielded = true;
        m->n_expiries++;
    }
}

/* Deadline and arming order of timeout owner id (thread or MD_TIMER_ID). */
static bool due_info(const struct md *m, int id, uint32_t *deadline, uint64_t *seq)
{
    if (id >= MD_THREADS) {
        const struct md_timer *tm = &m->tm[id - MD_THREADS];
        *deadline = tm->deadline;
        *seq = tm->arm_seq;
        return tm->armed;
    }
    if (id >= m->n) {
        return false;
    }
    *deadline = m->t[id].deadline;
    *seq = m->t[id].arm_seq;
    return m->t[id].armed;
}

int md_first_due(const struct md *m)
{
    int best = MD_NONE;
    uint32_t bd = 0;
    uint64_t bs = 0;
    for (int i = 0; i < MD_TIMER_ID(MD_TIMERS); i++) {
        uint32_t d;
        uint64_t seq;
        if (!due_info(m, i, &d, &seq) || (int32_t)(d - m->time) > 0) {
            continue;
        }
        /* R8.5: due on the same tick, in the order armed (threads' timeouts
         * and timers alike, R9.4). */
        if (best == MD_NONE || (int32_t)(d - bd) < 0 || (d == bd && seq < bs)) {
            best = i;
            bd = d;
            bs = seq;
        }
    }
    return best;
}

void md_timeout(struct md *m, int t)
{
    if (t >= MD_THREADS) {
        md_timer_fire(m, t - MD_THREADS);
        return;
    }
    int kind = m->t[t].wait;
    int obj = m->t[t].wobj;
    /* R8.4: leaves its queue; a sleep returns OK, a wait TIMEOUT. */
    md_end_wait(m, t, kind == MD_W_SLEEP ? MD_OK : MD_TIMEOUT);
    if (kind == MD_W_MUTEX && m->mtx_owner[obj] != MD_NONE) {
        md_update_eff(m, m->mtx_owner[obj]); /* R5.4 */
    }
}

void md_process_due(struct md *m)
{
    for (int t = md_first_due(m); t != MD_NONE; t = md_first_due(m)) {
        md_timeout(m, t);
    }
}

bool md_any_armed(const struct md *m)
{
    uint32_t d;
    uint64_t seq;
    for (int i = 0; i < MD_TIMER_ID(MD_TIMERS); i++) {
        if (due_info(m, i, &d, &seq)) {
            return true;
        }
    }
    return false;
}

uint32_t md_next_deadline(const struct md *m)
{
    uint32_t best = m->time;
    bool found = false;
    for (int i = 0; i < MD_TIMER_ID(MD_TIMERS); i++) {
        uint32_t d;
        uint64_t seq;
        if (due_info(m, i, &d, &seq) && (!found || (int32_t)(d - best) < 0)) {
            best = d;
            found = true;
        }
    }
    return best;
}

int md_settle(struct md *m)
{
    for (;;) {
        /* R5.6, R9.6: an ended thread's other mutexes go before the next
         * due timeout and the decision of the switch handler. */
        while (m->nrelq > 0) {
            md_release_step(m);
        }
        md_process_due(m);
        md_resched(m);
        if (m->cur == MD_NONE) {
            if (!md_any_armed(m)) {
                return MD_NONE; /* R1.1: only idle, and nothing armed */
            }
            m->time = md_next_deadline(m); /* idle until the next deadline */
            continue;
        }
        if (m->t[m->cur].work_left > 0u) {
            md_tick(m);
            continue;
        }
        if (md_stepping(m, m->cur)) {
            /* R9.1-R9.3: one step, then whatever it woke may preempt. */
            (void)md_step(m, m->cur);
            continue;
        }
        return m->cur;
    }
}

bool md_stepping(const struct md *m, int t)
{
    return m->t[t].flushing != 0 || m->t[t].fscan != 0 || m->t[t].deleting ||
           m->t[t].starting != 0;
}

int md_step_candidate(const struct md *m, int t)
{
    if (m->t[t].flushing != 0) {
        return md_flush_candidate(m, t);
    }
    if (m->t[t].fscan != 0) {
        return md_flags_candidate(m, m->t[t].fscan - 1);
    }
    if (m->t[t].deleting) {
        return md_delete_candidate(m, t);
    }
    return MD_NONE;
}

bool md_step(struct md *m, int t)
{
    if (m->t[t].starting != 0) {
        md_start_step(m, t);
        return false;
    }
    if (m->t[t].flushing != 0) {
        return md_flush_step(m, t);
    }
    if (m->t[t].fscan != 0) {
        if (md_flags_scan_one(m, m->t[t].fscan - 1)) {
            return true;
        }
        m->t[t].fscan = 0; /* R9.3: nothing left to check, the set returns */
        md_walk_end(m);
        return false;
    }
    if (m->t[t].deleting) {
        return md_delete_step(m, t);
    }
    return false;
}

/* ---- message queues ---- */

void md_queue_init(struct md *m, int q, uint32_t capacity)
{
    m->q_cap[q] = capacity;
    m->q_count[q] = 0;
}

static void q_put(struct md *m, int q, uint32_t val, bool front)
{
    uint32_t *b = m->q_buf[q];
    if (front) { /* R10.3: send_front is received next */
        for (uint32_t i = m->q_count[q]; i > 0u; i--) {
            b[i] = b[i - 1u];
        }
        b[0] = val;
    } else {
        b[m->q_count[q]] = val; /* R10.3: FIFO */
    }
    m->q_count[q]++;
}

static uint32_t q_get(struct md *m, int q)
{
    uint32_t *b = m->q_buf[q];
    uint32_t v = b[0];
    for (uint32_t i = 1; i < m->q_count[q]; i++) {
        b[i - 1u] = b[i];
    }
    m->q_count[q]--;
    return v;
}

/* The most urgent blocked sender moves its message in (R10.3, R9.2). */
static bool admit_sender(struct md *m, int q)
{
    int w = md_first_waiter(m, MD_W_QSEND, q); /* R10.6 */
    if (w == MD_NONE) {
        return false;
    }
    q_put(m, q, m->t[w].msg, m->t[w].front);
    md_end_wait(m, w, MD_OK);
    return true;
}

int md_queue_send_nowait(struct md *m, int q, uint32_t val, bool front)
{
    if (m->q_dead[q]) {
        return MD_OBJECT; /* R9.1 */
    }
    int w = md_first_waiter(m, MD_W_QRECV, q);
    if (w != MD_NONE) { /* R10.3: hand-over to the most urgent receiver (R10.6) */
        m->t[w].msg = val;
        md_end_wait(m, w, MD_OK);
        return MD_OK;
    }
    if (m->q_count[q] < m->q_cap[q]) {
        q_put(m, q, val, front);
        return MD_OK;
    }
    return MD_WOULD_BLOCK; /* R8.3: full, LM_NO_WAIT never blocks */
}

void md_queue_send(struct md *m, int q, uint32_t val, bool front, uint32_t timeout)
{
    int me = m->cur;
    int st = md_queue_send_nowait(m, q, val, front);
    if (st != MD_WOULD_BLOCK || timeout == 0u) {
        m->t[me].ret = st;
        return;
    }
    if (md_refuse_block(m)) {
        return; /* R6.1 */
    }
    m->t[me].msg = val;
    m->t[me].front = front;
    md_block(m, me, MD_W_QSEND, q, timeout);
}

int md_queue_receive_nowait(struct md *m, int q, uint32_t *val)
{
    if (m->q_dead[q]) {
        return MD_OBJECT; /* R9.1 */
    }
    if (m->q_count[q] > 0u) {
        *val = q_get(m, q);
        (void)admit_sender(m, q); /* R10.3: a full queue's sender moves in */
        return MD_OK;
    }
    /* Empty with blocked senders: only between a flush's steps (R9.2, "a
     * receiver may act first"): the most urgent sender's message is taken
     * directly rather than waiting behind senders (README, "Ambiguities"). */
    int w = md_first_waiter(m, MD_W_QSEND, q);
    if (w != MD_NONE) {
        *val = m->t[w].msg;
        md_end_wait(m, w, MD_OK);
        return MD_OK;
    }
    return MD_WOULD_BLOCK;
}

void md_queue_receive(struct md *m, int q, uint32_t timeout)
{
    int me = m->cur;
    uint32_t v = 0;
    int st = md_queue_receive_nowait(m, q, &v);
    if (st == MD_OK) {
        m->t[me].msg = v;
    }
    if (st != MD_WOULD_BLOCK || timeout == 0u) {
        m->t[me].ret = st;
        return;
    }
    if (md_refuse_block(m)) {
        return; /* R6.1 */
    }
    md_block(m, me, MD_W_QRECV, q, timeout);
}

int md_queue_peek(const struct md *m, int q, uint32_t *val)
{
    if (m->q_dead[q]) {
        return MD_OBJECT; /* R9.1 */
    }
    if (m->q_count[q] == 0u) {
        return MD_WOULD_BLOCK;
    }
    *val = m->q_buf[q][0];
    return MD_OK;
}

void md_queue_flush(struct md *m, int q)
{
    if (m->q_dead[q]) {
        m->t[m->cur].ret = MD_OBJECT; /* R9.1 */
        return;
    }
    /* R9.2: every message discarded in one step; the senders are admitted
     * by md_flush_step, one per step, as the caller runs (md_settle). */
    m->q_count[q] = 0;
    m->t[m->cur].flushing = q + 1;
    m->t[m->cur].ret = MD_OK;
    md_walk_begin(m);
}

int md_flush_candidate(const struct md *m, int t)
{
    int q = m->t[t].flushing - 1;
    if (q < 0 || m->q_dead[q] || m->q_count[q] >= m->q_cap[q]) {
        return MD_NONE;
    }
    return md_first_waiter(m, MD_W_QSEND, q);
}

bool md_flush_step(struct md *m, int t)
{
    int q = m->t[t].flushing - 1;
    /* R9.2: while there is room, most urgent sender first; once the queue
     * is deleted its senders are the delete's to wake (R9.1, README
     * "Ambiguities"). */
    if (q >= 0 && !m->q_dead[q] && m->q_count[q] < m->q_cap[q] && admit_sender(m, q)) {
        return true;
    }
    if (q >= 0 && m->q_dead[q] && md_first_waiter(m, MD_W_QSEND, q) != MD_NONE) {
        m->n_dead_steps++;
    }
    m->t[t].flushing = 0;
    md_walk_end(m);
    return false;
}
