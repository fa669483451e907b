/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel consistency check (see kcheck.h). Invariants, in the order checked:
 *
 *  K1  every ring (ready queue, each wait queue) is a well-formed circular
 *      list of known threads, at most as long as the number of threads, and
 *      its bit in the queue's bitmap is set exactly when it is not empty
 *      (and, above 32 priorities, the summary bit agrees with its word);
 *  K2  every node in ready ring p is a READY thread of effective priority p;
 *      the idle thread is in no ring; every `held` bit names a non-empty ring,
 *      and none is set while the idle thread runs; only the idle thread has
 *      the priority LM_CFG_PRIORITIES;
 *  K3  every node in a wait queue is a BLOCKED thread whose wait_kind and
 *      wait_obj name that queue, at the ring of its effective priority;
 *      every flags waiter (either list) is BLOCKED on that flags group;
 *  K4  every known thread is in exactly one place: one ready ring if READY,
 *      one wait queue if BLOCKED (on a queue the test registered), nowhere
 *      otherwise; wait_kind is NONE unless it waits (SLEEP when sleeping);
 *  K5  no timeout is armed for a thread that is not BLOCKED or SLEEPING;
 *      an armed one is of the kind SLEEP if it sleeps, WAIT if it blocks;
 *      `suspended` is set only on a waiting thread; a waiting thread's
 *      status is LM_OK until its wait ends (its waker writes any other);
 *  K6  counts: a semaphore's count is at most its max, and positive only
 *      without waiters; a queue's count and head are in range, and no
 *      receiver waits while it holds a message; a pool's free count equals
 *      the length of its free list, every free block lies in its buffer, and
 *      nobody waits while a block is free;
 *  K7  mutexes: owner NULL <=> depth 0; an owned mutex is in its owner's
 *      held list and nowhere else; every mutex in a thread's held list is
 *      owned by it; the owner is a live thread; inactive and terminated
 *      threads hold nothing;
 *  K8  priorities (R5.2): each live thread's effective priority is the most
 *      urgent of its base priority and the first waiter of every inheriting
 *      mutex it holds; a thread that is not live has its base priority;
 *      preempt_limit is min(threshold, priority);
 *  K9  the running thread is READY (or the idle thread) and in the ready
 *      queue (unless idle); an R5.7 walk in progress is the running
 *      thread's;
 *  K10 a timer is armed exactly while it is active, and of the kind TIMER;
 *  S1-S5 (settled only) see kcheck.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "kcheck.h"
#include "harness.h"
#include "lmk.h"

#define KC_MAX_OBJ 16

/* queue.c tags a blocked sender with bit 0 of wait_opt (QWAIT_SEND). */
#define KC_QWAIT_SEND 0x1u

static struct {
    lm_thread_t *thread[LMT_MAX_THREADS];
    unsigned places[LMT_MAX_THREADS]; /* rings the thread was found in */
    unsigned nthread;
#if LM_CFG_SEM
    lm_sem_t *sem[KC_MAX_OBJ];
    unsigned nsem;
#endif
#if LM_CFG_MUTEX
    lm_mutex_t *mutex[KC_MAX_OBJ];
    unsigned nmutex;
#endif
#if LM_CFG_QUEUE
    lm_queue_t *queue[KC_MAX_OBJ];
    unsigned nqueue;
#endif
#if LM_CFG_FLAGS
    lm_flags_t *flags[KC_MAX_OBJ];
    unsigned nflags;
#endif
#if LM_CFG_POOL
    lm_pool_t *pool[KC_MAX_OBJ];
    unsigned npool;
#endif
#if LM_CFG_TIMER
    lm_timer_t *timer[KC_MAX_OBJ];
    unsigned ntimer;
#endif
} w;

static char msg[256];

void lmt_kc_reset(void)
{
    memset(&w, 0, sizeof w);
}

/* Registration: a pointer given twice is kept once. */
#define KC_ADD(arr, n, p)                                  \
    do {                                                   \
        for (unsigned i_ = 0; i_ < (n); i_++) {            \
            if ((arr)[i_] == (p)) {                        \
                return;                                    \
            }                                              \
        }                                                  \
        LMT_CHECK((n) < sizeof(arr) / sizeof((arr)[0]));   \
        (arr)[(n)++] = (p);                                \
    } while (0)

void lmt_kc_add_thread(lm_thread_t *t) { KC_ADD(w.thread, w.nthread, t); }
#if LM_CFG_SEM
void lmt_kc_add_sem(lm_sem_t *s) { KC_ADD(w.sem, w.nsem, s); }
#endif
#if LM_CFG_MUTEX
void lmt_kc_add_mutex(lm_mutex_t *m) { KC_ADD(w.mutex, w.nmutex, m); }
#endif
#if LM_CFG_QUEUE
void lmt_kc_add_queue(lm_queue_t *q) { KC_ADD(w.queue, w.nqueue, q); }
#endif
#if LM_CFG_FLAGS
void lmt_kc_add_flags(lm_flags_t *f) { KC_ADD(w.flags, w.nflags, f); }
#endif
#if LM_CFG_POOL
void lmt_kc_add_pool(lm_pool_t *p) { KC_ADD(w.pool, w.npool, p); }
#endif
#if LM_CFG_TIMER
void lmt_kc_add_timer(lm_timer_t *tm) { KC_ADD(w.timer, w.ntimer, tm); }
#endif

static bool fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return false;
}

static const char *tn(const lm_thread_t *t)
{
    return t == NULL ? "-" : lm_thread_name(t);
}

static int thread_index(const lm_thread_t *t)
{
    for (unsigned i = 0; i < w.nthread; i++) {
        if (w.thread[i] == t) {
            return (int)i;
        }
    }
    return -1;
}

static bool waiting(const lm_thread_t *t)
{
    return t->state == LM_THREAD_BLOCKED || t->state == LM_THREAD_SLEEPING;
}

static bool live(const lm_thread_t *t)
{
    return t->state != LM_THREAD_INACTIVE && t->state != LM_THREAD_TERMINATED;
}

static bool prioset_has(const struct lm_prio_set *s, unsigned p)
{
    return (s->word[lmk_prioset_word(p)] & lmk_prioset_bit(p)) != 0u;
}

static bool prioset_summary_ok(const struct lm_prio_set *s)
{
#if LM_PRIO_WORDS > 1
    for (unsigned i = 0; i < LM_PRIO_WORDS; i++) {
        if (((s->summary >> i) & 1u) != (s->word[i] != 0u ? 1u : 0u)) {
            return false;
        }
    }
#else
    (void)s;
#endif
    return true;
}

/* What a ring's members must satisfy. */
enum ring_role { ROLE_READY, ROLE_PRIOQ, ROLE_MUTEX };

/* K1-K3 for one priority queue: `what` names it in messages, `obj` is the
 * wait_obj its waiters carry. */
static bool check_prioq(const struct lm_prioq *q, enum ring_role role, const void *obj,
                        const char *what)
{
    if (!prioset_summary_ok(&q->busy)) {
        return fail("K1 %s: bitmap summary disagrees with its words", what);
    }
    for (unsigned p = 0; p < LM_CFG_PRIORITIES; p++) {
        /* A ring pointer means something only while its busy bit is set
         * (prioq.h: a create clears the bitmap only). A thread linked into
         * a ring whose bit is clear is found by K4 (in no place). */
        if (!prioset_has(&q->busy, p)) {
            continue;
        }
        const struct lm_dnode *head = q->ring[p];
        if (head == NULL) {
            return fail("K1 %s: ring %u is empty but its busy bit is set", what, p);
        }
        const struct lm_dnode *n = head;
        unsigned len = 0;
        do {
            if (n == NULL || n->next == NULL || n->prev == NULL || n->next->prev != n) {
                return fail("K1 %s: ring %u is broken (a link is NULL or one-way)", what, p);
            }
            if (++len > w.nthread + 1u) {
                return fail("K1 %s: ring %u is longer than the number of threads", what, p);
            }
            lm_thread_t *t = LMK_CONTAINER_OF(n, lm_thread_t, qlink);
            if (t == &lmk_idle_thread) {
                return fail("K2 %s: the idle thread is in ring %u", what, p);
            }
            int i = thread_index(t);
            if (i < 0) {
                return fail("K1 %s: ring %u holds a thread the test does not know", what, p);
            }
            w.places[i]++;
            if (t->prio != p) {
                return fail("K2 %s: %s (priority %u) is in ring %u", what, tn(t), t->prio, p);
            }
            if (role == ROLE_READY && t->state != LM_THREAD_READY) {
                return fail("K2 %s: %s in ring %u has state %u, not READY", what, tn(t), p,
                            t->state);
            }
            if (role != ROLE_READY) {
                uint8_t kind = role == ROLE_MUTEX ? LMK_WAIT_MUTEX : LMK_WAIT_PRIOQ;
                if (t->state != LM_THREAD_BLOCKED || t->wait_kind != kind || t->wait_obj != obj) {
                    return fail("K3 %s: %s is queued but has state %u, wait_kind %u and "
                                "wait_obj %s", what, tn(t), t->state, t->wait_kind,
                                t->wait_obj == obj ? "this object" : "another object");
                }
            }
            n = n->next;
        } while (n != head);
    }
    return true;
}

/* The waiters of wq in wake order into out[] (at most max); their number,
 * or max + 1 if the queue holds more (a broken ring). */
static unsigned waitq_list(const struct lm_waitq *wq, const lm_thread_t **out, unsigned max)
{
    unsigned n = 0;
#if LM_CFG_WAIT_QUEUE_COMPACT
    const lm_thread_t *h = wq->head;
    if (h == NULL) {
        return 0;
    }
    const lm_thread_t *t = h;
    do {
        if (n == max || t->qlink.next == NULL) {
            return max + 1u;
        }
        out[n++] = t;
        t = LMK_CONTAINER_OF(t->qlink.next, lm_thread_t, qlink);
    } while (t != h);
#else
    for (unsigned p = 0; p < LM_CFG_PRIORITIES; p++) {
        if (!prioset_has(&wq->table.busy, p)) {
            continue;
        }
        const struct lm_dnode *h = wq->table.ring[p];
        const struct lm_dnode *d = h;
        do {
            if (n == max || d == NULL) {
                return max + 1u;
            }
            out[n++] = LMK_CONTAINER_OF(d, lm_thread_t, qlink);
            d = d->next;
        } while (d != h);
    }
#endif
    return n;
}

#if LM_CFG_WAIT_QUEUE_COMPACT
/* B of kernel/waitq.c: the bits of a priority. */
static unsigned waitq_bits(void)
{
    unsigned b = 0;
    while ((1u << b) < (unsigned)LM_CFG_PRIORITIES) {
        b++;
    }
    return b;
}

/* The trie under x, at `depth` below the root along `prefix` (the bits of
 * the path, most significant first): each node a leader of this queue
 * (in[]) whose key starts with the path, no deeper than B. Counts nodes. */
static bool trie_ok(const lm_thread_t *x, unsigned depth, unsigned prefix,
                    const lm_thread_t *const *in, unsigned nin, unsigned *nodes,
                    const char *what)
{
    if (x == NULL) {
        return true;
    }
    unsigned bits = waitq_bits();
    bool member = false;
    for (unsigned i = 0; i < nin; i++) {
        member = member || in[i] == x;
    }
    if (!member || x->wq_last == NULL) {
        return fail("K1 %s: trie node %s is not a leader of this queue", what, tn(x));
    }
    if (depth > bits || (depth != 0u && ((unsigned)x->prio >> (bits - depth)) != prefix)) {
        return fail("K1 %s: trie node %s (priority %u) at depth %u off its path", what,
                    tn(x), x->prio, depth);
    }
    if (++*nodes > nin) {
        return fail("K1 %s: the trie has more nodes than the queue has waiters", what);
    }
    return trie_ok(x->wq_child[0], depth + 1u, prefix << 1, in, nin, nodes, what) &&
           trie_ok(x->wq_child[1], depth + 1u, (prefix << 1) | 1u, in, nin, nodes, what);
}

/* K1 for a compact wait queue's own structure: sorted ring, leaders and
 * their wq_last, and a trie holding exactly the leaders. */
static bool check_compact(const struct lm_waitq *wq, const lm_thread_t *const *in,
                          unsigned n, const char *what)
{
    if ((wq->head == NULL) != (wq->root == NULL)) {
        return fail("K1 %s: head and trie root disagree on emptiness", what);
    }
    unsigned leaders = 0;
    for (unsigned i = 0; i < n; i++) {
        const lm_thread_t *t = in[i];
        const lm_thread_t *nx = in[(i + 1u) % n];
        if (t->qlink.next->prev != &t->qlink) {
            return fail("K1 %s: ring broken at %s", what, tn(t));
        }
        if (i + 1u < n && nx->prio < t->prio) {
            return fail("K1 %s: %s (priority %u) before %s (priority %u)", what, tn(t),
                        t->prio, tn(nx), nx->prio);
        }
        bool leads = i == 0u || in[i - 1u]->prio != t->prio;
        if (leads != (t->wq_last != NULL)) {
            return fail("K1 %s: %s %s its priority but wq_last says otherwise", what, tn(t),
                        leads ? "leads" : "does not lead");
        }
        if (leads) {
            leaders++;
            unsigned j = i;
            while (j + 1u < n && in[j + 1u]->prio == t->prio) {
                j++;
            }
            if (t->wq_last != in[j]) {
                return fail("K1 %s: leader %s names %s its last, not %s", what, tn(t),
                            tn(t->wq_last), tn(in[j]));
            }
        }
    }
    unsigned nodes = 0;
    if (!trie_ok(wq->root, 0u, 0u, in, n, &nodes, what)) {
        return false;
    }
    if (nodes != leaders) {
        return fail("K1 %s: the trie holds %u of %u leaders", what, nodes, leaders);
    }
    return true;
}
#endif

/* K1-K3 for one wait queue. */
static bool check_waitq(const struct lm_waitq *wq, enum ring_role role, const void *obj,
                        const char *what)
{
#if LM_CFG_WAIT_QUEUE_COMPACT
    const lm_thread_t *in[LMT_MAX_THREADS + 1u];
    unsigned n = waitq_list(wq, in, w.nthread + 1u);
    if (n > w.nthread + 1u) {
        return fail("K1 %s: ring broken or longer than the number of threads", what);
    }
    if (!check_compact(wq, in, n, what)) {
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        const lm_thread_t *t = in[i];
        int k = thread_index(t);
        if (k < 0) {
            return fail("K1 %s: holds a thread the test does not know", what);
        }
        w.places[k]++;
        uint8_t kind = role == ROLE_MUTEX ? LMK_WAIT_MUTEX : LMK_WAIT_PRIOQ;
        if (t->state != LM_THREAD_BLOCKED || t->wait_kind != kind || t->wait_obj != obj) {
            return fail("K3 %s: %s is queued but has state %u, wait_kind %u and "
                        "wait_obj %s", what, tn(t), t->state, t->wait_kind,
                        t->wait_obj == obj ? "this object" : "another object");
        }
    }
    return true;
#else
    return check_prioq(&wq->table, role, obj, what);
#endif
}

#if LM_CFG_FLAGS
/* K1, K3 for one flags list (FIFO with a sentinel). */
static bool check_flags_list(const lm_flags_t *f, const struct lm_dnode *head,
                             const char *what)
{
    unsigned len = 0;
    for (const struct lm_dnode *n = head->next; n != head; n = n->next) {
        if (n == NULL || n->next == NULL || n->next->prev != n) {
            return fail("K1 %s: list broken", what);
        }
        if (++len > w.nthread) {
            return fail("K1 %s: list longer than the number of threads", what);
        }
        lm_thread_t *t = LMK_CONTAINER_OF(n, lm_thread_t, qlink);
        int i = thread_index(t);
        if (i < 0) {
            return fail("K1 %s: holds a thread the test does not know", what);
        }
        w.places[i]++;
        if (t->state != LM_THREAD_BLOCKED || t->wait_kind != LMK_WAIT_FLAGS ||
            t->wait_obj != f) {
            return fail("K3 %s: %s is listed but has state %u, wait_kind %u, wait_obj %s",
                        what, tn(t), t->state, t->wait_kind,
                        t->wait_obj == f ? "this group" : "another object");
        }
    }
    return true;
}
#endif

/* Is the control block deleted (checks on: magic cleared)? */
#if LM_CFG_ARG_CHECKS
#define KC_DELETED(o, m) ((o)->magic != (m))
#else
#define KC_DELETED(o, m) false
#endif

static bool check_objects(bool settled)
{
    char what[48];
#if LM_CFG_SEM
    for (unsigned i = 0; i < w.nsem; i++) {
        const lm_sem_t *s = w.sem[i];
        (void)snprintf(what, sizeof what, "sem%u", i);
        if (!check_waitq(&s->waiters, ROLE_PRIOQ, &s->waiters, what)) {
            return false;
        }
        bool del = KC_DELETED(s, LM_MAGIC_SEM);
        if (!del && s->count > s->max) {
            return fail("K6 %s: count %u above max %u", what, (unsigned)s->count,
                        (unsigned)s->max);
        }
        if (s->count != 0u && !lmk_waitq_empty(&s->waiters)) {
            return fail("K6 %s: count %u with %s waiting", what, (unsigned)s->count,
                        tn(lmk_first_waiter(&s->waiters)));
        }
        if (settled && del && !lmk_waitq_empty(&s->waiters)) {
            return fail("S1 %s: deleted, %s still waits on it", what,
                        tn(lmk_first_waiter(&s->waiters)));
        }
    }
#endif
#if LM_CFG_QUEUE
    for (unsigned i = 0; i < w.nqueue; i++) {
        const lm_queue_t *q = w.queue[i];
        (void)snprintf(what, sizeof what, "queue%u", i);
        if (!check_waitq(&q->waiters, ROLE_PRIOQ, &q->waiters, what)) {
            return false;
        }
        bool del = KC_DELETED(q, LM_MAGIC_QUEUE);
#if LM_CFG_ARG_CHECKS
        /* The key the send and receive check: the live queue's message
         * size, and a size of 0 (which none has) once it is deleted. */
        if (q->key != (LM_MAGIC_QUEUE ^ (del ? 0u : q->msg_size))) {
            return fail("K6 %s: key %08x for message size %u%s", what, (unsigned)q->key,
                        (unsigned)q->msg_size, del ? ", deleted" : "");
        }
#endif
        size_t bytes = (size_t)(q->end - q->buffer);
        size_t rd = (size_t)(q->read - q->buffer);
        size_t wr = (size_t)(q->write - q->buffer);
        bool ring_ok = q->read >= q->buffer && q->read < q->end && q->write >= q->buffer &&
                       q->write < q->end && q->msg_size != 0u && rd % q->msg_size == 0u &&
                       wr % q->msg_size == 0u;
        if (q->count > q->capacity || (q->capacity != 0u && !ring_ok) ||
            (q->capacity != 0u && (rd + (size_t)q->count * q->msg_size) % bytes != wr)) {
            return fail("K6 %s: count %u read %zu write %zu capacity %u out of range", what,
                        (unsigned)q->count, rd, wr, (unsigned)q->capacity);
        }
        const lm_thread_t *first = lmk_first_waiter(&q->waiters);
        const lm_thread_t *in[LMT_MAX_THREADS + 1u];
        unsigned nin = waitq_list(&q->waiters, in, LMT_MAX_THREADS + 1u);
        for (unsigned k = 0; k < nin; k++) {
            const lm_thread_t *t = in[k];
            bool sender = (t->wait_opt & KC_QWAIT_SEND) != 0u;
            if (!sender && q->count != 0u) {
                return fail("K6 %s: receiver %s waits while %u messages are queued", what,
                            tn(t), (unsigned)q->count);
            }
            if (settled && !del && sender && q->count < q->capacity) {
                return fail("S2 %s: sender %s waits while the queue has room (%u/%u)",
                            what, tn(t), (unsigned)q->count, (unsigned)q->capacity);
            }
        }
        if (settled && del && first != NULL) {
            return fail("S1 %s: deleted, %s still waits on it", what, tn(first));
        }
    }
#endif
#if LM_CFG_POOL
    for (unsigned i = 0; i < w.npool; i++) {
        const lm_pool_t *p = w.pool[i];
        (void)snprintf(what, sizeof what, "pool%u", i);
        if (!check_waitq(&p->waiters, ROLE_PRIOQ, &p->waiters, what)) {
            return false;
        }
        bool del = KC_DELETED(p, LM_MAGIC_POOL);
        uint32_t len = 0;
        for (void *const *b = (void *const *)p->free_list; b != NULL; b = (void *const *)b[0]) {
            uintptr_t off = (uintptr_t)b - (uintptr_t)p->buffer;
            if ((uintptr_t)b < (uintptr_t)p->buffer ||
                off >= (uintptr_t)p->block_size * p->block_count) {
                return fail("K6 %s: free list leaves the buffer", what);
            }
            if (++len > p->block_count) {
                return fail("K6 %s: free list longer than the pool", what);
            }
        }
        /* Blocks from `fresh` on have never been handed out (pool.c). */
        if (p->fresh > p->block_count || len + (p->block_count - p->fresh) != p->free_count) {
            return fail("K6 %s: free_count %u, free list holds %u, %u never handed out", what,
                        (unsigned)p->free_count, (unsigned)len,
                        (unsigned)(p->block_count - p->fresh));
        }
        if (p->free_count != 0u && !lmk_waitq_empty(&p->waiters)) {
            return fail("K6 %s: %u blocks free with %s waiting", what, (unsigned)p->free_count,
                        tn(lmk_first_waiter(&p->waiters)));
        }
        if (settled && del && !lmk_waitq_empty(&p->waiters)) {
            return fail("S1 %s: deleted, %s still waits on it", what,
                        tn(lmk_first_waiter(&p->waiters)));
        }
    }
#endif
#if LM_CFG_FLAGS
    for (unsigned i = 0; i < w.nflags; i++) {
        const lm_flags_t *f = w.flags[i];
        (void)snprintf(what, sizeof what, "flags%u", i);
        if (!check_flags_list(f, &f->waiters, what) || !check_flags_list(f, &f->scan, what)) {
            return false;
        }
        if (!settled) {
            continue;
        }
        bool del = KC_DELETED(f, LM_MAGIC_FLAGS);
        if (!lmk_list_empty(&f->scan)) {
            return fail("S4 %s: a scan is still under way", what);
        }
        if (del && !lmk_list_empty(&f->waiters)) {
            return fail("S1 %s: deleted, %s still waits on it", what,
                        tn(LMK_CONTAINER_OF(f->waiters.next, lm_thread_t, qlink)));
        }
        for (const struct lm_dnode *n = f->waiters.next; n != &f->waiters; n = n->next) {
            const lm_thread_t *t = LMK_CONTAINER_OF(n, lm_thread_t, qlink);
            bool all = (t->wait_opt & LM_FLAGS_ALL) != 0u;
            bool sat = all ? (f->bits & t->wait_flags) == t->wait_flags
                           : (f->bits & t->wait_flags) != 0u;
            if (sat) {
                return fail("S4 %s: %s waits for 0x%x while the flags are 0x%x", what, tn(t),
                            (unsigned)t->wait_flags, (unsigned)f->bits);
            }
        }
    }
#endif
#if LM_CFG_MUTEX
    for (unsigned i = 0; i < w.nmutex; i++) {
        const lm_mutex_t *m = w.mutex[i];
        (void)snprintf(what, sizeof what, "mutex%u", i);
        if (!check_waitq(&m->waiters, ROLE_MUTEX, m, what)) {
            return false;
        }
        if ((m->owner == NULL) != (m->depth == 0u)) {
            return fail("K7 %s: owner %s with depth %u", what, tn(m->owner), m->depth);
        }
        if (m->owner == NULL) {
            if (m->held_link.next != NULL) {
                return fail("K7 %s: free but still linked in a held list", what);
            }
            if (settled && !lmk_waitq_empty(&m->waiters)) {
                return fail("S3 %s: free (or deleted) while %s waits on it", what,
                            tn(lmk_first_waiter(&m->waiters)));
            }
            continue;
        }
        if (thread_index(m->owner) < 0) {
            return fail("K7 %s: owned by a thread the test does not know", what);
        }
        if (!live(m->owner)) {
            return fail("K7 %s: owner %s is not live (state %u)", what, tn(m->owner),
                        m->owner->state);
        }
        unsigned found = 0;
        for (const struct lm_dnode *n = m->owner->held.next; n != &m->owner->held;
             n = n->next) {
            found += (n == &m->held_link) ? 1u : 0u;
        }
        if (found != 1u) {
            return fail("K7 %s: in its owner %s's held list %u times", what, tn(m->owner),
                        found);
        }
    }
#endif
#if LM_CFG_TIMER
    for (unsigned i = 0; i < w.ntimer; i++) {
        const lm_timer_t *tm = w.timer[i];
        bool armed = lmk_timeout_armed(&tm->timeout);
        if (armed != (tm->active != 0u)) {
            return fail("K10 timer%u: %s but %s", i, armed ? "armed" : "not armed",
                        tm->active != 0u ? "active" : "not active");
        }
        if (armed && tm->timeout.kind != LMK_TIMEOUT_TIMER) {
            return fail("K10 timer%u: armed with the kind %u", i, tm->timeout.kind);
        }
        if (settled && KC_DELETED(tm, LM_MAGIC_TIMER) && armed) {
            return fail("S5 timer%u: deleted but armed", i);
        }
    }
#endif
    (void)what;
    (void)settled;
    return true;
}

#if LM_CFG_MUTEX
static bool known_mutex(const lm_mutex_t *m)
{
    for (unsigned i = 0; i < w.nmutex; i++) {
        if (w.mutex[i] == m) {
            return true;
        }
    }
    return false;
}
#endif

/* K4, K5, K7 (held lists), K8 for every known thread. */
static bool check_threads(void)
{
    for (unsigned i = 0; i < w.nthread; i++) {
        const lm_thread_t *t = w.thread[i];
        unsigned want = (t->state == LM_THREAD_READY || t->state == LM_THREAD_BLOCKED) ? 1u : 0u;
        if (t->state > LM_THREAD_TERMINATED) {
            return fail("K4 %s: state %u out of range", tn(t), t->state);
        }
        /* LM_CFG_PRIORITIES is the idle thread's alone (a yield tells it
         * by its priority, kernel/thread.c). */
        if (t->prio >= LM_CFG_PRIORITIES || t->base_prio >= LM_CFG_PRIORITIES) {
            return fail("K2 %s: priority %u (base %u) out of range", tn(t), t->prio,
                        t->base_prio);
        }
        if (w.places[i] != want) {
            return fail("K4 %s (state %u, wait_kind %u) is in %u rings or lists, expected %u",
                        tn(t), t->state, t->wait_kind, w.places[i], want);
        }
        if (want == 0u && t->qlink.next != NULL) {
            return fail("K4 %s (state %u) is in no known queue but its link is set", tn(t),
                        t->state);
        }
        if (t->state == LM_THREAD_SLEEPING && t->wait_kind != LMK_WAIT_SLEEP) {
            return fail("K4 %s sleeps with wait_kind %u", tn(t), t->wait_kind);
        }
        if (!waiting(t) && t->wait_kind != LMK_WAIT_NONE) {
            return fail("K4 %s (state %u) keeps wait_kind %u", tn(t), t->state, t->wait_kind);
        }
        if (!waiting(t) && lmk_timeout_armed(&t->timeout)) {
            return fail("K5 %s (state %u) has a timeout armed", tn(t), t->state);
        }
        unsigned armed_kind = (t->state == LM_THREAD_SLEEPING)      ? LMK_TIMEOUT_SLEEP
                              : (t->wait_kind == LMK_WAIT_PRIOQ) ? LMK_TIMEOUT_WAITQ
                                                                 : LMK_TIMEOUT_WAIT;
        if (lmk_timeout_armed(&t->timeout) && t->timeout.kind != armed_kind) {
            return fail("K5 %s (state %u) has a timeout of kind %u armed", tn(t), t->state,
                        t->timeout.kind);
        }
        if (waiting(t) && t->wait_status != LM_OK) {
            return fail("K5 %s waits with the status %d already set", tn(t), (int)t->wait_status);
        }
        if (!waiting(t) && t->suspended != 0u) {
            return fail("K5 %s (state %u) has a pending suspension", tn(t), t->state);
        }
        unsigned expect = t->base_prio;
        unsigned held = 0;
        for (const struct lm_dnode *n = t->held.next; n != &t->held; n = n->next) {
            if (n == NULL || ++held > 64u) {
                return fail("K7 %s: held list broken", tn(t));
            }
#if LM_CFG_MUTEX
            const lm_mutex_t *m = LMK_CONTAINER_OF(n, lm_mutex_t, held_link);
            if (!known_mutex(m)) {
                return fail("K7 %s holds a mutex the test does not know", tn(t));
            }
            if (m->owner != t) {
                return fail("K7 %s lists a mutex owned by %s", tn(t), tn(m->owner));
            }
            if ((m->options & LM_MUTEX_INHERIT) != 0u) {
                expect = lmk_min_prio(expect, lmk_waitq_best_prio(&m->waiters));
            }
#endif
        }
        if (!live(t) && held != 0u) {
            return fail("K7 %s (state %u) holds %u mutexes", tn(t), t->state, held);
        }
        if (t->prio != expect) {
            return fail("K8 %s: effective priority %u, R5.2 gives %u (base %u)", tn(t), t->prio,
                        expect, t->base_prio);
        }
        if (t->preempt_limit != lmk_min_prio(t->threshold, t->prio)) {
            return fail("K8 %s: preempt_limit %u, threshold %u, priority %u", tn(t),
                        t->preempt_limit, t->threshold, t->prio);
        }
    }
    return true;
}

static bool check_all(bool settled)
{
    memset(w.places, 0, sizeof w.places);
    if (!check_prioq(&lmk.ready, ROLE_READY, NULL, "ready")) {
        return false;
    }
    if (!prioset_summary_ok(&lmk.held)) {
        return fail("K2 held: bitmap summary disagrees with its words");
    }
    if (lmk.current == &lmk_idle_thread && !lmk_prioset_empty(&lmk.held)) {
        return fail("K2 held: a hold is marked while the idle thread runs");
    }
    for (unsigned p = 0; p < LM_CFG_PRIORITIES; p++) {
        if (prioset_has(&lmk.held, p) && !prioset_has(&lmk.ready.busy, p)) {
            return fail("K2 held: bit %u set, ready ring %u empty", p, p);
        }
    }
    if (!check_objects(settled) || !check_threads()) {
        return false;
    }
    const lm_thread_t *cur = lmk.current;
    if (cur == NULL || cur->state != LM_THREAD_READY) {
        return fail("K9 the running thread %s is not READY (state %u)", tn(cur),
                    cur != NULL ? cur->state : 0u);
    }
    if (cur != &lmk_idle_thread && thread_index(cur) < 0) {
        return fail("K9 the running thread is one the test does not know");
    }
#if LM_CFG_MUTEX
    /* An R5.7 walk belongs to the running thread: a walker switched out
     * (suspended or ended by a handler) has had its walk ended. */
    if (lmk.walker != NULL && lmk.walker != cur) {
        return fail("K9 walker %s is not the running thread %s", tn(lmk.walker), tn(cur));
    }
#endif
    if (lmk_idle_thread.state != LM_THREAD_READY || lmk_idle_thread.qlink.next != NULL) {
        return fail("K2 the idle thread left the READY state or is queued");
    }
    return true;
}

const char *lmt_kc_check(bool settled)
{
    lm_irqstate_t s = lm_port_irq_lock();
    bool ok = check_all(settled);
    lm_port_irq_unlock(s);
    return ok ? NULL : msg;
}
