/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compact wait queues (LM_CFG_WAIT_QUEUE_COMPACT; waitq.h, docs/design.md).
 *
 * The waiters form one circular list (their qlink) sorted by priority, most
 * urgent first, FIFO within a priority; wq->head is its first. The first
 * waiter of each priority present, its "leader", is a node of a digital
 * search trie keyed by the priority's B = log2(P) bits, most significant
 * first: a node at depth d branches on bit B-1-d of the key, and every key
 * in its subtree shares its first d bits with the path to it. A leader also
 * knows the last waiter of its priority (wq_last; NULL in the others).
 *
 * A node at depth B has all B bits fixed by its path, so it has no children
 * and no path holds more than B+1 nodes: finding the leader of a priority,
 * or where a new one goes, is at most B+1 steps; the least key of a subtree
 * is one path down, at most B more. Nothing here loops over waiters.
 */
#include "lmk.h"

#if LM_CFG_WAIT_QUEUE_COMPACT

/* B: the bits of a priority, ceil(log2(LM_CFG_PRIORITIES)). */
enum {
    LMK_WAITQ_BITS = (LM_CFG_PRIORITIES > 512)   ? 10
                     : (LM_CFG_PRIORITIES > 256) ? 9
                     : (LM_CFG_PRIORITIES > 128) ? 8
                     : (LM_CFG_PRIORITIES > 64)  ? 7
                     : (LM_CFG_PRIORITIES > 32)  ? 6
                     : (LM_CFG_PRIORITIES > 16)  ? 5
                     : (LM_CFG_PRIORITIES > 8)   ? 4
                     : (LM_CFG_PRIORITIES > 4)   ? 3
                     : (LM_CFG_PRIORITIES > 2)   ? 2
                     : (LM_CFG_PRIORITIES > 1)   ? 1
                                                 : 0
};

static inline lm_thread_t *ring_next(const lm_thread_t *t)
{
    return LMK_CONTAINER_OF(t->qlink.next, lm_thread_t, qlink);
}

/* Link t into the ring just before x, a waiter (never NULL). O(1). */
static inline void link_before(lm_thread_t *t, lm_thread_t *x)
{
    t->qlink.next = &x->qlink;
    /* The analyzer does not follow why the successor search always finds
     * a leader when p lies between the list's ends (push_back_slow). */
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
    t->qlink.prev = x->qlink.prev;
    x->qlink.prev->next = &t->qlink;
    x->qlink.prev = &t->qlink;
}

/* The trie link that holds the leader of priority p, which is present.
 * Cost: at most B+1 steps. */
static lm_thread_t **leader_link(struct lm_waitq *wq, unsigned p)
{
    lm_thread_t **link = &wq->root;
    unsigned shift = LMK_WAITQ_BITS;
    while ((*link)->prio != p) {
        shift--; /* the invariant above: a node at depth B has key p here */
        link = &(*link)->wq_child[(p >> shift) & 1u];
    }
    return link;
}

/* The leader with the least priority number in the subtree of x (not
 * NULL): every key under child 0 is below every key under child 1, so the
 * least is on the path that always takes child 0 when there is one.
 * Cost: at most B steps. */
static lm_thread_t *subtree_min(lm_thread_t *x)
{
    lm_thread_t *m = x;
    for (;;) {
        lm_thread_t *c = (x->wq_child[0] != NULL) ? x->wq_child[0] : x->wq_child[1];
        if (c == NULL) {
            return m;
        }
        x = c;
        if (x->prio < m->prio) {
            m = x;
        }
    }
}

/* Context: any. Lock: held. Cost: at most 2B trie nodes visited: B+1 down
 * the path of t's priority when it is present; else at most B on the path
 * (a node at depth B there would hold p), and, unless p goes at an end of
 * the list, B down the subtree of the nearest less urgent keys. t goes
 * after every waiter of its priority (R8.2). */
void lmk_waitq_push_back_slow(struct lm_waitq *wq, lm_thread_t *t)
{
    lm_thread_t *head = wq->head; /* not NULL: waitq.h took the empty queue */
    unsigned p = t->prio;
    lm_thread_t **link = &wq->root;
    lm_thread_t *tail = LMK_CONTAINER_OF(head->qlink.prev, lm_thread_t, qlink);
    if (p < head->prio || p > tail->prio) {
        /* More urgent than every waiter, or less: a new priority at an end
         * of the list, no group or successor to look for; only the trie
         * leaf where p's path ends (at most B nodes). */
        unsigned sh = LMK_WAITQ_BITS;
        while (*link != NULL) {
            sh--;
            link = &(*link)->wq_child[(p >> sh) & 1u];
        }
        *link = t;
        t->wq_child[0] = NULL;
        t->wq_child[1] = NULL;
        t->wq_last = t;
        link_before(t, head);
        if (p < head->prio) {
            wq->head = t;
        }
        return;
    }
    lm_thread_t *x = wq->root;
    /* On the way down: the nearest less urgent leader seen on the path, and
     * the deepest subtree to the right of the path, whose keys are all
     * above p and below those of any subtree to the right higher up. */
    lm_thread_t *succ = NULL;
    lm_thread_t *right = NULL;
    unsigned shift = LMK_WAITQ_BITS;
    do {
        if (x->prio == p) { /* p present: t joins the tail of its group */
            link_before(t, ring_next(x->wq_last));
            x->wq_last = t;
            t->wq_last = NULL;
            return;
        }
        if (x->prio > p && (succ == NULL || x->prio < succ->prio)) {
            succ = x;
        }
        shift--;
        unsigned b = (p >> shift) & 1u;
        if (b == 0u && x->wq_child[1] != NULL) {
            right = x->wq_child[1];
        }
        link = &x->wq_child[b];
        x = *link;
    } while (x != NULL);
    if (right != NULL) {
        lm_thread_t *m = subtree_min(right);
        if (succ == NULL || m->prio < succ->prio) {
            succ = m;
        }
    }
    /* t leads the new group of p: a leaf where the path ended. */
    *link = t;
    t->wq_child[0] = NULL;
    t->wq_child[1] = NULL;
    t->wq_last = t;
    /* p lies strictly between the head's priority and the tail's, so a
     * less urgent leader exists (succ, not NULL) and the head stays. */
    link_before(t, succ);
}

/* What takes the place of leader t, whose group empties, in the trie: a
 * leaf of its subtree (its key shares the prefix of t's place), or NULL if
 * t is a leaf. Cost: at most B steps. */
static lm_thread_t *trie_cut(lm_thread_t *t)
{
    lm_thread_t **link = &t->wq_child[(t->wq_child[0] != NULL) ? 0 : 1];
    lm_thread_t *x = *link;
    if (x == NULL) {
        return NULL;
    }
    for (;;) {
        lm_thread_t **down = &x->wq_child[(x->wq_child[0] != NULL) ? 0 : 1];
        if (*down == NULL) {
            break;
        }
        link = down;
        x = *down;
    }
    *link = NULL; /* may be one of t's own links: copied after */
    x->wq_child[0] = t->wq_child[0];
    x->wq_child[1] = t->wq_child[1];
    return x;
}

/* Context: any. Lock: held. Cost: at most 2B+1 trie nodes visited (B+1 to
 * find the leader's link, B down to the leaf that replaces it). Any waiter,
 * from anywhere in the queue (a wake, a timeout, an abort, a change of
 * priority); the others keep their order. */
void lmk_waitq_remove_slow(struct lm_waitq *wq, lm_thread_t *t)
{
    /* t is not alone (waitq.h): next != t. */
    lm_thread_t *next = ring_next(t);
    if (t->wq_last == NULL) {
        /* Not a leader. If t ends its group (the next waiter leads another
         * one, or the ring wraps to the head), its leader's last moves. */
        if (next->wq_last != NULL) {
            (*leader_link(wq, t->prio))->wq_last =
                LMK_CONTAINER_OF(t->qlink.prev, lm_thread_t, qlink);
        }
    } else {
        lm_thread_t **link = leader_link(wq, t->prio);
        if (t->wq_last != t) { /* the next of its group leads it now */
            next->wq_child[0] = t->wq_child[0];
            next->wq_child[1] = t->wq_child[1];
            next->wq_last = t->wq_last;
            *link = next;
        } else {
            *link = trie_cut(t);
        }
        if (wq->head == t) {
            wq->head = next;
        }
    }
    t->qlink.prev->next = t->qlink.next;
    t->qlink.next->prev = t->qlink.prev;
    t->qlink.next = NULL;
    t->qlink.prev = NULL;
}

#endif
