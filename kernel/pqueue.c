/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Priority message queues (limen/queue.h, R10.7). The waiting side is the
 * FIFO queue's (queue.c): one wait queue for both directions, each waiter
 * tagged with its direction, since between the steps of a flush the queue
 * can be empty while senders still wait.
 *
 * The messages. Each lives in a slot of the caller's buffer: its links,
 * then its bytes. The queued slots form one list, most urgent first, FIFO
 * within a priority: q->head is the next to receive, q->tail the last. The
 * first message of each priority present, its "leader", is also a node of
 * a digital search trie keyed by the priority's B = 8 bits, most
 * significant first (the compact wait queues' trie, waitq.c, over slots):
 * a node at depth d branches on bit B-1-d of the key, and every key in its
 * subtree shares its first d bits with the path to it. A leader knows the
 * last message of its priority (`last`; unused in the others).
 *
 * A send finds the leader of its priority, or the leader of the nearest
 * more urgent one, in at most 2B+1 = 17 nodes, and links the message after
 * that group's last; a receive takes the head and, in at most 2B+1 nodes,
 * hands its place in the trie to the next of its group or to a leaf of its
 * subtree. Nothing loops over messages or waiters: the cost depends on
 * which priorities are queued, never on how many messages.
 */
#include <string.h>
#include "lmk.h"

#if LM_CFG_QUEUE

#define PQ_BITS 8u
#define QWAIT_RECV 0x0u
#define QWAIT_SEND 0x1u
/* The message's priority rides in wait_opt above the direction: a blocked
 * sender's, and the one a waiting receiver is handed. */
#define QWAIT_PRIO_SHIFT 8u

struct lm_pqueue_slot {
    struct lm_pqueue_slot *next;     /* the list of messages, or of free slots */
    struct lm_pqueue_slot *child[2]; /* trie links (leaders) */
    struct lm_pqueue_slot *last;     /* the last message of its priority (leaders) */
    uint8_t prio;
};
typedef struct lm_pqueue_slot slot_t;

_Static_assert(sizeof(slot_t) == 5u * sizeof(void *), "LM_PQUEUE_SLOT_SIZE's header");
_Static_assert(LM_PQUEUE_PRIO_MAX < (1u << PQ_BITS), "a priority is B bits");

static inline uint8_t *payload(slot_t *s)
{
    return (uint8_t *)s + sizeof *s;
}

static inline uint32_t slot_bytes(uint32_t msg_size)
{
    return (uint32_t)LM_PQUEUE_SLOT_SIZE(msg_size);
}

/* Context: thread, isr. Lock: taken. Blocks: no. Cost: O(1), one masked
 * step: no slot is touched until a message needs it. */
lm_status_t lm_pqueue_create(lm_pqueue_t *q, void *buffer, size_t msg_size, size_t capacity)
{
    LMK_CHECK(q != NULL && buffer != NULL, LM_ERR_PARAM);
    LMK_CHECK(msg_size != 0u && capacity != 0u, LM_ERR_PARAM);
    LMK_CHECK(msg_size <= UINT32_MAX - 8u * sizeof(void *) &&
                  LM_PQUEUE_SLOT_SIZE(msg_size) <= UINT32_MAX / capacity,
              LM_ERR_PARAM);
    LMK_CHECK(((uintptr_t)buffer % sizeof(void *)) == 0u, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t st = lmk_create_check_locked(LMK_MAGIC_OF(q), LM_MAGIC_PQUEUE);
    if (st == LM_OK) {
        lmk_waitq_init(&q->waiters);
        /* The slots are handed out lazily (fresh), as a pool's blocks are:
         * the create is one O(1) step whatever the capacity. */
        q->fresh = (uint8_t *)buffer;
        q->free = NULL;
        q->head = NULL;
        q->tail = NULL;
        q->root = NULL;
        q->msg_size = (uint32_t)msg_size;
        q->capacity = (uint32_t)capacity;
        q->count = 0;
        lmk_create_publish_locked(LMK_MAGIC_OF(q), LM_MAGIC_PQUEUE);
    }
    lm_port_irq_unlock(s);
    return LMK_FAIL(st);
}

/* Copy one message: a word is one load and one store (the common case),
 * a multiple of 4 a word at a time, the rest through memcpy.
 * Cost: O(msg_size), under the kernel lock. */
static inline void msg_copy(void *dst, const void *src, uint32_t n)
{
    if (__builtin_expect(n == 4u, 1)) {
        memcpy(dst, src, 4u);
        return;
    }
    if ((n & 3u) != 0u) {
        memcpy(dst, src, n);
        return;
    }
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    for (uint32_t i = 0; i < n; i += 4u) {
        memcpy(d + i, s + i, 4u);
    }
}

/* ---- the trie of leaders ---- */

/* The trie link that holds the leader of priority p, which is present.
 * Cost: at most B+1 nodes. */
static slot_t **leader_link(lm_pqueue_t *q, unsigned p)
{
    slot_t **link = &q->root;
    unsigned shift = PQ_BITS;
    while ((*link)->prio != p) {
        shift--; /* a node at depth B has key p here: the loop ends by then */
        link = &(*link)->child[(p >> shift) & 1u];
    }
    return link;
}

/* The leader with the greatest key in the subtree of x (not NULL): every
 * key under child 1 is above every key under child 0, so it is on the
 * path that takes child 1 when there is one. Cost: at most B nodes. */
static slot_t *subtree_max(slot_t *x)
{
    slot_t *m = x;
    for (;;) {
        slot_t *c = (x->child[1] != NULL) ? x->child[1] : x->child[0];
        if (c == NULL) {
            return m;
        }
        x = c;
        if (x->prio > m->prio) {
            m = x;
        }
    }
}

/* m leads a new group: a leaf where its path ends. */
static inline void leaf_at(slot_t **link, slot_t *m)
{
    *link = m;
    m->child[0] = NULL;
    m->child[1] = NULL;
    m->last = m;
}

/* The NULL link where a path of key p ends (p not present). At most B
 * nodes: a node at depth B would hold p. */
static slot_t **leaf_link(lm_pqueue_t *q, unsigned p)
{
    slot_t **link = &q->root;
    unsigned shift = PQ_BITS;
    while (*link != NULL) {
        shift--;
        link = &(*link)->child[(p >> shift) & 1u];
    }
    return link;
}

/* Link message m of priority p in: after every message of priority p or
 * more urgent, before every less urgent one. Lock: held; q is not empty.
 * Cost: at most 2B+1 nodes: B+1 down p's path, and B down the subtree of
 * the nearest more urgent keys when p is new and lies between the ends. */
static void link_message(lm_pqueue_t *q, slot_t *m, unsigned p)
{
    slot_t *tail = q->tail;
    if (p == tail->prio) {
        /* The usual case (one priority, or sends in priority order): the
         * back of the list, its group's leader found on p's path. */
        (*leader_link(q, p))->last = m;
        m->next = NULL;
        tail->next = m;
        q->tail = m;
        return;
    }
    if (p > tail->prio || p < q->head->prio) {
        /* Less urgent than every message, or more: a new group at an end
         * of the list; only the trie leaf. */
        leaf_at(leaf_link(q, p), m);
        if (p > tail->prio) {
            m->next = NULL;
            tail->next = m;
            q->tail = m;
        } else {
            m->next = q->head;
            q->head = m;
        }
        return;
    }
    slot_t **link = &q->root;
    slot_t *x = *link; /* not NULL: the queue is not empty */
    /* On the way down: the nearest more urgent leader seen on the path,
     * and the deepest subtree to the left of the path, whose keys are all
     * below p and above those of any subtree to the left higher up. */
    slot_t *pred = NULL;
    slot_t *left = NULL;
    unsigned shift = PQ_BITS;
    do {
        if (x->prio == p) { /* p present: m joins the back of its group */
            slot_t *last = x->last;
            m->next = last->next;
            last->next = m;
            x->last = m;
            return; /* not the tail: p is not the tail's priority */
        }
        if (x->prio < p && (pred == NULL || x->prio > pred->prio)) {
            pred = x;
        }
        shift--;
        unsigned b = (p >> shift) & 1u;
        if (b == 1u && x->child[0] != NULL) {
            left = x->child[0];
        }
        link = &x->child[b];
        x = *link;
    } while (x != NULL);
    if (left != NULL) {
        slot_t *mx = subtree_max(left);
        if (pred == NULL || mx->prio > pred->prio) {
            pred = mx;
        }
    }
    leaf_at(link, m);
    /* p lies strictly between the head's priority and the tail's, so a
     * more urgent leader exists (pred, not NULL) and its group is not the
     * last: the tail stays. */
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
    slot_t *after = pred->last;
    m->next = after->next;
    after->next = m;
}

/* What takes the place of leader t, whose group empties, in the trie: a
 * leaf of its subtree (its key shares the prefix of t's place), or NULL if
 * t is a leaf. Cost: at most B nodes. */
static slot_t *trie_cut(slot_t *t)
{
    slot_t **link = &t->child[(t->child[0] != NULL) ? 0 : 1];
    slot_t *x = *link;
    if (x == NULL) {
        return NULL;
    }
    for (;;) {
        slot_t **down = &x->child[(x->child[0] != NULL) ? 0 : 1];
        if (*down == NULL) {
            break;
        }
        link = down;
        x = *down;
    }
    *link = NULL; /* may be one of t's own links: copied after */
    x->child[0] = t->child[0];
    x->child[1] = t->child[1];
    return x;
}

/* Take the head message out of the list and the trie. Lock: held; q is
 * not empty. Cost: at most 2B+1 nodes (B+1 to the head's link, B down to
 * the leaf that replaces it). */
static __attribute__((always_inline)) inline slot_t *unlink_head(lm_pqueue_t *q)
{
    slot_t *m = q->head;
    slot_t **link = leader_link(q, m->prio);
    if (m->last != m) { /* the next of its group leads it now */
        slot_t *n = m->next;
        n->child[0] = m->child[0];
        n->child[1] = m->child[1];
        n->last = m->last;
        *link = n;
    } else {
        *link = trie_cut(m);
    }
    q->head = m->next;
    if (q->head == NULL) {
        q->tail = NULL;
    }
    return m;
}

/* ---- messages in and out ---- */

/* Lock: held; there is room. Cost: one copy, at most 2B+1 nodes. */
static void put_locked(lm_pqueue_t *q, const void *msg, unsigned p)
{
    /* A slot given back, else one never used: with count < capacity,
     * one of the two has one. */
    slot_t *m = q->free;
    if (m != NULL) {
        q->free = m->next;
    } else {
        m = (slot_t *)(void *)q->fresh;
        q->fresh += slot_bytes(q->msg_size);
    }
    msg_copy(payload(m), msg, q->msg_size);
    m->prio = (uint8_t)p;
    if (q->head == NULL) {
        leaf_at(&q->root, m);
        m->next = NULL;
        q->head = m;
        q->tail = m;
    } else {
        link_message(q, m, p);
    }
    q->count++;
}

/* Lock: held; q is not empty. Cost: one copy, at most 2B+1 nodes.
 * Inlined into both receives, as into the one it had before the get. */
static __attribute__((always_inline)) inline uint8_t get_locked(lm_pqueue_t *q, void *buf)
{
    slot_t *m = unlink_head(q);
    msg_copy(buf, payload(m), q->msg_size);
    m->next = q->free;
    q->free = m;
    q->count--;
    return m->prio;
}

/* A live queue (R12.3), the message size (`sized`: the caller gave one;
 * lm_pqueue_put/get copy the queue's own), and no blocking form from a
 * handler whatever the queue holds (R12.1), in that order. Lock: held. */
static inline lm_status_t call_check_locked(const lm_pqueue_t *q, size_t size, bool sized,
                                            lm_tick_t timeout)
{
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_PQUEUE)) {
        return LM_ERR_OBJECT;
    }
#if LM_CFG_ARG_CHECKS
    if (sized && size != q->msg_size) {
        return LM_ERR_SIZE;
    }
#else
    (void)q; /* no magic word, no size check */
    (void)size;
    (void)sized;
#endif
    if (timeout != LM_NO_WAIT && lm_port_in_isr()) {
        return LM_ERR_ISR;
    }
    return LM_OK;
}

/* A sender waiting for room, if the most urgent waiter is one. */
static lm_thread_t *waiting_sender(const lm_pqueue_t *q)
{
    lm_thread_t *w = lmk_first_waiter(&q->waiters);
    return (w != NULL && (w->wait_opt & QWAIT_SEND) != 0u) ? w : NULL;
}

static unsigned sender_prio(const lm_thread_t *w)
{
    return w->wait_opt >> QWAIT_PRIO_SHIFT;
}

/* One body for lm_pqueue_send and lm_pqueue_put, inlined into each, so
 * that the put has no size to check and a refusal names its call.
 * Context: thread; isr with LM_NO_WAIT. Lock: taken. Blocks: while full,
 * up to `timeout`. Cost: O(1): one copy and at most 2B+1 = 17 slots
 * visited, whatever is queued or waits. */
#undef LMK_CALL_NAME
#define LMK_CALL_NAME (sized ? "lm_pqueue_send" : "lm_pqueue_put")
static __attribute__((always_inline)) inline lm_status_t
pqueue_send(lm_pqueue_t *q, const void *msg, size_t size, bool sized, unsigned prio,
            lm_tick_t timeout)
{
    LMK_CHECK(q != NULL && msg != NULL && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    LMK_CHECK(prio <= LM_PQUEUE_PRIO_MAX, LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t refused = call_check_locked(q, size, sized, timeout);
    if (refused != LM_OK) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(refused);
    }
    lm_thread_t *w = lmk_first_waiter(&q->waiters);
    if (w != NULL && (w->wait_opt & QWAIT_SEND) == 0u) {
        /* A receiver waits: the message goes straight to it. */
        msg_copy(w->wait_data, msg, q->msg_size);
        w->wait_opt = prio << QWAIT_PRIO_SHIFT;
        lmk_wait_hand_over_locked(&q->waiters, w);
        lm_port_irq_unlock(s);
        return LM_OK;
    }
    if (q->count < q->capacity) {
        put_locked(q, msg, prio);
        lm_port_irq_unlock(s);
        return LM_OK;
    }
    lm_status_t st = lmk_wait_allowed(timeout);
    if (st != LM_OK) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(st); /* LM_ERR_WOULD_BLOCK: the queue is full */
    }
    lm_thread_t *cur = lmk.current;
    cur->wait_data = (void *)(uintptr_t)msg;
    cur->wait_opt = QWAIT_SEND | (prio << QWAIT_PRIO_SHIFT);
    lmk_wait_prioq_locked(&q->waiters, LMK_WAIT_PRIOQ, &q->waiters, timeout);
    lm_port_irq_unlock(s);
    return cur->wait_status;
}
#undef LMK_CALL_NAME
#define LMK_CALL_NAME __func__

lm_status_t lm_pqueue_send(lm_pqueue_t *q, const void *msg, size_t size, unsigned prio,
                           lm_tick_t timeout)
{
    return pqueue_send(q, msg, size, true, prio, timeout);
}

/* Four arguments, all in registers, and no size: a wrapper (the
 * CMSIS-RTOS2 layer) passes its own arguments straight on. Cost: as
 * lm_pqueue_send. */
lm_status_t lm_pqueue_put(lm_pqueue_t *q, const void *msg, unsigned prio, lm_tick_t timeout)
{
    return pqueue_send(q, msg, 0u, false, prio, timeout);
}

/* Empty with senders blocked: only between the steps of a flush (R9.2).
 * The receive takes the most urgent sender's message directly (as
 * queue.c does, and for its reason), and its priority. Out of line, as
 * admit_sender_locked. Lock: held. O(1). */
static __attribute__((noinline)) uint8_t take_from_sender_locked(const lm_pqueue_t *q, void *buf,
                                                                 lm_thread_t *w)
{
    msg_copy(buf, w->wait_data, q->msg_size);
    uint8_t p = (uint8_t)sender_prio(w);
    lmk_wait_served_locked(w);
    return p;
}

/* The most urgent blocked sender moves its message into the queue.
 * Lock: held; there is room. Returns false if no sender waits. Out of
 * line: the receive that calls it keeps its registers for its common path
 * (a message in the buffer, no sender waiting). */
static __attribute__((noinline)) bool admit_sender_locked(lm_pqueue_t *q)
{
    lm_thread_t *w = waiting_sender(q);
    if (w == NULL) {
        return false;
    }
    put_locked(q, w->wait_data, sender_prio(w));
    lmk_wait_served_locked(w);
    return true;
}

/* One body for lm_pqueue_receive and lm_pqueue_get, as the sends'.
 * Context: thread; isr with LM_NO_WAIT. Lock: taken. Blocks: while empty,
 * up to `timeout`. Cost: O(1): two copies and at most 2 x 17 slots
 * visited when a blocked sender's message moves in, whatever is queued or
 * waits. */
#undef LMK_CALL_NAME
#define LMK_CALL_NAME (sized ? "lm_pqueue_receive" : "lm_pqueue_get")
static __attribute__((always_inline)) inline lm_status_t
pqueue_receive(lm_pqueue_t *q, void *buf, size_t size, bool sized, uint8_t *prio,
               lm_tick_t timeout)
{
    LMK_CHECK(q != NULL && buf != NULL && lmk_timeout_valid(timeout), LM_ERR_PARAM);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_status_t refused = call_check_locked(q, size, sized, timeout);
    if (refused != LM_OK) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(refused);
    }
    uint8_t p;
    if (q->count != 0u) {
        p = get_locked(q, buf);
        /* With messages queued, a waiter can only be a sender. */
        if (!lmk_waitq_empty(&q->waiters)) {
            (void)admit_sender_locked(q);
        }
    } else {
        lm_thread_t *w = waiting_sender(q);
        if (w == NULL) {
            lm_status_t st = lmk_wait_allowed(timeout);
            if (st != LM_OK) {
                lm_port_irq_unlock(s);
                return LMK_FAIL(st); /* LM_ERR_WOULD_BLOCK: empty */
            }
            lm_thread_t *cur = lmk.current;
            cur->wait_data = buf;
            cur->wait_opt = QWAIT_RECV;
            lmk_wait_prioq_locked(&q->waiters, LMK_WAIT_PRIOQ, &q->waiters, timeout);
            lm_port_irq_unlock(s);
            /* A sender handed the message over and wrote its priority. */
            if (cur->wait_status == LM_OK && prio != NULL) {
                *prio = (uint8_t)(cur->wait_opt >> QWAIT_PRIO_SHIFT);
            }
            return cur->wait_status;
        }
        p = take_from_sender_locked(q, buf, w);
    }
    lm_port_irq_unlock(s);
    if (prio != NULL) {
        *prio = p;
    }
    return LM_OK;
}
#undef LMK_CALL_NAME
#define LMK_CALL_NAME __func__

lm_status_t lm_pqueue_receive(lm_pqueue_t *q, void *buf, size_t size, uint8_t *prio,
                              lm_tick_t timeout)
{
    return pqueue_receive(q, buf, size, true, prio, timeout);
}

/* Cost: as lm_pqueue_receive. */
lm_status_t lm_pqueue_get(lm_pqueue_t *q, void *buf, uint8_t *prio, lm_tick_t timeout)
{
    return pqueue_receive(q, buf, 0u, false, prio, timeout);
}

/* One step of a flush's walk: a sender admitted while there is room (a
 * delete meanwhile leaves none). Lock: held. O(1). */
static bool flush_admit_one_locked(void *queue)
{
    lm_pqueue_t *q = queue;
    return q->count < q->capacity && admit_sender_locked(q);
}

/* Context: thread, isr. Lock: taken per step. Blocks: no. Cost: O(1)
 * masked (the messages go back to the free list in one splice), then one
 * masked step per admitted sender (R9.2); no other thread runs until the
 * last step. */
lm_status_t lm_pqueue_flush(lm_pqueue_t *q)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_PQUEUE);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_PQUEUE)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    if (q->head != NULL) {
        q->tail->next = q->free;
        q->free = q->head;
        q->head = NULL;
        q->tail = NULL;
        q->root = NULL;
    }
    q->count = 0;
    lmk_walk_begin_locked();
    lmk_walk_admit(q, flush_admit_one_locked, s);
    return LM_OK;
}

/* Context: thread, isr. Lock: taken per step. Blocks: no. Cost: O(1) per
 * masked step, O(waiters) in all (R9.1); no other thread runs meanwhile. */
lm_status_t lm_pqueue_delete(lm_pqueue_t *q)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_PQUEUE);
    lm_irqstate_t s = lm_port_irq_lock();
    if (LMK_DEAD_LOCKED(q, LM_MAGIC_PQUEUE)) {
        lm_port_irq_unlock(s);
        return LMK_FAIL(LM_ERR_OBJECT);
    }
    lmk_delete_begin_locked(LMK_MAGIC_OF(q));
    /* No room from here on: a flush still admitting senders stops at its
     * next step, so every waiter is the delete's to wake (R9.1). */
    q->capacity = 0;
    q->count = 0;
    lm_port_irq_unlock(s);
    lmk_delete_wake_all(&q->waiters, LMK_MAGIC_OF(q));
    return LM_OK;
}

/* Context: thread, isr. Lock: none (one word read). Blocks: no. O(1). */
lm_status_t lm_pqueue_count(const lm_pqueue_t *q, uint32_t *count)
{
    LMK_CHECK_OBJ(q, LM_MAGIC_PQUEUE);
    LMK_CHECK(count != NULL, LM_ERR_PARAM);
    *count = q->count;
    return LM_OK;
}

#endif /* LM_CFG_QUEUE */
