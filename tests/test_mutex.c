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

static void chain_m(void *arg)
{
    (void)arg;
    lmt_log("M");
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
    spawn_off(5, "M", 10, chain_m, NULL);
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
#define LMT_HOSTED_CASES , LMT_RUN(isr_lock_unlock_refused), LMT_RUN(lock_from_idle_hook_refused)
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
