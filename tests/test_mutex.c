/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mutexes and priority inheritance (docs/rules.md R5, with R4.3, R4.7, R8,
 * R9.1, R12.1). Every case checks an exact order of events and, where
 * inheritance is involved, the effective priority the rules define.
 *
 * Most cases are driven by one thread that owns the mutexes and starts the
 * others (created INACTIVE) one at a time, so who blocks where, and in which
 * order, is fixed by the rules rather than by spawn order.
 */
#include <string.h>
#include "harness.h"

static lm_mutex_t ma, mb, mc;
static lm_thread_t *T[LMT_MAX_THREADS];

/* Fresh control block for each case (docs/hosted.md "Ending a run"). */
static void mk(lm_mutex_t *m, unsigned options)
{
    memset(m, 0, sizeof *m);
    LMT_ST(lm_mutex_create(m, options), LM_OK);
}

static unsigned prio(int i)
{
    return lm_thread_priority(T[i]);
}

static lm_thread_t *spawn_off(int i, const char *name, unsigned p, lm_thread_entry_t fn, void *arg)
{
    T[i] = lmt_spawn_ex(name, p, LM_THRESHOLD_NONE, 0, fn, arg, false);
    return T[i];
}

static void start(int i)
{
    LMT_ST(lm_thread_start(T[i]), LM_OK);
}

/* ------------------------------------------------------------------------ */
/* R5.1: recursion, unlock count, non-owner unlock, unlock of a free mutex. */

static void rec_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK); /* owner: never blocks */
    LMT_ST(lm_mutex_lock(&ma, 5), LM_OK);
    lmt_log("A3");
    start(1); /* B (more urgent) tries to unlock and to take it */
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    /* Two of three levels undone, and B's refused unlock took none. */
    lmt_log("A1:%d", (int)lm_thread_state(T[1]));
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK); /* free: passes to B, which preempts */
    lmt_log("A0");
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER);
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    /* The refused unlocks left no trace: an ordinary lock. */
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);

    /* The depth counts to 65535 (docs/errors.md LM_ERR_OVERFLOW). */
    for (unsigned i = 0; i < 0xFFFFu; i++) {
        LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK);
    }
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_ERR_OVERFLOW);
    for (unsigned i = 0; i < 0xFFFFu; i++) {
        LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
        LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    }
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER);
    lmt_log("Aovf");
}

static void rec_other(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER);
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    lmt_log("Bn");
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("B+");
    LMT_CHECK(lm_mutex_owner(&ma) == T[1]);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER); /* unlocked mutex */
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    lmt_log("B-");
}

/* R5.1 */
LMT_CASE(recursive_and_owner_checks)
{
    lmt_begin();
    mk(&ma, 0);
    T[0] = lmt_spawn("A", 10, rec_owner, NULL);
    spawn_off(1, "B", 4, rec_other, NULL);
    lmt_run();
    lmt_expect("A3 Bn A1:2 B+ B- A0 Aovf");
}

/* ------------------------------------------------------------------------ */
/* Priority inversion: L takes the mutex, H blocks on it, M becomes ready. */

static void inv_low(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("L+");
    start(1); /* H preempts and blocks on ma */
    lmt_log("Lp%u", prio(0));
    start(2); /* M: more urgent than L's base, less urgent than H */
    lmt_log("L-");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("Lp%u", prio(0));
}

static void inv_high(void *arg)
{
    (void)arg;
    lmt_log("H?");
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

static void inv_mid(void *arg)
{
    (void)arg;
    lmt_log("M");
}

static void inversion_run(unsigned options, const char *expected, uint32_t l_preemptions)
{
    lmt_begin();
    lmt_trace_switches(true);
    mk(&ma, options);
    T[0] = lmt_spawn("L", 10, inv_low, NULL);
    spawn_off(1, "H", 5, inv_high, NULL);
    spawn_off(2, "M", 8, inv_mid, NULL);
    lmt_run();
    lmt_expect(expected);
#if LM_CFG_STATS
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(T[0], &s), LM_OK);
    LMT_EQ(s.preemptions, l_preemptions);
    LMT_ST(lm_thread_stats(T[2], &s), LM_OK);
    LMT_EQ(s.switches_in, 1);
    LMT_EQ(s.preemptions, 0);
#else
    (void)l_preemptions;
#endif
}

/* Control for the next case, R1.2, R7.2: without inheritance M runs while
 * H waits for L (the classic inversion). */
LMT_CASE(inversion_without_inheritance)
{
    inversion_run(0, "->L L+ L>H H? H>L Lp10 L>M M M>L L- L>H H+ H>L Lp10 L>idle", 3);
}

/* R5.2, R5.4, R4.1: with LM_MUTEX_INHERIT L runs at 5 while H waits, M
 * cannot preempt it, and the release drops L back to 10 so H runs first. */
LMT_CASE(inversion_with_inheritance)
{
    inversion_run(LM_MUTEX_INHERIT, "->L L+ L>H H? H>L Lp5 L- L>H H+ H>M M M>L Lp10 L>idle", 2);
}

/* ------------------------------------------------------------------------ */
/* R5.3: T1 owns m1 waits m2 (T2) ; T2 waits m3 (T3) ; H blocks on m1. */

enum { CHAIN_FOREVER, CHAIN_TIMEOUT, CHAIN_ABORT };
static int chain_mode;

static void chain_log_prios(const char *tag)
{
    lmt_log("%s%u,%u,%u", tag, prio(1), prio(2), prio(3));
}

static void chain_t3(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mc, LM_WAIT_FOREVER), LM_OK);
    lmt_log("3+");
    start(2);
    lmt_log("3:%u", prio(3));
    start(1);
    chain_log_prios("3:");
    start(4); /* H */
    chain_log_prios("3:");
    if (chain_mode == CHAIN_FOREVER) {
        start(5); /* M (10): below the inherited 5, so it must wait */
    } else {
        LMT_ST(lm_thread_sleep(10), LM_OK); /* H leaves meanwhile */
        chain_log_prios("3:");
    }
    lmt_log("3-");
    LMT_ST(lm_mutex_unlock(&mc), LM_OK);
    lmt_log("3e%u", prio(3));
}

static void chain_t2(void *arg)
{
    (void)arg;
    lmt_log("2?");
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mc, LM_WAIT_FOREVER), LM_OK);
    lmt_log("2+%u,%u", prio(2), prio(3));
    LMT_ST(lm_mutex_unlock(&mc), LM_OK);
    lmt_log("2:%u", prio(2)); /* still lent by T1 through mb */
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    lmt_log("2e%u", prio(2));
}

static void chain_t1(void *arg)
{
    (void)arg;
    lmt_log("1?");
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    lmt_log("1+%u,%u", prio(1), prio(2));
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("1e%u", prio(1));
}

static void chain_h(void *arg)
{
    (void)arg;
    lmt_log("H?");
    if (chain_mode == CHAIN_FOREVER) {
        LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
        lmt_log("H+");
        LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    } else {
        lm_status_t s = lm_mutex_lock(&ma, 5);
        LMT_CHECK(lm_mutex_owner(&ma) == T[1]);
        lmt_log("H:%s@%u", lm_status_name(s), (unsigned)lm_tick_now());
        chain_log_prios("H:");
    }
}

/* A thread that only says it ran, by its name. */
static void log_me(void *arg)
{
    (void)arg;
    lmt_log("%s", lmt_me());
}

static void chain_aborter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(3), LM_OK);
    LMT_ST(lm_thread_wait_abort(T[4]), LM_OK);
    chain_log_prios("K:");
}

static void chain_setup(int mode)
{
    chain_mode = mode;
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    mk(&mc, LM_MUTEX_INHERIT);
    T[0] = NULL;
    if (mode == CHAIN_ABORT) {
        T[0] = lmt_spawn("K", 1, chain_aborter, NULL);
    }
    T[3] = lmt_spawn("T3", 20, chain_t3, NULL);
    spawn_off(2, "T2", 18, chain_t2, NULL);
    spawn_off(1, "T1", 16, chain_t1, NULL);
    spawn_off(4, "H", 5, chain_h, NULL);
    spawn_off(5, "M", 10, log_me, NULL);
    lmt_run();
}

/* R5.3 raise along the chain; R5.4 unwinding one release at a time;
 * R5.5 each release passes the mutex on. */
LMT_CASE(transitive_chain_of_three)
{
    chain_setup(CHAIN_FOREVER);
    lmt_expect("3+ 2? 3:18 1? 3:16,16,16 H? 3:5,5,5 3- 2+5,20 2:5 1+5,18 H+ M 1e16 2e18 3e20");
}

/* R5.3, R5.4, R8.4: H's wait on m1 times out; the whole chain drops back
 * to what T1 lends it, and unwinds from there. */
LMT_CASE(transitive_chain_waiter_times_out)
{
    chain_setup(CHAIN_TIMEOUT);
    lmt_expect("3+ 2? 3:18 1? 3:16,16,16 H? 3:5,5,5 H:LM_ERR_TIMEOUT@5 H:16,16,16 3:16,16,16 "
               "3- 2+16,20 2:16 1+16,18 1e16 2e18 3e20");
}

/* R5.3, R5.4, R11.6: the same with the wait aborted. */
LMT_CASE(transitive_chain_waiter_aborted)
{
    chain_setup(CHAIN_ABORT);
    lmt_expect("3+ 2? 3:18 1? 3:16,16,16 H? 3:5,5,5 K:16,16,16 H:LM_ERR_ABORTED@3 H:16,16,16 "
               "3:16,16,16 3- 2+16,20 2:16 1+16,18 1e16 2e18 3e20");
}

/* ------------------------------------------------------------------------ */
/* R5.4: three inheriting mutexes released in each of the six orders. */

#define REL_BASE 20u
#define REL_WAITERS 5

struct rel_waiter {
    const char *name;
    unsigned prio;
    int mutex; /* 0..2 */
};

/* Arrival order per mutex: the less urgent waiter of ma and mc comes first,
 * so "most urgent waiter" and "first waiter" differ. */
static const struct rel_waiter rel_w[REL_WAITERS] = {
    {"a14", 14, 0}, {"a11", 11, 0}, {"b13", 13, 1}, {"c16", 16, 2}, {"c9", 9, 2},
};
static lm_mutex_t *const rel_m[3] = {&ma, &mb, &mc};
static const int rel_perm[6][3] = {
    {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0},
};
static int rel_order;

/* R5.2 written out: base, or the most urgent waiter of each mutex held. */
static unsigned rel_rule(const bool held[3])
{
    unsigned p = REL_BASE;
    for (int i = 0; i < REL_WAITERS; i++) {
        if (held[rel_w[i].mutex] && rel_w[i].prio < p) {
            p = rel_w[i].prio;
        }
    }
    return p;
}

static void rel_waiter_fn(void *arg)
{
    const struct rel_waiter *w = arg;
    LMT_ST(lm_mutex_lock(rel_m[w->mutex], LM_WAIT_FOREVER), LM_OK);
    lmt_log("%s", w->name);
    LMT_ST(lm_mutex_unlock(rel_m[w->mutex]), LM_OK);
}

static void rel_owner(void *arg)
{
    (void)arg;
    bool held[3] = {true, true, true};
    for (int i = 0; i < 3; i++) {
        LMT_ST(lm_mutex_lock(rel_m[i], LM_WAIT_FOREVER), LM_OK);
    }
    for (int i = 0; i < REL_WAITERS; i++) {
        start(i + 1);
        LMT_ST(lm_thread_sleep(1), LM_OK); /* let it block, whatever its priority */
    }
    LMT_EQ(prio(0), rel_rule(held));
    lmt_log("O%u", prio(0));
    for (int k = 0; k < 3; k++) {
        int x = rel_perm[rel_order][k];
        LMT_ST(lm_mutex_unlock(rel_m[x]), LM_OK);
        held[x] = false;
        LMT_EQ(prio(0), rel_rule(held));
        LMT_EQ(lm_thread_base_priority(T[0]), REL_BASE);
        lmt_log("O%u", prio(0));
    }
}

/* The expected trace from the rules alone: after each release the owner runs
 * at rel_rule(); every waiter whose mutex has been released and that is more
 * urgent than that runs first, most urgent first (R5.5 hands each mutex to
 * its most urgent waiter, R1.2 runs the most urgent ready thread). */
static void rel_expected(int order, char *out, size_t size)
{
    bool held[3] = {true, true, true};
    bool done[REL_WAITERS] = {false};
    size_t n = 0;
    n += (size_t)snprintf(out + n, size - n, "O%u", rel_rule(held));
    for (int k = 0; k < 3; k++) {
        held[rel_perm[order][k]] = false;
        unsigned p = rel_rule(held);
        for (unsigned q = 0; q < p; q++) {
            for (int i = 0; i < REL_WAITERS; i++) {
                if (!done[i] && !held[rel_w[i].mutex] && rel_w[i].prio == q) {
                    done[i] = true;
                    n += (size_t)snprintf(out + n, size - n, " %s", rel_w[i].name);
                }
            }
        }
        n += (size_t)snprintf(out + n, size - n, " O%u", p);
    }
}

/* R5.2, R5.4, R5.5 */
LMT_CASE(release_three_in_every_order)
{
    for (rel_order = 0; rel_order < 6; rel_order++) {
        lmt_begin();
        mk(&ma, LM_MUTEX_INHERIT);
        mk(&mb, LM_MUTEX_INHERIT);
        mk(&mc, LM_MUTEX_INHERIT);
        T[0] = lmt_spawn("O", REL_BASE, rel_owner, NULL);
        for (int i = 0; i < REL_WAITERS; i++) {
            spawn_off(i + 1, rel_w[i].name, rel_w[i].prio, rel_waiter_fn, (void *)&rel_w[i]);
        }
        lmt_run();
        char expected[128];
        rel_expected(rel_order, expected, sizeof expected);
        lmt_expect(expected);
    }
}

/* ------------------------------------------------------------------------ */
/* R5.4: waiters leaving through timeout, abort and termination. */

static void leave_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    for (int i = 1; i <= 4; i++) {
        start(i);
    }
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the less urgent ones block too */
    lmt_log("O%u", prio(0));
    LMT_ST(lm_thread_sleep(9), LM_OK);
    lmt_log("O%u", prio(0));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("O%u", prio(0));
}

static void leave_waiter(void *arg)
{
    lm_tick_t timeout = (lm_tick_t)(uintptr_t)arg;
    lm_status_t s = lm_mutex_lock(&ma, timeout);
    lmt_log("%s:%s@%u:%u", lm_thread_name(lm_thread_self()), lm_status_name(s),
            (unsigned)lm_tick_now(), prio(0));
    if (s == LM_OK) {
        LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    }
}

static void leave_killer(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(7), LM_OK);
    LMT_ST(lm_thread_wait_abort(T[2]), LM_OK);
    lmt_log("K%u", prio(0));
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_thread_terminate(T[3]), LM_OK);
    lmt_log("K%u", prio(0));
}

/* R5.4, R8.4, R11.6, R11.3 */
LMT_CASE(waiter_leaving_lowers_owner)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    T[5] = lmt_spawn("K", 1, leave_killer, NULL);
    T[0] = lmt_spawn("O", 20, leave_owner, NULL);
    spawn_off(1, "W1", 10, leave_waiter, (void *)(uintptr_t)5u);
    spawn_off(2, "W2", 12, leave_waiter, (void *)(uintptr_t)LM_WAIT_FOREVER);
    spawn_off(3, "W3", 14, leave_waiter, (void *)(uintptr_t)LM_WAIT_FOREVER);
    spawn_off(4, "W4", 16, leave_waiter, (void *)(uintptr_t)LM_WAIT_FOREVER);
    lmt_run();
    lmt_expect("O10 W1:LM_ERR_TIMEOUT@5:12 K14 W2:LM_ERR_ABORTED@7:14 K16 O16 "
               "W4:LM_OK@10:20 O20");
    LMT_EQ(lm_thread_state(T[3]), LM_THREAD_TERMINATED);
}

/* ------------------------------------------------------------------------ */
/* R5.5: direct hand-over. */

static void hand_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    for (int i = 1; i <= 4; i++) {
        start(i); /* all less urgent than O: none runs yet */
    }
    LMT_ST(lm_thread_sleep(1), LM_OK); /* Wc, then Wa Wb Wd (FIFO) block */
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    /* Wc owns it before it has even run. */
    LMT_CHECK(lm_mutex_owner(&ma) == T[3]);
    start(5); /* X, more urgent than everyone, tries to take it */
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    lmt_log("O-");
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK); /* queued: most urgent */
    lmt_log("O+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    LMT_CHECK(lm_mutex_owner(&ma) == T[1]);
    lmt_log("O.");
}

static void hand_waiter(void *arg)
{
    (void)arg;
    const char *me = lm_thread_name(lm_thread_self());
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_CHECK(lm_mutex_owner(&ma) == lm_thread_self());
    lmt_log("%s%u", me, lm_thread_priority(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("%s.", me);
}

static void hand_thief(void *arg)
{
    (void)arg;
    lmt_log("X:%s", lm_status_name(lm_mutex_lock(&ma, LM_NO_WAIT)));
    LMT_CHECK(lm_mutex_owner(&ma) == T[3]);
}

/* R5.5, R10.6 (priority order, FIFO among equals), R5.2 */
LMT_CASE(direct_handover_to_most_urgent)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    T[0] = lmt_spawn("O", 10, hand_owner, NULL);
    spawn_off(1, "Wa", 12, hand_waiter, NULL);
    spawn_off(2, "Wb", 12, hand_waiter, NULL);
    spawn_off(3, "Wc", 11, hand_waiter, NULL);
    spawn_off(4, "Wd", 12, hand_waiter, NULL);
    spawn_off(5, "X", 2, hand_thief, NULL);
    lmt_run();
    /* Wc runs at 10, lent by O queued behind it; O then gets it next. */
    lmt_expect("X:LM_ERR_WOULD_BLOCK O- Wc10 O+ O. Wc. Wa12 Wa. Wb12 Wb. Wd12 Wd.");
}

/* ------------------------------------------------------------------------ */
/* R5.6: the owner ends while holding mutexes. */

enum { END_TERMINATE, END_DELETE, END_RETURN };
static int end_mode;

static void end_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK); /* depth 2 */
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK); /* no waiter ever */
    start(1);
    lmt_log("O%u", prio(0));
    if (end_mode != END_RETURN) {
        LMT_ST(lm_thread_sleep(10), LM_OK); /* ended by K at tick 2 */
        lmt_log("O:not-ended");
    }
}

static void end_waiter(void *arg)
{
    (void)arg;
    lmt_log("W?");
    lmt_log("W:%s", lm_status_name(lm_mutex_lock(&ma, LM_WAIT_FOREVER)));
    LMT_CHECK(lm_mutex_owner(&ma) == T[1]);
    LMT_EQ(lm_thread_state(T[0]), LM_THREAD_TERMINATED);
    LMT_EQ(prio(0), 10); /* the ended owner lost what W lent it */
    LMT_ST(lm_mutex_unlock(&ma), LM_OK); /* depth 1, not the old owner's 2 */
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER);
    /* mb had no waiter: its next locker is told, once. */
    lmt_log("Wb:%s", lm_status_name(lm_mutex_lock(&mb, LM_WAIT_FOREVER)));
    LMT_CHECK(lm_mutex_owner(&mb) == T[1]);
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("W.");
}

static void end_killer(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK);
    if (end_mode == END_TERMINATE) {
        LMT_ST(lm_thread_terminate(T[0]), LM_OK);
    } else if (end_mode == END_DELETE) {
        LMT_ST(lm_thread_delete(T[0]), LM_OK);
    }
    lmt_log("K%u", prio(0));
}

static void end_run(int mode, const char *expected)
{
    end_mode = mode;
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    lmt_spawn("K", 3, end_killer, NULL);
    T[0] = lmt_spawn("O", 10, end_owner, NULL);
    spawn_off(1, "W", 6, end_waiter, NULL);
    lmt_run();
    lmt_expect(expected);
}

/* R5.6, R11.3 */
LMT_CASE(owner_terminated_abandons)
{
    end_run(END_TERMINATE, "W? O6 K10 W:LM_ERR_ABANDONED Wb:LM_ERR_ABANDONED W.");
}

/* R5.6, R11.4 */
LMT_CASE(owner_deleted_abandons)
{
    end_run(END_DELETE, "W? O6 K10 W:LM_ERR_ABANDONED Wb:LM_ERR_ABANDONED W.");
}

/* R5.6, R11.5 */
LMT_CASE(owner_returns_abandons)
{
    end_run(END_RETURN, "W? O6 W:LM_ERR_ABANDONED Wb:LM_ERR_ABANDONED W. K10");
}

/* ------------------------------------------------------------------------ */
/* R5.7: deadlock detection. */

static void dl2_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK); /* waits for B */
    lmt_log("A+");
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    /* B's refused lock did not queue it: ma is simply free. */
    lmt_log("A:%s", lm_mutex_owner(&ma) == NULL ? "free" : "taken");
}

static void dl2_b(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_ERR_DEADLOCK);
    LMT_ST(lm_mutex_lock(&ma, 5), LM_ERR_DEADLOCK);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_WOULD_BLOCK); /* never waits */
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    LMT_CHECK(lm_mutex_owner(&mb) == T[1]);
    LMT_EQ(lm_thread_state(T[0]), LM_THREAD_BLOCKED);
    LMT_EQ(lm_tick_now(), 2); /* returned at once */
    lmt_log("B:DL%u,%u", prio(0), prio(1));
    LMT_ST(lm_mutex_unlock(&mb), LM_OK); /* A takes mb and preempts */
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK);
    lmt_log("B+%u", prio(1));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

/* R5.7, R5.2: B (12) inherits 10 from A waiting on mb; its own refused lock
 * on ma changes no owner, waiter or priority. */
LMT_CASE(deadlock_two_threads)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    T[0] = lmt_spawn("A", 10, dl2_a, NULL);
    T[1] = lmt_spawn("B", 12, dl2_b, NULL);
    lmt_run();
    lmt_expect("B:DL10,10 A+ A:free B+12");
}

static void dl3_a(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    lmt_log("A+%u", prio(0));
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("A:%s", lm_mutex_owner(&ma) == NULL ? "free" : "taken");
}

static void dl3_b(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_mutex_lock(&mc, LM_WAIT_FOREVER), LM_OK);
    lmt_log("B+%u", prio(1));
    LMT_ST(lm_mutex_unlock(&mc), LM_OK);
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    lmt_log("B.%u", prio(1));
}

static void dl3_c(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mc, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_thread_sleep(3), LM_OK);
    /* C (5) -> ma (A) -> mb (B) -> mc (C): a cycle. Queued, C would lend 5
     * to A and B. */
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_ERR_DEADLOCK);
    LMT_ST(lm_mutex_lock(&ma, 1), LM_ERR_DEADLOCK);
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    LMT_CHECK(lm_mutex_owner(&mb) == T[1]);
    LMT_CHECK(lm_mutex_owner(&mc) == T[2]);
    lmt_log("C:DL%u,%u,%u", prio(0), prio(1), prio(2));
    LMT_ST(lm_mutex_unlock(&mc), LM_OK);
    lmt_log("C-");
}

/* R5.7, R5.3 */
LMT_CASE(deadlock_three_threads)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    mk(&mc, LM_MUTEX_INHERIT);
    T[0] = lmt_spawn("A", 10, dl3_a, NULL);
    T[1] = lmt_spawn("B", 11, dl3_b, NULL);
    T[2] = lmt_spawn("C", 5, dl3_c, NULL);
    lmt_run();
    lmt_expect("C:DL10,10,5 C- B+10 A+10 A:free B.11");
}

/* ------------------------------------------------------------------------ */
/* R5.8: deleting a mutex that has an owner and waiters. */

static void del_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    for (int i = 1; i <= 4; i++) {
        start(i);
    }
    LMT_ST(lm_thread_sleep(1), LM_OK);
    lmt_log("O%u", prio(0));
    LMT_ST(lm_thread_sleep(10), LM_OK); /* D deletes ma at tick 2 */
    lmt_log("O:%s:%u", lm_status_name(lm_mutex_unlock(&ma)), prio(0));
    LMT_ST(lm_mutex_unlock(&mb), LM_OK); /* V (15) takes mb and preempts */
    lmt_log("O%u", prio(0));
}

static void del_waiter(void *arg)
{
    (void)arg;
    lm_status_t s = lm_mutex_lock(&ma, LM_WAIT_FOREVER);
    /* One waiter per step (R9.1): count those still blocked. */
    unsigned blocked = 0;
    for (int i = 1; i <= 3; i++) {
        blocked += lm_thread_state(T[i]) == LM_THREAD_BLOCKED ? 1u : 0u;
    }
    lmt_log("%s:%s:%u:%u", lm_thread_name(lm_thread_self()), lm_status_name(s), prio(0), blocked);
}

static void del_v(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    lmt_log("V");
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
}

static void del_deleter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_mutex_delete(&ma), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_delete(&ma), LM_ERR_OBJECT);
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    lmt_log("D:%u", prio(0));
}

/* R5.8, R9.1, R5.4 */
LMT_CASE(delete_with_owner_and_waiters)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    T[0] = lmt_spawn("O", 20, del_owner, NULL);
    spawn_off(1, "W1", 12, del_waiter, NULL);
    spawn_off(2, "W2", 8, del_waiter, NULL);
    spawn_off(3, "W3", 12, del_waiter, NULL);
    spawn_off(4, "V", 15, del_v, NULL);
    lmt_spawn("D", 25, del_deleter, NULL);
    lmt_run();
    /* D is the least urgent, but no woken waiter runs before the last step
     * (R9.1): each finds none of the others still blocked. Then they run by
     * priority: W2 (8) first, then W1 and W3 in arrival order. O already
     * dropped to 15 (what V lends through mb) when the first one runs. */
    lmt_expect("O8 W2:LM_ERR_DELETED:15:0 W1:LM_ERR_DELETED:15:0 W3:LM_ERR_DELETED:15:0 D:15 "
               "O:LM_ERR_OBJECT:15 V O20");
}

/* ------------------------------------------------------------------------ */
/* R4.7: inheritance raises a thread past its preemption-threshold. */

static void thr_low(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("L+");
    start(1); /* H (5) preempts (5 < threshold 15) and blocks */
    lmt_log("L%u/%u", prio(0), lm_thread_threshold(T[0]));
    start(2); /* M (10): inside the threshold, outside the inherited 5 */
    lmt_log("Lm");
    start(3); /* X (3): more urgent than the inherited 5 */
    lmt_log("Lx");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("L%u/%u", prio(0), lm_thread_threshold(T[0]));
}

static void thr_high(void *arg)
{
    (void)arg;
    lmt_log("H?");
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

static void thr_plain(void *arg)
{
    (void)arg;
    lmt_log("%s", lm_thread_name(lm_thread_self()));
}

static void threshold_run(unsigned options, const char *expected, uint32_t l_preemptions)
{
    lmt_begin();
    lmt_trace_switches(true);
    mk(&ma, options);
    T[0] = lmt_spawn_ex("L", 20, 15, 0, thr_low, NULL, true);
    spawn_off(1, "H", 5, thr_high, NULL);
    spawn_off(2, "M", 10, thr_plain, NULL);
    spawn_off(3, "X", 3, thr_plain, NULL);
    lmt_run();
    lmt_expect(expected);
#if LM_CFG_STATS
    lm_thread_stats_t s;
    LMT_ST(lm_thread_stats(T[0], &s), LM_OK);
    LMT_EQ(s.preemptions, l_preemptions);
#else
    (void)l_preemptions;
#endif
}

/* R4.7, R3.1, R4.4 */
LMT_CASE(inheritance_past_threshold)
{
    threshold_run(LM_MUTEX_INHERIT,
                  "->L L+ L>H H? H>L L5/15 Lm L>X X X>L Lx L>H H+ H>M M M>L L20/15 L>idle", 3);
}

/* Control, R3.1: without inheritance M (10 < 15) preempts L at once. */
LMT_CASE(threshold_without_inheritance)
{
    threshold_run(0, "->L L+ L>H H? H>L L20/15 L>M M M>L Lm L>X X X>L Lx L>H H+ H>L L20/15 L>idle",
                  4);
}

/* ------------------------------------------------------------------------ */
/* R4.3: a waiter's priority changes; the owner's inherited one follows. */

static void rq_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    for (int i = 1; i <= 3; i++) {
        start(i);
    }
    LMT_ST(lm_thread_sleep(1), LM_OK);
    lmt_log("O%u", prio(0));
    LMT_ST(lm_thread_sleep(10), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("O%u", prio(0));
}

static void rq_controller(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK);
    /* Queue: A12 B14 C14. Raise B past A: B leads, O follows to 10. */
    LMT_ST(lm_thread_set_priority(T[2], 10), LM_OK);
    lmt_log("K%u", prio(0));
    /* Back to 14: B goes to the tail of 14, behind C. O drops to 12. */
    LMT_ST(lm_thread_set_priority(T[2], 14), LM_OK);
    lmt_log("K%u", prio(0));
    /* A to 16: the most urgent waiter is now at 14. */
    LMT_ST(lm_thread_set_priority(T[1], 16), LM_OK);
    lmt_log("K%u,%u", prio(0), prio(1));
    /* Raise A to 3 and back: O follows both ways. */
    LMT_ST(lm_thread_set_priority(T[1], 3), LM_OK);
    lmt_log("K%u", prio(0));
    LMT_ST(lm_thread_set_priority(T[1], 16), LM_OK);
    lmt_log("K%u", prio(0));
    /* The owner's own base priority: inheritance still wins while more urgent. */
    LMT_ST(lm_thread_set_priority(T[0], 18), LM_OK);
    LMT_EQ(lm_thread_base_priority(T[0]), 18);
    lmt_log("K%u", prio(0));
    LMT_ST(lm_thread_set_priority(T[0], 9), LM_OK);
    lmt_log("K%u", prio(0));
    LMT_ST(lm_thread_set_priority(T[0], 20), LM_OK);
    /* R4.5 pulled the threshold to 9 on the way; put it back to "none" so
     * the hand-over below is decided by priority alone. */
    LMT_ST(lm_thread_set_threshold(T[0], LM_THRESHOLD_NONE), LM_OK);
    LMT_EQ(lm_thread_threshold(T[0]), 20);
    lmt_log("K%u", prio(0));
}

static void rq_waiter(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("%s", lm_thread_name(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

/* R4.3, R4.4, R5.2, R5.5 */
LMT_CASE(waiter_priority_change_moves_and_owner_follows)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    lmt_spawn("K", 1, rq_controller, NULL);
    T[0] = lmt_spawn("O", 20, rq_owner, NULL);
    spawn_off(1, "A", 12, rq_waiter, NULL);
    spawn_off(2, "B", 14, rq_waiter, NULL);
    spawn_off(3, "C", 14, rq_waiter, NULL);
    lmt_run();
    /* Hand-over order C, B, A: B lost its place when it came back to 14. */
    lmt_expect("O12 K10 K12 K14,16 K3 K14 K14 K9 K14 C B A O20");
}

/* ------------------------------------------------------------------------ */
/* Timeouts, LM_NO_WAIT, the scheduler lock. */

static void to_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    start(1);
    lmt_log("O%u", prio(0));
    LMT_ST(lm_thread_sleep(5), LM_OK);
    lmt_log("O%u", prio(0));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    /* The timed-out waiter is gone: nobody to hand it to. */
    lmt_log("O:%s", lm_mutex_owner(&ma) == NULL ? "free" : "taken");
}

static void to_waiter(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_mutex_lock(&ma, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    lmt_log("W:wb%u", prio(0));
    lm_status_t s = lm_mutex_lock(&ma, 3);
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    lmt_log("W:%s@%u:%u", lm_status_name(s), (unsigned)lm_tick_now(), prio(0));
    /* R6.1: no waiting under the scheduler lock; LM_NO_WAIT still answers. */
    LMT_ST(lm_sched_lock(), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, 5), LM_ERR_LOCKED);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_EQ(prio(0), 20);
    LMT_ST(lm_sched_unlock(), LM_OK);
}

/* R8.2, R8.4, R5.4, R6.1, LM_ERR_WOULD_BLOCK / LM_ERR_PARAM (docs/errors.md) */
LMT_CASE(lock_timeout_restores_owner)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    T[0] = lmt_spawn("O", 20, to_owner, NULL);
    spawn_off(1, "W", 5, to_waiter, NULL);
    lmt_run();
    lmt_expect("W:wb20 O5 W:LM_ERR_TIMEOUT@3:20 O20 O:free");
}

/* ------------------------------------------------------------------------ */
/* Where inheritance puts the owner in the ready queue. */

static void pos_low(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    start(1); /* P (10): behind L, which keeps the head of 10 (R2.2) */
    start(2); /* H (5) preempts; L stays at the head of 10 (R2.1) */
    lmt_log("L%u", prio(0));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK); /* H preempts; L to the head of 10 */
    lmt_log("L%u", prio(0));
}

static void pos_high(void *arg)
{
    (void)arg;
    start(3); /* Q (5): ready at the tail of 5, does not preempt H */
    lmt_log("H?");
    /* L, ready but not running, is raised to 5: tail of 5, behind Q. */
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

/* R4.2 (a ready owner raised goes to the tail), R4.1 (the running owner
 * dropped by its unlock goes to the head), R5.2 */
LMT_CASE(inheritance_queue_positions)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    T[0] = lmt_spawn("L", 10, pos_low, NULL);
    spawn_off(1, "P", 10, thr_plain, NULL);
    spawn_off(2, "H", 5, pos_high, NULL);
    spawn_off(3, "Q", 5, thr_plain, NULL);
    lmt_run();
    lmt_expect("H? Q L5 H+ L10 P");
}

/* ------------------------------------------------------------------------ */
/* R5.2: only inheriting mutexes lend their waiters' priority. */

static void mixed_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK); /* inheriting */
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK); /* plain */
    start(1); /* waits on mb at 4 */
    start(2); /* waits on ma at 12 */
    LMT_ST(lm_thread_sleep(1), LM_OK);
    lmt_log("O%u", prio(0));
    LMT_ST(lm_mutex_unlock(&ma), LM_OK); /* W12 (more urgent than 20) takes it */
    lmt_log("O%u", prio(0));
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    lmt_log("O%u", prio(0));
}

static void mixed_waiter(void *arg)
{
    lm_mutex_t *m = arg;
    LMT_ST(lm_mutex_lock(m, LM_WAIT_FOREVER), LM_OK);
    lmt_log("%s", lm_thread_name(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(m), LM_OK);
}

/* R5.2, R5.4 */
LMT_CASE(plain_mutex_lends_nothing)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, 0);
    T[0] = lmt_spawn("O", 20, mixed_owner, NULL);
    spawn_off(1, "V4", 4, mixed_waiter, &mb);
    spawn_off(2, "W12", 12, mixed_waiter, &ma);
    lmt_run();
    lmt_expect("O12 W12 O20 V4 O20");
}

/* ------------------------------------------------------------------------ */
/* The idle thread cannot own a mutex. */

static void prestart_locker(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, 2), LM_OK); /* free: nobody took it */
    lmt_log("T+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

/* R11.7, docs/errors.md (LM_ERR_STATE: blocking before lm_kernel_start, any
 * call on the idle thread). Before the kernel runs, the caller is the idle
 * thread: a lock that succeeded would leave a mutex nobody can unlock, and
 * an inheriting waiter would try to raise a thread outside the ready queue. */
LMT_CASE(lock_before_start_refused)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_STATE);
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_ERR_STATE);
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER);
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    lmt_spawn("T", 5, prestart_locker, NULL);
    lmt_run();
    lmt_expect("T+");
}

/* ------------------------------------------------------------------------ */
/* R11.2 with mutexes: a suspended waiter still waits, lends and receives. */

static void susp_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    start(1); /* W (8) preempts and blocks: O runs at 8 */
    LMT_ST(lm_thread_sleep(2), LM_OK); /* K suspends W at tick 1 */
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    /* W owns it while suspended; nobody else can take it meanwhile. */
    LMT_CHECK(lm_mutex_owner(&ma) == T[1]);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    lmt_log("O%u:%d", prio(0), (int)lm_thread_state(T[1]));
}

static void susp_waiter(void *arg)
{
    (void)arg;
    lmt_log("W:%s", lm_status_name(lm_mutex_lock(&ma, LM_WAIT_FOREVER)));
    LMT_CHECK(lm_mutex_owner(&ma) == T[1]);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

static void susp_controller(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_thread_suspend(T[1]), LM_OK);
    lmt_log("K%u", prio(0)); /* still a waiter: still lends 8 */
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_ST(lm_thread_resume(T[1]), LM_OK);
    lmt_log("K");
}

/* R11.2, R5.2, R5.5 */
LMT_CASE(suspended_waiter_lends_and_receives)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    lmt_spawn("K", 1, susp_controller, NULL);
    T[0] = lmt_spawn("O", 20, susp_owner, NULL);
    spawn_off(1, "W", 8, susp_waiter, NULL);
    lmt_run();
    lmt_expect("K8 O20:4 K W:LM_OK");
}

/* ------------------------------------------------------------------------ */
/* Bad input (docs/errors.md). */

static union {
    lm_mutex_t m;
    lm_sem_t s;
} other;

static void bad_input(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_create(NULL, 0), LM_ERR_PARAM);
    LMT_ST(lm_mutex_lock(NULL, LM_NO_WAIT), LM_ERR_PARAM);
    LMT_ST(lm_mutex_lock(NULL, LM_WAIT_FOREVER), LM_ERR_PARAM);
    LMT_ST(lm_mutex_unlock(NULL), LM_ERR_PARAM);
    LMT_ST(lm_mutex_delete(NULL), LM_ERR_PARAM);
    LMT_CHECK(lm_mutex_owner(NULL) == NULL);

    /* Unknown option bits: refused, and the block stays uninitialised. */
    memset(&mb, 0, sizeof mb);
    LMT_ST(lm_mutex_create(&mb, 0x2u), LM_ERR_PARAM);
    LMT_ST(lm_mutex_create(&mb, LM_MUTEX_INHERIT | 0x80u), LM_ERR_PARAM);
    LMT_ST(lm_mutex_lock(&mb, LM_NO_WAIT), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_unlock(&mb), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_delete(&mb), LM_ERR_OBJECT);

    /* Another object's control block. */
    memset(&other, 0, sizeof other);
    LMT_ST(lm_sem_create(&other.s, 1, 1), LM_OK);
    LMT_ST(lm_mutex_lock(&other.m, LM_WAIT_FOREVER), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_unlock(&other.m), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_delete(&other.m), LM_ERR_OBJECT);
    LMT_ST(lm_sem_take(&other.s, LM_NO_WAIT), LM_OK); /* untouched */
    LMT_ST(lm_sem_take(&other.s, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);

    /* Out-of-range timeout on a free mutex: refused, not acquired. */
    LMT_ST(lm_mutex_lock(&ma, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER - 1u), LM_ERR_PARAM);
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    LMT_ST(lm_mutex_lock(&ma, LM_TICK_MAX_TIMEOUT), LM_OK); /* the largest legal */
    LMT_CHECK(lm_mutex_owner(&ma) == lm_thread_self());

    /* Deleting the caller's own mutex: it is simply gone. */
    LMT_ST(lm_mutex_delete(&ma), LM_OK);
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_OBJECT);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_OBJECT);
    /* A deleted block may be created again, fresh. */
    LMT_ST(lm_mutex_create(&ma, 0), LM_OK);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
    lmt_log("ok");
}

/* docs/errors.md: NULL -> PARAM, wrong or dead block -> OBJECT */
LMT_CASE(bad_input_statuses)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    lmt_spawn("T", 5, bad_input, NULL);
    lmt_run();
    lmt_expect("ok");
}

/* ------------------------------------------------------------------------ */
/* R12.1: no mutex lock or unlock from an interrupt handler. */
#if defined(LM_PORT_HOSTED)
#include "limen/port.h"

static void isr_calls(void *arg)
{
    (void)arg;
    LMT_CHECK(lm_port_in_isr());
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_ISR);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_ERR_ISR);
    LMT_ST(lm_mutex_lock(&mb, LM_NO_WAIT), LM_ERR_ISR);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_mutex_unlock(&mb), LM_ERR_ISR);
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]); /* legal from an isr */
    LMT_CHECK(lm_mutex_owner(&mb) == NULL);
    lmt_log("isr");
}

static void isr_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    start(1);
    LMT_ST(lm_thread_sleep(1), LM_OK); /* W blocks on ma */
    LMT_EQ(lm_hosted_irq_raise(isr_calls, NULL), 0);
    LMT_EQ(lm_thread_state(T[1]), LM_THREAD_BLOCKED);
    LMT_CHECK(lm_mutex_owner(&ma) == T[0]);
    LMT_EQ(prio(0), 8);
    LMT_ST(lm_mutex_lock(&mb, LM_NO_WAIT), LM_OK); /* not taken by the isr */
    LMT_ST(lm_mutex_unlock(&mb), LM_OK);
    LMT_ST(lm_mutex_unlock(&ma), LM_OK); /* depth still 1: W gets it */
    lmt_log("T-%u", prio(0));
    LMT_ST(lm_mutex_unlock(&ma), LM_ERR_NOT_OWNER);
}

static void isr_waiter(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    lmt_log("W+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

/* R12.1 */
LMT_CASE(isr_lock_unlock_refused)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, 0);
    T[0] = lmt_spawn("T", 10, isr_owner, NULL);
    spawn_off(1, "W", 8, isr_waiter, NULL);
    lmt_run();
    lmt_expect("isr W+ T-10");
}
static unsigned idle_calls;
static lm_status_t idle_status;

static void idle_locker(void)
{
    if (idle_calls++ == 0u) {
        idle_status = lm_mutex_lock(&ma, LM_NO_WAIT);
    }
}

static void idle_sleeper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK); /* the idle thread runs meanwhile */
    LMT_CHECK(lm_mutex_owner(&ma) == NULL);
    LMT_ST(lm_mutex_lock(&ma, LM_NO_WAIT), LM_OK);
    lmt_log("T+");
    LMT_ST(lm_mutex_unlock(&ma), LM_OK);
}

/* R11.7: from the idle hook, as before the start. (Hosted only: on target
 * the harness owns the idle hook.) */
LMT_CASE(lock_from_idle_hook_refused)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    idle_calls = 0;
    idle_status = LM_OK;
    lm_idle_hook_set(idle_locker);
    lmt_spawn("T", 5, idle_sleeper, NULL);
    lmt_run();
    lm_idle_hook_set(NULL);
    lmt_expect("T+");
    LMT_CHECK(idle_calls >= 1u);
    LMT_ST(idle_status, LM_ERR_STATE);
}
/* ------------------------------------------------------------------------ */
/* Long chains (hosted: a handler placed at a chosen unmask). A masked step
 * recomputes at most three threads of a chain, or reads three links of it
 * for R5.7; the rest goes on in later steps (R5.3, R5.6, R5.7, R9.6). The
 * chain: O_0..O_5 (priorities 10..15), O_i owns lc_m[i] and, for i > 0,
 * waits on lc_m[i-1]; O_0 waits on a semaphore. W (3) then locks lc_m[5].
 *
 * W's lock: the R5.7 walk reads O_4, O_3, O_2 in its first step (unmask 1
 * follows it) and O_1, O_0 and the end in its second, which also blocks W
 * and recomputes O_5, O_4, O_3 (unmask 2). The switch handler's step then
 * recomputes O_2, O_1, O_0 (unmask 3) before it chooses the next thread. */

#define LC_N 5
enum lc_mode { LC_PLAIN, LC_O0_LOCKS, LC_W_TIMEOUT };
static lm_mutex_t lc_m[LC_N + 1];
static lm_sem_t lc_hold, lc_r, lc_end;
static lm_thread_t *lc_o[LC_N + 1], *lc_w, *lc_rt, *lc_q;
static enum lc_mode lc_mode;
static lm_hosted_irq_fn_t lc_isr;
static uint64_t lc_isr_at;

static void lc_log_prios(const char *tag)
{
    lmt_log("%s%u,%u,%u,%u,%u,%u", tag, lm_thread_priority(lc_o[0]),
            lm_thread_priority(lc_o[1]), lm_thread_priority(lc_o[2]),
            lm_thread_priority(lc_o[3]), lm_thread_priority(lc_o[4]),
            lm_thread_priority(lc_o[5]));
}

static void lc_owner(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    LMT_ST(lm_mutex_lock(&lc_m[i], LM_WAIT_FOREVER), LM_OK);
    if (i > 0u) {
        lm_status_t st = lm_mutex_lock(&lc_m[i - 1u], LM_WAIT_FOREVER);
        lmt_log("O%u:%s", i, lmt_sn(st));
        (void)lm_sem_take(&lc_end, LM_WAIT_FOREVER); /* keeps what it owns */
        return;
    }
    LMT_ST(lm_sem_take(&lc_hold, LM_WAIT_FOREVER), LM_OK);
    if (lc_mode == LC_O0_LOCKS) {
        /* R5.7 over two steps: O_5 .. O_1 lead back to O_0. */
        LMT_ST(lm_hosted_irq_at_unmask(lc_isr_at, lc_isr, NULL), 0);
        lmt_log("O0:%s", lmt_sn(lm_mutex_lock(&lc_m[LC_N], LM_WAIT_FOREVER)));
        lm_hosted_work(1);
        lmt_log("O0+");
        (void)lm_sem_take(&lc_end, LM_WAIT_FOREVER);
    }
}

static void lc_waiter(void *arg)
{
    (void)arg;
    if (lc_isr != NULL) {
        LMT_EQ(lm_hosted_irq_at_unmask(lc_isr_at, lc_isr, NULL), 0);
    }
    lmt_log("W?");
    lm_status_t st = lm_mutex_lock(&lc_m[LC_N], lc_mode == LC_W_TIMEOUT ? 4u : LM_WAIT_FOREVER);
    lmt_log("W:%s", lmt_sn(st));
    lc_log_prios("W:");
    (void)lm_sem_take(&lc_end, LM_WAIT_FOREVER);
}

/* Made ready by a handler; more urgent than W. */
static void lc_runner(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&lc_r, LM_WAIT_FOREVER), LM_OK);
    lmt_log("R:w%d", (int)lm_thread_state(lc_w));
    lc_log_prios("R:");
}

static void lc_peer(void *arg)
{
    (void)arg;
    lmt_log("Q");
}

static void lc_sems(void)
{
    lm_sem_t *sems[] = {&lc_hold, &lc_r, &lc_end};
    for (unsigned i = 0; i < 3u; i++) {
        memset(sems[i], 0, sizeof *sems[i]);
        LMT_ST(lm_sem_create(sems[i], 0, 1), LM_OK);
    }
}

/* Builds the chain, then lets W (and R, Q) go. */
static void lc_driver(void *arg)
{
    (void)arg;
    for (int i = 0; i <= LC_N; i++) {
        LMT_ST(lm_thread_start(lc_o[i]), LM_OK);
    }
    LMT_ST(lm_thread_sleep(1), LM_OK); /* they lock and block, O_0 first */
    lc_log_prios("D:");
    if (lc_mode == LC_O0_LOCKS) {
        LMT_ST(lm_sem_give(&lc_hold), LM_OK);
        LMT_ST(lm_thread_start(lc_q), LM_OK); /* O_0's peer, behind it */
        return;
    }
    LMT_ST(lm_thread_start(lc_w), LM_OK);
}

static void lc_setup(enum lc_mode mode, lm_hosted_irq_fn_t isr, uint64_t at)
{
    lmt_begin();
    lc_mode = mode;
    lc_isr = isr;
    lc_isr_at = at;
    for (int i = 0; i <= LC_N; i++) {
        mk(&lc_m[i], LM_MUTEX_INHERIT);
    }
    lc_sems();
    for (int i = 0; i <= LC_N; i++) {
        static const char *const names[] = {"O0", "O1", "O2", "O3", "O4", "O5"};
        lc_o[i] = lmt_spawn_ex(names[i], 10u + (unsigned)i, LM_THRESHOLD_NONE,
                               i == 0 ? 1u : 0u, lc_owner, (void *)(uintptr_t)i, false);
    }
    lc_q = lmt_spawn_ex("Q", 10, LM_THRESHOLD_NONE, 0, lc_peer, NULL, false);
    lc_w = lmt_spawn_ex("W", 3, LM_THRESHOLD_NONE, 0, lc_waiter, NULL, false);
    lc_rt = lmt_spawn("R", 1, lc_runner, NULL);
    lmt_spawn("D", 2, lc_driver, NULL);
    lmt_run();
}

static void lc_isr_peek(void *arg)
{
    (void)arg;
    lc_log_prios("I:");
    LMT_ST(lm_sem_give(&lc_r), LM_OK);
}

/* R5.3, R9.6: a handler between two steps sees the chain raised part of the
 * way (O_5..O_3 at W's priority, O_2..O_0 not yet); the thread it makes
 * ready, more urgent than all of them, runs only once every link is done. */
LMT_CASE(chain_links_propagate_stepwise)
{
    lc_setup(LC_PLAIN, lc_isr_peek, 2);
    lmt_expect("D:10,11,12,13,14,15 W? I:10,11,12,3,3,3 R:w2 R:3,3,3,3,3,3");
}

static void lc_isr_abort(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_wait_abort(lc_w), LM_OK);
}

/* R5.4, R9.6: W's wait ends between two steps of the chain it started: the
 * remaining step works from the state as it is, and every owner ends at
 * its base priority, as R5.2 defines without W. */
LMT_CASE(chain_waiter_leaves_between_steps)
{
    lc_setup(LC_PLAIN, lc_isr_abort, 2);
    lmt_expect("D:10,11,12,13,14,15 W? W:ABORTED W:10,11,12,13,14,15");
}

static void lc_isr_end_o3(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_terminate(lc_o[3]), LM_OK);
    LMT_ST(lm_sem_give(&lc_r), LM_OK);
}

/* R5.4, R5.6, R9.6: O_3 ends between two steps: lc_m[3] goes to O_4,
 * which no longer waits, so the chain now stops at O_4: O_5 and O_4 run at
 * W's priority, the owners below O_4 at their own. */
LMT_CASE(chain_cut_between_steps)
{
    lc_setup(LC_PLAIN, lc_isr_end_o3, 2);
    lmt_expect("D:10,11,12,13,14,15 W? R:w2 R:10,11,12,13,3,3 O4:ABANDONED");
    LMT_CHECK(lm_mutex_owner(&lc_m[3]) == lc_o[4]);
}

/* R5.3, R8.4, R9.4: W's timeout lowers the chain in the switch handler's
 * steps after the expiry; W finds every owner back at its base. */
LMT_CASE(chain_timeout_lowers_stepwise)
{
    lc_setup(LC_W_TIMEOUT, NULL, 0);
    lmt_expect("D:10,11,12,13,14,15 W? W:TIMEOUT W:10,11,12,13,14,15");
}

/* ---- R5.7: the walk, two steps long ---- */

static void lc_isr_abort_o1(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_wait_abort(lc_o[1]), LM_OK);
}

/* R5.7: O_1 stops waiting between the walk's two steps: the walk starts
 * again from the chain as it is (now ending at O_1) and W waits. */
LMT_CASE(walk_restarts_when_chain_changes)
{
    lc_setup(LC_PLAIN, lc_isr_abort_o1, 1);
    lmt_expect("D:10,11,12,13,14,15 W? O1:ABORTED");
    LMT_EQ(lm_thread_state(lc_w), LM_THREAD_BLOCKED);
    for (int i = 1; i <= LC_N; i++) {
        LMT_EQ(lm_thread_priority(lc_o[i]), 3); /* O_1 owns lc_m[1], O_2 waits */
    }
    LMT_EQ(lm_thread_priority(lc_o[0]), 10);
}

static void lc_isr_delete(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_delete(&lc_m[LC_N]), LM_OK);
}

/* R5.8, R9.1: the mutex W locks is deleted during the walk: W's lock
 * returns LM_ERR_DELETED, as a waiter's would. */
LMT_CASE(walk_mutex_deleted)
{
    lc_setup(LC_PLAIN, lc_isr_delete, 1);
    lmt_expect("D:10,11,12,13,14,15 W? W:DELETED W:10,11,12,13,14,15");
}

static void lc_isr_end_o5(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_terminate(lc_o[5]), LM_OK);
}

/* R5.6: the owner of the mutex W locks ends during the walk: W takes it,
 * abandoned. */
LMT_CASE(walk_owner_ends)
{
    lc_setup(LC_PLAIN, lc_isr_end_o5, 1);
    lmt_expect("D:10,11,12,13,14,15 W? W:ABANDONED W:10,11,12,13,14,15");
    LMT_CHECK(lm_mutex_owner(&lc_m[LC_N]) == lc_w);
}

static void lc_isr_suspend_w(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_suspend(lc_w), LM_OK);
    LMT_ST(lm_sem_give(&lc_r), LM_OK);
}

static void lc_resumer(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&lc_r, LM_WAIT_FOREVER), LM_OK);
    lmt_log("R:w%d", (int)lm_thread_state(lc_w));
    LMT_ST(lm_thread_resume(lc_w), LM_OK); /* W walks again, from the start */
    lmt_log("R:w%d", (int)lm_thread_state(lc_w));
    lc_log_prios("R:"); /* W has not run since */
}

/* R5.7, R11.2: W is suspended during the walk: other threads run; resumed,
 * W walks the chain again and waits. */
/* The chain O_0 .. O_5 of lc_setup, not started, and W (priority 3, not
 * started) with the entry `w_entry`. */
static void lc_chain_and_w(lm_thread_entry_t w_entry)
{
    for (int i = 0; i <= LC_N; i++) {
        mk(&lc_m[i], LM_MUTEX_INHERIT);
    }
    lc_sems();
    for (int i = 0; i <= LC_N; i++) {
        lc_o[i] = lmt_spawn_ex("O", 10u + (unsigned)i, LM_THRESHOLD_NONE, 0, lc_owner,
                               (void *)(uintptr_t)i, false);
    }
    lc_w = lmt_spawn_ex("W", 3, LM_THRESHOLD_NONE, 0, w_entry, NULL, false);
}

LMT_CASE(walk_suspended_and_resumed)
{
    lmt_begin();
    lc_mode = LC_PLAIN;
    lc_isr = lc_isr_suspend_w;
    lc_isr_at = 1;
    lc_chain_and_w(lc_waiter);
    lc_rt = lmt_spawn("R", 1, lc_resumer, NULL);
    lmt_spawn("D", 2, lc_driver, NULL);
    lmt_run();
    lmt_expect("D:10,11,12,13,14,15 W? R:w4 R:w1 R:10,11,12,13,14,15");
    LMT_EQ(lm_thread_state(lc_w), LM_THREAD_BLOCKED);
    for (int i = 0; i <= LC_N; i++) {
        LMT_EQ(lm_thread_priority(lc_o[i]), 3);
    }
}

/* R5.7, R9.6: a thread a handler makes ready during the walk, more urgent
 * than W, runs once W's lock has done its work (W is then waiting). */
LMT_CASE(walk_holds_other_threads)
{
    lc_setup(LC_PLAIN, lc_isr_peek, 1);
    lmt_expect("D:10,11,12,13,14,15 W? I:10,11,12,13,14,15 R:w2 R:3,3,3,3,3,3");
}

/* ---- R5.7, R4: a walker ended during its walk leaves no walk behind ---- */

static lm_thread_t *we_x;
static lm_sem_t we_s;
static int we_runs;

static void we_isr_end_w(void *arg)
{
    (void)arg;
    /* R first: with a thread ready, W's end chooses it without a full
     * decision (lmk_sched_choose_locked), the path a stale walk survives. */
    LMT_ST(lm_sem_give(&lc_r), LM_OK);
    LMT_ST(lm_thread_terminate(lc_w), LM_OK);
}

static void we_isr_raise_x(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(we_x, 1), LM_OK);
}

/* W's entry. First run: the lock whose walk a handler ends by ending W.
 * Second run, in the same control block: X, made more urgent by a handler,
 * must preempt it at once (R4), as it would any thread not walking. */
static void we_waiter(void *arg)
{
    (void)arg;
    if (we_runs++ == 0) {
        LMT_EQ(lm_hosted_irq_at_unmask(1, we_isr_end_w, NULL), 0);
        lmt_log("W?");
        (void)lm_mutex_lock(&lc_m[LC_N], LM_WAIT_FOREVER);
        lmt_log("W:walked"); /* never: W ends during the walk */
        return;
    }
    lmt_log("W2:a");
    LMT_EQ(lm_hosted_irq_at_unmask(1, we_isr_raise_x, NULL), 0);
    LMT_ST(lm_sem_give(&we_s), LM_OK); /* one lock, one unmask */
    lmt_log("W2:b");
}

static void we_restarter(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&lc_r, LM_WAIT_FOREVER), LM_OK);
    lmt_log("R:w%d", (int)lm_thread_state(lc_w));
    LMT_ST(lm_thread_start(we_x), LM_OK);  /* 6: behind W */
    LMT_ST(lm_thread_start(lc_w), LM_OK);  /* 3: W runs again once R waits */
}

/* R5.7, R4, R6.2: a handler ends W in the middle of its walk. The walk is
 * over with W: W started again runs as any thread does, and a thread whose
 * priority a handler raises above it preempts it at once. A walk left
 * behind would hold the CPU for W's new run (as a walker's does) and X
 * would wait for W2 to end. */
LMT_CASE(walk_ended_leaves_no_walk)
{
    lmt_begin();
    lc_mode = LC_PLAIN;
    lc_isr = NULL;
    we_runs = 0;
    memset(&we_s, 0, sizeof we_s);
    LMT_ST(lm_sem_create(&we_s, 0, 1), LM_OK);
    lc_chain_and_w(we_waiter);
    we_x = lmt_spawn_ex("X", 6, LM_THRESHOLD_NONE, 0, log_me, NULL, false);
    lc_rt = lmt_spawn("R", 1, we_restarter, NULL);
    lmt_spawn("D", 2, lc_driver, NULL);
    lmt_run();
    lmt_expect("D:10,11,12,13,14,15 W? R:w5 W2:a X W2:b");
}

static void lc_isr_tick(void *arg)
{
    (void)arg;
    lm_hosted_work(1); /* the tick comes when this handler returns */
}

/* R5.7 over two steps, R2.4, R6.3: O_0 closes a cycle five owners long:
 * LM_ERR_DEADLOCK. A tick during the walk ends O_0's one-tick slice; as
 * under the scheduler lock it expires at the next tick, so O_0 returns from
 * the lock before its peer Q runs. */
LMT_CASE(walk_finds_long_cycle)
{
    lc_setup(LC_O0_LOCKS, lc_isr_tick, 1);
    lmt_expect("D:10,11,12,13,14,15 O0:DEADLOCK Q O0+");
    LMT_CHECK(lm_mutex_owner(&lc_m[LC_N]) == lc_o[5]);
}

/* ---- R5.6: an ended thread's mutexes, one per step ---- */

static lm_thread_t *rl_x, *rl_y;
static int rl_case, rl_runs;

static const char *rl_on(const lm_mutex_t *m)
{
    const lm_thread_t *o = lm_mutex_owner(m);
    return o != NULL ? lm_thread_name(o) : "-";
}

static void rl_owner(void *arg)
{
    (void)arg;
    if (rl_runs++ > 0) {
        lmt_log("X:again"); /* restarted: runs from its entry */
        return;
    }
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mc, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_sem_take(&lc_hold, LM_WAIT_FOREVER), LM_OK);
}

static void rl_waiter(void *arg)
{
    lm_mutex_t *m = arg;
    lmt_log("%s:%s", lmt_me(), lmt_sn(lm_mutex_lock(m, LM_WAIT_FOREVER)));
}

static void rl_isr(void *arg)
{
    (void)arg;
    lmt_log("I:%s,%s,%s", rl_on(&ma), rl_on(&mb), rl_on(&mc));
    switch (rl_case) {
    case 1: /* what is left of X's mutexes is deleted */
        LMT_ST(lm_mutex_delete(&mb), LM_OK);
        LMT_ST(lm_mutex_delete(&mc), LM_OK);
        break;
    case 2: /* X started again, and ended again */
        LMT_ST(lm_thread_start(rl_x), LM_OK);
        LMT_ST(lm_thread_terminate(rl_x), LM_OK);
        break;
    case 3: /* X started again: it runs only once its mutexes are gone */
        LMT_ST(lm_thread_start(rl_x), LM_OK);
        break;
    case 4: /* a second ended owner queues behind X */
        LMT_ST(lm_thread_terminate(rl_y), LM_OK);
        break;
    default:
        break;
    }
}

static void rl_y_owner(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&lc_m[0], LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&lc_m[1], LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_sem_take(&lc_r, LM_WAIT_FOREVER), LM_OK);
}

static void rl_driver(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* the owners lock, the waiters block */
    LMT_ST(lm_hosted_irq_at_unmask(1, rl_isr, NULL), 0);
    LMT_ST(lm_thread_terminate(rl_x), LM_OK);
    lmt_log("D:%s,%s,%s", rl_on(&ma), rl_on(&mb), rl_on(&mc));
}

static void rl_setup(int which)
{
    lmt_begin();
    rl_case = which;
    rl_runs = 0;
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    mk(&mc, LM_MUTEX_INHERIT);
    mk(&lc_m[0], LM_MUTEX_INHERIT);
    mk(&lc_m[1], LM_MUTEX_INHERIT);
    lc_sems();
    rl_x = lmt_spawn("X", 10, rl_owner, NULL);
    rl_y = lmt_spawn("Y", 10, rl_y_owner, NULL);
    lmt_spawn("A", 12, rl_waiter, &ma);
    lmt_spawn("B", 12, rl_waiter, &mb);
    lmt_spawn("C", 12, rl_waiter, &mc);
    lmt_spawn("E", 12, rl_waiter, &lc_m[1]);
    lmt_spawn("D", 1, rl_driver, NULL);
    lmt_run();
}

/* R5.6, R9.6: X ends owning three mutexes with a waiter each. The first
 * passes on in the terminate's own step, the others one per step in the
 * switch handler, in the order X took them; a handler between the steps
 * sees those still X's. The waiters then run in that order (R2.2). */
LMT_CASE(release_stepwise_in_order)
{
    rl_setup(0);
    lmt_expect("I:A,X,X D:A,B,C A:ABANDONED B:ABANDONED C:ABANDONED");
    LMT_EQ(lm_thread_priority(rl_x), 10);
}

/* R5.8 during R5.6: a handler deletes the two mutexes X has not released
 * yet: their waiters get LM_ERR_DELETED, and the release ends there. */
LMT_CASE(release_meets_delete)
{
    rl_setup(1);
    lmt_expect("I:A,X,X D:A,-,- A:ABANDONED B:DELETED C:DELETED");
}

/* R11.1 during R5.6: a handler starts X again and ends it again while its
 * mutexes are being released; each still goes to its waiter once. */
LMT_CASE(release_restarted_and_ended_again)
{
    rl_setup(2);
    lmt_expect("I:A,X,X D:A,B,C A:ABANDONED B:ABANDONED C:ABANDONED");
}

/* R11.1 during R5.6: X started again by a handler runs only once its old
 * mutexes have gone to their waiters. */
LMT_CASE(release_restarted_runs_after)
{
    rl_setup(3);
    lmt_expect("I:A,X,X D:A,B,C X:again A:ABANDONED B:ABANDONED C:ABANDONED");
}

/* R5.6: Y, ended between X's steps, queues behind X: the steps take the
 * ended threads in turn, each thread's mutexes in its own order (R5.6
 * orders one owner's releases, not those of different owners). */
LMT_CASE(release_two_threads_queue)
{
    rl_setup(4);
    lmt_expect("I:A,X,X D:A,B,C A:ABANDONED B:ABANDONED E:ABANDONED C:ABANDONED");
}

static lm_timer_t rl_tm;

static void rl_tm_end_x(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_terminate(rl_x), LM_OK); /* ma now, mb in a later step */
}

static void rl_x2(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(&ma, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mb, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_sem_take(&lc_hold, LM_WAIT_FOREVER), LM_OK);
}

static void rl_a_timed(void *arg)
{
    (void)arg;
    lm_status_t st = lm_mutex_lock(&mb, 3);
    lmt_log("A:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
}

static void rl_timed_driver(void *arg)
{
    lm_thread_t *a = arg;
    LMT_ST(lm_thread_sleep(1), LM_OK); /* X locks ma and mb */
    memset(&rl_tm, 0, sizeof rl_tm);
    LMT_ST(lm_timer_create(&rl_tm, rl_tm_end_x, NULL), LM_OK);
    LMT_ST(lm_timer_start(&rl_tm, 3, 0), LM_OK); /* due with A's timeout, armed first */
    LMT_ST(lm_thread_start(a), LM_OK);
}

/* R5.6, R8.1, R9.4, R9.6: a timer callback ends X on the tick A's lock of
 * mb times out, before A's expiry (R8.5: armed first). X's release of mb,
 * left to a later step, comes before the next expiry: A gets mb, abandoned,
 * as it would have had the whole release been one step. */
LMT_CASE(release_before_next_expiry)
{
    lmt_begin();
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    lc_sems();
    rl_x = lmt_spawn("X", 10, rl_x2, NULL);
    lm_thread_t *a = lmt_spawn_ex("A", 12, LM_THRESHOLD_NONE, 0, rl_a_timed, NULL, false);
    lmt_spawn("D", 1, rl_timed_driver, a);
    lmt_run();
    lmt_expect("A:ABANDONED@4");
}

/* ---- R9.4, R9.6: a release a handler leaves between two runs of sleeps -- */

#define SR_N (2u * LM_CFG_EXPIRIES_PER_STEP)
_Static_assert(SR_N + 3u < LMT_MAX_THREADS, "2K sleepers, X, A and the driver");
static lm_thread_t *sr_s[SR_N];
static unsigned sr_probes, sr_woken_at_release;
static bool sr_ended;

static unsigned sr_woken(void)
{
    unsigned n = 0;
    for (unsigned i = 0; i < SR_N; i++) {
        lm_thread_state_t st = lm_thread_state(sr_s[i]);
        n += (st != LM_THREAD_SLEEPING && st != LM_THREAD_BLOCKED) ? 1u : 0u;
    }
    return n;
}

/* At every unmask of tick 5's expiry work: once the first run of sleeps is
 * awake, end X (ma passes now, mb in a later step, R5.6); then note how
 * many sleepers are awake when mb has passed to A. */
static void sr_probe(void *arg)
{
    (void)arg;
    unsigned n = sr_woken();
    if (n == SR_N || ++sr_probes > 64u + 4u * SR_N) {
        return; /* all awake (or the test is lost): stop probing */
    }
    if (!sr_ended && n == LM_CFG_EXPIRIES_PER_STEP) {
        sr_ended = true;
        LMT_ST(lm_thread_terminate(rl_x), LM_OK);
        LMT_CHECK(lm_mutex_owner(&mb) == rl_x);
    } else if (sr_ended && sr_woken_at_release == 0u && lm_mutex_owner(&mb) != rl_x) {
        sr_woken_at_release = n;
    }
    LMT_EQ(lm_hosted_irq_at_unmask(1, sr_probe, NULL), 0);
}

static void sr_at_tick(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_unmask(1, sr_probe, NULL), 0);
}

static void sr_sleeper(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(5), LM_OK);
}

static lm_sem_t sr_sem; /* never given */

static void sr_taker(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sr_sem, 5), LM_ERR_TIMEOUT);
}

static void sr_a(void *arg)
{
    (void)arg;
    lm_status_t st = lm_mutex_lock(&mb, LM_WAIT_FOREVER);
    lmt_log("A:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
}

/* 2K threads running `entry` time out on tick 5 (K =
 * LM_CFG_EXPIRIES_PER_STEP, K per step); a handler between the two runs
 * ends X, which owns ma and mb, with A waiting for mb. The release of mb,
 * left to a later step, is done before the second run: the first
 * interrupt that sees mb gone from X still sees K threads awake. */
static void expect_release_between_runs(void (*entry)(void *))
{
    memset(&sr_sem, 0, sizeof sr_sem); /* the takers' */
    LMT_ST(lm_sem_create(&sr_sem, 0, 1), LM_OK);
    mk(&ma, LM_MUTEX_INHERIT);
    mk(&mb, LM_MUTEX_INHERIT);
    lc_sems();
    sr_probes = 0;
    sr_woken_at_release = 0;
    sr_ended = false;
    rl_x = lmt_spawn("X", 10, rl_x2, NULL);
    lmt_spawn("A", 12, sr_a, NULL);
    for (unsigned i = 0; i < SR_N; i++) {
        sr_s[i] = lmt_spawn("S", 4, entry, NULL);
    }
    LMT_EQ(lm_hosted_irq_at_tick(5, sr_at_tick, NULL), 0);
    lmt_run();
    LMT_CHECK(sr_ended);
    LMT_EQ(sr_woken_at_release, LM_CFG_EXPIRIES_PER_STEP);
    lmt_expect("A:ABANDONED@5");
}

/* R9.4, R9.6, R5.6: sleeps. */
LMT_CASE(release_between_runs_of_sleeps)
{
    lmt_begin();
    expect_release_between_runs(sr_sleeper);
}

/* R9.4, R9.6, R5.6: takes of a semaphore, which time out in runs as
 * sleeps do. */
LMT_CASE(release_between_runs_of_takes)
{
    lmt_begin();
    expect_release_between_runs(sr_taker);
}

#define LMT_HOSTED_CASES , LMT_RUN(isr_lock_unlock_refused), LMT_RUN(lock_from_idle_hook_refused), \
    LMT_RUN(chain_links_propagate_stepwise), LMT_RUN(chain_waiter_leaves_between_steps), \
    LMT_RUN(chain_cut_between_steps), LMT_RUN(chain_timeout_lowers_stepwise), \
    LMT_RUN(walk_restarts_when_chain_changes), LMT_RUN(walk_mutex_deleted), \
    LMT_RUN(walk_owner_ends), LMT_RUN(walk_suspended_and_resumed), \
    LMT_RUN(walk_holds_other_threads), LMT_RUN(walk_ended_leaves_no_walk), \
    LMT_RUN(walk_finds_long_cycle), \
    LMT_RUN(release_stepwise_in_order), LMT_RUN(release_meets_delete), \
    LMT_RUN(release_restarted_and_ended_again), LMT_RUN(release_restarted_runs_after), \
    LMT_RUN(release_two_threads_queue), LMT_RUN(release_before_next_expiry), \
    LMT_RUN(release_between_runs_of_sleeps), LMT_RUN(release_between_runs_of_takes)
#else
#define LMT_HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(recursive_and_owner_checks), LMT_RUN(inversion_without_inheritance),
         LMT_RUN(inversion_with_inheritance), LMT_RUN(transitive_chain_of_three),
         LMT_RUN(transitive_chain_waiter_times_out), LMT_RUN(transitive_chain_waiter_aborted),
         LMT_RUN(release_three_in_every_order), LMT_RUN(waiter_leaving_lowers_owner),
         LMT_RUN(direct_handover_to_most_urgent), LMT_RUN(owner_terminated_abandons),
         LMT_RUN(owner_deleted_abandons), LMT_RUN(owner_returns_abandons),
         LMT_RUN(deadlock_two_threads), LMT_RUN(deadlock_three_threads),
         LMT_RUN(delete_with_owner_and_waiters), LMT_RUN(inheritance_past_threshold),
         LMT_RUN(threshold_without_inheritance),
         LMT_RUN(waiter_priority_change_moves_and_owner_follows),
         LMT_RUN(lock_timeout_restores_owner), LMT_RUN(inheritance_queue_positions),
         LMT_RUN(plain_mutex_lends_nothing), LMT_RUN(suspended_waiter_lends_and_receives),
         LMT_RUN(lock_before_start_refused),
         LMT_RUN(bad_input_statuses)
             LMT_HOSTED_CASES)
