/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thread life cycle in the model, from docs/rules.md only (R11.1,
 * R11.3-R11.6, R5.6, R5.4, R6.4, R3.5).
 *
 * A thread ends (terminated, deleted, or its entry returns: R11.5) wherever
 * it is: it leaves its wait queue and its timeout (a mutex's owner then
 * recomputes its priority, R5.4), a multi-step call it was in the middle
 * of goes no further (a delete leaves the object deleted, its remaining
 * waiters blocked until their timeouts; a flush or a flags set stops), and
 * its mutexes are released (R5.6): each goes to its most urgent waiter,
 * whose lock returns MD_ABANDONED, or is marked so that the next lock says
 * so. The mutexes go in the order their owner got them (the rules do not
 * say; README "Ambiguities"). A deleted thread answers MD_OBJECT until it is
 * created again; a created one is INACTIVE until started (R11.1), at the
 * tail of its priority (R2.2) with its base priority (nothing inherited).
 */
#include <string.h>
#include "model.h"

bool md_live(const struct md *m, int t)
{
    return m->t[t].state != MD_INACTIVE && m->t[t].state != MD_TERMINATED;
}

int md_next_release(const struct md *m, int t)
{
    int x = MD_NONE;
    for (int k = 0; k < MD_MUTEXES; k++) {
        if (m->mtx_owner[k] == t && (x == MD_NONE || m->mtx_seq[k] < m->mtx_seq[x])) {
            x = k;
        }
    }
    return x;
}

/* Ended thread t releases one mutex, the first it got (R5.6); then it
 * queues for the next, or, with none left, has its base priority back. */
static void release_next(struct md *m, int t)
{
    int x = md_next_release(m, t);
    if (x != MD_NONE) {
        m->mtx_owner[x] = MD_NONE;
        m->mtx_depth[x] = 0;
        int w = md_first_waiter(m, MD_W_MUTEX, x);
        m->n_abandoned++;
        if (w == MD_NONE) {
            m->mtx_abandoned[x] = true; /* the next lock returns MD_ABANDONED */
        } else {
            md_mutex_acquire(m, x, w);
            md_end_wait(m, w, MD_ABANDONED); /* R5.6: it owns the mutex */
            md_update_eff(m, w);             /* R5.2: from those still waiting */
        }
    }
    if (md_next_release(m, t) == MD_NONE) {
        m->t[t].prio = m->t[t].base; /* nothing inherited any more */
        return;
    }
    for (int i = 0; i < m->nrelq; i++) {
        if (m->relq[i] == t) {
            return;
        }
    }
    m->relq[m->nrelq++] = t;
}

void md_release_step(struct md *m)
{
    int t = m->relq[0];
    m->nrelq--;
    memmove(&m->relq[0], &m->relq[1], (size_t)m->nrelq * sizeof m->relq[0]);
    release_next(m, t);
}

void md_end_thread(struct md *m, int t)
{
    struct md_thread *th = &m->t[t];
    int kind = th->wait, obj = th->wobj;
    /* R11.3: out of every queue, timeout cancelled. */
    th->wait = MD_W_NONE;
    th->armed = false;
    th->fpend = false;
    th->susp_req = false;
    th->held = false;
    th->work_left = 0;
    th->flushing = 0;
    th->fscan = 0;
    th->deleting = false;
    th->del_walked = false;
    th->starting = 0;
    th->state = MD_TERMINATED;
    if (kind == MD_W_MUTEX && m->mtx_owner[obj] != MD_NONE) {
        md_update_eff(m, m->mtx_owner[obj]); /* R5.4: a waiter left */
    }
    release_next(m, t); /* R5.6: the first now, the others stepwise */
    if (m->lock_depth != 0u && m->cur == t) {
        m->lock_depth = 0; /* R6.4: whatever its depth */
    }
    m->n_ended++;
}

int md_terminate(struct md *m, int t)
{
    if (m->t[t].dead) {
        return MD_OBJECT;
    }
    if (!md_live(m, t)) {
        return MD_STATE;
    }
    md_end_thread(m, t);
    return MD_OK;
}

int md_end_isr(struct md *m, int t, bool del)
{
    if (!m->t[t].dead && t == m->cur && m->lock_depth != 0u) {
        return MD_LOCKED; /* R6.5: not the thread that holds the lock */
    }
    return del ? md_thread_delete(m, t) : md_terminate(m, t);
}

/* Is a start of t filling its stack (R11.1)? */
static bool being_started(const struct md *m, int t)
{
    for (int i = 0; i < m->n; i++) {
        if (m->t[i].starting == t + 1) {
            return true;
        }
    }
    return false;
}

int md_thread_delete(struct md *m, int t)
{
    if (m->t[t].dead) {
        return MD_OBJECT;
    }
    if (being_started(m, t)) {
        return MD_STATE; /* the start owns it until its last step */
    }
    if (md_live(m, t)) {
        md_end_thread(m, t);
    }
    m->t[t].dead = true;
    return MD_OK;
}

int md_thread_create(struct md *m, int t, int prio, int thr)
{
    struct md_thread *th = &m->t[t];
    if (!th->dead && md_live(m, t)) {
        return MD_STATE;
    }
    th->dead = false;
    th->state = MD_INACTIVE;
    th->base = th->prio = prio;
    th->thr = thr < 0 ? prio : thr; /* R3.2 */
    return MD_OK;
}

int md_thread_start(struct md *m, int starter, int t)
{
    struct md_thread *th = &m->t[t];
    if (th->dead) {
        return MD_OBJECT;
    }
    if (md_live(m, t)) {
        return MD_STATE;
    }
    if (being_started(m, t)) {
        return MD_STATE; /* another start is filling its stack */
    }
    /* R11.1: the stack is prepared first, with the scheduler lock held (no
     * other thread runs; an interrupt cannot stop the caller, R6.5); the
     * thread becomes ready in the call's last step (md_start_step). */
    m->t[starter].starting = t + 1;
    md_walk_begin(m);
    return MD_OK;
}

void md_start_step(struct md *m, int starter)
{
    int t = m->t[starter].starting - 1;
    struct md_thread *th = &m->t[t];
    m->t[starter].starting = 0;
    th->prio = th->base;
    th->ret = MD_OK;
    th->yielded = false;
    th->slice_left = th->slice;
    md_make_ready(m, t); /* R11.1, R2.2: the tail of its priority */
    md_walk_end(m);
}

int md_wait_abort(struct md *m, int t)
{
    struct md_thread *th = &m->t[t];
    if (th->dead) {
        return MD_OBJECT;
    }
    if (!md_waiting(m, t)) {
        return MD_STATE;
    }
    int kind = th->wait, obj = th->wobj;
    md_end_wait(m, t, MD_ABORTED); /* R11.6, R8.1; suspended if asked (R11.2) */
    if (kind == MD_W_MUTEX && m->mtx_owner[obj] != MD_NONE) {
        md_update_eff(m, m->mtx_owner[obj]); /* R5.4: a waiter left through abort */
    }
    m->n_aborts++;
    return MD_OK;
}
