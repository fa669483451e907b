/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bounded masked cost (seed 003; R1.3, R9.1-R9.4, R10.6).
 *
 * This program links `limen_kernel_bbcount`: the kernel's own sources built
 * with -fsanitize-coverage=trace-pc. Every basic block of kernel code calls
 * the hosted port, which counts the blocks executed while interrupts are
 * masked, one count per stretch from lock to unlock (docs/hosted.md,
 * "Counting masked work"). The counts therefore come from the compiler's
 * instrumentation, not from the kernel's data structures, and they are
 * deterministic: equal counts across patterns are the assertion, not a time.
 *
 * Each case prints the counts it measured, one line per pattern.
 */
#include <string.h>
#include "harness.h"
#include "limen/port.h"

#if defined(LM_PORT_HOSTED)

/* B of kernel/waitq.c: the bits of a priority (compact wait queues). */
#define WQ_BITS ((LM_CFG_PRIORITIES > 32) ? 6u : 5u)

/* ---- threads beyond the harness's 24 ---- */

/* Up to 52 waiters plus a newcomer: more than the harness holds. Their
 * stacks are the port's minimum (32 KiB, docs/hosted.md): these threads
 * call only the kernel, never printf. */
#define XT_MAX 56u
#define XT_STACK ((size_t)LM_PORT_MIN_STACK)
static lm_thread_t xt[XT_MAX];
static LM_STACK_DEFINE(xt_stacks, XT_STACK * XT_MAX);
static unsigned xt_count;

static void xt_reset(void)
{
    memset(xt, 0, sizeof xt);
    xt_count = 0;
}

static lm_thread_t *xt_spawn(const char *name, unsigned prio, lm_thread_entry_t fn, void *arg,
                             bool start)
{
    if (xt_count == XT_MAX) {
        lmt_fail(__FILE__, __LINE__, "too many extra threads");
    }
    lm_thread_t *t = &xt[xt_count];
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = name;
    a.entry = fn;
    a.arg = arg;
    a.stack = xt_stacks + XT_STACK * xt_count;
    a.stack_size = XT_STACK;
    a.priority = (uint16_t)prio;
    xt_count++;
    LMT_ST(lm_thread_create(t, &a), LM_OK);
    if (start) {
        LMT_ST(lm_thread_start(t), LM_OK);
    }
    return t;
}

static lm_hosted_mask_stats_t mask_stats(void)
{
    lm_hosted_mask_stats_t m;
    lm_hosted_mask_stats(&m);
    return m;
}

static void print_stats(const char *what, const lm_hosted_mask_stats_t *m)
{
    printf("  %-44s max %4lu  stretches %4lu  total %6lu\n", what, (unsigned long)m->max_blocks,
           (unsigned long)m->stretches, (unsigned long)m->total_blocks);
}

/* ---- sanity: the counter counts kernel blocks, and only while masked ---- */

static uint64_t san_empty_stretch, san_give_a, san_give_b, san_give_c;

static void sanity_thread(void *arg)
{
    (void)arg;
    lm_sem_t s;
    memset(&s, 0, sizeof s);
    LMT_ST(lm_sem_create(&s, 0, 10), LM_OK);

    /* A masked stretch that runs no kernel code: the port's own lock and
     * unlock are not instrumented, so it counts zero blocks. */
    lm_hosted_mask_stats_reset();
    lm_irqstate_t st = lm_port_irq_lock();
    lm_port_irq_unlock(st);
    lm_hosted_mask_stats_t m = mask_stats();
    LMT_EQ(m.stretches, 1);
    san_empty_stretch = m.max_blocks;

    /* One kernel call, one stretch, a nonzero and repeatable count. */
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_sem_give(&s), LM_OK);
    m = mask_stats();
    LMT_EQ(m.stretches, 1);
    san_give_a = m.last_blocks;
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_sem_give(&s), LM_OK);
    san_give_b = mask_stats().last_blocks;

    /* Kernel code that runs unmasked is not counted: a query that takes
     * no lock adds nothing, and the next stretch counts as before. */
    uint32_t count = 0;
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_sem_count(&s, &count), LM_OK);
    LMT_EQ(count, 2);
    m = mask_stats();
    LMT_EQ(m.stretches, 0);
    LMT_EQ(m.total_blocks, 0);
    LMT_ST(lm_sem_give(&s), LM_OK);
    san_give_c = mask_stats().last_blocks;
}

/* The instrumentation sees kernel basic blocks executed while masked (and
 * more of them for more work under the lock: walk_counts_follow_links). */
LMT_CASE(instrumentation_counts_masked_kernel_blocks)
{
    lmt_begin();
    lmt_spawn("S", 5, sanity_thread, NULL);
    lmt_run();
    printf("  masked stretch without kernel code: %lu blocks\n",
           (unsigned long)san_empty_stretch);
    printf("  sem give, no waiter: %lu, again: %lu blocks\n", (unsigned long)san_give_a,
           (unsigned long)san_give_b);
    LMT_EQ(san_empty_stretch, 0);
    LMT_CHECK(san_give_a > 0u);
    LMT_EQ(san_give_a, san_give_b);
    LMT_EQ(san_give_c, san_give_a);
}

/* ---- seed 003: semaphore take and give with 0..52 waiters ---- */

static lm_sem_t sem;
static lm_thread_t *newcomer;
static lm_thread_t *first_woken;
static lm_status_t first_status;
static lm_hosted_mask_stats_t take_ms, give_ms;

static void sem_waiter(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, LM_WAIT_FOREVER);
    if (first_woken == NULL) {
        /* The give and the switch to this thread are the last masked
         * stretches; nothing of this thread's own has run masked yet. */
        lm_hosted_mask_stats(&give_ms);
        first_woken = lm_thread_self();
        first_status = st;
    }
}

static void sem_newcomer(void *arg)
{
    lm_hosted_mask_stats_reset();
    sem_waiter(arg);
}

/* Least urgent of all: it runs once every waiter has blocked. */
static void sem_driver(void *arg)
{
    (void)arg;
    /* The newcomer preempts, blocks at once, and we are back. */
    LMT_ST(lm_thread_start(newcomer), LM_OK);
    lm_hosted_mask_stats(&take_ms);
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_sem_give(&sem), LM_OK); /* the first waiter preempts us */
    lm_hosted_stop();
}

static void sem_pattern(unsigned per_prio, unsigned newcomer_prio)
{
    lmt_begin();
    xt_reset();
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1000), LM_OK);
    first_woken = NULL;
    memset(&take_ms, 0, sizeof take_ms);
    memset(&give_ms, 0, sizeof give_ms);
    lm_thread_t *first_at_2 = NULL;
    for (unsigned p = 2; p <= 14; p++) {
        for (unsigned i = 0; i < per_prio; i++) {
            lm_thread_t *t = xt_spawn("w", p, sem_waiter, NULL, true);
            if (first_at_2 == NULL) {
                first_at_2 = t;
            }
        }
    }
    newcomer = xt_spawn("N", newcomer_prio, sem_newcomer, NULL, false);
    lmt_spawn("D", 20, sem_driver, NULL);
    lmt_run();
    /* The give woke the most urgent waiter, first come among equals. */
    lm_thread_t *expect = (newcomer_prio < 2u || first_at_2 == NULL) ? newcomer : first_at_2;
    LMT_CHECK(first_woken == expect);
    LMT_ST(first_status, LM_OK);
}

/*
 * Seed 003, R10.6, R1.3: a newcomer's blocking take, and a give that wakes
 * the first waiter, hold the lock for the same number of blocks whether 0,
 * 13, 26 or 52 threads already wait (0, 1, 2 or 4 at each priority 2..14),
 * and whatever the newcomer's priority.
 *
 * The wait queue's O(1) operations have one branch: whether the ring of the
 * priority touched is empty (a bit to set or clear) or not. So the counts
 * fall into two classes, fixed by that ring alone and never by how many
 * threads wait elsewhere or in it: a newcomer joining an empty ring or an
 * occupied one; a woken waiter that leaves its ring empty or leaves peers.
 * The case asserts equality within each class, over all twelve patterns.
 */
#if !LM_CFG_WAIT_QUEUE_COMPACT
LMT_CASE(sem_take_and_give_cost_independent_of_waiters)
{
    static const unsigned per_prio[] = {0, 1, 2, 4};
    static const unsigned nprio[] = {1, 8, 15};
    uint64_t take_class[2] = {0, 0}, give_class[2] = {0, 0};
    unsigned take_seen[2] = {0, 0}, give_seen[2] = {0, 0};
    for (unsigned j = 0; j < 3u; j++) {
        for (unsigned i = 0; i < 4u; i++) {
            unsigned k = per_prio[i], p = nprio[j];
            sem_pattern(k, p);
            /* Does the newcomer join an occupied ring? Does the woken
             * thread (the newcomer at 1, else the first at 2 if any)
             * leave peers behind? */
            unsigned joins = (k > 0u && p >= 2u && p <= 14u) ? 1u : 0u;
            unsigned leaves = (p >= 2u && k >= 2u) ? 1u : 0u;
            char what[96];
            snprintf(what, sizeof what, "take: %2u waiters (%u at each of 2..14), newcomer %2u",
                     k * 13u, k, p);
            print_stats(what, &take_ms);
            snprintf(what, sizeof what, "give: %2u waiters (%u at each of 2..14), newcomer %2u",
                     k * 13u, k, p);
            print_stats(what, &give_ms);
            /* The take and the switch away; the give and the switch in. */
            LMT_EQ(take_ms.stretches, 2);
            LMT_EQ(give_ms.stretches, 2);
            if (take_seen[joins]++ == 0u) {
                take_class[joins] = take_ms.max_blocks;
            }
            if (give_seen[leaves]++ == 0u) {
                give_class[leaves] = give_ms.max_blocks;
            }
            LMT_EQ(take_ms.max_blocks, take_class[joins]);
            LMT_EQ(give_ms.max_blocks, give_class[leaves]);
        }
    }
    /* Both classes of each were exercised, each including 52-waiter runs. */
    LMT_EQ(take_seen[0], 9);
    LMT_EQ(take_seen[1], 3);
    LMT_EQ(give_seen[0], 8);
    LMT_EQ(give_seen[1], 4);
    printf("  take: %lu blocks (empty ring), %lu (occupied ring); give: %lu (ring emptied), "
           "%lu (peers left)\n",
           (unsigned long)take_class[0], (unsigned long)take_class[1],
           (unsigned long)give_class[0], (unsigned long)give_class[1]);
}
#else
/*
 * The same patterns on compact wait queues (kernel/waitq.c). Their cost
 * depends on the trie of the priorities present, at most 2*log2(P)+2
 * steps, and never on how many threads wait at each: with the priorities
 * 2..14 present, a newcomer's take and the give that follows hold the lock
 * for the same number of blocks whether 1, 2 or 4 threads wait at each
 * (13, 26 or 52 in all). The give's count has two classes, as the table's:
 * the woken waiter leaves peers at its priority (a new leader takes its
 * place in the trie) or not. An empty queue is a class of its own.
 */
LMT_CASE(sem_take_and_give_cost_independent_of_waiters)
{
    static const unsigned per_prio[] = {1, 2, 4};
    static const unsigned nprio[] = {1, 8, 15};
    for (unsigned j = 0; j < 3u; j++) {
        unsigned p = nprio[j];
        uint64_t take0 = 0, give_class[2] = {0, 0};
        for (unsigned i = 0; i < 3u; i++) {
            unsigned k = per_prio[i];
            sem_pattern(k, p);
            char what[96];
            snprintf(what, sizeof what, "take: %2u waiters (%u at each of 2..14), newcomer %2u",
                     k * 13u, k, p);
            print_stats(what, &take_ms);
            snprintf(what, sizeof what, "give: %2u waiters (%u at each of 2..14), newcomer %2u",
                     k * 13u, k, p);
            print_stats(what, &give_ms);
            LMT_EQ(take_ms.stretches, 2);
            LMT_EQ(give_ms.stretches, 2);
            unsigned leaves = (p >= 2u && k >= 2u) ? 1u : 0u;
            if (i == 0u) {
                take0 = take_ms.max_blocks;
            }
            if (give_class[leaves] == 0u) {
                give_class[leaves] = give_ms.max_blocks;
            }
            LMT_EQ(take_ms.max_blocks, take0);
            LMT_EQ(give_ms.max_blocks, give_class[leaves]);
        }
    }
    /* The empty queue: the same whatever the newcomer's priority. */
    uint64_t empty_take = 0, empty_give = 0;
    for (unsigned j = 0; j < 3u; j++) {
        sem_pattern(0, nprio[j]);
        if (j == 0u) {
            empty_take = take_ms.max_blocks;
            empty_give = give_ms.max_blocks;
        }
        LMT_EQ(take_ms.max_blocks, empty_take);
        LMT_EQ(give_ms.max_blocks, empty_give);
    }
}
#endif

/* ---- R9.4: tick expiry with 1,000 timeouts pending ---- */

#define NTIMERS 1000u
#define EXPIRY_TICK 10u
#define LONG_DELAY 100000u
#define WHEEL ((lm_tick_t)LM_CFG_TIMER_WHEEL_SLOTS)
#define LONG_DELAY_ALIGNED (WHEEL * 2000u) /* slot 0 when armed at tick 0 */
#define PROBE_DELAY 5u
static lm_timer_t timers[NTIMERS];
static lm_timer_t probe;
/* One per expiring thread: each expiry leaves a queue of one, the same
 * path whatever the wait-queue representation. */
static lm_sem_t never_given[16];
static unsigned expiring;
static lm_thread_t *expirers[16];
static lm_hosted_mask_stats_t tick_ms;
static unsigned timed_out;

static void must_not_fire(void *arg)
{
    (void)arg;
    lmt_fail(__FILE__, __LINE__, "a long timer fired");
}

/* Start the n timers with long periods: they stay pending throughout. */
static void start_long_timers(unsigned n, lm_tick_t first_delay, lm_tick_t stride)
{
    memset(timers, 0, sizeof timers);
    for (unsigned i = 0; i < n; i++) {
        LMT_ST(lm_timer_create(&timers[i], must_not_fire, NULL), LM_OK);
        LMT_ST(lm_timer_start(&timers[i], first_delay + i * stride, LONG_DELAY), LM_OK);
    }
}

static void expirer(void *arg)
{
    LMT_ST(lm_sem_take((lm_sem_t *)arg, EXPIRY_TICK), LM_ERR_TIMEOUT);
    timed_out++;
}

/* Starts least urgent, so it runs once the expiring threads wait; then
 * becomes the most urgent so that nothing else runs while it measures. */
static void clock_thread(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 1), LM_OK);
    while (lm_tick_now() != EXPIRY_TICK - 1u) {
        lm_hosted_work(1);
    }
    lm_hosted_mask_stats_reset();
    lm_hosted_work(1); /* the tick interrupt, then the deferred expiry steps */
    tick_ms = mask_stats();
    LMT_EQ(lm_tick_now(), EXPIRY_TICK);
    for (unsigned i = 0; i < expiring; i++) {
        LMT_EQ(lm_thread_state(expirers[i]), LM_THREAD_READY);
    }
    /* Let the woken threads run and report their timeouts. */
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 30), LM_OK);
    /* The threshold followed the priority up (R4.5); drop it too. */
    LMT_ST(lm_thread_set_threshold(lm_thread_self(), LM_THRESHOLD_NONE), LM_OK);
    LMT_EQ(timed_out, expiring);
    lm_hosted_stop();
}

static void tick_pattern(unsigned n)
{
    lmt_begin();
    xt_reset();
    memset(never_given, 0, sizeof never_given);
    for (unsigned i = 0; i < n; i++) {
        LMT_ST(lm_sem_create(&never_given[i], 0, 1), LM_OK);
    }
    start_long_timers(NTIMERS, LONG_DELAY, 1);
    expiring = n;
    timed_out = 0;
    /* One priority each (4..19), less urgent than the clock thread once it
     * has raised itself, so none runs inside the measured tick. */
    for (unsigned i = 0; i < n; i++) {
        expirers[i] = xt_spawn("e", 4u + i, expirer, &never_given[i], true);
    }
    lmt_spawn("C", 25, clock_thread, NULL);
    lmt_run();
}

/*
 * R9.4, seed 003: 0, 1, 8 or 16 semaphore takes time out on one tick while
 * 1,000 timer timeouts stay pending. They time out in runs of
 * K = LM_CFG_EXPIRIES_PER_STEP per masked step, so the longest masked
 * stretch of that tick (the tick interrupt, every deferred expiry step and
 * the switch decision) is the same for 8 and 16, no shorter for 1 and no
 * longer for 0; only the number of steps, one per run of K, and the total
 * grow. The expiring threads have one priority each so that every expiry
 * takes the same path through the wait and ready queues (see the semaphore
 * case for the empty-ring branch).
 */
LMT_CASE(tick_expiry_cost_independent_of_expiring_count)
{
    static const unsigned counts[] = {0, 1, 8, 16};
    lm_hosted_mask_stats_t r[4];
    for (unsigned i = 0; i < 4u; i++) {
        tick_pattern(counts[i]);
        r[i] = tick_ms;
        char what[80];
        snprintf(what, sizeof what, "tick: %2u expiring, %u timers pending", counts[i], NTIMERS);
        print_stats(what, &r[i]);
    }
    _Static_assert(LM_CFG_EXPIRIES_PER_STEP <= 8, "8 and 16 expiries fill whole runs");
    LMT_EQ(r[3].max_blocks, r[2].max_blocks);
    LMT_CHECK(r[1].max_blocks <= r[2].max_blocks);
    LMT_CHECK(r[0].max_blocks <= r[1].max_blocks);
    for (unsigned i = 1; i < 4u; i++) {
        /* One masked step per run of K, and more work. The last run also
         * settles the tick's work, which with nothing due takes a step of
         * its own: one step fewer. */
        unsigned runs = (counts[i] + LM_CFG_EXPIRIES_PER_STEP - 1u) / LM_CFG_EXPIRIES_PER_STEP;
        LMT_EQ(r[i].stretches, r[0].stretches + runs - 1u);
        LMT_CHECK(r[i].total_blocks > r[i - 1u].total_blocks);
    }
}

static lm_hosted_mask_stats_t arm_ms, cancel_ms;

static void arm_cancel_thread(void *arg)
{
    (void)arg;
    memset(&probe, 0, sizeof probe);
    LMT_ST(lm_timer_create(&probe, must_not_fire, NULL), LM_OK);
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_timer_start(&probe, PROBE_DELAY, 0), LM_OK);
    arm_ms = mask_stats();
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_timer_stop(&probe), LM_OK);
    cancel_ms = mask_stats();
    lm_hosted_stop(); /* before idle lets the long timers come due */
}

static void arm_cancel_pattern(unsigned n, bool same_slot)
{
    lmt_begin();
    memset(timers, 0, sizeof timers);
    for (unsigned i = 0; i < n; i++) {
        /* Deadlines far beyond one wheel revolution; `same_slot` puts each
         * in the probe's slot, otherwise every slot but the probe's. */
        lm_tick_t slot = same_slot ? PROBE_DELAY : i % (WHEEL - 1u);
        if (!same_slot && slot >= PROBE_DELAY) {
            slot++;
        }
        lm_tick_t delay = LONG_DELAY_ALIGNED + WHEEL * (i / (WHEEL - 1u)) + slot;
        LMT_ST(lm_timer_create(&timers[i], must_not_fire, NULL), LM_OK);
        LMT_ST(lm_timer_start(&timers[i], delay, LONG_DELAY), LM_OK);
    }
    lmt_spawn("A", 5, arm_cancel_thread, NULL);
    lmt_run();
}

/*
 * R9.4, limen/timer.h: arming and cancelling one timeout cost the same
 * masked count with 0, 10 or 1,000 other timeouts pending. The wheel's one
 * branch is whether the probe's slot is left empty by the cancel (its busy
 * bit is then cleared), so the pending timeouts are placed either all in
 * other slots or all in the probe's slot, and each placement is compared
 * across the counts.
 */
LMT_CASE(arm_and_cancel_cost_independent_of_pending)
{
    static const unsigned counts[] = {0, 10, 1000};
    uint64_t arm0 = 0, cancel_alone = 0, cancel_shared = 0;
    for (unsigned same = 0; same < 2u; same++) {
        for (unsigned i = 0; i < 3u; i++) {
            if (same != 0u && counts[i] == 0u) {
                continue; /* nothing to share the slot with */
            }
            arm_cancel_pattern(counts[i], same != 0u);
            char what[80];
            snprintf(what, sizeof what, "arm: %4u pending, %s", counts[i],
                     same ? "in its slot" : "in other slots");
            print_stats(what, &arm_ms);
            snprintf(what, sizeof what, "cancel: %4u pending, %s", counts[i],
                     same ? "in its slot" : "in other slots");
            print_stats(what, &cancel_ms);
            LMT_EQ(arm_ms.stretches, 1);
            LMT_EQ(cancel_ms.stretches, 1);
            if (same == 0u && i == 0u) {
                arm0 = arm_ms.max_blocks;
                cancel_alone = cancel_ms.max_blocks;
            }
            if (same != 0u && i == 1u) {
                cancel_shared = cancel_ms.max_blocks;
            }
            LMT_EQ(arm_ms.max_blocks, arm0);
            LMT_EQ(cancel_ms.max_blocks, same ? cancel_shared : cancel_alone);
        }
    }
}

/*
 * The idle thread decides how long to sleep with interrupts masked
 * (kernel.c, lmk_idle_entry). lmk_ticks_to_next_event scans every word of
 * the wheel's busy bitmap once, so that stretch must not depend on how far
 * away the next timeout is.
 */
static lm_tick_t idle_distance;
static lm_hosted_mask_stats_t idle_ms;

static void idle_probe_fired(void *arg)
{
    (void)arg;
    idle_ms = mask_stats(); /* the idle decision, the tick and this expiry */
}

static void idle_probe_thread(void *arg)
{
    (void)arg;
    memset(&probe, 0, sizeof probe);
    LMT_ST(lm_timer_create(&probe, idle_probe_fired, NULL), LM_OK);
    LMT_ST(lm_timer_start(&probe, idle_distance, 0), LM_OK);
    lm_hosted_mask_stats_reset(); /* the thread ends; idle runs next */
}

/* R9.4, seed 003: the idle thread's masked stretch does not depend on how
 * far away the next timeout is. */
LMT_CASE(idle_decision_cost_independent_of_next_deadline)
{
    static const lm_tick_t distances[] = {2, 10, 30, 63};
    uint64_t first = 0;
    for (unsigned i = 0; i < 4u; i++) {
        idle_distance = distances[i];
        lmt_begin();
        lmt_spawn("I", 5, idle_probe_thread, NULL);
        lmt_run();
        char what[80];
        snprintf(what, sizeof what, "idle: next timeout %2u ticks away", (unsigned)distances[i]);
        print_stats(what, &idle_ms);
        if (i == 0u) {
            first = idle_ms.max_blocks;
        }
        LMT_EQ(idle_ms.max_blocks, first);
    }
}

/* ---- R9.1-R9.3: operations on many waiters ---- */

enum many_op { OP_FLAGS_SET, OP_SEM_DELETE, OP_QUEUE_DELETE, OP_QUEUE_FLUSH, OP_FLAGS_DELETE,
               OP_POOL_DELETE, OP_MUTEX_DELETE };
static const char *const op_names[] = {"flags set", "sem delete", "queue delete", "queue flush",
                                       "flags delete", "pool delete", "mutex delete"};

static enum many_op op;
static unsigned n_waiters;
static unsigned same_prio;
static lm_flags_t m_flags;
static lm_sem_t m_sem;
static lm_queue_t m_queue;
/* One slot more than the most waiters: a flush's last step then always
 * finds no sender left, never a full queue, whatever the count. */
#define M_QCAP 17u
static LM_QUEUE_BUFFER_DEFINE(m_qbuf, sizeof(uint32_t), M_QCAP);
static lm_pool_t m_pool;
static LM_POOL_BUFFER_DEFINE(m_pbuf, 16, 1);
static lm_mutex_t m_mutex;
static lm_hosted_mask_stats_t op_ms;
static unsigned reported;
static lm_status_t expect_status;

static lm_status_t many_wait(void)
{
    uint32_t v = 0;
    void *blk = NULL;
    switch (op) {
    case OP_FLAGS_SET:
    case OP_FLAGS_DELETE:
        return lm_flags_wait(&m_flags, 0x1u, LM_FLAGS_ANY, &v, LM_WAIT_FOREVER);
    case OP_SEM_DELETE:
        return lm_sem_take(&m_sem, LM_WAIT_FOREVER);
    case OP_QUEUE_DELETE:
        return lm_queue_receive(&m_queue, &v, sizeof v, LM_WAIT_FOREVER);
    case OP_QUEUE_FLUSH:
        v = 7u;
        return lm_queue_send(&m_queue, &v, sizeof v, LM_WAIT_FOREVER);
    case OP_POOL_DELETE:
        return lm_pool_alloc(&m_pool, &blk, LM_WAIT_FOREVER);
    case OP_MUTEX_DELETE:
        return lm_mutex_lock(&m_mutex, LM_WAIT_FOREVER);
    }
    return LM_ERR_PARAM;
}

static void many_waiter(void *arg)
{
    (void)arg;
    LMT_ST(many_wait(), expect_status);
    reported++;
}

static void many_driver(void *arg)
{
    (void)arg;
    uint32_t v = 1u;
    void *blk = NULL;
    if (op == OP_QUEUE_FLUSH) {
        for (unsigned i = 0; i < M_QCAP; i++) {
            LMT_ST(lm_queue_send(&m_queue, &v, sizeof v, LM_NO_WAIT), LM_OK);
        }
    } else if (op == OP_POOL_DELETE) {
        LMT_ST(lm_pool_alloc(&m_pool, &blk, LM_NO_WAIT), LM_OK);
    } else if (op == OP_MUTEX_DELETE) {
        LMT_ST(lm_mutex_lock(&m_mutex, LM_WAIT_FOREVER), LM_OK);
    }
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the waiters block meanwhile */
    lm_hosted_mask_stats_reset();
    switch (op) {
    case OP_FLAGS_SET: LMT_ST(lm_flags_set(&m_flags, 0x1u), LM_OK); break;
    case OP_SEM_DELETE: LMT_ST(lm_sem_delete(&m_sem), LM_OK); break;
    case OP_QUEUE_DELETE: LMT_ST(lm_queue_delete(&m_queue), LM_OK); break;
    case OP_QUEUE_FLUSH: LMT_ST(lm_queue_flush(&m_queue), LM_OK); break;
    case OP_FLAGS_DELETE: LMT_ST(lm_flags_delete(&m_flags), LM_OK); break;
    case OP_POOL_DELETE: LMT_ST(lm_pool_delete(&m_pool), LM_OK); break;
    case OP_MUTEX_DELETE: LMT_ST(lm_mutex_delete(&m_mutex), LM_OK); break;
    }
    op_ms = mask_stats();
    /* Every waiter was woken by the one call (they are less urgent, so none
     * has run yet); now let them run and check their statuses. */
    LMT_EQ(reported, 0);
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 30), LM_OK);
    /* The threshold followed the priority up (R4.5); drop it too. */
    LMT_ST(lm_thread_set_threshold(lm_thread_self(), LM_THRESHOLD_NONE), LM_OK);
    LMT_EQ(reported, n_waiters);
    lm_hosted_stop();
}

static void many_pattern(enum many_op o, unsigned n)
{
    lmt_begin();
    xt_reset();
    op = o;
    n_waiters = n;
    reported = 0;
    memset(&m_flags, 0, sizeof m_flags);
    memset(&m_sem, 0, sizeof m_sem);
    memset(&m_queue, 0, sizeof m_queue);
    memset(&m_pool, 0, sizeof m_pool);
    memset(&m_mutex, 0, sizeof m_mutex);
    LMT_ST(lm_flags_create(&m_flags, 0), LM_OK);
    LMT_ST(lm_sem_create(&m_sem, 0, 1), LM_OK);
    LMT_ST(lm_queue_create(&m_queue, m_qbuf, sizeof(uint32_t), M_QCAP), LM_OK);
    LMT_ST(lm_pool_create(&m_pool, m_pbuf, sizeof m_pbuf, 16, 1), LM_OK);
    LMT_ST(lm_mutex_create(&m_mutex, LM_MUTEX_INHERIT), LM_OK);
    expect_status = (o == OP_FLAGS_SET || o == OP_QUEUE_FLUSH) ? LM_OK : LM_ERR_DELETED;
    lmt_spawn("D", 1, many_driver, NULL);
    for (unsigned i = 0; i < n; i++) {
        xt_spawn("w", same_prio ? 10u : 4u + i, many_waiter, NULL, true);
    }
    lmt_run();
}

/*
 * R9.1 (delete: semaphore, queue, pool, mutex, flags), R9.2 (queue flush
 * admitting blocked senders), R9.3 (flags set): with 1, 4 or 16 waiters the
 * longest masked stretch is the same; each waiter gets a masked step of its
 * own, so the number of stretches is the waiters plus two (the first step
 * and the final one that finds nobody left), and the total grows.
 *
 * Waiters at one priority each make every step take the same path. With all
 * waiters at one priority the counts of 4 and 16 are still equal; a single
 * waiter alone both empties its wait ring and opens a ready ring in one
 * step, which several waiters split over different steps (the empty-ring
 * branch, see the semaphore case), so 1 is compared with the distinct run.
 */
LMT_CASE(many_waiter_ops_cost_independent_of_waiters)
{
    static const unsigned counts[] = {1, 4, 16};
    for (unsigned o = OP_FLAGS_SET; o <= OP_MUTEX_DELETE; o++) {
        lm_hosted_mask_stats_t r[2][3];
        for (same_prio = 0; same_prio < 2u; same_prio++) {
            for (unsigned i = 0; i < 3u; i++) {
                many_pattern((enum many_op)o, counts[i]);
                r[same_prio][i] = op_ms;
                char what[80];
                snprintf(what, sizeof what, "%s: %2u waiters, %s", op_names[o], counts[i],
                         same_prio ? "one priority" : "a priority each");
                print_stats(what, &op_ms);
                LMT_EQ(op_ms.stretches, counts[i] + 2u);
                if (i > 0u) {
                    LMT_CHECK(op_ms.total_blocks > r[same_prio][i - 1u].total_blocks);
                }
            }
        }
#if LM_CFG_WAIT_QUEUE_COMPACT
        /* Compact wait queues: a lone waiter leaves inline (waitq.h), the
         * others through waitq.c. Waking the first of distinct priorities
         * visits at most 2B trie nodes more than handing a leader's place
         * to a peer (one priority, 4 waiters), a handful of blocks each:
         * bounded by the configuration, never by the waiters (4 blocks a
         * node is the bound the instrumented build shows). */
        for (unsigned i = 1; i < 3u; i++) {
            LMT_CHECK(r[0][i].max_blocks <= r[1][1].max_blocks + 4u * 2u * WQ_BITS);
        }
#else
        LMT_EQ(r[0][1].max_blocks, r[0][0].max_blocks);
        LMT_EQ(r[0][2].max_blocks, r[0][0].max_blocks);
#endif
        LMT_EQ(r[1][2].max_blocks, r[1][1].max_blocks);
        LMT_EQ(r[1][0].max_blocks, r[0][0].max_blocks);
#if !LM_CFG_WAIT_QUEUE_COMPACT
        LMT_CHECK(r[1][1].max_blocks <= r[0][0].max_blocks);
#endif
    }
}

/* ---- R5.2-R5.7, R9.6: inheritance chains of depth 0..16, 1..8 mutexes per owner ---- */

/*
 * A chain of depth d: owners O_0..O_d, O_i (i > 0) blocked on A_{i-1},
 * which O_{i-1} owns; O_0 blocked on a semaphore; each O_i owns A_i and
 * k - 1 more inheriting mutexes nobody waits on. W, more urgent than every
 * owner, waits on A_d, so all of them run at W's priority (R5.3). D, most
 * urgent, drives; P, least urgent and always ready, runs only when every
 * other thread is blocked and then ends the measured window.
 */
#define CH_DEPTH_MAX 16u
#define CH_K_MAX 8u
#define CH_W_PRIO 3u
#define CH_W_TIMEOUT 40u
enum chain_op { CH_TIMEOUT, CH_LOCK, CH_UNLOCK, CH_TERMINATE, CH_SET_PRIORITY, CH_ABORT, CH_OPS };
static const char *const ch_names[] = {"timeout of W", "lock by W", "unlock by O_0",
                                       "terminate O_d", "set_priority of W", "wait_abort of W"};

static lm_mutex_t ch_a[CH_DEPTH_MAX + 1u];
static lm_mutex_t ch_x[CH_DEPTH_MAX + 1u][CH_K_MAX];
static lm_thread_t *ch_o[CH_DEPTH_MAX + 1u];
static lm_thread_t *ch_w;
static lm_sem_t ch_w_go, ch_o0_go, ch_end, ch_done;
static unsigned ch_depth, ch_k;
static unsigned ch_inherit = LM_MUTEX_INHERIT;
static enum chain_op ch_op;
static volatile bool ch_p_wake, ch_measuring;
static lm_tick_t ch_w_deadline;
static lm_status_t ch_w_status;
static lm_hosted_mask_stats_t ch_ms;
static unsigned ch_prio_seen[CH_DEPTH_MAX + 1u];

static void ch_owner(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    LMT_ST(lm_mutex_lock(&ch_a[i], LM_WAIT_FOREVER), LM_OK);
    for (unsigned j = 1; j < ch_k; j++) {
        LMT_ST(lm_mutex_lock(&ch_x[i][j], LM_WAIT_FOREVER), LM_OK);
    }
    if (i == 0u) {
        LMT_ST(lm_sem_take(&ch_o0_go, LM_WAIT_FOREVER), LM_OK);
        LMT_ST(lm_mutex_unlock(&ch_a[0]), LM_OK); /* only CH_UNLOCK gives the go */
        (void)lm_sem_take(&ch_end, LM_WAIT_FOREVER);
    } else {
        (void)lm_mutex_lock(&ch_a[i - 1u], LM_WAIT_FOREVER);
        (void)lm_sem_take(&ch_end, LM_WAIT_FOREVER);
    }
}

static void ch_waiter(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&ch_w_go, LM_WAIT_FOREVER), LM_OK);
    ch_w_deadline = lm_tick_now() + CH_W_TIMEOUT;
    ch_w_status = lm_mutex_lock(&ch_a[ch_depth], ch_op == CH_TIMEOUT ? CH_W_TIMEOUT
                                                                   : LM_WAIT_FOREVER);
    (void)lm_sem_take(&ch_end, LM_WAIT_FOREVER);
}

/* Least urgent: runs when all the others are blocked. */
static void ch_probe(void *arg)
{
    (void)arg;
    for (;;) {
        if (ch_p_wake) {
            if (ch_measuring) {
                ch_ms = mask_stats();
                ch_measuring = false;
            }
            ch_p_wake = false;
            LMT_ST(lm_sem_give(&ch_done), LM_OK);
        } else {
            LMT_ST(lm_thread_yield(), LM_OK);
        }
    }
}

/* D blocks until every other thread is blocked. */
static void ch_settle(void)
{
    ch_p_wake = true;
    LMT_ST(lm_sem_take(&ch_done, LM_WAIT_FOREVER), LM_OK);
}

static void ch_driver(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i <= ch_depth; i++) {
        LMT_ST(lm_thread_start(ch_o[i]), LM_OK);
    }
    ch_settle(); /* the chain of owners is built */
    if (ch_op != CH_LOCK) {
        LMT_ST(lm_sem_give(&ch_w_go), LM_OK);
        ch_settle(); /* W waits on A_d: the chain runs at W's priority */
        for (unsigned i = 0; i <= ch_depth; i++) {
            LMT_EQ(lm_thread_priority(ch_o[i]), ch_inherit != 0u ? CH_W_PRIO : 10u + i);
        }
    }
    lm_hosted_mask_stats_reset();
    switch (ch_op) {
    case CH_TIMEOUT:
        /* As in the tick case: the tick, its expiry steps and the chain. */
        while (lm_tick_now() != ch_w_deadline - 1u) {
            lm_hosted_work(1);
        }
        lm_hosted_mask_stats_reset();
        lm_hosted_work(1);
        ch_ms = mask_stats();
        break;
    case CH_LOCK:
        ch_measuring = true;
        LMT_ST(lm_sem_give(&ch_w_go), LM_OK);
        ch_settle(); /* W locks A_d, the chain follows, P ends the window */
        break;
    case CH_UNLOCK:
        ch_measuring = true;
        LMT_ST(lm_sem_give(&ch_o0_go), LM_OK);
        ch_settle(); /* O_0 unlocks A_0: O_1 (or W) gets it */
        break;
    case CH_TERMINATE:
        LMT_ST(lm_thread_terminate(ch_o[ch_depth]), LM_OK);
        ch_ms = mask_stats();
        break;
    case CH_SET_PRIORITY:
        LMT_ST(lm_thread_set_priority(ch_w, CH_W_PRIO - 1u), LM_OK);
        ch_ms = mask_stats();
        break;
    case CH_ABORT:
        LMT_ST(lm_thread_wait_abort(ch_w), LM_OK);
        ch_ms = mask_stats();
        break;
    case CH_OPS:
        break;
    }
    /* What each owner runs at now: R5.2-R5.4 after the operation. */
    for (unsigned i = 0; i <= ch_depth; i++) {
        ch_prio_seen[i] = lm_thread_priority(ch_o[i]);
    }
    lm_hosted_stop();
}

static void chain_pattern(enum chain_op which, unsigned depth, unsigned k)
{
    lmt_begin();
    xt_reset();
    ch_op = which;
    ch_depth = depth;
    ch_k = k;
    ch_p_wake = false;
    ch_measuring = false;
    memset(&ch_ms, 0, sizeof ch_ms);
    memset(ch_a, 0, sizeof ch_a);
    memset(ch_x, 0, sizeof ch_x);
    lm_sem_t *sems[] = {&ch_w_go, &ch_o0_go, &ch_end, &ch_done};
    for (unsigned i = 0; i < 4u; i++) {
        memset(sems[i], 0, sizeof *sems[i]);
        LMT_ST(lm_sem_create(sems[i], 0, 10), LM_OK);
    }
    for (unsigned i = 0; i <= depth; i++) {
        LMT_ST(lm_mutex_create(&ch_a[i], ch_inherit), LM_OK);
        for (unsigned j = 1; j < k; j++) {
            LMT_ST(lm_mutex_create(&ch_x[i][j], ch_inherit), LM_OK);
        }
        /* O_0 most urgent of the owners: each locks its own before the
         * next one blocks on it. */
        ch_o[i] = xt_spawn("O", 10u + i, ch_owner, (void *)(uintptr_t)i, false);
    }
    ch_w = xt_spawn("W", CH_W_PRIO, ch_waiter, NULL, true);
    (void)xt_spawn("P", 30, ch_probe, NULL, true);
    lmt_spawn("D", 1, ch_driver, NULL);
    lmt_run();
}

/* R5.2-R5.4: each owner's priority once the operation is done. */
static void chain_check_result(enum chain_op which, unsigned depth)
{
    for (unsigned i = 0; i <= depth; i++) {
        unsigned base = 10u + i, expect = CH_W_PRIO;
        switch (which) {
        case CH_TIMEOUT:
        case CH_ABORT:
            expect = base; /* W left: nothing inherited */
            break;
        case CH_SET_PRIORITY:
            expect = CH_W_PRIO - 1u;
            break;
        case CH_UNLOCK:
            /* O_0 gave A_0 away; the others still sit behind W. */
            expect = (i == 0u) ? base : CH_W_PRIO;
            break;
        case CH_TERMINATE:
            /* O_d ended (its base again); W got A_d, so the rest lost it. */
            expect = base;
            break;
        case CH_LOCK:
        case CH_OPS:
            break;
        }
        LMT_EQ(ch_prio_seen[i], expect);
    }
}

/*
 * R9.4, R9.6: the longest masked stretch of a timeout
 * of the waiter at the end of a chain, a lock that extends a chain, an
 * unlock, a terminate of an owner, a set_priority and a wait_abort of the
 * waiter is the same for chains of depth 0..16 with 1..8 mutexes per
 * owner; only the number of steps and the total grow. Before, each of
 * these walked the whole chain and every mutex of every owner in one
 * masked step (a tick's stretch 100 / 149 / 296 / 884 blocks for depths
 * 0 / 1 / 4 / 16, and 2,193 with 8 mutexes per owner).
 *
 * A masked step recomputes up to three threads of a chain, or reads three
 * links of it for R5.7 (mutex.c, LMK_PI_LINKS): where the last, partial
 * step of a chain falls depends on the depth modulo three, and so may the
 * longest stretch. The case asserts that it depends on nothing else: for
 * every depth it is the same whatever the number of mutexes per owner, it
 * is the same for every depth from 3 on with the same remainder (3, 4, 5
 * stand for every longer chain: 8 and 16 must equal them), and no depth
 * has a longer stretch than those three.
 */
#define CH_NDEPTHS 8u
LMT_CASE(chain_ops_cost_independent_of_depth_and_mutexes)
{
    static const unsigned depths[CH_NDEPTHS] = {0, 1, 2, 3, 4, 5, 8, 16};
    static const unsigned ks[] = {1, 2, 4, 8};
    printf("  %-18s %5s %2s %6s %9s %7s\n", "operation", "depth", "k", "max", "stretches",
           "total");
    for (unsigned o = 0; o < CH_OPS; o++) {
        lm_hosted_mask_stats_t r[CH_NDEPTHS][4];
        for (unsigned di = 0; di < CH_NDEPTHS; di++) {
            for (unsigned ki = 0; ki < 4u; ki++) {
                chain_pattern((enum chain_op)o, depths[di], ks[ki]);
                chain_check_result((enum chain_op)o, depths[di]);
                r[di][ki] = ch_ms;
                printf("  %-18s %5u %2u %6lu %9lu %7lu\n", ch_names[o], depths[di], ks[ki],
                       (unsigned long)ch_ms.max_blocks, (unsigned long)ch_ms.stretches,
                       (unsigned long)ch_ms.total_blocks);
            }
        }
        uint64_t bound = 0;
        for (unsigned di = 3; di < 6u; di++) {
            for (unsigned ki = 0; ki < 4u; ki++) {
                bound = r[di][ki].max_blocks > bound ? r[di][ki].max_blocks : bound;
            }
        }
        for (unsigned di = 0; di < CH_NDEPTHS; di++) {
            for (unsigned ki = 0; ki < 4u; ki++) {
                /* One mutex or several: whether the owner's last mutex goes
                 * in the first step is a branch, not a loop. */
                LMT_EQ(r[di][ki].max_blocks, r[di][ki == 0u ? 0u : 1u].max_blocks);
                LMT_CHECK(r[di][ki].max_blocks <= bound);
                if (depths[di] >= 3u) {
                    LMT_EQ(r[di][ki].max_blocks, r[3u + depths[di] % 3u][ki].max_blocks);
                }
            }
        }
        /* The work is done in more steps, not longer ones (an unlock has no
         * chain to follow: its new owner is ready). */
        LMT_CHECK(r[CH_NDEPTHS - 1u][0].stretches > r[3][0].stretches || o == CH_UNLOCK);
        printf("  %s: longest stretch %lu blocks at any depth and mutex count\n", ch_names[o],
               (unsigned long)bound);
    }
}

/*
 * The counter follows the work done under the lock, link by link: a lock
 * on a mutex without inheritance whose R5.7 walk reads 1, 2 or 3 links
 * (chains of depth 0, 1, 2, all read in its one masked step) holds the
 * lock longer by the same number of blocks per link.
 */
LMT_CASE(walk_counts_follow_links)
{
    uint64_t m[3];
    ch_inherit = 0u;
    for (unsigned d = 0; d < 3u; d++) {
        chain_pattern(CH_LOCK, d, 1);
        m[d] = ch_ms.max_blocks;
        printf("  lock, no inheritance, R5.7 walk of %u link(s): max %lu blocks\n", d + 1u,
               (unsigned long)m[d]);
    }
    ch_inherit = LM_MUTEX_INHERIT;
    LMT_CHECK(m[1] > m[0]);
    LMT_EQ(m[2] - m[1], m[1] - m[0]);
}

/*
 * R10.7: a priority queue's send and receive hold the lock for the same
 * number of blocks whether 4 or 52 messages are queued: with priorities
 * 10, 100 and 200 present (k+2, k+1 and k+1 messages at each, k = 0, 4,
 * 16), a send at a present priority in the middle, a send at a new one in
 * the middle and at the end, and a receive that leaves peers at its
 * priority each cost the same whatever k. Their cost depends on the trie
 * of the priorities present (kernel/pqueue.c), never on the messages.
 */
static lm_pqueue_t pq;
static LM_PQUEUE_BUFFER_DEFINE(pq_buf, sizeof(uint32_t), 64);

static uint64_t pq_send_blocks(unsigned prio)
{
    uint32_t v = prio;
    lm_hosted_mask_stats_reset();
    LMT_ST(lm_pqueue_send(&pq, &v, sizeof v, prio, LM_NO_WAIT), LM_OK);
    lm_hosted_mask_stats_t m = mask_stats();
    LMT_EQ(m.stretches, 1);
    return m.max_blocks;
}

LMT_CASE(pqueue_cost_independent_of_queued)
{
    static const unsigned ks[] = {0, 4, 16};
    uint64_t first[4] = {0, 0, 0, 0};
    lmt_begin();
    for (unsigned j = 0; j < 3u; j++) {
        unsigned k = ks[j];
        memset(&pq, 0, sizeof pq);
        LMT_ST(lm_pqueue_create(&pq, pq_buf, sizeof(uint32_t), 64), LM_OK);
        for (unsigned i = 0; i < k + 2u; i++) {
            (void)pq_send_blocks(10);
        }
        for (unsigned i = 0; i < k + 1u; i++) {
            (void)pq_send_blocks(100);
            (void)pq_send_blocks(200);
        }
        uint64_t c[4];
        c[0] = pq_send_blocks(100);
        c[1] = pq_send_blocks(150);
        c[2] = pq_send_blocks(250);
        uint32_t v = 0;
        uint8_t p = 0;
        lm_hosted_mask_stats_reset();
        LMT_ST(lm_pqueue_receive(&pq, &v, sizeof v, &p, LM_NO_WAIT), LM_OK);
        lm_hosted_mask_stats_t m = mask_stats();
        LMT_EQ(m.stretches, 1);
        LMT_EQ(p, 10);
        c[3] = m.max_blocks;
        printf("  %2u messages queued: send 100 %lu, send 150 (new) %lu, send 250 (new, "
               "last) %lu, receive %lu blocks\n",
               3u * k + 4u, (unsigned long)c[0], (unsigned long)c[1], (unsigned long)c[2],
               (unsigned long)c[3]);
        for (unsigned i = 0; i < 4u; i++) {
            if (j == 0u) {
                first[i] = c[i];
            }
            LMT_EQ(c[i], first[i]);
        }
        LMT_ST(lm_pqueue_delete(&pq), LM_OK);
    }
}

#endif /* LM_PORT_HOSTED */

#if defined(LM_PORT_HOSTED)
LMT_MAIN(LMT_RUN(instrumentation_counts_masked_kernel_blocks),
         LMT_RUN(sem_take_and_give_cost_independent_of_waiters),
         LMT_RUN(tick_expiry_cost_independent_of_expiring_count),
         LMT_RUN(arm_and_cancel_cost_independent_of_pending),
         LMT_RUN(many_waiter_ops_cost_independent_of_waiters),
         LMT_RUN(idle_decision_cost_independent_of_next_deadline),
         LMT_RUN(chain_ops_cost_independent_of_depth_and_mutexes),
         LMT_RUN(walk_counts_follow_links), LMT_RUN(pqueue_cost_independent_of_queued))
#else
/* The counts need the hosted port's instrumentation; nothing to run here. */
int main(void)
{
    return 0;
}
#endif
