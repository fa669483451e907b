/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Model-based random test (hosted port only). A seeded PRNG chooses the
 * next call for whichever kernel thread runs; the same call is applied to
 * the reference model (model*.c, from docs/rules.md). At every point where a
 * thread returns from a call, the running thread, its status and every
 * thread's state, priorities and threshold, the semaphore counts and the
 * mutex owners, the queues' messages and every value received, the flags
 * and what waits reported, the pool's free count and the blocks handed
 * over, the timers' state and their callbacks' log must match the model;
 * objects are deleted and re-created on the way; threads end (terminate,
 * delete, return) and are started again, waits are aborted, the scheduler
 * lock is taken and time-slices run out. Simulated interrupts
 * (lm_hosted_irq_at_unmask) give semaphores, resume, suspend, terminate or
 * delete threads, abort waits, send to or receive from queues, set or wait
 * on flags and allocate or free blocks (LM_NO_WAIT); timer callbacks give
 * semaphores or resume threads. Some choices are directed (gen_directed) to
 * reach rare interleavings of deletes with flushes and flags sets.
 *
 *     test_model [seed [steps]]
 *     test_model --replay FILE     replay a tape (README "Shortest reproducer")
 *     test_model --reduce FILE     shorten a diverging tape
 */
/* fork, mmap (MAP_ANONYMOUS), clock_gettime: the reducer (hosted only). */
#define _DEFAULT_SOURCE 1
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "limen/port.h"
#include "model.h"

static struct md M;
static lm_sem_t sems[MD_SEMS];
static lm_mutex_t mtx[MD_MUTEXES];
/* Queues of 4-byte messages, capacities 1 and 3 (send_front only differs
 * from send with room for two). Every message sent carries a new value. */
static const uint32_t qcap[MD_QUEUES] = {1u, 3u};
static lm_queue_t queues[MD_QUEUES];
static LM_QUEUE_BUFFER_DEFINE(qbuf0, 4, 1);
static LM_QUEUE_BUFFER_DEFINE(qbuf1, 4, 3);
static uint8_t *const qbufs[MD_QUEUES] = {qbuf0, qbuf1};
static uint32_t next_val = 1;
/* Per thread: the message it sends (the kernel keeps a pointer to it while
 * the sender is blocked) and the buffer it receives into. */
static uint32_t txbuf[MD_THREADS], rxbuf[MD_THREADS];
/* What a thread's last call returned that the model predicts: a message
 * (receive, peek), the flags a wait reported (R10.1), a pool block. */
enum check_kind { CHK_NONE, CHK_MSG, CHK_FLAGS, CHK_BLOCK };
static int check_rx[MD_THREADS]; /* enum check_kind */
static uint32_t fact[MD_THREADS];

/* Event flags (3 bits used, so waits are often satisfied). */
static lm_flags_t flags[MD_FLAGS];

/* One pool of MD_POOL_BLOCKS blocks. The driver tracks who holds each block
 * (the rules do not say which free block an allocation gets, R10.4 fixes
 * the block a waiter is handed). A delete + re-create frees every block:
 * pool_gen tells a call made before it from one made after. */
#define BLK_IRQ MD_THREADS /* held by the handlers */
static lm_pool_t pool;
static LM_POOL_BUFFER_DEFINE(pbuf, 8, MD_POOL_BLOCKS);
static int blk_owner[MD_POOL_BLOCKS];
static void *rxblk[MD_THREADS];
static unsigned long pool_gen, alloc_gen[MD_THREADS];

/* Two timers; each callback appends (timer, tick) to klog and does its
 * action (give a semaphore or resume a thread), as the model predicts. */
static lm_timer_t timers[MD_TIMERS];
static struct md_log_entry klog[MD_LOG];
static unsigned long knlog, klog_checked;
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

static bool trace;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(hist[nhist % HIST], sizeof hist[0], fmt, ap);
    va_end(ap);
    if (trace) { /* MODEL_TRACE=1: every note as it is made */
        puts(hist[nhist % HIST]);
    }
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

/* ---- the tape: every random choice, for replay and reduction ----
 *
 * A generating run records each choice as an entry: an interrupt raised at a
 * step point, or a call made by do_op (with its arguments resolved). A replay
 * (`test_model --replay FILE`) takes the entries from a file instead of the
 * PRNG, in the same order: a step point raises the interrupts at the front of
 * the tape, do_op raises any left there and then makes the next call. With
 * entries removed the run still replays: it just takes another course. On a
 * divergence the driver writes the tape and (unless MODEL_REDUCE=0) execs
 * itself with --reduce, which removes chunks of entries while the replay
 * still diverges the same way (delta debugging), then prints the result. */
enum op_code {
    OP_TAKE, OP_GIVE, OP_LOCK, OP_UNLOCK, OP_PRIO, OP_THR, OP_YIELD, OP_SLEEP, OP_WORK,
    OP_SUSPEND, OP_RESUME, OP_QSEND, OP_QFRONT, OP_QRECV, OP_QPEEK, OP_QFLUSH, OP_QCOUNT,
    OP_IRQ, OP_FSET, OP_FCLEAR, OP_FWAIT, OP_FGET, OP_PALLOC, OP_PFREE, OP_PAVAIL,
    OP_TSTART, OP_TSTOP, OP_TACTIVE, OP_DELETE, OP_THEND, OP_THSTART, OP_ABORT, OP_CREATE,
    OP_SLOCK, OP_SUNLOCK, OP_CODES
};
static const char *const op_names[OP_CODES] = {
    "take", "give", "lock", "unlock", "prio", "thr", "yield", "sleep", "work",
    "suspend", "resume", "qsend", "qfront", "qrecv", "qpeek", "qflush", "qcount", "irq",
    "fset", "fclear", "fwait", "fget", "palloc", "pfree", "pavail", "tstart", "tstop",
    "tactive", "delete", "thend", "thstart", "abort", "create", "slock", "sunlock"};
static const char *const obj_names[] = {"S", "M", "Q", "F", "P"}; /* enum md_obj */
struct op {
    int code; /* enum op_code */
    int a, b, c; /* irq: kind, arg, delay */
};
static struct op *tape;
static size_t ntape, tape_cap, tape_pos;
/* Per run: priority and threshold of each thread, then each one's
 * time-slice (a tape without slices reads as 0: none). */
#define SETUP_INTS (3 * MD_THREADS)
static int (*setups)[SETUP_INTS]; /* one per run, grown as runs are made */
static size_t setups_cap;
static size_t nsetups;
static bool replaying;   /* entries come from tape[], not from the PRNG */
static bool reduce_child; /* a trial of the reducer: quiet, no exec */
static char *trial_sig;  /* shared with the reducer: the divergence kind */
static const char *tape_file = "model-divergence.tape"; /* env MODEL_TAPE */

/* Room for one more run's setup at setups[nsetups]. */
static void setup_room(void)
{
    if (nsetups == setups_cap) {
        setups_cap = setups_cap != 0u ? 2u * setups_cap : 64u;
        setups = realloc(setups, setups_cap * sizeof *setups);
        if (setups == NULL) {
            abort();
        }
    }
}

static void tape_push(struct op o)
{
    if (ntape == tape_cap) {
        tape_cap = tape_cap != 0u ? 2u * tape_cap : 4096u;
        tape = realloc(tape, tape_cap * sizeof *tape);
        if (tape == NULL) {
            abort();
        }
    }
    tape[ntape++] = o;
}

static bool write_tape(const char *path, const char *sig, const struct op *t, size_t n)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return false;
    }
    fprintf(f, "sig %s\n", sig);
    for (size_t r = 0; r < nsetups; r++) {
        fprintf(f, "run");
        for (int i = 0; i < SETUP_INTS; i++) {
            fprintf(f, " %d", setups[r][i]);
        }
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s %d %d %d\n", op_names[t[i].code], t[i].a, t[i].b, t[i].c);
    }
    return fclose(f) == 0;
}

/* Returns the divergence signature stored in the file (static buffer). */
static const char *read_tape(const char *path)
{
    static char sig[256];
    char line[256];
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "test_model: cannot read %s\n", path);
        exit(2);
    }
    sig[0] = '\0';
    ntape = 0;
    nsetups = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "sig ", 4) == 0) {
            snprintf(sig, sizeof sig, "%s", line + 4);
            continue;
        }
        if (strncmp(line, "run", 3) == 0) {
            setup_room();
            char *p = line + 3;
            for (int i = 0; i < SETUP_INTS; i++) {
                setups[nsetups][i] = (int)strtol(p, &p, 10);
            }
            nsetups++;
            continue;
        }
        char name[16];
        struct op o = {0, 0, 0, 0};
        if (sscanf(line, "%15s %d %d %d", name, &o.a, &o.b, &o.c) != 4) {
            continue;
        }
        for (o.code = 0; o.code < OP_CODES && strcmp(name, op_names[o.code]) != 0; o.code++) {
        }
        if (o.code < OP_CODES) {
            tape_push(o);
        }
    }
    fclose(f);
    if (nsetups == 0u) {
        fprintf(stderr, "test_model: %s has no \"run\" line\n", path);
        exit(2);
    }
    return sig;
}

static uint32_t ring_value(const lm_queue_t *q, uint32_t k)
{
    uint32_t v;
    uint32_t first = (uint32_t)(q->read - q->buffer) / 4u;
    memcpy(&v, q->buffer + 4u * ((first + k) % q->capacity), 4);
    return v;
}

static _Noreturn void diverge(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void diverge(const char *fmt, ...)
{
    va_list ap;
    divergences++;
    if (reduce_child) {
        snprintf(trial_sig, 200, "%s", fmt); /* the kind, not the numbers */
        _exit(1);
    }
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
    for (int q = 0; q < MD_QUEUES; q++) {
        printf("  Q%d count %u|%u kernel:", q, (unsigned)queues[q].count,
               (unsigned)M.q_count[q]);
        for (uint32_t k = 0; k < queues[q].count; k++) {
            printf(" %u", (unsigned)ring_value(&queues[q], k));
        }
        printf(" model:");
        for (uint32_t k = 0; k < M.q_count[q]; k++) {
            printf(" %u", (unsigned)M.q_buf[q][k]);
        }
        printf(" waiters model:");
        for (int i = 0; i < M.n; i++) {
            if ((M.t[i].wait == MD_W_QSEND || M.t[i].wait == MD_W_QRECV) && M.t[i].wobj == q) {
                printf(" T%d%s", i, M.t[i].wait == MD_W_QSEND ? "s" : "r");
            }
        }
        printf("\n");
    }
    for (int f = 0; f < MD_FLAGS; f++) {
        printf("  F%d 0x%x|0x%x%s waiters model (arrival order by wseq):", f,
               (unsigned)flags[f].bits, (unsigned)M.f_bits[f], M.f_dead[f] ? " deleted" : "");
        for (int i = 0; i < M.n; i++) {
            if (M.t[i].wait == MD_W_FLAGS && M.t[i].wobj == f) {
                printf(" T%d(0x%x%s%s%s seq %lld)", i, (unsigned)M.t[i].fwant,
                       (M.t[i].fopt & MD_F_ALL) ? " all" : " any",
                       (M.t[i].fopt & MD_F_CONSUME) ? " consume" : "",
                       M.t[i].fpend ? " unchecked" : "", (long long)M.t[i].wseq);
            }
        }
        printf("\n");
    }
    printf("  pool free %u|%u%s, blocks held:", (unsigned)pool.free_count,
           (unsigned)M.pool_free, M.pool_dead ? " deleted" : "");
    for (unsigned b = 0; b < MD_POOL_BLOCKS; b++) {
        printf(" %d", blk_owner[b]);
    }
    printf("\n  timers:");
    for (int k = 0; k < MD_TIMERS; k++) {
        printf(" %d: active %d|%d deadline model %u period %u action %d;", k,
               (int)lm_timer_active(&timers[k]), (int)M.tm[k].active,
               (unsigned)M.tm[k].deadline, (unsigned)M.tm[k].period, M.tm[k].action);
    }
    printf(" callbacks %lu|%lu\n", knlog, M.nlog);
    printf("  model time %u, armed:", (unsigned)M.time);
    for (int i = 0; i < M.n; i++) {
        if (M.t[i].armed) {
            printf(" T%d@%u", i, (unsigned)M.t[i].deadline);
        }
    }
    for (int k = 0; k < MD_TIMERS; k++) {
        if (M.tm[k].armed) {
            printf(" timer%d@%u", k, (unsigned)M.tm[k].deadline);
        }
    }
    printf("\n");
    printf("model: %lu steps, %lu divergences\n", steps, divergences);
    if (!replaying) {
        const char *r = getenv("MODEL_REDUCE");
        if (getenv("MODEL_TAPE") != NULL) {
            tape_file = getenv("MODEL_TAPE");
        }
        if (write_tape(tape_file, fmt, tape, ntape)) {
            printf("tape (%lu entries) written to %s; replay: test_model --replay %s\n",
                   (unsigned long)ntape, tape_file, tape_file);
            if (r == NULL || strcmp(r, "0") != 0) {
                printf("reducing (MODEL_REDUCE=0 skips this)...\n");
                fflush(stdout);
                execl("/proc/self/exe", "test_model", "--reduce", tape_file, (char *)NULL);
                printf("exec failed: no reduction\n");
            }
        }
    }
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
    case MD_INACTIVE: return LM_THREAD_INACTIVE;
    case MD_TERMINATED: return LM_THREAD_TERMINATED;
    case MD_READY: return LM_THREAD_READY;
    case MD_BLOCKED: return LM_THREAD_BLOCKED;
    case MD_SLEEPING: return LM_THREAD_SLEEPING;
    default: return LM_THREAD_SUSPENDED;
    }
}

/* A deleted object (not re-created yet) answers LM_ERR_OBJECT (R9.1). */
static void compare_status(const char *where, const char *what, int i, lm_status_t st,
                           bool dead)
{
    if (st != (dead ? LM_ERR_OBJECT : LM_OK)) {
        diverge("%s: reading %s%d returned %s, model says %s", where, what, i,
                lm_status_name(st), dead ? "deleted" : "live");
    }
}

static void compare_threads(const char *where)
{
    if (lm_sched_lock_depth() != M.lock_depth) {
        diverge("%s: scheduler lock depth %u, model %u", where, lm_sched_lock_depth(),
                M.lock_depth);
    }
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
}

static void compare_sems_mutexes(const char *where)
{
    for (int s = 0; s < MD_SEMS; s++) {
        uint32_t c = 0;
        compare_status(where, "S", s, lm_sem_count(&sems[s], &c), M.sem_dead[s]);
        if (!M.sem_dead[s] && c != M.sem_count[s]) {
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

static void compare_queues(const char *where)
{
    for (int q = 0; q < MD_QUEUES; q++) {
        uint32_t c = 0;
        compare_status(where, "Q", q, lm_queue_count(&queues[q], &c), M.q_dead[q]);
        if (M.q_dead[q]) {
            continue;
        }
        if (c != M.q_count[q]) {
            diverge("%s: Q%d count %u, model %u", where, q, (unsigned)c,
                    (unsigned)M.q_count[q]);
        }
        /* The queued values in order (test-only read of the ring). */
        for (uint32_t k = 0; k < c; k++) {
            uint32_t v = ring_value(&queues[q], k);
            if (v != M.q_buf[q][k]) {
                diverge("%s: Q%d message %u is %u, model %u", where, q, (unsigned)k,
                        (unsigned)v, (unsigned)M.q_buf[q][k]);
            }
        }
    }
}

static void compare_flags_pool(const char *where)
{
    for (int f = 0; f < MD_FLAGS; f++) {
        uint32_t b = 0;
        compare_status(where, "F", f, lm_flags_get(&flags[f], &b), M.f_dead[f]);
        if (!M.f_dead[f] && b != M.f_bits[f]) {
            diverge("%s: F%d flags 0x%x, model 0x%x", where, f, (unsigned)b,
                    (unsigned)M.f_bits[f]);
        }
    }
    uint32_t n = 0;
    compare_status(where, "P", 0, lm_pool_available(&pool, &n), M.pool_dead);
    if (!M.pool_dead && n != M.pool_free) {
        diverge("%s: pool has %u free blocks, model %u", where, (unsigned)n,
                (unsigned)M.pool_free);
    }
}

static void compare_timers(const char *where)
{
    for (int k = 0; k < MD_TIMERS; k++) {
        if (lm_timer_active(&timers[k]) != M.tm[k].active) {
            diverge("%s: timer %d active %d, model %d", where, k,
                    (int)lm_timer_active(&timers[k]), (int)M.tm[k].active);
        }
    }
    /* Each callback checks that it is the model's next expiry; a missing or
     * extra one shows here, and the logs must agree entry by entry. */
    if (knlog != M.nlog) {
        diverge("%s: %lu timer callbacks ran, model %lu", where, knlog, M.nlog);
    }
    for (; klog_checked < knlog; klog_checked++) {
        const struct md_log_entry *k = &klog[klog_checked % MD_LOG];
        const struct md_log_entry *e = &M.log[klog_checked % MD_LOG];
        if (k->timer != e->timer || k->tick != e->tick) {
            diverge("%s: timer callback %lu was timer %d at tick %u, model timer %d at %u",
                    where, klog_checked, k->timer, (unsigned)k->tick, e->timer,
                    (unsigned)e->tick);
        }
    }
}

/* Every observable the model predicts, except the running thread. */
static void compare_objects(const char *where)
{
    compare_threads(where);
    compare_sems_mutexes(where);
    compare_queues(where);
    compare_flags_pool(where);
    compare_timers(where);
}

/* ---- simulated interrupts ---- */

/* Handler kinds (tape: irq kind arg delay). */
enum irq_kind {
    IRQ_GIVE, IRQ_RESUME, IRQ_QSEND, IRQ_QRECV, IRQ_FLAGS, IRQ_POOL, IRQ_ABORT, IRQ_SUSPEND,
    IRQ_END, IRQ_KINDS
};
struct irq_op {
    int kind; /* enum irq_kind */
    int arg;
    bool used;
};
#define IRQ_SLOTS 8
static struct irq_op irq_ops[IRQ_SLOTS];

/*
 * Bring the model to where the kernel is when a handler runs. Virtual time
 * may have moved (work or idle), and the kernel processes due timeouts in
 * masked steps (R9.4: one, or a run of sleeps), so a handler can run between
 * two of them: the handler takes the processed ones as a prefix of the R8.5
 * order, which is itself checked (a later one processed before an earlier
 * one diverges).
 */
/* Thread f is in a multi-step call in the model (flush R9.2, flags set
 * R9.3, delete R9.1) and the kernel has already woken the thread its next
 * step would wake. */
static bool stepped(int f)
{
    if (f == MD_NONE || !md_stepping(&M, f)) {
        return false;
    }
    int w = md_step_candidate(&M, f);
    return w != MD_NONE && lm_thread_state(th[w]) != LM_THREAD_BLOCKED;
}

/* Is the kernel's object (kind, idx) live, i.e. created again? Its magic
 * word (checks on) is the only sign between a delete's end and the
 * driver's create: both change nothing else a handler could see. */
static bool kernel_object_live(int kind, int idx)
{
    switch (kind) {
    case MD_O_SEM: return sems[idx].magic == LM_MAGIC_SEM;
    case MD_O_MUTEX: return mtx[idx].magic == LM_MAGIC_MUTEX;
    case MD_O_QUEUE: return queues[idx].magic == LM_MAGIC_QUEUE;
    case MD_O_FLAGS: return flags[idx].magic == LM_MAGIC_FLAGS;
    default: return pool.magic == LM_MAGIC_POOL;
    }
}

/* R9: a multi-step call whose steps have woken everyone it will wake ends
 * with a step that wakes nobody; it shows only as the scheduler lock the
 * call held being gone. A delete is then followed by the driver's create,
 * which shows only in the magic word. */
static void sync_walk_ends(void)
{
    int f = M.cur;
    if (f != MD_NONE && md_stepping(&M, f) && !M.t[f].del_walked &&
        md_step_candidate(&M, f) == MD_NONE && lm_sched_lock_depth() + 1u == M.lock_depth) {
        while (md_stepping(&M, f) && !M.t[f].del_walked) {
            (void)md_step(&M, f);
        }
    }
    for (int d = 0; d < M.n; d++) {
        if (M.t[d].deleting && M.t[d].del_walked &&
            kernel_object_live(M.t[d].del_kind, M.t[d].del_idx)) {
            (void)md_step(&M, d);
        }
    }
}

static void sync_steps(void)
{
    /* R9.1-R9.3: a flush, a flags set and a delete wake threads one per
     * masked step, and a handler can run between two steps. The steps the
     * kernel has made show as the threads they wake no longer blocked (a
     * flags check that wakes nobody changes nothing visible, and the model
     * makes those with the next wake). Between two steps the stepping
     * thread went through an unmask: any switch the first step made
     * necessary happened there, so the model decides before the next. */
    for (bool any = false;;) {
        int f = M.cur;
        if (!stepped(f)) {
            /* Another thread's call went on: the kernel made a decision the
             * model has not made yet to run it (after a switch away from
             * it, e.g. to a thread it woke). */
            bool other = false;
            for (int i = 0; i < M.n; i++) {
                other = other || (i != f && stepped(i));
            }
            if (!other) {
                break;
            }
            md_resched(&M);
            if (!stepped(M.cur)) {
                diverge("irq: a multi-step call woke a thread, model runs T%d", M.cur);
            }
        } else if (any) {
            md_resched(&M);
            if (M.cur != f) {
                diverge("irq: T%d's multi-step call woke another thread, model switched to T%d",
                        f, M.cur);
            }
        }
        (void)md_step(&M, M.cur);
        any = true;
    }
    sync_walk_ends();
}

/* R9: the model's running thread is still in a walk, yet the kernel's
 * clock has moved on: the walk has ended (no tick can pass while a thread
 * walks, as it does not work) and another thread has run and worked since.
 * Catch the walk's steps up and make the decision its end made. True if
 * that moved the model on. */
static bool walk_ended_since(void)
{
    int before = M.cur;
    sync_steps();
    if (md_stepping(&M, before) && !M.t[before].del_walked) {
        return false;
    }
    md_resched(&M);
    return M.cur != before;
}

static void irq_sync(void)
{
    /* R5.6: the switch handler releases an ended thread's other mutexes one
     * per masked step; the steps the kernel has made show as the mutex with
     * another owner than the ended thread (or none). */
    while (M.nrelq > 0) {
        int x = md_next_release(&M, M.relq[0]);
        if (x != MD_NONE && lm_mutex_owner(&mtx[x]) == th[M.relq[0]]) {
            break;
        }
        md_release_step(&M);
    }
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
        } else if (md_stepping(&M, M.cur) && walk_ended_since()) {
            continue; /* the walk ended, and a thread that works ran on */
        } else {
            diverge("irq: kernel at tick %u, model at %u with T%d not working",
                    (unsigned)now, (unsigned)M.time, M.cur);
        }
    }
    for (int t = md_first_due(&M); t != MD_NONE; t = md_first_due(&M)) {
        if (t >= MD_THREADS) {
            break; /* a timer: its callback brings the model forward itself */
        }
        lm_thread_state_t ks = lm_thread_state(th[t]);
        if (ks == LM_THREAD_BLOCKED || ks == LM_THREAD_SLEEPING) {
            break; /* not processed yet */
        }
        md_timeout(&M, t);
    }
    sync_steps();
    for (int t = 0; t < M.n; t++) {
        lm_thread_state_t ks = lm_thread_state(th[t]);
        if (md_waiting(&M, t) != (ks == LM_THREAD_BLOCKED || ks == LM_THREAD_SLEEPING)) {
            diverge("irq: T%d waiting in one and not the other (kernel state %d)", t,
                    (int)ks);
        }
    }
    /* Has the switch handler switched (R12.2) since the model last decided? A
     * decision that picks another thread shows in lm_thread_self(). One that
     * keeps the same thread shows nowhere in the API, and it matters only
     * when that thread had given up the CPU (blocked or yielded, then made
     * ready again before the switch): then the decision ends the give-up
     * (R3.3, R3.5), and a wake applied after it must not treat the thread as
     * having left the CPU. The kernel clears its `yielded` flag in that
     * decision and nowhere else, so the driver reads that (private) field:
     * a handler that runs between the switch handler's timeout steps sees it
     * still set, one at the switch's own unmask sees it clear. A count of
     * switch-handler runs kept by the port cannot tell these two apart:
     * both run inside the same pass of the switch handler. */
    int self = index_of(lm_thread_self());
    if (self != M.cur) {
        md_resched(&M); /* the kernel has switched since the last call */
    } else if (self != MD_NONE && M.t[self].yielded && th[self]->yielded == 0u) {
        md_resched(&M); /* decided, and kept the same thread */
    }
}

static int block_index(const void *blk)
{
    return (int)(((const uint8_t *)blk - pbuf) / (ptrdiff_t)LM_POOL_BLOCK_SIZE(8));
}

/* arg: flags index in bit 0; bit 1 set: a LM_NO_WAIT wait, else a set;
 * bits 2-4 the bits; bits 5-6 the wait's options (R12.1). */
static int irq_flags(int arg, int *got)
{
    int f = arg & 1;
    uint32_t bits = (uint32_t)(arg >> 2) & 7u;
    unsigned opt = (unsigned)(arg >> 5) & 3u;
    if ((arg & 2) == 0) {
        note("irq set F%d 0x%x", f, (unsigned)bits);
        *got = lm_flags_set(&flags[f], bits);
        return md_flags_set_isr(&M, f, bits);
    }
    uint32_t mv = 0, kv = 0;
    note("irq wait F%d 0x%x opt %u", f, (unsigned)bits, opt);
    int want = md_flags_wait_nowait(&M, f, bits, opt, &mv);
    *got = lm_flags_wait(&flags[f], bits, opt, &kv, LM_NO_WAIT);
    if (want == MD_OK && *got == LM_OK && mv != kv) {
        diverge("irq wait on F%d reported 0x%x, model 0x%x", f, (unsigned)kv, (unsigned)mv);
    }
    return want;
}

/* Frees a block the handlers hold, else allocates one (LM_NO_WAIT). */
static int irq_pool(int *got)
{
    for (unsigned b = 0; b < MD_POOL_BLOCKS; b++) {
        if (blk_owner[b] == BLK_IRQ) {
            note("irq free block %u", b);
            blk_owner[b] = MD_NONE;
            int want = md_pool_free(&M, b);
            *got = lm_pool_free(&pool, pbuf + b * LM_POOL_BLOCK_SIZE(8));
            return want;
        }
    }
    void *blk = NULL;
    note("irq alloc");
    int want = md_pool_alloc_nowait(&M);
    *got = lm_pool_alloc(&pool, &blk, LM_NO_WAIT);
    if (*got == LM_OK) {
        int b = block_index(blk);
        if (blk_owner[b] != MD_NONE) {
            diverge("irq got block %d, held by T%d", b, blk_owner[b]);
        }
        blk_owner[b] = BLK_IRQ;
    }
    return want;
}

static int irq_queue(const struct irq_op *op, int *got)
{
    if (op->kind == IRQ_QSEND) {
        /* R12.1: the non-blocking form only. */
        int q = op->arg % MD_QUEUES;
        uint32_t v = (uint32_t)(op->arg / MD_QUEUES);
        note("irq send Q%d %u", q, (unsigned)v);
        *got = lm_queue_send(&queues[q], &v, sizeof v, LM_NO_WAIT);
        return md_queue_send_nowait(&M, q, v, false);
    }
    uint32_t mv = 0, kv = 0;
    note("irq receive Q%d", op->arg);
    int want = md_queue_receive_nowait(&M, op->arg, &mv);
    *got = lm_queue_receive(&queues[op->arg], &kv, sizeof kv, LM_NO_WAIT);
    if (want == MD_OK && *got == LM_OK && mv != kv) {
        diverge("irq received %u from Q%d, model %u", (unsigned)kv, op->arg, (unsigned)mv);
    }
    return want;
}

static void irq_handler(void *arg)
{
    struct irq_op *op = arg;
    op->used = false;
    gen++;
    irq_sync();
    int want, got;
    switch (op->kind) {
    case IRQ_GIVE:
        note("irq give S%d", op->arg);
        want = md_sem_give(&M, op->arg);
        got = lm_sem_give(&sems[op->arg]);
        break;
    case IRQ_QSEND:
    case IRQ_QRECV:
        want = irq_queue(op, &got);
        break;
    case IRQ_FLAGS:
        want = irq_flags(op->arg, &got);
        break;
    case IRQ_POOL:
        want = irq_pool(&got);
        break;
    case IRQ_SUSPEND: /* R12.1, R7.1 (i), R6.5 */
        note("irq suspend T%d", op->arg);
        want = md_suspend(&M, op->arg);
        got = lm_thread_suspend(th[op->arg]);
        break;
    case IRQ_END: { /* R12.1, R7.1 (i), R6.5; arg: thread | delete << 3 */
        int t = op->arg & 7;
        bool del = (op->arg >> 3) != 0;
        note("irq %s T%d", del ? "delete" : "terminate", t);
        want = md_end_isr(&M, t, del);
        got = del ? lm_thread_delete(th[t]) : lm_thread_terminate(th[t]);
        break;
    }
    case IRQ_ABORT: /* R12.1, R11.6 */
        note("irq wait_abort T%d", op->arg);
        want = md_wait_abort(&M, op->arg);
        got = lm_thread_wait_abort(th[op->arg]);
        break;
    default:
        note("irq resume T%d", op->arg);
        want = md_resume(&M, op->arg);
        got = lm_thread_resume(th[op->arg]);
        break;
    }
    if (want != got) {
        diverge("irq returned %s, model %s", lm_status_name((lm_status_t)got),
                lm_status_name((lm_status_t)want));
    }
}

/* A timer's callback (R9.5): runs in the switch handler's deferred context,
 * between its timeout steps; the model's next expiry must be this timer. */
static int tm_action[MD_TIMERS];

static void timer_callback(void *arg)
{
    int k = (int)(intptr_t)arg;
    gen++;
    irq_sync();
    int id = md_first_due(&M);
    if (id != MD_TIMER_ID(k)) {
        diverge("timer %d fired at tick %u, model's next expiry is %s%d", k,
                (unsigned)lm_tick_now(), id >= MD_THREADS ? "timer " : "T",
                id >= MD_THREADS ? id - MD_THREADS : id);
    }
    note("timer %d fires (tick %u)", k, (unsigned)lm_tick_now());
    md_timeout(&M, id);
    klog[knlog % MD_LOG] = (struct md_log_entry){k, lm_tick_now()};
    knlog++;
    int a = tm_action[k];
    lm_status_t got = LM_OK;
    if (a >= 0 && a < MD_SEMS) {
        got = lm_sem_give(&sems[a]);
    } else if (a >= MD_SEMS) {
        got = lm_thread_resume(th[a - MD_SEMS]);
    }
    if ((int)got != M.tm_status) {
        diverge("timer %d's action %d returned %s, model %s", k, a, lm_status_name(got),
                lm_status_name((lm_status_t)M.tm_status));
    }
    if (M.tm_stopped_self) {
        (void)lm_timer_stop(&timers[k]);
    }
}

static void raise_irq(int kind, int arg, int delay)
{
    for (int i = 0; i < IRQ_SLOTS; i++) {
        if (!irq_ops[i].used) {
            irq_ops[i].used = true;
            irq_ops[i].kind = kind;
            irq_ops[i].arg = arg;
            (void)lm_hosted_irq_at_unmask((uint64_t)delay, irq_handler, &irq_ops[i]);
            return;
        }
    }
}

/* Replay: raise the interrupts at the front of the tape. */
static void replay_irqs(void)
{
    while (tape_pos < ntape && tape[tape_pos].code == OP_IRQ) {
        const struct op *o = &tape[tape_pos++];
        raise_irq(o->a, o->b, o->c);
    }
}

static int irq_arg(int kind)
{
    switch (kind) {
    case IRQ_GIVE: return (int)rnd(MD_SEMS);
    case IRQ_RESUME:
    case IRQ_SUSPEND:
    case IRQ_ABORT: return (int)rnd((uint32_t)M.n);
    case IRQ_END: {
        int t = (int)rnd((uint32_t)M.n); /* (one draw per statement) */
        return t | (int)(rnd(3) == 0) << 3;
    }
    case IRQ_QSEND: return (int)rnd(MD_QUEUES) + MD_QUEUES * (int)next_val++;
    case IRQ_QRECV: return (int)rnd(MD_QUEUES);
    case IRQ_FLAGS: {
        /* One draw per statement: the order of draws within an expression
         * is unspecified, and a seed must mean the same run in every build. */
        int f = (int)rnd(4);
        int bits = (int)(1u + rnd(7));
        return f | bits << 2 | (int)rnd(4) << 5;
    }
    default: return 0;
    }
}

static void maybe_raise_irq(void)
{
    if (replaying) {
        replay_irqs();
        return;
    }
    if (rnd(8) != 0) {
        return;
    }
    for (int i = 0; i < IRQ_SLOTS; i++) {
        if (!irq_ops[i].used) {
            int kind = (int)rnd(IRQ_KINDS);
            if (kind == IRQ_END && rnd(4) != 0) {
                kind = IRQ_RESUME; /* threads end from handlers less often */
            }
            int arg = irq_arg(kind);
            int delay = 1 + (int)rnd(6);
            tape_push((struct op){OP_IRQ, kind, arg, delay});
            raise_irq(kind, arg, delay);
            return;
        }
    }
}

/* ---- the threads ---- */

static lm_tick_t pick_timeout(void)
{
    return rnd(3) == 0 ? LM_NO_WAIT : 1u + rnd(3);
}

/* Flags calls on F0/F1, bits 0-2 only, so that waits are often satisfied.
 * fwait: a = flags, b = timeout, c = requested bits | options << 8. */
static struct op gen_flags_op(void)
{
    int f = (int)rnd(MD_FLAGS);
    int bits = 1 + (int)rnd(7);
    switch (rnd(8)) {
    case 0:
    case 1:
        return (struct op){OP_FSET, f, bits, 0};
    case 2:
        return (struct op){OP_FCLEAR, f, bits, 0};
    case 7:
        return (struct op){OP_FGET, f, 0, 0};
    default: {
        int timeout = (int)pick_timeout(); /* (one draw per statement) */
        return (struct op){OP_FWAIT, f, timeout, bits | (int)rnd(4) << 8};
    }
    }
}

/* Pool calls; pfree names a block the caller holds (if it holds none the
 * call becomes pavail). */
static struct op gen_pool_op(int me)
{
    switch (rnd(4)) {
    case 0:
    case 1:
        return (struct op){OP_PALLOC, (int)pick_timeout(), 0, 0};
    case 2:
        for (unsigned b = 0; b < MD_POOL_BLOCKS; b++) {
            if (blk_owner[b] == me) {
                return (struct op){OP_PFREE, (int)b, 0, 0};
            }
        }
        return (struct op){OP_PAVAIL, 0, 0, 0};
    default:
        return (struct op){OP_PAVAIL, 0, 0, 0};
    }
}

/* tstart: a = timer, b = delay | period << 8, c = callback action (-1
 * nothing, 0..MD_SEMS-1 give S, then resume T(c - MD_SEMS)). */
static struct op gen_timer_op(void)
{
    int k = (int)rnd(MD_TIMERS);
    switch (rnd(4)) {
    case 0:
    case 1: {
        int delay = 1 + (int)rnd(3), period = (int)rnd(4);
        int action = (int)rnd((uint32_t)(MD_SEMS + M.n + 1)) - 1;
        return (struct op){OP_TSTART, k, delay | period << 8, action};
    }
    case 2:
        return (struct op){OP_TSTOP, k, 0, 0};
    default:
        return (struct op){OP_TACTIVE, k, 0, 0};
    }
}

/* A thread's priority and threshold packed for a re-create: prio | (thr+1) << 4. */
static int pick_prio_thr(void)
{
    int p = (int)rnd(4);
    int thr = rnd(3) == 0 ? (int)rnd((uint32_t)p + 1u) : -1;
    return p | (thr + 1) << 4;
}

/* A waiting thread, searching from t (else t): aborts that do something. */
static int pick_waiting(int t)
{
    for (int k = 0; k < M.n; k++) {
        int i = (t + k) % M.n;
        if (md_waiting(&M, i) && rnd(4) != 0) {
            return i;
        }
    }
    return t;
}

/* Thread life cycle (R11): end a thread (terminate, delete, or the caller's
 * entry returns), or start one that is not live (creating it first, with a
 * new priority and threshold, if it was deleted). thend: a = thread, b = how
 * (0 terminate, 1 delete, 2 return). thstart: a = thread, b = priority and
 * threshold for the create. */
static struct op gen_life_op(int me, int t)
{
    switch (rnd(8)) {
    case 0: return (struct op){OP_THEND, t, 0, 0};
    case 1: return (struct op){OP_THEND, t, 1, 0};
    case 2: return (struct op){OP_THEND, me, rnd(2) == 0 ? 2 : 0, 0};
    default:
        for (int k = 0; k < M.n; k++) {
            int i = (t + k) % M.n;
            if (!md_live(&M, i)) {
                t = i;
                break;
            }
        }
        return (struct op){OP_THSTART, t, pick_prio_thr(), 0};
    }
}

/* Choose one call (the PRNG draws in the order the seeds were made with). */
static struct op gen_op(int me)
{
    int s = (int)rnd(MD_SEMS), x = (int)rnd(MD_MUTEXES), t = (int)rnd((uint32_t)M.n);
    switch (rnd(25)) {
    case 0:
    case 1:
        return (struct op){OP_TAKE, s, (int)pick_timeout(), 0};
    case 2:
    case 3:
        return (struct op){OP_GIVE, s, 0, 0};
    case 4:
    case 5:
        return (struct op){OP_LOCK, x, (int)pick_timeout(), 0};
    case 6:
    case 7:
        /* Mostly a mutex it owns, so nesting unwinds. */
        for (int k = 0; k < MD_MUTEXES; k++) {
            if (M.mtx_owner[k] == me && rnd(4) != 0) {
                x = k;
            }
        }
        return (struct op){OP_UNLOCK, x, 0, 0};
    case 8:
        return (struct op){OP_PRIO, t, (int)rnd(4), 0};
    case 9:
        return (struct op){OP_THR, t, (int)rnd(5) - 1, 0};
    case 10:
        switch (rnd(3)) {
        case 0: return (struct op){OP_YIELD, 0, 0, 0};
        case 1: return (struct op){OP_SLEEP, 1 + (int)rnd(3), 0, 0};
        default: return (struct op){OP_WORK, 1 + (int)rnd(3), 0, 0};
        }
    case 11:
        return (struct op){OP_SUSPEND, t, 0, 0};
    case 13:
    case 14:
    case 15: {
        int q = (int)rnd(MD_QUEUES);
        switch (rnd(9)) {
        case 0:
        case 1:
            return (struct op){OP_QSEND, q, (int)pick_timeout(), (int)next_val++};
        case 2:
            return (struct op){OP_QFRONT, q, (int)pick_timeout(), (int)next_val++};
        case 3:
        case 4:
        case 5:
            return (struct op){OP_QRECV, q, (int)pick_timeout(), 0};
        case 6:
            return (struct op){OP_QPEEK, q, 0, 0};
        case 7:
            return (struct op){OP_QFLUSH, q, 0, 0};
        default:
            return (struct op){OP_QCOUNT, q, 0, 0};
        }
    }
    case 16:
    case 17:
        return gen_flags_op();
    case 18:
    case 19:
        return gen_pool_op(me);
    case 20:
        return gen_timer_op();
    case 21:
        /* Object kind and index; the pool is the only one of its kind. */
        {
            int kind = (int)rnd(5); /* (one draw per statement) */
            return (struct op){OP_DELETE, kind, (int)rnd(2), 0};
        }
    case 22:
        return gen_life_op(me, t);
    case 23:
        return (struct op){OP_ABORT, pick_waiting(t), 0, 0};
    case 24:
        return (struct op){rnd(3) == 0 ? OP_SUNLOCK : OP_SLOCK, 0, 0, 0};
    default:
        return (struct op){OP_RESUME, t, 0, 0};
    }
}

/* ---- directed choices ----
 *
 * Some kernel races need an interleaving that uniform choices reach too
 * rarely (README "Directed choices"): a multi-step call (flush R9.2, flags
 * set R9.3) preempted by a thread it woke, its object deleted meanwhile
 * (R9.1), the deleter stopped after its first wake, and the first call
 * resuming its steps on the deleted object. So:
 *   - while a flush or a set is under way on an object, the thread that
 *     runs is more likely to delete that object, or first to make the
 *     delete's first waiter more urgent than itself (R4.3) so that the
 *     delete's first wake preempts it;
 *   - while a delete and such a call are both under way on one object, the
 *     thread that runs (often the one the delete woke) is more likely to
 *     stop the deleter (suspend it, or make it the least urgent), and then
 *     to make the stepping thread the most urgent, so that it resumes;
 *   - waiters pile up on a flags object or a queue that has some, and one
 *     with three or more is more likely to be set or flushed.
 * These are choices like any other: the resolved call goes on the tape, so
 * replay and reduction are unaffected. */

/* The object t's flush or flags set works on (enum md_obj in *kind), or -1. */
static int stepping_object(int t, int *kind)
{
    const struct md_thread *d = &M.t[t];
    if (d->flushing != 0) {
        *kind = MD_O_QUEUE;
        return d->flushing - 1;
    }
    if (d->fscan != 0) {
        *kind = MD_O_FLAGS;
        return d->fscan - 1;
    }
    return -1;
}

/* A thread whose delete of (kind, idx) is under way, or MD_NONE. */
static int deleter_of(int kind, int idx)
{
    for (int d = 0; d < M.n; d++) {
        if (M.t[d].deleting && M.t[d].del_kind == kind && M.t[d].del_idx == idx) {
            return d;
        }
    }
    return MD_NONE;
}

/* The waiter a delete of (kind, idx) would wake first (R9.1): flags in
 * arrival order, a queue's most urgent (senders or receivers, R10.6). */
static int first_to_delete(int kind, int idx)
{
    int best = MD_NONE;
    for (int i = 0; i < M.n; i++) {
        const struct md_thread *t = &M.t[i];
        bool on = kind == MD_O_FLAGS ? t->wait == MD_W_FLAGS
                                     : t->wait == MD_W_QSEND || t->wait == MD_W_QRECV;
        if (!on || t->wobj != idx) {
            continue;
        }
        if (best == MD_NONE || (kind == MD_O_QUEUE && t->prio < M.t[best].prio) ||
            ((kind == MD_O_FLAGS || t->prio == M.t[best].prio) && t->wseq < M.t[best].wseq)) {
            best = i;
        }
    }
    return best;
}

static int delete_waiters(int kind, int idx)
{
    int n = 0;
    for (int i = 0; i < M.n; i++) {
        const struct md_thread *t = &M.t[i];
        n += t->wobj == idx && (kind == MD_O_FLAGS ? t->wait == MD_W_FLAGS
                                                   : t->wait == MD_W_QSEND || t->wait == MD_W_QRECV);
    }
    return n;
}

/* R3.1, R4.7: the effective threshold of thread t. */
static int own_limit(int t)
{
    return M.t[t].thr < M.t[t].prio ? M.t[t].thr : M.t[t].prio;
}

static int count_waiters(int wait, int idx)
{
    int n = 0;
    for (int i = 0; i < M.n; i++) {
        n += M.t[i].wait == wait && M.t[i].wobj == idx;
    }
    return n;
}

/* Waiters pile up (longer timeouts, 2..8 ticks); set or flush with 3+. */
static bool gen_pile(struct op *o)
{
    if (rnd(4) != 0) {
        return false;
    }
    if (rnd(2) == 0) {
        int f = (int)rnd(MD_FLAGS), n = count_waiters(MD_W_FLAGS, f);
        if (n == 0 || M.f_dead[f]) {
            return false;
        }
        int bits = 1 + (int)rnd(7);
        if (n >= 3 && rnd(2) == 0) {
            *o = (struct op){OP_FSET, f, bits, 0};
        } else {
            int timeout = 2 + (int)rnd(7);
            *o = (struct op){OP_FWAIT, f, timeout, bits | (int)rnd(4) << 8};
        }
        return true;
    }
    /* Mostly Q1: with room for three, a flush has steps left after its
     * first admission. */
    int q = rnd(3) == 0 ? 0 : 1, n = count_waiters(MD_W_QSEND, q);
    if (M.q_dead[q] || (n == 0 && M.q_count[q] < M.q_cap[q])) {
        return false;
    }
    if (n >= 3 && rnd(2) == 0) {
        *o = (struct op){OP_QFLUSH, q, 0, 0};
    } else {
        int code = rnd(3) == 0 ? OP_QFRONT : OP_QSEND;
        *o = (struct op){code, q, 2 + (int)rnd(7), (int)next_val++};
    }
    return true;
}

/* Delete the object of s's multi-step call, or first make the delete's
 * first waiter more urgent than me. */
static struct op gen_delete_under_way(int me, int kind, int idx)
{
    int c = first_to_delete(kind, idx), lim = own_limit(me);
    if (c != MD_NONE && M.t[c].prio >= lim && lim > 0 && rnd(2) == 0) {
        return (struct op){OP_PRIO, c, (int)rnd((uint32_t)lim), 0};
    }
    return (struct op){OP_DELETE, kind, idx, 0};
}

/* A deleted object nobody is deleting and nobody waits on: its deleter
 * ended (R11.3) before re-creating it, and it may be created again. */
static bool orphan(int kind, int idx)
{
    static const int waits[] = {MD_W_SEM, MD_W_MUTEX, MD_W_QSEND, MD_W_FLAGS, MD_W_POOL};
    return md_dead(&M, kind, idx) && deleter_of(kind, idx) == MD_NONE &&
           count_waiters(waits[kind], idx) == 0 &&
           (kind != MD_O_QUEUE || count_waiters(MD_W_QRECV, idx) == 0);
}

/* Returns true with the kind and index of an orphan object, if any. */
static bool orphan_object(int *kind, int *idx)
{
    for (int k = MD_O_SEM; k <= MD_O_POOL; k++) {
        for (int i = 0; i < (k == MD_O_POOL ? 1 : 2); i++) {
            if (orphan(k, i)) {
                *kind = k;
                *idx = i;
                return true;
            }
        }
    }
    return false;
}

static bool gen_directed(int me, struct op *o)
{
    int ok = 0, oi = 0;
    if (M.lock_depth != 0u && rnd(6) == 0) {
        *o = (struct op){OP_SUNLOCK, 0, 0, 0}; /* locked stretches stay short */
        return true;
    }
    if (orphan_object(&ok, &oi) && rnd(2) == 0) {
        *o = (struct op){OP_CREATE, ok, oi, 0};
        return true;
    }
    for (int s = 0; s < M.n; s++) {
        int kind = 0, idx = stepping_object(s, &kind);
        if (idx < 0) {
            continue; /* (me itself is never stepping at its next call) */
        }
        int d = deleter_of(kind, idx);
        if (d == MD_NONE) {
            /* Two waiters or more: one for the first wake to preempt the
             * deleter with, one left for the resumed call to meet. */
            if (!md_dead(&M, kind, idx) && delete_waiters(kind, idx) >= 2 && rnd(2) == 0) {
                *o = gen_delete_under_way(me, kind, idx);
                return true;
            }
            continue;
        }
        if (rnd(2) != 0) {
            continue;
        }
        if (M.t[d].state != MD_SUSPENDED && !M.t[d].susp_req) {
            *o = rnd(3) == 0 ? (struct op){OP_PRIO, d, 3, 0} : (struct op){OP_SUSPEND, d, 0, 0};
            return true;
        }
        if (M.t[s].base != 0) {
            *o = (struct op){OP_PRIO, s, 0, 0}; /* it preempts at once (R4.2) */
            return true;
        }
    }
    return gen_pile(o);
}

static lm_status_t exec_flags_op(int me, struct op o)
{
    int f = o.a;
    uint32_t bits = (uint32_t)o.b;
    switch (o.code) {
    case OP_FSET:
        note("T%d set F%d 0x%x", me, f, (unsigned)bits);
        md_flags_set(&M, f, bits);
        return lm_flags_set(&flags[f], bits);
    case OP_FCLEAR:
        note("T%d clear F%d 0x%x", me, f, (unsigned)bits);
        M.t[me].ret = md_flags_clear(&M, f, bits);
        return lm_flags_clear(&flags[f], bits);
    case OP_FGET: {
        note("T%d get F%d", me, f);
        check_rx[me] = CHK_FLAGS;
        fact[me] = 0;
        M.t[me].ret = md_flags_get(&M, f, &M.t[me].msg);
        return lm_flags_get(&flags[f], &fact[me]);
    }
    default: {
        uint32_t want = (uint32_t)o.c & 0xFFu;
        unsigned opt = (unsigned)o.c >> 8;
        note("T%d wait F%d 0x%x %s%s timeout %u", me, f, (unsigned)want,
             (opt & MD_F_ALL) ? "all" : "any", (opt & MD_F_CONSUME) ? " consume" : "",
             (unsigned)o.b);
        check_rx[me] = CHK_FLAGS;
        fact[me] = 0;
        md_flags_wait(&M, f, want, opt, (uint32_t)o.b);
        return lm_flags_wait(&flags[f], want, opt, &fact[me], (lm_tick_t)o.b);
    }
    }
}

static lm_status_t exec_pool_op(int me, struct op o)
{
    if (o.code == OP_PFREE && (unsigned)o.a < MD_POOL_BLOCKS && blk_owner[o.a] == me) {
        note("T%d free block %d", me, o.a);
        blk_owner[o.a] = MD_NONE; /* a waiter handed it claims it when it returns */
        M.t[me].ret = md_pool_free(&M, (uint32_t)o.a);
        return lm_pool_free(&pool, pbuf + (size_t)o.a * LM_POOL_BLOCK_SIZE(8));
    }
    if (o.code == OP_PALLOC) {
        note("T%d alloc timeout %u", me, (unsigned)o.a);
        check_rx[me] = CHK_BLOCK;
        rxblk[me] = NULL;
        alloc_gen[me] = pool_gen;
        md_pool_alloc(&M, (uint32_t)o.a);
        return lm_pool_alloc(&pool, &rxblk[me], (lm_tick_t)o.a);
    }
    note("T%d available", me);
    uint32_t n = 0, mn = 0;
    M.t[me].ret = md_pool_available(&M, &mn);
    lm_status_t st = lm_pool_available(&pool, &n);
    if (st == LM_OK && M.t[me].ret == MD_OK && n != mn) {
        diverge("T%d: pool available %u, model %u", me, (unsigned)n, (unsigned)mn);
    }
    return st;
}

static lm_status_t exec_timer_op(int me, struct op o)
{
    int k = o.a;
    switch (o.code) {
    case OP_TSTART: {
        uint32_t delay = (uint32_t)o.b & 0xFFu, period = (uint32_t)o.b >> 8;
        note("T%d start timer %d delay %u period %u action %d", me, k, (unsigned)delay,
             (unsigned)period, o.c);
        tm_action[k] = o.c;
        M.t[me].ret = md_timer_start(&M, k, delay, period, o.c);
        return lm_timer_start(&timers[k], delay, period);
    }
    case OP_TSTOP:
        note("T%d stop timer %d", me, k);
        M.t[me].ret = md_timer_stop(&M, k);
        return lm_timer_stop(&timers[k]);
    default:
        note("T%d active timer %d", me, k);
        M.t[me].ret = MD_OK;
        if (lm_timer_active(&timers[k]) != md_timer_active(&M, k)) {
            diverge("T%d: timer %d active %d, model %d", me, k,
                    (int)lm_timer_active(&timers[k]), (int)md_timer_active(&M, k));
        }
        return LM_OK;
    }
}

/* The object as one_run() creates it, in the same control block. */
static lm_status_t create_object(int kind, int idx)
{
    switch (kind) {
    case MD_O_SEM: return lm_sem_create(&sems[idx], 0, MD_SEM_MAX);
    case MD_O_MUTEX: return lm_mutex_create(&mtx[idx], LM_MUTEX_INHERIT);
    case MD_O_QUEUE: return lm_queue_create(&queues[idx], qbufs[idx], 4u, qcap[idx]);
    case MD_O_FLAGS: return lm_flags_create(&flags[idx], 0);
    default: break;
    }
    /* Every block is free again: blocks taken before are forgotten. */
    pool_gen++;
    for (unsigned b = 0; b < MD_POOL_BLOCKS; b++) {
        blk_owner[b] = MD_NONE;
    }
    return lm_pool_create(&pool, pbuf, sizeof pbuf, 8, MD_POOL_BLOCKS);
}

static lm_status_t delete_object(int kind, int idx)
{
    switch (kind) {
    case MD_O_SEM: return lm_sem_delete(&sems[idx]);
    case MD_O_MUTEX: return lm_mutex_delete(&mtx[idx]);
    case MD_O_QUEUE: return lm_queue_delete(&queues[idx]);
    case MD_O_FLAGS: return lm_flags_delete(&flags[idx]);
    default: return lm_pool_delete(&pool);
    }
}

/* Counts the deletes made while a flush or a flags set is still working on
 * the object (R9.1: its remaining steps wake nobody), so a run shows the
 * case was reached. */
static unsigned long n_delete_during_steps;

static void count_delete_meeting_steps(int kind, int idx)
{
    for (int i = 0; i < M.n; i++) {
        if ((kind == MD_O_QUEUE && M.t[i].flushing == idx + 1) ||
            (kind == MD_O_FLAGS && M.t[i].fscan == idx + 1)) {
            n_delete_during_steps++;
            return;
        }
    }
}

/* Delete, then re-create at once in the same control block (R9.1). */
static lm_status_t exec_delete_op(int me, struct op o)
{
    int kind = o.a, idx = kind == MD_O_POOL ? 0 : o.b;
    if (o.code == OP_CREATE) {
        /* An object whose deleter ended before re-creating it, once no
         * waiter is left on it (they time out): create it again. A replay
         * with entries removed may come here otherwise: then nothing (a
         * create over waiters would only break the object). */
        if (!orphan(kind, idx)) {
            note("T%d create %s%d: not an orphan, skipped", me, obj_names[kind], idx);
            M.t[me].ret = MD_OK;
            return LM_OK;
        }
        note("T%d create %s%d", me, obj_names[kind], idx);
        M.t[me].ret = md_create(&M, kind, idx);
        return create_object(kind, idx);
    }
    count_delete_meeting_steps(kind, idx);
    note("T%d delete %s%d and re-create", me, obj_names[kind], idx);
    md_delete(&M, kind, idx);
    lm_status_t st = delete_object(kind, idx);
    if (st == LM_OK) {
        lm_status_t c = create_object(kind, idx);
        if (c != LM_OK) {
            diverge("T%d: re-creating %s%d returned %s", me, obj_names[kind], idx,
                    lm_status_name(c));
        }
    }
    return st;
}

/* ---- thread life cycle (R11, R5.6) ---- */

static void runner(void *arg);

static const char *const names[MD_THREADS] = {"T0", "T1", "T2", "T3", "T4", "T5", "T6", "T7"};
static int slices[MD_THREADS]; /* each thread's time-slice in this run */
/* Set by a thread's "return" op: runner() returns (R11.5) after do_op. */
static bool returning;

/* lm_thread_create on the same control block and stack, as one_run made it
 * but with priority and threshold packed as pick_prio_thr() does. */
static lm_status_t create_thread(int t, int pt)
{
    int prio = pt & 15, thr = (pt >> 4) - 1;
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = names[t];
    a.entry = runner;
    a.arg = (void *)(intptr_t)t;
    a.stack = th[t]->stack;
    a.stack_size = th[t]->stack_size;
    a.priority = (uint16_t)prio;
    a.threshold = (uint16_t)(thr < 0 ? LM_THRESHOLD_NONE : (unsigned)thr);
    a.time_slice = (lm_tick_t)slices[t];
    return lm_thread_create(th[t], &a);
}

static lm_status_t exec_life_op(int me, struct op o)
{
    int t = o.a;
    if (o.code == OP_ABORT) {
        note("T%d wait_abort T%d", me, t);
        M.t[me].ret = md_wait_abort(&M, t);
        return lm_thread_wait_abort(th[t]);
    }
    if (o.code == OP_THSTART) {
        if (M.t[t].dead) {
            /* Create only: the next thstart starts it. (A handler at the
             * create's unmask may switch away from the caller, and the
             * model applies a call when it is made, so one op is one call.) */
            note("T%d create T%d", me, t);
            M.t[me].ret = md_thread_create(&M, t, o.b & 15, (o.b >> 4) - 1);
            return create_thread(t, o.b);
        }
        note("T%d start T%d", me, t);
        if (!md_live(&M, t)) {
            check_rx[t] = CHK_NONE; /* runner() starts afresh */
        }
        M.t[me].ret = md_thread_start(&M, me, t);
        return lm_thread_start(th[t]);
    }
    if (o.b == 2 && t == me) {
        note("T%d returns from its entry", me);
        md_end_thread(&M, me); /* R11.5: as lm_thread_terminate would */
        returning = true;
        return LM_OK;
    }
    if (o.b == 1) {
        /* Created again by a later thstart: the delete may hand a mutex to
         * a thread that preempts the caller before its next call. */
        note("T%d delete T%d", me, t);
        M.t[me].ret = md_thread_delete(&M, t);
        return lm_thread_delete(th[t]); /* does not return for t == me */
    }
    note("T%d terminate T%d", me, t);
    M.t[me].ret = md_terminate(&M, t);
    return lm_thread_terminate(th[t]); /* does not return for t == me */
}

/* After a call returns: the pool block an allocation got must be free (not
 * held by anyone), and a block handed over by a free the one the model
 * names (R10.4). */
static void claim_block(int me, lm_status_t st)
{
    if (check_rx[me] != CHK_BLOCK || st != LM_OK || alloc_gen[me] != pool_gen) {
        return; /* a block of the pool before its re-creation is free now */
    }
    int b = block_index(rxblk[me]);
    if (b < 0 || b >= (int)MD_POOL_BLOCKS) {
        diverge("T%d: alloc returned %p, not a block of the pool", me, rxblk[me]);
    }
    if (M.t[me].msg != MD_BLOCK_ANY && (uint32_t)b != M.t[me].msg) {
        diverge("T%d was handed block %d, model %u", me, b, (unsigned)M.t[me].msg);
    }
    if (blk_owner[b] != MD_NONE) {
        diverge("T%d got block %d, held by %d", me, b, blk_owner[b]);
    }
    blk_owner[b] = me;
}

/* Apply one call to the model, then make it on the kernel. */
static lm_status_t exec_op(int me, struct op o)
{
    int a = o.a, b = o.b;
    check_rx[me] = CHK_NONE;
    switch (o.code) {
    case OP_FSET:
    case OP_FCLEAR:
    case OP_FWAIT:
    case OP_FGET:
        return exec_flags_op(me, o);
    case OP_PALLOC:
    case OP_PFREE:
    case OP_PAVAIL:
        return exec_pool_op(me, o);
    case OP_TSTART:
    case OP_TSTOP:
    case OP_TACTIVE:
        return exec_timer_op(me, o);
    case OP_DELETE:
    case OP_CREATE:
        return exec_delete_op(me, o);
    case OP_THEND:
    case OP_THSTART:
    case OP_ABORT:
        return exec_life_op(me, o);
    case OP_SLOCK:
        note("T%d sched_lock", me);
        M.t[me].ret = md_sched_lock(&M);
        return lm_sched_lock();
    case OP_SUNLOCK:
        note("T%d sched_unlock", me);
        M.t[me].ret = md_sched_unlock(&M);
        return lm_sched_unlock();
    case OP_QSEND:
    case OP_QFRONT: {
        bool front = o.code == OP_QFRONT;
        txbuf[me] = (uint32_t)o.c;
        note("T%d send%s Q%d %u timeout %u", me, front ? "_front" : "", a,
             (unsigned)txbuf[me], (unsigned)b);
        md_queue_send(&M, a, txbuf[me], front, (uint32_t)b);
        return (front ? lm_queue_send_front : lm_queue_send)(&queues[a], &txbuf[me], 4u,
                                                            (lm_tick_t)b);
    }
    case OP_QRECV:
        note("T%d receive Q%d timeout %u", me, a, (unsigned)b);
        check_rx[me] = CHK_MSG;
        rxbuf[me] = 0;
        md_queue_receive(&M, a, (uint32_t)b);
        return lm_queue_receive(&queues[a], &rxbuf[me], 4u, (lm_tick_t)b);
    case OP_QPEEK: {
        note("T%d peek Q%d", me, a);
        check_rx[me] = CHK_MSG;
        rxbuf[me] = 0;
        uint32_t v = 0;
        M.t[me].ret = md_queue_peek(&M, a, &v);
        M.t[me].msg = v;
        return lm_queue_peek(&queues[a], &rxbuf[me], 4u);
    }
    case OP_QFLUSH:
        note("T%d flush Q%d", me, a);
        md_queue_flush(&M, a);
        return lm_queue_flush(&queues[a]);
    case OP_QCOUNT: {
        note("T%d count Q%d", me, a);
        uint32_t c = 0;
        M.t[me].ret = M.q_dead[a] ? MD_OBJECT : MD_OK; /* R9.1 */
        lm_status_t st = lm_queue_count(&queues[a], &c);
        if (st == LM_OK && !M.q_dead[a] && c != M.q_count[a]) {
            diverge("T%d: Q%d count returned %u, model %u", me, a, (unsigned)c,
                    (unsigned)M.q_count[a]);
        }
        return st;
    }
    case OP_TAKE:
        note("T%d take S%d %u", me, a, (unsigned)b);
        md_sem_take(&M, a, (uint32_t)b);
        return lm_sem_take(&sems[a], (lm_tick_t)b);
    case OP_GIVE:
        note("T%d give S%d", me, a);
        M.t[me].ret = md_sem_give(&M, a);
        return lm_sem_give(&sems[a]);
    case OP_LOCK:
        note("T%d lock M%d %u", me, a, (unsigned)b);
        md_mutex_lock(&M, a, (uint32_t)b);
        return lm_mutex_lock(&mtx[a], (lm_tick_t)b);
    case OP_UNLOCK:
        note("T%d unlock M%d", me, a);
        md_mutex_unlock(&M, a);
        return lm_mutex_unlock(&mtx[a]);
    case OP_PRIO:
        note("T%d set_priority T%d %d", me, a, b);
        M.t[me].ret = md_set_priority(&M, a, b);
        return lm_thread_set_priority(th[a], (unsigned)b);
    case OP_THR:
        note("T%d set_threshold T%d %d", me, a, b);
        M.t[me].ret = md_set_threshold(&M, a, b);
        return lm_thread_set_threshold(th[a], b < 0 ? LM_THRESHOLD_NONE : (unsigned)b);
    case OP_YIELD:
        note("T%d yield", me);
        md_yield(&M);
        return lm_thread_yield();
    case OP_SLEEP:
        note("T%d sleep %u", me, (unsigned)a);
        md_sleep(&M, (uint32_t)a);
        return lm_thread_sleep((lm_tick_t)a);
    case OP_WORK:
        note("T%d work %u", me, (unsigned)a);
        md_work(&M, (uint32_t)a);
        lm_hosted_work((lm_tick_t)a);
        return LM_OK;
    case OP_SUSPEND:
        if (a == me) { /* never itself (not modelled) */
            a = (a + 1) % M.n;
        }
        note("T%d suspend T%d", me, a);
        M.t[me].ret = md_suspend(&M, a);
        return lm_thread_suspend(th[a]);
    default:
        note("T%d resume T%d", me, a);
        M.t[me].ret = md_resume(&M, a);
        return lm_thread_resume(th[a]);
    }
}

static lm_status_t do_op(int me)
{
    struct op o;
    if (replaying) {
        replay_irqs();
        if (tape_pos >= ntape) {
            budget = steps; /* the tape is spent: end here, not quiescent */
            lm_hosted_stop();
        }
        o = tape[tape_pos++];
    } else {
        if (!gen_directed(me, &o)) {
            o = gen_op(me);
        }
        tape_push(o);
    }
    return exec_op(me, o);
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
            if (check_rx[me] == CHK_MSG && st == LM_OK && rxbuf[me] != M.t[me].msg) {
                diverge("T%d received %u, model %u", me, (unsigned)rxbuf[me],
                        (unsigned)M.t[me].msg);
            }
            if (check_rx[me] == CHK_FLAGS && st == LM_OK && fact[me] != M.t[me].msg) {
                diverge("T%d's flags call reported 0x%x, model 0x%x", me, (unsigned)fact[me],
                        (unsigned)M.t[me].msg);
            }
            compare_objects("step");
            if (first) {
                claim_block(me, st);
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
        if (returning) {
            returning = false;
            return; /* R11.5: the thread ends */
        }
    }
}

/* Totals over the runs: shows that the paths the newer rules cover are
 * taken (the model is re-initialised per run, so they are summed here). */
static unsigned long cov_flag_wakes, cov_handovers, cov_fires, cov_deleted, cov_taken,
    cov_dead_steps, cov_ended, cov_abandoned, cov_aborts,
    cov_refused, cov_unlock_switches, cov_expiries;

static void add_coverage(void)
{
    cov_flag_wakes += M.n_flag_wakes;
    cov_handovers += M.n_handovers;
    cov_fires += M.n_fires;
    cov_deleted += M.n_deleted_wakes;
    cov_taken += M.n_mutex_taken;
    cov_dead_steps += M.n_dead_steps;
    cov_ended += M.n_ended;
    cov_abandoned += M.n_abandoned;
    cov_aborts += M.n_aborts;
    cov_refused += M.n_refused;
    cov_unlock_switches += M.n_unlock_switches;
    cov_expiries += M.n_expiries;
}

static void print_coverage(void)
{
    printf("model: flags waiters woken by a set %lu, pool blocks handed over %lu, timer "
           "callbacks %lu, waiters woken by a delete %lu, owned mutexes deleted %lu\n",
           cov_flag_wakes, cov_handovers, cov_fires, cov_deleted, cov_taken);
    printf("model: deletes that met a flush or a flags set under way %lu, steps of those "
           "calls made on the deleted object with waiters left %lu\n",
           n_delete_during_steps, cov_dead_steps);
    printf("model: threads ended %lu, mutexes abandoned %lu, waits aborted %lu\n", cov_ended,
           cov_abandoned, cov_aborts);
    printf("model: calls refused under the scheduler lock %lu, unlocks that let a more urgent "
           "thread run %lu, time-slice expiries %lu\n", cov_refused, cov_unlock_switches,
           cov_expiries);
}

/* One simulation: fresh kernel and objects, random priorities and
 * thresholds, until quiescent or the budget is spent. */
static void one_run(void)
{
    int prio[MD_THREADS], thr[MD_THREADS];
    lmt_begin();
    memset(sems, 0, sizeof sems);
    memset(mtx, 0, sizeof mtx);
    memset(irq_ops, 0, sizeof irq_ops);
    memset(queues, 0, sizeof queues);
    memset(check_rx, 0, sizeof check_rx);
    memset(flags, 0, sizeof flags);
    memset(&pool, 0, sizeof pool);
    memset(timers, 0, sizeof timers);
    knlog = 0;
    klog_checked = 0;
    for (unsigned b = 0; b < MD_POOL_BLOCKS; b++) {
        blk_owner[b] = MD_NONE;
    }
    for (int f = 0; f < MD_FLAGS; f++) {
        LMT_ST(lm_flags_create(&flags[f], 0), LM_OK);
    }
    LMT_ST(lm_pool_create(&pool, pbuf, sizeof pbuf, 8, MD_POOL_BLOCKS), LM_OK);
    for (int k = 0; k < MD_TIMERS; k++) {
        LMT_ST(lm_timer_create(&timers[k], timer_callback, (void *)(intptr_t)k), LM_OK);
    }
    for (int q = 0; q < MD_QUEUES; q++) {
        LMT_ST(lm_queue_create(&queues[q], qbufs[q], 4u, qcap[q]), LM_OK);
    }
    for (int s = 0; s < MD_SEMS; s++) {
        LMT_ST(lm_sem_create(&sems[s], 0, MD_SEM_MAX), LM_OK);
    }
    for (int x = 0; x < MD_MUTEXES; x++) {
        LMT_ST(lm_mutex_create(&mtx[x], LM_MUTEX_INHERIT), LM_OK);
    }
    for (int i = 0; i < MD_THREADS; i++) {
        if (replaying) {
            size_t r = runs < nsetups ? runs : nsetups - 1u;
            prio[i] = setups[r][2 * i];
            thr[i] = setups[r][2 * i + 1];
            slices[i] = setups[r][2 * MD_THREADS + i];
        } else {
            prio[i] = (int)rnd(4);
            thr[i] = rnd(3) == 0 ? (int)rnd((uint32_t)prio[i] + 1u) : -1;
            slices[i] = rnd(2) == 0 ? 0 : 1 + (int)rnd(3); /* R2.4: 0 = none */
            if (i == 0) {
                setup_room(); /* every run's setup is kept, for the tape */
            }
            setups[nsetups][2 * i] = prio[i];
            setups[nsetups][2 * i + 1] = thr[i];
            setups[nsetups][2 * MD_THREADS + i] = slices[i];
        }
        th[i] = lmt_spawn_ex(names[i], (unsigned)prio[i],
                             thr[i] < 0 ? LM_THRESHOLD_NONE : (unsigned)thr[i],
                             (lm_tick_t)slices[i], runner, (void *)(intptr_t)i, true);
    }
    if (!replaying) {
        nsetups++;
    }
    md_init(&M, MD_THREADS, prio, thr);
    for (int i = 0; i < MD_THREADS; i++) {
        M.t[i].slice = M.t[i].slice_left = (uint32_t)slices[i];
    }
    for (int q = 0; q < MD_QUEUES; q++) {
        md_queue_init(&M, q, qcap[q]);
    }
    md_pool_init(&M);
    note("run %lu", runs);
    lmt_run();
    runs++;
    add_coverage();
    if (steps < budget) {
        /* Quiescent: the model must agree that nothing can happen. */
        if (md_settle(&M) != MD_NONE) {
            diverge("kernel quiescent, model runs T%d", M.cur);
        }
        compare_objects("quiescent");
    }
}

/* Replays tape[0..ntape) in a child; true if it diverges the way `sig` says. */
static bool trial(const char *sig)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        return false;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) { /* quiet: the parent reports */
            (void)dup2(null, 1);
            (void)dup2(null, 2);
        }
        reduce_child = true;
        replaying = true;
        trial_sig[0] = '\0';
        alarm(10);
        budget = ~0ul;
        while (steps < budget) {
            one_run();
        }
        _exit(0);
    }
    int status = 0;
    (void)waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 1 && strcmp(trial_sig, sig) == 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Delta debugging (complements only): remove one of n chunks while the
 * replay still diverges the same way; refine n when none can go. */
static int reduce(const char *path)
{
    char sig[256];
    snprintf(sig, sizeof sig, "%s", read_tape(path));
    trial_sig = mmap(NULL, 256, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (trial_sig == MAP_FAILED) {
        return 2;
    }
    const char *lim = getenv("MODEL_REDUCE_SECONDS");
    double deadline = now_s() + (lim != NULL ? strtod(lim, NULL) : 30.0);
    size_t orig = ntape;
    if (!trial(sig)) {
        printf("reduce: the tape does not reproduce the divergence (\"%s\")\n", sig);
        return 1;
    }
    struct op *best = malloc(orig * sizeof *best);
    if (best == NULL) {
        return 2;
    }
    memcpy(best, tape, orig * sizeof *best);
    size_t nbest = orig, n = 2;
    unsigned long trials = 1;
    bool timed_out = false;
    while (nbest >= 2u) {
        bool removed = false;
        size_t chunk = (nbest + n - 1u) / n;
        for (size_t from = 0; from < nbest && !removed; from += chunk) {
            if (now_s() > deadline) {
                timed_out = true;
                break;
            }
            size_t to = from + chunk < nbest ? from + chunk : nbest;
            ntape = 0;
            for (size_t i = 0; i < nbest; i++) {
                if (i < from || i >= to) {
                    tape[ntape++] = best[i];
                }
            }
            trials++;
            if (ntape > 0u && trial(sig)) {
                memcpy(best, tape, ntape * sizeof *best);
                nbest = ntape;
                n = n > 2u ? n - 1u : 2u;
                removed = true;
            }
        }
        if (timed_out) {
            break;
        }
        if (!removed) {
            if (n >= nbest) {
                break; /* 1-minimal: no single entry can go */
            }
            n = 2u * n < nbest ? 2u * n : nbest;
        }
    }
    memcpy(tape, best, nbest * sizeof *best);
    ntape = nbest;
    static char out[512];
    snprintf(out, sizeof out, "%s.min", path);
    printf("reduce: %lu entries -> %lu (%lu trials%s); \"%s\"\n", (unsigned long)orig,
           (unsigned long)nbest, trials, timed_out ? ", stopped by the time limit" : ", 1-minimal",
           sig);
    if (!write_tape(out, sig, best, nbest)) {
        printf("reduce: cannot write %s\n", out);
        return 2;
    }
    printf("reduced case:\n");
    for (size_t r = 0; r < nsetups; r++) {
        printf("  run");
        for (int i = 0; i < MD_THREADS; i++) {
            printf(" T%d:%d/%d/%d", i, setups[r][2 * i], setups[r][2 * i + 1],
                   setups[r][2 * MD_THREADS + i]);
        }
        printf("   (priority/threshold/slice, -1 none)\n");
    }
    for (size_t i = 0; i < nbest; i++) {
        printf("  %s %d %d %d\n", op_names[best[i].code], best[i].a, best[i].b, best[i].c);
    }
    printf("replay: test_model --replay %s\n", out);
    free(best);
    return 1;
}

int main(int argc, char **argv)
{
    trace = getenv("MODEL_TRACE") != NULL;
    if (argc > 2 && strcmp(argv[1], "--reduce") == 0) {
        return reduce(argv[2]);
    }
    if (argc > 2 && strcmp(argv[1], "--replay") == 0) {
        (void)read_tape(argv[2]);
        replaying = true;
        budget = ~0ul;
        printf("model: replay of %s (%lu entries)\n", argv[2], (unsigned long)ntape);
        while (steps < budget) {
            one_run();
        }
        printf("model: %lu steps, %lu divergences (%lu runs)\n", steps, divergences, runs);
        return divergences == 0 ? 0 : 1;
    }
    seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1u;
    budget = argc > 2 ? strtoul(argv[2], NULL, 0) : 200000ul;
    rng = seed * 0x9E3779B97F4A7C15ull + 1u;
    printf("model: seed %" PRIu64 ", %lu steps\n", seed, budget);
    while (steps < budget) {
        one_run();
    }
    printf("model: %lu steps, %lu divergences (%lu runs)\n", steps, divergences, runs);
    print_coverage();
    free(tape);
    free(setups);
    return divergences == 0 ? 0 : 1;
}
