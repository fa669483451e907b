/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deleting objects in the model, from docs/rules.md only (R9.1, R5.8).
 * The delete marks the object deleted in its first step (new calls return
 * MD_OBJECT); a mutex is taken from its owner in that step too, and the
 * owner's priority is recomputed (R5.8, R5.4). Then the deleting thread
 * wakes one waiter per step with MD_DELETED, most urgent first (flags: in
 * arrival order), as it runs (md_settle): a waiter it wakes may preempt it,
 * and the waiters not yet woken stay blocked meanwhile. The driver's delete
 * op then re-creates the object in the same control block, so the model
 * re-creates it when the last step finds no waiter left.
 */
#include "model.h"

bool md_dead(const struct md *m, int kind, int idx)
{
    switch (kind) {
    case MD_O_SEM: return m->sem_dead[idx];
    case MD_O_MUTEX: return m->mtx_dead[idx];
    case MD_O_QUEUE: return m->q_dead[idx];
    case MD_O_FLAGS: return m->f_dead[idx];
    default: return m->pool_dead;
    }
}

static void set_dead(struct md *m, int kind, int idx, bool dead)
{
    switch (kind) {
    case MD_O_SEM: m->sem_dead[idx] = dead; break;
    case MD_O_MUTEX: m->mtx_dead[idx] = dead; break;
    case MD_O_QUEUE: m->q_dead[idx] = dead; break;
    case MD_O_FLAGS: m->f_dead[idx] = dead; break;
    default: m->pool_dead = dead; break;
    }
}

void md_delete(struct md *m, int kind, int idx)
{
    int me = m->cur;
    if (md_dead(m, kind, idx)) {
        m->t[me].ret = MD_OBJECT; /* R9.1: already deleted */
        return;
    }
    set_dead(m, kind, idx, true);
    if (kind == MD_O_MUTEX && m->mtx_owner[idx] != MD_NONE) {
        int o = m->mtx_owner[idx];
        m->mtx_owner[idx] = MD_NONE; /* R5.8: taken from its owner */
        m->mtx_depth[idx] = 0;
        m->n_mutex_taken++;
        md_update_eff(m, o);         /* R5.4 */
    }
    m->t[me].ret = MD_OK;
    m->t[me].deleting = true;
    md_walk_begin(m);
    m->t[me].del_kind = kind;
    m->t[me].del_idx = idx;
}

/* Flags waiters in arrival order (R9.1, R10.1). */
static int first_flags_waiter(const struct md *m, int f)
{
    int best = MD_NONE;
    for (int i = 0; i < m->n; i++) {
        const struct md_thread *t = &m->t[i];
        if (t->wait == MD_W_FLAGS && t->wobj == f &&
            (best == MD_NONE || t->wseq < m->t[best].wseq)) {
            best = i;
        }
    }
    return best;
}

/* Senders or receivers: a queue has only one kind waiting at a time. */
static int first_queue_waiter(const struct md *m, int q)
{
    int s = md_first_waiter(m, MD_W_QSEND, q);
    int r = md_first_waiter(m, MD_W_QRECV, q);
    if (s == MD_NONE) {
        return r;
    }
    if (r == MD_NONE) {
        return s;
    }
    const struct md_thread *ts = &m->t[s], *tr = &m->t[r];
    return (tr->prio < ts->prio || (tr->prio == ts->prio && tr->wseq < ts->wseq)) ? r : s;
}

int md_delete_candidate(const struct md *m, int t)
{
    int idx = m->t[t].del_idx;
    if (m->t[t].del_walked) {
        return MD_NONE; /* only the driver's re-create is left */
    }
    switch (m->t[t].del_kind) {
    case MD_O_SEM: return md_first_waiter(m, MD_W_SEM, idx);
    case MD_O_MUTEX: return md_first_waiter(m, MD_W_MUTEX, idx);
    case MD_O_QUEUE: return first_queue_waiter(m, idx);
    case MD_O_FLAGS: return first_flags_waiter(m, idx);
    default: return md_first_waiter(m, MD_W_POOL, 0);
    }
}

/* The driver re-creates the object as it was made at the start. */
static void recreate(struct md *m, int kind, int idx)
{
    switch (kind) {
    case MD_O_SEM: m->sem_count[idx] = 0; break;
    case MD_O_MUTEX:
        m->mtx_owner[idx] = MD_NONE;
        m->mtx_depth[idx] = 0;
        m->mtx_abandoned[idx] = false;
        break;
    case MD_O_QUEUE: m->q_count[idx] = 0; break;
    case MD_O_FLAGS: m->f_bits[idx] = 0; break;
    default: m->pool_free = MD_POOL_BLOCKS; break;
    }
    set_dead(m, kind, idx, false);
}

int md_create(struct md *m, int kind, int idx)
{
    if (!md_dead(m, kind, idx)) {
        return MD_STATE; /* (the driver creates only deleted objects) */
    }
    recreate(m, kind, idx);
    return MD_OK;
}

bool md_delete_step(struct md *m, int t)
{
    if (m->t[t].del_walked) {
        /* The delete has returned; the driver's create runs when the
         * deleter runs again, after whatever the walk woke (R9.1). */
        recreate(m, m->t[t].del_kind, m->t[t].del_idx);
        m->t[t].deleting = false;
        m->t[t].del_walked = false;
        return false;
    }
    int w = md_delete_candidate(m, t);
    if (w != MD_NONE) {
        md_end_wait(m, w, MD_DELETED); /* R9.1 */
        m->n_deleted_wakes++;
        return true;
    }
    m->t[t].del_walked = true;
    md_walk_end(m);
    return true;
}
