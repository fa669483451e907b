/*
 * Model-based random test (hosted port only). A seeded PRNG chooses the
 * next call for whichever kernel thread runs; the same call is applied to
 * the reference model (model.c, from docs/rules.md). At every point where a
 * thread returns from a call, the running thread, its status and every
 * thread's state, priorities and threshold, the semaphore counts and the
 * mutex owners must match the model. Simulated interrupts
 * (lm_hosted_irq_at_unmask) give semaphores and resume threads.
 *
 *     test_model [seed [steps]]
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "limen/port.h"
#include "model.h"

static struct md M;
static lm_sem_t sems[MD_SEMS];
static lm_mutex_t mtx[MD_MUTEXES];
static lm_thread_t *th[MD_THREADS];
static uint64_t rng;
static unsigned long steps, budget, runs;
static unsigned long divergences;
static uint64_t seed;
/* Bumped by every driver point and handler: tells a thread whether anything
 * happened while it unmasked before its next call. */
static unsigned long gen;

/* Last operations, for the divergence report. */
#define HIST 120
static char hist[HIST][96];
static unsigned long nhist;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(hist[nhist % HIST], sizeof hist[0], fmt, ap);
    va_end(ap);
    nhist++;
}

static uint32_t rnd(uint32_t n)
{
    /* xorshift64*: small, seedable, the same on every host */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ull) >> 33) % n;
}

static _Noreturn void diverge(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void diverge(const char *fmt, ...)
{
    va_list ap;
    divergences++;
    printf("DIVERGENCE seed %" PRIu64 " step %lu run %lu tick %u: ", seed, steps, runs,
           (unsigned)lm_tick_now());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\nlast operations (oldest first):\n");
    unsigned long from = nhist > HIST ? nhist - HIST : 0;
    for (unsigned long i = from; i < nhist; i++) {
        printf("  %s\n", hist[i % HIST]);
    }
    printf("state (kernel | model): running %s | T%d\n", lm_thread_name(lm_thread_self()),
           M.cur);
    for (int i = 0; i < M.n; i++) {
        printf("  rseq %lld ", (long long)M.t[i].rseq);
        printf("  T%d state %d|%d prio %u|%d base %u|%d thr %u|%d%s%s\n", i,
               (int)lm_thread_state(th[i]), M.t[i].state, lm_thread_priority(th[i]),
               M.t[i].prio, lm_thread_base_priority(th[i]), M.t[i].base,
               lm_thread_threshold(th[i]), M.t[i].thr, M.t[i].held ? " held" : "",
               M.t[i].susp_req ? " susp" : "");
    }
    for (int x = 0; x < MD_MUTEXES; x++) {
        printf("  M%d owner %s|T%d depth model %u waiters model:", x,
               lm_mutex_owner(&mtx[x]) ? lm_thread_name(lm_mutex_owner(&mtx[x])) : "-",
               M.mtx_owner[x], M.mtx_depth[x]);
        for (int i = 0; i < M.n; i++) {
            if (M.t[i].wait == MD_W_MUTEX && M.t[i].wobj == x) {
                printf(" T%d", i);
            }
        }
        printf("\n");
    }
    printf("  model time %u, armed:", (unsigned)M.time);
    for (int i = 0; i < M.n; i++) {
        if (M.t[i].armed) {
            printf(" T%d@%u", i, (unsigned)M.t[i].deadline);
        }
    }
    printf("\n");
    printf("model: %lu steps, %lu divergences\n", steps, divergences);
    fflush(stdout);
    /* From a kernel thread's stack: end the process without unwinding it
     * (LeakSanitizer cannot scan the switched stacks). */
    _exit(1);
}

static int index_of(const lm_thread_t *t)
{
    for (int i = 0; i < M.n; i++) {
        if (th[i] == t) {
            return i;
        }
    }
    return MD_NONE;
}

static lm_thread_state_t expected_state(int i)
{
    switch (M.t[i].state) {
    case MD_READY: return LM_THREAD_READY;
    case MD_BLOCKED: return LM_THREAD_BLOCKED;
    case MD_SLEEPING: return LM_THREAD_SLEEPING;
    default: return LM_THREAD_SUSPENDED;
    }
}

/* Every observable the model predicts, except the running thread. */
static void compare_objects(const char *where)
{
    for (int i = 0; i < M.n; i++) {
        if (lm_thread_state(th[i]) != expected_state(i)) {
            diverge("%s: T%d state %d, model %d", where, i, (int)lm_thread_state(th[i]),
                    (int)expected_state(i));
        }
        if ((int)lm_thread_priority(th[i]) != M.t[i].prio ||
            (int)lm_thread_base_priority(th[i]) != M.t[i].base ||
            (int)lm_thread_threshold(th[i]) != M.t[i].thr) {
            diverge("%s: T%d prio/base/thr %u/%u/%u, model %d/%d/%d", where, i,
                    lm_thread_priority(th[i]), lm_thread_base_priority(th[i]),
                    lm_thread_threshold(th[i]), M.t[i].prio, M.t[i].base, M.t[i].thr);
        }
    }
    for (int s = 0; s < MD_SEMS; s++) {
        uint32_t c = 0;
        (void)lm_sem_count(&sems[s], &c);
        if (c != M.sem_count[s]) {
            diverge("%s: S%d count %u, model %u", where, s, (unsigned)c,
                    (unsigned)M.sem_count[s]);
        }
    }
    for (int x = 0; x < MD_MUTEXES; x++) {
        int o = index_of(lm_mutex_owner(&mtx[x]));
        if (o != M.mtx_owner[x]) {
            diverge("%s: M%d owner T%d, model T%d", where, x, o, M.mtx_owner[x]);
        }
    }
}

/* ---- simulated interrupts ---- */

struct irq_op {
    int kind; /* 0: give sem, 1: resume thread */
    int arg;
    bool used;
};
#define IRQ_SLOTS 8
static struct irq_op irq_ops[IRQ_SLOTS];

/*
 * Bring the model to where the kernel is when a handler runs. Virtual time
 * may have moved (work or idle), and the kernel processes due timeouts one
 * per masked step (R9.4), so a handler can run between two of them: the
 * handler takes the processed ones as a prefix of the R8.5 order, which is
 * itself checked (a later one processed before an earlier one diverges).
 */
static void irq_sync(void)
{
    lm_tick_t now = lm_tick_now();
    while (M.time != now) {
        md_process_due(&M);
        md_resched(&M);
        if (M.cur == MD_NONE) {
            uint32_t d = md_next_deadline(&M);
            if (!md_any_armed(&M) || (int32_t)(d - now) > 0) {
                diverge("irq: kernel at tick %u, model idle at %u", (unsigned)now,
                        (unsigned)M.time);
            }
            M.time = d;
        } else if (M.t[M.cur].work_left > 0u) {
            md_tick(&M);
        } else {
            diverge("irq: kernel at tick %u, model at %u with T%d not working",
                    (unsigned)now, (unsigned)M.time, M.cur);
        }
    }
    for (int t = md_first_due(&M); t != MD_NONE; t = md_first_due(&M)) {
        lm_thread_state_t ks = lm_thread_state(th[t]);
        if (ks == LM_THREAD_BLOCKED || ks == LM_THREAD_SLEEPING) {
            break; /* not processed yet */
        }
        md_timeout(&M, t);
    }
    for (int t = 0; t < M.n; t++) {
        lm_thread_state_t ks = lm_thread_state(th[t]);
        if (md_waiting(&M, t) != (ks == LM_THREAD_BLOCKED || ks == LM_THREAD_SLEEPING)) {
            diverge("irq: T%d waiting in one and not the other (kernel state %d)", t,
                    (int)ks);
        }
    }
    if (index_of(lm_thread_self()) != M.cur) {
        md_resched(&M); /* the kernel has switched since the last call */
    }
}

static void irq_handler(void *arg)
{
    struct irq_op *op = arg;
    op->used = false;
    gen++;
    irq_sync();
    int want, got;
    if (op->kind == 0) {
        note("irq give S%d", op->arg);
        want = md_sem_give(&M, op->arg);
        got = lm_sem_give(&sems[op->arg]);
    } else {
        note("irq resume T%d", op->arg);
        want = md_resume(&M, op->arg);
        got = lm_thread_resume(th[op->arg]);
    }
    if (want != got) {
        diverge("irq returned %s, model %s", lm_status_name(got),
                lm_status_name((lm_status_t)want));
    }
}

static void maybe_raise_irq(void)
{
    if (rnd(8) != 0) {
        return;
    }
    for (int i = 0; i < IRQ_SLOTS; i++) {
        if (!irq_ops[i].used) {
            irq_ops[i].used = true;
            irq_ops[i].kind = (int)rnd(2);
            irq_ops[i].arg = (int)(irq_ops[i].kind == 0 ? rnd(MD_SEMS) : rnd((uint32_t)M.n));
            (void)lm_hosted_irq_at_unmask(1u + rnd(6), irq_handler, &irq_ops[i]);
            return;
        }
    }
}

/* ---- the threads ---- */

static lm_tick_t pick_timeout(void)
{
    return rnd(3) == 0 ? LM_NO_WAIT : 1u + rnd(3);
}

/* Choose one call, apply it to the model, then make it on the kernel. */
static lm_status_t do_op(int me)
{
    int s = (int)rnd(MD_SEMS), x = (int)rnd(MD_MUTEXES), t = (int)rnd((uint32_t)M.n);
    lm_tick_t to;
    int r;
    switch (rnd(13)) {
    case 0:
    case 1:
        to = pick_timeout();
        note("T%d take S%d %u", me, s, (unsigned)to);
        md_sem_take(&M, s, to);
        return lm_sem_take(&sems[s], to);
    case 2:
    case 3:
        note("T%d give S%d", me, s);
        M.t[me].ret = md_sem_give(&M, s);
        return lm_sem_give(&sems[s]);
    case 4:
    case 5:
        to = pick_timeout();
        note("T%d lock M%d %u", me, x, (unsigned)to);
        md_mutex_lock(&M, x, to);
        return lm_mutex_lock(&mtx[x], to);
    case 6:
    case 7:
        /* Mostly a mutex it owns, so nesting unwinds. */
        for (int k = 0; k < MD_MUTEXES; k++) {
            if (M.mtx_owner[k] == me && rnd(4) != 0) {
                x = k;
            }
        }
        note("T%d unlock M%d", me, x);
        md_mutex_unlock(&M, x);
        return lm_mutex_unlock(&mtx[x]);
    case 8:
        r = (int)rnd(4);
        note("T%d set_priority T%d %d", me, t, r);
        M.t[me].ret = md_set_priority(&M, t, r);
        return lm_thread_set_priority(th[t], (unsigned)r);
    case 9:
        r = (int)rnd(5) - 1;
        note("T%d set_threshold T%d %d", me, t, r);
        M.t[me].ret = md_set_threshold(&M, t, r);
        return lm_thread_set_threshold(th[t], r < 0 ? LM_THRESHOLD_NONE : (unsigned)r);
    case 10:
        switch (rnd(3)) {
        case 0:
            note("T%d yield", me);
            md_yield(&M);
            return lm_thread_yield();
        case 1:
            to = 1u + rnd(3);
            note("T%d sleep %u", me, (unsigned)to);
            md_sleep(&M, to);
            return lm_thread_sleep(to);
        default:
            to = 1u + rnd(3);
            note("T%d work %u", me, (unsigned)to);
            md_work(&M, to);
            lm_hosted_work(to);
            return LM_OK;
        }
    case 11:
        if (t == me) {
            t = (t + 1) % M.n;
        }
        note("T%d suspend T%d", me, t);
        M.t[me].ret = md_suspend(&M, t);
        return lm_thread_suspend(th[t]);
    default:
        note("T%d resume T%d", me, t);
        M.t[me].ret = md_resume(&M, t);
        return lm_thread_resume(th[t]);
    }
}

static void runner(void *arg)
{
    int me = (int)(intptr_t)arg;
    lm_status_t st = LM_OK;
    for (;;) {
        bool first = true;
        for (;;) {
            /* Interrupts masked while comparing, so no handler changes the
             * state between two reads; pending ones run at the unmask, and
             * may even switch threads there: then compare again. */
            lm_irqstate_t is = lm_port_irq_lock();
            int who = md_settle(&M);
            if (who != me) {
                diverge("T%d runs, model says T%d", me, who);
            }
            if ((int)st != M.t[me].ret) {
                diverge("T%d's call returned %s, model %s", me, lm_status_name(st),
                        lm_status_name((lm_status_t)M.t[me].ret));
            }
            if (M.time != lm_tick_now()) {
                diverge("tick %u, model %u", (unsigned)lm_tick_now(), (unsigned)M.time);
            }
            compare_objects("step");
            if (first) {
                note("  T%d <- %s (tick %u)", me, lmt_sn(st), (unsigned)M.time);
                if (steps >= budget) {
                    lm_port_irq_unlock(is);
                    lm_hosted_stop();
                }
                steps++;
                maybe_raise_irq();
                first = false;
            }
            unsigned long g = ++gen;
            lm_port_irq_unlock(is);
            if (g == gen) {
                break;
            }
        }
        st = do_op(me);
    }
}

static const char *const names[MD_THREADS] = {"T0", "T1", "T2", "T3", "T4", "T5", "T6", "T7"};

/* One simulation: fresh kernel and objects, random priorities and
 * thresholds, until quiescent or the budget is spent. */
static void one_run(void)
{
    int prio[MD_THREADS], thr[MD_THREADS];
    lmt_begin();
    memset(sems, 0, sizeof sems);
    memset(mtx, 0, sizeof mtx);
    memset(irq_ops, 0, sizeof irq_ops);
    for (int s = 0; s < MD_SEMS; s++) {
        LMT_ST(lm_sem_create(&sems[s], 0, MD_SEM_MAX), LM_OK);
    }
    for (int x = 0; x < MD_MUTEXES; x++) {
        LMT_ST(lm_mutex_create(&mtx[x], LM_MUTEX_INHERIT), LM_OK);
    }
    for (int i = 0; i < MD_THREADS; i++) {
        prio[i] = (int)rnd(4);
        thr[i] = rnd(3) == 0 ? (int)rnd((uint32_t)prio[i] + 1u) : -1;
        th[i] = lmt_spawn_ex(names[i], (unsigned)prio[i],
                             thr[i] < 0 ? LM_THRESHOLD_NONE : (unsigned)thr[i], 0, runner,
                             (void *)(intptr_t)i, true);
    }
    md_init(&M, MD_THREADS, prio, thr);
    note("run %lu", runs);
    lmt_run();
    runs++;
    if (steps < budget) {
        /* Quiescent: the model must agree that nothing can happen. */
        if (md_settle(&M) != MD_NONE) {
            diverge("kernel quiescent, model runs T%d", M.cur);
        }
        compare_objects("quiescent");
    }
}

int main(int argc, char **argv)
{
    seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1u;
    budget = argc > 2 ? strtoul(argv[2], NULL, 0) : 200000ul;
    rng = seed * 0x9E3779B97F4A7C15ull + 1u;
    printf("model: seed %" PRIu64 ", %lu steps\n", seed, budget);
    while (steps < budget) {
        one_run();
    }
    printf("model: %lu steps, %lu divergences (%lu runs)\n", steps, divergences, runs);
    return divergences == 0 ? 0 : 1;
}
