/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event flags in the model, from docs/rules.md only (R9.3, R10.1, R4.3).
 *
 * Waiters are kept in arrival order (wseq, which a priority change does not
 * touch: R4.3). A set ORs its bits in and marks every waiter of the object
 * "not yet checked" (fpend); the waiters are then checked one per step, in
 * arrival order, against the flags as they are at that step (R9.3). The
 * steps are made by whichever setting thread runs (md_settle), so a set that
 * arrives during another's scan marks everyone again and the two share what
 * is left: the rules ask only that every waiter be checked against the
 * newest bits. A check that finds a waiter unsatisfied changes nothing
 * anyone can see, so one model step makes all such checks up to the next
 * waiter it wakes (README, "Ambiguities").
 */
#include "model.h"

static bool satisfied(uint32_t bits, uint32_t want, unsigned opt)
{
    return (opt & MD_F_ALL) != 0u ? (bits & want) == want : (bits & want) != 0u;
}

/* Take the bits: what the caller reports is the flags before its own
 * consumption (R10.1). */
static uint32_t take_bits(struct md *m, int f, uint32_t want, unsigned opt)
{
    uint32_t seen = m->f_bits[f];
    if ((opt & MD_F_CONSUME) != 0u) {
        m->f_bits[f] &= ~want;
    }
    return seen;
}

int md_flags_wait_nowait(struct md *m, int f, uint32_t want, unsigned opt, uint32_t *actual)
{
    if (m->f_dead[f]) {
        return MD_OBJECT; /* R9.1 */
    }
    if (!satisfied(m->f_bits[f], want, opt)) {
        return MD_WOULD_BLOCK; /* R8.3 */
    }
    *actual = take_bits(m, f, want, opt);
    return MD_OK;
}

void md_flags_wait(struct md *m, int f, uint32_t want, unsigned opt, uint32_t timeout)
{
    int me = m->cur;
    uint32_t seen = 0;
    int st = md_flags_wait_nowait(m, f, want, opt, &seen);
    if (st == MD_OK) {
        m->t[me].msg = seen;
    }
    if (st != MD_WOULD_BLOCK || timeout == 0u) {
        m->t[me].ret = st;
        return;
    }
    if (md_refuse_block(m)) {
        return; /* R6.1 */
    }
    m->t[me].fwant = want;
    m->t[me].fopt = opt;
    md_block(m, me, MD_W_FLAGS, f, timeout); /* at the end of the arrival order */
    m->t[me].fpend = false; /* it has just seen these bits */
}

/* The waiter the scan checks next (R10.1: arrival order). */
static int first_pending(const struct md *m, int f)
{
    int best = MD_NONE;
    for (int i = 0; i < m->n; i++) {
        const struct md_thread *t = &m->t[i];
        if (t->wait == MD_W_FLAGS && t->wobj == f && t->fpend &&
            (best == MD_NONE || t->wseq < m->t[best].wseq)) {
            best = i;
        }
    }
    return best;
}

int md_flags_candidate(const struct md *m, int f)
{
    int best = MD_NONE;
    for (int i = 0; i < m->n; i++) {
        const struct md_thread *t = &m->t[i];
        if (t->wait == MD_W_FLAGS && t->wobj == f && t->fpend &&
            satisfied(m->f_bits[f], t->fwant, t->fopt) &&
            (best == MD_NONE || t->wseq < m->t[best].wseq)) {
            best = i;
        }
    }
    return best;
}

bool md_flags_scan_one(struct md *m, int f)
{
    if (m->f_dead[f]) {
        /* Deleted during the scan: every waiter is the delete's to wake
         * with MD_DELETED (R9.1), so the set's remaining checks wake nobody. */
        if (first_pending(m, f) != MD_NONE) {
            m->n_dead_steps++;
        }
        return false;
    }
    for (int w = first_pending(m, f); w != MD_NONE; w = first_pending(m, f)) {
        struct md_thread *t = &m->t[w];
        t->fpend = false;
        if (satisfied(m->f_bits[f], t->fwant, t->fopt)) {
            /* R9.3: woken, consuming its bits if it asked, so a later
             * waiter may find them gone. */
            t->msg = take_bits(m, f, t->fwant, t->fopt);
            md_end_wait(m, w, MD_OK);
            m->n_flag_wakes++;
            return true;
        }
    }
    return false;
}

/* R9.3: ORed in one step; every waiter is to be checked (again). */
static int or_bits(struct md *m, int f, uint32_t bits)
{
    if (m->f_dead[f]) {
        return MD_OBJECT; /* R9.1 */
    }
    m->f_bits[f] |= bits;
    for (int i = 0; i < m->n; i++) {
        if (m->t[i].wait == MD_W_FLAGS && m->t[i].wobj == f) {
            m->t[i].fpend = true;
        }
    }
    return MD_OK;
}

void md_flags_set(struct md *m, int f, uint32_t bits)
{
    int me = m->cur;
    m->t[me].ret = or_bits(m, f, bits);
    if (m->t[me].ret == MD_OK) {
        m->t[me].fscan = f + 1; /* the checks follow as it runs */
        md_walk_begin(m);
    }
}

int md_flags_set_isr(struct md *m, int f, uint32_t bits)
{
    int st = or_bits(m, f, bits);
    if (st == MD_OK) {
        /* A handler's steps are not interrupted (handlers do not nest). */
        while (md_flags_scan_one(m, f)) {
        }
    }
    return st;
}

int md_flags_clear(struct md *m, int f, uint32_t bits)
{
    if (m->f_dead[f]) {
        return MD_OBJECT; /* R9.1 */
    }
    m->f_bits[f] &= ~bits; /* R9.3: affects the waiters not yet checked */
    return MD_OK;
}

int md_flags_get(const struct md *m, int f, uint32_t *bits)
{
    if (m->f_dead[f]) {
        return MD_OBJECT;
    }
    *bits = m->f_bits[f];
    return MD_OK;
}
