/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bad-input sweep (docs/errors.md "Bad requests, by class of input";
 * docs/rules.md R1.1, R3.2, R5.1, R6.1, R6.5, R8.3, R9.1, R11.7, R12.1).
 *
 * One table row per (call, class of bad input): every public call that
 * returns a status, with every class of bad input it can receive, and the
 * status docs/errors.md gives that class. The rows run against live objects
 * that each have two blocked waiters of different priorities, with
 * creations aimed at those live control blocks. Before each row the test
 * snapshots everything, and after it everything must be exactly as before
 * ("a refused call changes nothing"): counts, owners, the queued message,
 * every thread's state and priorities, the scheduler lock, the armed
 * timeouts and the switch statistics through the API, and the raw bytes of
 * every control block, buffer and output area. At the end the waiters are
 * released, and they must wake in the order and with the data the rules
 * give (R5.1, R5.4, R5.5, R9.3, R10.1, R10.3-R10.6, R11.2).
 *
 * Rows marked "checks on" in docs/errors.md are compiled only with
 * LM_CFG_ARG_CHECKS; the "always" rows (interrupt context, not owner,
 * scheduler lock, state) run in both builds. Rows from an interrupt handler
 * or from the idle hook need the hosted port. With LMT_BAD_INPUT_TABLE set
 * in the environment the hosted build also prints the table as Markdown
 * (the "The bad-input sweep" section of docs/errors.md).
 */
#include <string.h>
#include "harness.h"
#include "limen/port.h"

/* Set to 1 once kernel/thread.c checks for the idle thread before the range
 * of the threshold (see the row that uses it). */
#ifndef LMT_FIXED_IDLE_THRESHOLD
#define LMT_FIXED_IDLE_THRESHOLD 1
#endif

/* ---- the objects ---------------------------------------------------- */

/* Every object the rows refer to. Control blocks other than threads live in
 * a union as large as the largest control block, so that passing one as a
 * control block of another type (a wrong-type row) reads only memory that
 * belongs to it: the magic word sits at the end of each control block. */
enum obj {
    O_NONE,      /* NULL */
    O_ZERO,      /* all zero: never initialised */
    O_GARBAGE,   /* filled with 0xA5 */
    O_SEM0,      /* count 0, two waiters */
    O_SEMC,      /* count 2 of 3, no waiter */
    O_SEM_DEL,   /* deleted */
    O_MTX,       /* owned by O with depth 2, two waiters, inheritance */
    O_MFREE,     /* free */
    O_MTX_DEL,
    O_QFULL,     /* 2 of 2 messages, two blocked senders */
    O_QEMPTY,    /* empty, two blocked receivers */
    O_Q_DEL,
    O_FLG,       /* bits 0x0F0, two waiters */
    O_FLG_DEL,
    O_POOLA,     /* every block taken, two waiters */
    O_POOLB,     /* 2 of 4 blocks free, one of them freed once */
    O_POOL_DEL,
    O_TMR,       /* running: expires 1000 ticks after the controller starts it */
    O_TMR_STOP,  /* never started */
    O_TMR_DEL,
    O_THR_DEL,   /* a deleted thread */
    O_LAST_CB = O_THR_DEL,
    O_SELF,      /* the controller, the thread that runs the rows */
    O_W,         /* a blocked waiter (sL, priority 8) */
    O_X,         /* created, never started */
    O_Z,         /* ended */
    O_S,         /* suspended */
    O_B,         /* blocked and suspended */
    O_SL,        /* sleeping */
    O_IDLE,      /* the idle thread */
    O_COUNT
};

static const char *const obj_name[O_COUNT] = {
    "NULL", "zeros", "garbage", "sem0", "semc", "sem_del", "mtx", "mfree", "mtx_del",
    "qfull", "qempty", "q_del", "flg", "flg_del", "poolA", "poolB", "pool_del", "tmr",
    "tmr_stop", "tmr_del", "thr_del", "C", "sL", "X", "Z", "S", "B", "Sl", "idle",
};

union cb {
    lm_thread_t t;
    lm_sem_t s;
    lm_mutex_t m;
    lm_queue_t q;
    lm_flags_t f;
    lm_pool_t p;
    lm_timer_t tm;
};

static union cb cbs[O_LAST_CB + 1];
static void *objp[O_COUNT];

#define SEM0 (&cbs[O_SEM0].s)
#define SEMC (&cbs[O_SEMC].s)
#define MTX (&cbs[O_MTX].m)
#define MFREE (&cbs[O_MFREE].m)
#define QFULL (&cbs[O_QFULL].q)
#define QEMPTY (&cbs[O_QEMPTY].q)
#define FLG (&cbs[O_FLG].f)
#define POOLA (&cbs[O_POOLA].p)
#define POOLB (&cbs[O_POOLB].p)
#define TMR (&cbs[O_TMR].tm)

#define MSG 8u
#define QCAP 2u
static LM_QUEUE_BUFFER_DEFINE(qfull_buf, MSG, QCAP);
static LM_QUEUE_BUFFER_DEFINE(qempty_buf, MSG, QCAP);
static LM_QUEUE_BUFFER_DEFINE(qdel_buf, MSG, QCAP);

#define BLK 16u
#define NBLK 4u
static LM_POOL_BUFFER_DEFINE(poolA_buf, BLK, NBLK);
static LM_POOL_BUFFER_DEFINE(poolB_buf, BLK, NBLK);
static LM_POOL_BUFFER_DEFINE(pooldel_buf, BLK, NBLK);
/* For the refused pool creations: room for NBLK blocks after a misaligned
 * start too. */
static _Alignas(sizeof(void *)) uint8_t pool_scratch[LM_POOL_BLOCK_SIZE(BLK) * NBLK + 16u];
static void *blk_a[NBLK], *blk_b[NBLK];

/* Stack for the creations (never started, so never written). */
static LM_STACK_DEFINE(spare_stack, LM_PORT_MIN_STACK + LM_PORT_STACK_ALIGN);

/* Where valid output pointers of the rows point: a refused call writes
 * nothing there either. */
static union {
    uint32_t u32;
    size_t size;
    void *ptr;
#if LM_CFG_STATS
    lm_thread_stats_t stats;
#endif
    uint8_t bytes[64];
} outbuf;

/* Messages: a letter and a fixed tail, so the data can be checked whole. */
#define MSG_INIT(ch) {(uint8_t)(ch), 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77}
static const uint8_t msg_a[MSG] = MSG_INIT('A'), msg_b[MSG] = MSG_INIT('B'),
                     msg_c[MSG] = MSG_INIT('C'), msg_d[MSG] = MSG_INIT('D'),
                     msg_e[MSG] = MSG_INIT('E'), msg_f[MSG] = MSG_INIT('F'),
                     msg_bad[MSG] = MSG_INIT('Z');

static char msg_letter(const uint8_t *m)
{
    static const uint8_t *const known[] = {msg_a, msg_b, msg_c, msg_d, msg_e, msg_f, msg_bad};
    for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (memcmp(m, known[i], MSG) == 0) {
            return (char)known[i][0];
        }
    }
    return '?';
}

/* Waiters' private result areas, watched like everything else: a refused
 * send or free must not hand them anything. */
static uint8_t rbuf[2][MSG];
static void *pslot[2];

static lm_sem_t o_go, bsem, idle_sync;

/* ---- the row functions -------------------------------------------------
 * Each performs one call on objp[row.obj], with `v` choosing the other
 * arguments. Some are used only by "checks on" rows. */
#define ROWFN __attribute__((unused)) static lm_status_t

static void never_runs(void *arg)
{
    (void)arg;
    lmt_log("never");
}

enum { AT_OK, AT_NULL_ATTR, AT_NULL_ENTRY, AT_NULL_STACK, AT_STACK_HALF, AT_STACK_ODD,
       AT_STACK_SMALL, AT_STACK_ZERO, AT_PRIO_RANGE, AT_PRIO_MAX, AT_THR_RANGE, AT_THR_HIGH,
       AT_THR_LESS, AT_SLICE };

ROWFN f_thread_create(void *o, uintptr_t v)
{
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "new";
    a.entry = never_runs;
    a.stack = spare_stack;
    a.stack_size = LM_PORT_MIN_STACK;
    a.priority = 10;
    switch (v) {
    case AT_NULL_ENTRY: a.entry = NULL; break;
    case AT_NULL_STACK: a.stack = NULL; break;
    case AT_STACK_HALF: a.stack = spare_stack + LM_PORT_STACK_ALIGN / 2u; break;
    case AT_STACK_ODD: a.stack = spare_stack + 1; break;
    case AT_STACK_SMALL: a.stack_size = LM_PORT_MIN_STACK - 1u; break;
    case AT_STACK_ZERO: a.stack_size = 0; break;
    case AT_PRIO_RANGE: a.priority = LM_CFG_PRIORITIES; break;
    case AT_PRIO_MAX: a.priority = 0xFFFFu; break;
    case AT_THR_RANGE: a.threshold = LM_CFG_PRIORITIES; break;
    case AT_THR_HIGH: a.threshold = 0xFFFEu; break;
    case AT_THR_LESS: a.threshold = 11; break;
    case AT_SLICE: a.time_slice = LM_TICK_MAX_TIMEOUT + 1u; break;
    default: break;
    }
    return lm_thread_create(o, v == AT_NULL_ATTR ? NULL : &a);
}

ROWFN f_thread_start(void *o, uintptr_t v) { (void)v; return lm_thread_start(o); }
ROWFN f_thread_terminate(void *o, uintptr_t v) { (void)v; return lm_thread_terminate(o); }
ROWFN f_thread_delete(void *o, uintptr_t v) { (void)v; return lm_thread_delete(o); }
ROWFN f_thread_suspend(void *o, uintptr_t v) { (void)v; return lm_thread_suspend(o); }
ROWFN f_thread_resume(void *o, uintptr_t v) { (void)v; return lm_thread_resume(o); }
ROWFN f_thread_wait_abort(void *o, uintptr_t v) { (void)v; return lm_thread_wait_abort(o); }
ROWFN f_thread_set_priority(void *o, uintptr_t v) { return lm_thread_set_priority(o, (unsigned)v); }
ROWFN f_thread_set_threshold(void *o, uintptr_t v) { return lm_thread_set_threshold(o, (unsigned)v); }
ROWFN f_thread_stack_unused(void *o, uintptr_t v)
{
    return lm_thread_stack_unused(o, v != 0u ? NULL : &outbuf.size);
}
#if LM_CFG_STATS
ROWFN f_thread_stats(void *o, uintptr_t v) { return lm_thread_stats(o, v != 0u ? NULL : &outbuf.stats); }
#endif
ROWFN f_sleep(void *o, uintptr_t v) { (void)o; return lm_thread_sleep((lm_tick_t)v); }
/* lm_thread_sleep_until: the previous wake tick is the row's own (now, so
 * the deadline is ahead, or 10 ticks ago, so it has passed); the row fails
 * with a status no call returns if a refused call changed it. */
enum { SU_AHEAD, SU_PASSED, SU_NULL, SU_P0, SU_PBIG, SU_PFOREVER };
ROWFN f_sleep_until(void *o, uintptr_t v)
{
    (void)o;
    static const lm_tick_t period[] = {5, 5, 5, 0, LM_TICK_MAX_TIMEOUT + 1u, LM_WAIT_FOREVER};
    lm_tick_t wake = lm_tick_now() - (v == SU_PASSED ? 10u : 0u);
    lm_tick_t before = wake;
    lm_status_t st = lm_thread_sleep_until(v == SU_NULL ? NULL : &wake, period[v]);
    return wake == before ? st : (lm_status_t)-99;
}
ROWFN f_yield(void *o, uintptr_t v) { (void)o; (void)v; return lm_thread_yield(); }
ROWFN f_sched_lock(void *o, uintptr_t v) { (void)o; (void)v; return lm_sched_lock(); }
ROWFN f_sched_unlock(void *o, uintptr_t v) { (void)o; (void)v; return lm_sched_unlock(); }

enum { SC_OK, SC_MAX0, SC_INIT_GT, SC_INIT_HUGE };
ROWFN f_sem_create(void *o, uintptr_t v)
{
    static const uint32_t init[] = {0, 0, 3, UINT32_MAX}, max[] = {1, 0, 2, 5};
    return lm_sem_create(o, init[v], max[v]);
}
ROWFN f_sem_delete(void *o, uintptr_t v) { (void)v; return lm_sem_delete(o); }
ROWFN f_sem_take(void *o, uintptr_t v) { return lm_sem_take(o, (lm_tick_t)v); }
ROWFN f_sem_give(void *o, uintptr_t v) { (void)v; return lm_sem_give(o); }
ROWFN f_sem_count(void *o, uintptr_t v) { return lm_sem_count(o, v != 0u ? NULL : &outbuf.u32); }

ROWFN f_mutex_create(void *o, uintptr_t v) { return lm_mutex_create(o, (unsigned)v); }
ROWFN f_mutex_delete(void *o, uintptr_t v) { (void)v; return lm_mutex_delete(o); }
ROWFN f_mutex_lock(void *o, uintptr_t v) { return lm_mutex_lock(o, (lm_tick_t)v); }
ROWFN f_mutex_unlock(void *o, uintptr_t v) { (void)v; return lm_mutex_unlock(o); }

enum { QC_OK, QC_NULL_BUF, QC_SIZE0, QC_CAP0, QC_OVF, QC_OVF_MAX };
ROWFN f_queue_create(void *o, uintptr_t v)
{
    static const size_t size[] = {MSG, MSG, 0, MSG, 0x10000u, SIZE_MAX};
    static const size_t cap[] = {QCAP, QCAP, QCAP, 0, 0x10000u, 2};
    return lm_queue_create(o, v == QC_NULL_BUF ? NULL : qdel_buf, size[v], cap[v]);
}
ROWFN f_queue_delete(void *o, uintptr_t v) { (void)v; return lm_queue_delete(o); }

/* The other arguments of send, send_front, receive and peek. */
enum { QV_OK, QV_NULL, QV_TMO_BIG, QV_TMO_FFFE, QV_SIZE0, QV_SIZE_LESS, QV_SIZE_MORE,
       QV_SIZE_MAX, QV_T5, QV_FOREVER };
static size_t qv_size(uintptr_t v)
{
    switch (v) {
    case QV_SIZE0: return 0;
    case QV_SIZE_LESS: return MSG - 1u;
    case QV_SIZE_MORE: return MSG + 1u;
    case QV_SIZE_MAX: return SIZE_MAX;
    default: return MSG;
    }
}
static lm_tick_t qv_timeout(uintptr_t v)
{
    switch (v) {
    case QV_TMO_BIG: return LM_TICK_MAX_TIMEOUT + 1u;
    case QV_TMO_FFFE: return 0xFFFFFFFEu;
    case QV_T5: return 5;
    case QV_FOREVER: return LM_WAIT_FOREVER;
    default: return LM_NO_WAIT;
    }
}
ROWFN f_queue_send(void *o, uintptr_t v)
{
    return lm_queue_send(o, v == QV_NULL ? NULL : msg_bad, qv_size(v), qv_timeout(v));
}
ROWFN f_queue_send_front(void *o, uintptr_t v)
{
    return lm_queue_send_front(o, v == QV_NULL ? NULL : msg_bad, qv_size(v), qv_timeout(v));
}
ROWFN f_queue_receive(void *o, uintptr_t v)
{
    return lm_queue_receive(o, v == QV_NULL ? NULL : outbuf.bytes, qv_size(v), qv_timeout(v));
}
ROWFN f_queue_peek(void *o, uintptr_t v)
{
    return lm_queue_peek(o, v == QV_NULL ? NULL : outbuf.bytes, qv_size(v));
}
ROWFN f_queue_flush(void *o, uintptr_t v) { (void)v; return lm_queue_flush(o); }
ROWFN f_queue_count(void *o, uintptr_t v) { return lm_queue_count(o, v != 0u ? NULL : &outbuf.u32); }

ROWFN f_flags_create(void *o, uintptr_t v) { return lm_flags_create(o, (uint32_t)v); }
ROWFN f_flags_delete(void *o, uintptr_t v) { (void)v; return lm_flags_delete(o); }
ROWFN f_flags_set(void *o, uintptr_t v) { return lm_flags_set(o, (uint32_t)v); }
ROWFN f_flags_clear(void *o, uintptr_t v) { return lm_flags_clear(o, (uint32_t)v); }
enum { FW_OK, FW_BITS0, FW_OPT4, FW_OPT_TOP, FW_TMO_BIG, FW_TMO_FFFE, FW_T5, FW_FOREVER, FW_SAT_T5 };
ROWFN f_flags_wait(void *o, uintptr_t v)
{
    uint32_t bits = 0x400u; /* not set in FLG (0x0F0) */
    unsigned opt = LM_FLAGS_ANY;
    lm_tick_t t = LM_NO_WAIT;
    switch (v) {
    case FW_BITS0: bits = 0; break;
    case FW_OPT4: opt = 0x4u; break;
    case FW_OPT_TOP: opt = 0x80000000u; break;
    case FW_TMO_BIG: t = LM_TICK_MAX_TIMEOUT + 1u; break;
    case FW_TMO_FFFE: t = 0xFFFFFFFEu; break;
    case FW_T5: t = 5; break;
    case FW_FOREVER: t = LM_WAIT_FOREVER; break;
    case FW_SAT_T5: bits = 0x010u; opt = LM_FLAGS_ANY | LM_FLAGS_CONSUME; t = 5; break;
    default: break;
    }
    return lm_flags_wait(o, bits, opt, &outbuf.u32, t);
}
ROWFN f_flags_get(void *o, uintptr_t v) { return lm_flags_get(o, v != 0u ? NULL : &outbuf.u32); }

enum { PC_OK, PC_NULL_BUF, PC_MIS_HALF, PC_MIS_1, PC_BS0, PC_CNT0, PC_NOFIT, PC_BUF0,
       PC_BS_HUGE, PC_CNT_HUGE };
ROWFN f_pool_create(void *o, uintptr_t v)
{
    uint8_t *buf = pool_scratch;
    size_t size = LM_POOL_BLOCK_SIZE(BLK) * NBLK, bs = BLK, n = NBLK;
    switch (v) {
    case PC_NULL_BUF: buf = NULL; break;
    case PC_MIS_HALF: buf += sizeof(void *) / 2u; break;
    case PC_MIS_1: buf += 1; break;
    case PC_BS0: bs = 0; break;
    case PC_CNT0: n = 0; break;
    case PC_NOFIT: n = NBLK + 1u; break;
    case PC_BUF0: size = 0; break;
    case PC_BS_HUGE: bs = SIZE_MAX; break;
    case PC_CNT_HUGE: n = SIZE_MAX; break;
    default: break;
    }
    return lm_pool_create(o, buf, size, bs, n);
}
ROWFN f_pool_delete(void *o, uintptr_t v) { (void)v; return lm_pool_delete(o); }
enum { PA_OK, PA_NULL, PA_TMO_BIG, PA_TMO_FFFE, PA_T5, PA_FOREVER };
ROWFN f_pool_alloc(void *o, uintptr_t v)
{
    static const lm_tick_t t[] = {LM_NO_WAIT, LM_NO_WAIT, LM_TICK_MAX_TIMEOUT + 1u, 0xFFFFFFFEu,
                                  5, LM_WAIT_FOREVER};
    return lm_pool_alloc(o, v == PA_NULL ? NULL : &outbuf.ptr, t[v]);
}
/* Which pointer goes back to the pool. */
enum { FB_NULL, FB_B0, FB_A1, FB_A1_PLUS8, FB_B0_PLUS8, FB_A1_PLUS1, FB_B_LAST, FB_A_END,
       FB_B_BEFORE, FB_STATIC, FB_B2, FB_B3 };
static uint32_t unrelated_word;
ROWFN f_pool_free(void *o, uintptr_t v)
{
    void *b = NULL;
    switch (v) {
    case FB_B0: b = blk_b[0]; break;
    case FB_A1: b = blk_a[1]; break;
    case FB_A1_PLUS8: b = (uint8_t *)blk_a[1] + 8; break;
    case FB_B0_PLUS8: b = (uint8_t *)blk_b[0] + 8; break;
    case FB_A1_PLUS1: b = (uint8_t *)blk_a[1] + 1; break;
    case FB_B_LAST: b = poolB_buf + sizeof poolB_buf - 1u; break;
    case FB_A_END: b = poolA_buf + sizeof poolA_buf; break;
    case FB_B_BEFORE: b = (void *)((uintptr_t)poolB_buf - LM_POOL_BLOCK_SIZE(BLK)); break;
    case FB_STATIC: b = &unrelated_word; break;
    case FB_B2: b = blk_b[2]; break;
    case FB_B3: b = poolB_buf + 3u * LM_POOL_BLOCK_SIZE(BLK); break;
    default: break;
    }
    return lm_pool_free(o, b);
}
ROWFN f_pool_available(void *o, uintptr_t v)
{
    return lm_pool_available(o, v != 0u ? NULL : &outbuf.u32);
}

static lm_tick_t timer_t0; /* when TMR was started */

static void timer_cb(void *arg)
{
    (void)arg;
    lmt_log("T@+%u", (unsigned)(lm_tick_t)(lm_tick_now() - timer_t0));
}
ROWFN f_timer_create(void *o, uintptr_t v) { return lm_timer_create(o, v != 0u ? NULL : timer_cb, NULL); }
ROWFN f_timer_delete(void *o, uintptr_t v) { (void)v; return lm_timer_delete(o); }
enum { TS_OK, TS_DELAY0, TS_DELAY_BIG, TS_DELAY_FOREVER, TS_PERIOD_BIG, TS_PERIOD_FOREVER };
ROWFN f_timer_start(void *o, uintptr_t v)
{
    static const lm_tick_t delay[] = {5, 0, LM_TICK_MAX_TIMEOUT + 1u, LM_WAIT_FOREVER, 5, 5};
    static const lm_tick_t period[] = {0, 0, 0, 0, LM_TICK_MAX_TIMEOUT + 1u, LM_WAIT_FOREVER};
    return lm_timer_start(o, delay[v], period[v]);
}
ROWFN f_timer_stop(void *o, uintptr_t v) { (void)v; return lm_timer_stop(o); }

/* ---- the table --------------------------------------------------------- */

/* Where a row runs. */
enum ctx {
    X_THREAD,     /* the controller, a thread */
    X_LOCKED,     /* the controller, holding the scheduler lock */
    X_PRESTART,   /* before lm_kernel_start() */
    X_ISR,        /* an interrupt handler (hosted) */
    X_ISR_LOCKED, /* an interrupt handler while the controller holds the lock (hosted) */
    X_IDLE        /* the idle hook (hosted) */
};

typedef lm_status_t (*row_fn)(void *obj, uintptr_t v);

struct row {
    const char *call;
    const char *input;
    lm_status_t status;  /* what docs/errors.md gives this class */
    row_fn fn;
    uint8_t obj;
    uintptr_t v;
    uint8_t ctx;
    uint8_t checks;      /* 1: a "checks on" row of docs/errors.md */
    uint8_t cb_set;      /* CB_ROWS: the deleted object of the type, else 0 */
};

#define ROW_(chk, set, ctx, call, input, st, fn, obj, v) \
    {call, input, st, fn, obj, (uintptr_t)(v), ctx, chk, set},
/* CHK: "checks on" rows. ALW: "always" rows. HOST_*: the same, hosted only.
 * CB_: a row of CB_ROWS. */
#if LM_CFG_ARG_CHECKS
#define CHK(...) ROW_(1, 0, __VA_ARGS__)
#define CB_(set, ...) ROW_(1, set, __VA_ARGS__)
#else
#define CHK(...)
#define CB_(set, ...)
#endif
#define ALW(...) ROW_(0, 0, __VA_ARGS__)
#if defined(LM_PORT_HOSTED)
#define HOST_CHK(...) CHK(__VA_ARGS__)
#define HOST_ALW(...) ALW(__VA_ARGS__)
#else
#define HOST_CHK(...)
#define HOST_ALW(...)
#endif

/* The bad control blocks every object call is tried with: NULL, never
 * initialised (zeros, garbage), deleted, and a live object of each other
 * type (R9.1: a deleted object's calls fail with LM_ERR_OBJECT). */
#define CB_ROWS(call, fn, v, dead, w1, n1, w2, n2, w3, n3, w4, n4, w5, n5, w6, n6)         \
    CB_(dead, X_THREAD, call, "NULL control block", LM_ERR_PARAM, fn, O_NONE, v)          \
    CB_(dead, X_THREAD, call, "all zeros", LM_ERR_OBJECT, fn, O_ZERO, v)                  \
    CB_(dead, X_THREAD, call, "garbage", LM_ERR_OBJECT, fn, O_GARBAGE, v)                 \
    CB_(dead, X_THREAD, call, "deleted", LM_ERR_OBJECT, fn, dead, v)                      \
    CB_(dead, X_THREAD, call, "wrong type: " n1, LM_ERR_OBJECT, fn, w1, v)                \
    CB_(dead, X_THREAD, call, "wrong type: " n2, LM_ERR_OBJECT, fn, w2, v)                \
    CB_(dead, X_THREAD, call, "wrong type: " n3, LM_ERR_OBJECT, fn, w3, v)                \
    CB_(dead, X_THREAD, call, "wrong type: " n4, LM_ERR_OBJECT, fn, w4, v)                \
    CB_(dead, X_THREAD, call, "wrong type: " n5, LM_ERR_OBJECT, fn, w5, v)                \
    CB_(dead, X_THREAD, call, "wrong type: " n6, LM_ERR_OBJECT, fn, w6, v)
#define CB_THREAD(call, fn, v)                                                   \
    CB_ROWS(call, fn, v, O_THR_DEL, O_SEM0, "semaphore", O_MTX, "mutex", O_QFULL, \
            "queue", O_FLG, "flags", O_POOLA, "pool", O_TMR, "timer")
#define CB_SEM(call, fn, v)                                                                  \
    CB_ROWS(call, fn, v, O_SEM_DEL, O_W, "thread", O_MTX, "mutex", O_QFULL, "queue", O_FLG, \
            "flags", O_POOLA, "pool", O_TMR, "timer")
#define CB_MUTEX(call, fn, v)                                                                \
    CB_ROWS(call, fn, v, O_MTX_DEL, O_W, "thread", O_SEM0, "semaphore", O_QFULL, "queue",   \
            O_FLG, "flags", O_POOLA, "pool", O_TMR, "timer")
#define CB_QUEUE(call, fn, v)                                                               \
    CB_ROWS(call, fn, v, O_Q_DEL, O_W, "thread", O_SEM0, "semaphore", O_MTX, "mutex", O_FLG, \
            "flags", O_POOLA, "pool", O_TMR, "timer")
#define CB_FLAGS(call, fn, v)                                                                \
    CB_ROWS(call, fn, v, O_FLG_DEL, O_W, "thread", O_SEM0, "semaphore", O_MTX, "mutex",     \
            O_QFULL, "queue", O_POOLA, "pool", O_TMR, "timer")
#define CB_POOL(call, fn, v)                                                                 \
    CB_ROWS(call, fn, v, O_POOL_DEL, O_W, "thread", O_SEM0, "semaphore", O_MTX, "mutex",    \
            O_QFULL, "queue", O_FLG, "flags", O_TMR, "timer")
#define CB_TIMER(call, fn, v)                                                                \
    CB_ROWS(call, fn, v, O_TMR_DEL, O_W, "thread", O_SEM0, "semaphore", O_MTX, "mutex",     \
            O_QFULL, "queue", O_FLG, "flags", O_POOLA, "pool")

#define PARAM LM_ERR_PARAM
#define OBJECT LM_ERR_OBJECT
#define PRIO LM_ERR_PRIORITY
#define ISR LM_ERR_ISR
#define STATE LM_ERR_STATE
#define LOCKED LM_ERR_LOCKED
#define SIZE LM_ERR_SIZE
#define FOREVER LM_WAIT_FOREVER
#define TMO_BIG (LM_TICK_MAX_TIMEOUT + 1u)

static const struct row rows[] = {
    /* ---- limen/thread.h ---- */
    CHK(X_THREAD, "lm_thread_create", "NULL control block", PARAM, f_thread_create, O_NONE, AT_OK)
    CHK(X_THREAD, "lm_thread_create", "NULL attr", PARAM, f_thread_create, O_X, AT_NULL_ATTR)
    CHK(X_THREAD, "lm_thread_create", "NULL entry", PARAM, f_thread_create, O_X, AT_NULL_ENTRY)
    CHK(X_THREAD, "lm_thread_create", "NULL stack", PARAM, f_thread_create, O_X, AT_NULL_STACK)
    CHK(X_THREAD, "lm_thread_create", "stack misaligned by LM_PORT_STACK_ALIGN/2", PARAM,
        f_thread_create, O_X, AT_STACK_HALF)
    CHK(X_THREAD, "lm_thread_create", "stack misaligned by 1", PARAM, f_thread_create, O_X,
        AT_STACK_ODD)
    CHK(X_THREAD, "lm_thread_create", "stack of LM_PORT_MIN_STACK - 1 bytes", PARAM,
        f_thread_create, O_X, AT_STACK_SMALL)
    CHK(X_THREAD, "lm_thread_create", "stack of 0 bytes", PARAM, f_thread_create, O_X,
        AT_STACK_ZERO)
    CHK(X_THREAD, "lm_thread_create", "time-slice above LM_TICK_MAX_TIMEOUT", PARAM,
        f_thread_create, O_X, AT_SLICE)
    CHK(X_THREAD, "lm_thread_create", "priority LM_CFG_PRIORITIES", PRIO, f_thread_create, O_X,
        AT_PRIO_RANGE)
    CHK(X_THREAD, "lm_thread_create", "priority 0xFFFF", PRIO, f_thread_create, O_X, AT_PRIO_MAX)
    CHK(X_THREAD, "lm_thread_create", "threshold LM_CFG_PRIORITIES", PRIO, f_thread_create, O_X,
        AT_THR_RANGE)
    CHK(X_THREAD, "lm_thread_create", "threshold 0xFFFE", PRIO, f_thread_create, O_X, AT_THR_HIGH)
    CHK(X_THREAD, "lm_thread_create", "threshold less urgent than the priority", PRIO,
        f_thread_create, O_X, AT_THR_LESS)
    CHK(X_THREAD, "lm_thread_create", "live thread: the caller", STATE, f_thread_create, O_SELF,
        AT_OK)
    CHK(X_THREAD, "lm_thread_create", "live thread: blocked", STATE, f_thread_create, O_W, AT_OK)
    CHK(X_THREAD, "lm_thread_create", "live thread: sleeping", STATE, f_thread_create, O_SL, AT_OK)
    CHK(X_THREAD, "lm_thread_create", "live thread: suspended", STATE, f_thread_create, O_S, AT_OK)
    CHK(X_THREAD, "lm_thread_create", "live thread: blocked and suspended", STATE,
        f_thread_create, O_B, AT_OK)
    CHK(X_THREAD, "lm_thread_create", "the idle thread", STATE, f_thread_create, O_IDLE, AT_OK)
    HOST_CHK(X_ISR, "lm_thread_create", "from an interrupt handler", ISR, f_thread_create, O_X,
             AT_OK)

    CB_THREAD("lm_thread_start", f_thread_start, 0)
    ALW(X_THREAD, "lm_thread_start", "started: the caller", STATE, f_thread_start, O_SELF, 0)
    ALW(X_THREAD, "lm_thread_start", "started: blocked", STATE, f_thread_start, O_W, 0)
    ALW(X_THREAD, "lm_thread_start", "started: sleeping", STATE, f_thread_start, O_SL, 0)
    ALW(X_THREAD, "lm_thread_start", "started: suspended", STATE, f_thread_start, O_S, 0)
    ALW(X_THREAD, "lm_thread_start", "started: blocked and suspended", STATE, f_thread_start,
        O_B, 0)
    ALW(X_THREAD, "lm_thread_start", "the idle thread", STATE, f_thread_start, O_IDLE, 0)

    CB_THREAD("lm_thread_terminate", f_thread_terminate, 0)
    ALW(X_THREAD, "lm_thread_terminate", "ended", STATE, f_thread_terminate, O_Z, 0)
    ALW(X_THREAD, "lm_thread_terminate", "never started", STATE, f_thread_terminate, O_X, 0)
    ALW(X_THREAD, "lm_thread_terminate", "the idle thread", STATE, f_thread_terminate, O_IDLE, 0)
    HOST_ALW(X_ISR_LOCKED, "lm_thread_terminate",
             "the scheduler-lock holder, from an interrupt handler", LOCKED, f_thread_terminate,
             O_SELF, 0)

    CB_THREAD("lm_thread_delete", f_thread_delete, 0)
    ALW(X_THREAD, "lm_thread_delete", "the idle thread", STATE, f_thread_delete, O_IDLE, 0)
    HOST_ALW(X_ISR_LOCKED, "lm_thread_delete",
             "the scheduler-lock holder, from an interrupt handler", LOCKED, f_thread_delete,
             O_SELF, 0)

    CB_THREAD("lm_thread_suspend", f_thread_suspend, 0)
    ALW(X_THREAD, "lm_thread_suspend", "suspended", STATE, f_thread_suspend, O_S, 0)
    ALW(X_THREAD, "lm_thread_suspend", "blocked and suspended", STATE, f_thread_suspend, O_B, 0)
    ALW(X_THREAD, "lm_thread_suspend", "never started", STATE, f_thread_suspend, O_X, 0)
    ALW(X_THREAD, "lm_thread_suspend", "ended", STATE, f_thread_suspend, O_Z, 0)
    ALW(X_THREAD, "lm_thread_suspend", "the idle thread", STATE, f_thread_suspend, O_IDLE, 0)
    ALW(X_LOCKED, "lm_thread_suspend", "itself, holding the scheduler lock", LOCKED,
        f_thread_suspend, O_SELF, 0)
    HOST_ALW(X_ISR_LOCKED, "lm_thread_suspend",
             "the scheduler-lock holder, from an interrupt handler", LOCKED, f_thread_suspend,
             O_SELF, 0)

    CB_THREAD("lm_thread_resume", f_thread_resume, 0)
    ALW(X_THREAD, "lm_thread_resume", "not suspended: the caller", STATE, f_thread_resume,
        O_SELF, 0)
    ALW(X_THREAD, "lm_thread_resume", "not suspended: blocked", STATE, f_thread_resume, O_W, 0)
    ALW(X_THREAD, "lm_thread_resume", "not suspended: sleeping", STATE, f_thread_resume, O_SL, 0)
    ALW(X_THREAD, "lm_thread_resume", "never started", STATE, f_thread_resume, O_X, 0)
    ALW(X_THREAD, "lm_thread_resume", "ended", STATE, f_thread_resume, O_Z, 0)
    ALW(X_THREAD, "lm_thread_resume", "the idle thread", STATE, f_thread_resume, O_IDLE, 0)

    CHK(X_THREAD, "lm_thread_sleep", "0x80000000 ticks", PARAM, f_sleep, O_NONE, TMO_BIG)
    CHK(X_THREAD, "lm_thread_sleep", "0xFFFFFFFE ticks", PARAM, f_sleep, O_NONE, 0xFFFFFFFEu)
    HOST_ALW(X_ISR, "lm_thread_sleep", "0 ticks from an interrupt handler", ISR, f_sleep, O_NONE, 0)
    HOST_ALW(X_ISR, "lm_thread_sleep", "5 ticks from an interrupt handler", ISR, f_sleep, O_NONE, 5)
    HOST_ALW(X_ISR, "lm_thread_sleep", "LM_WAIT_FOREVER from an interrupt handler", ISR, f_sleep,
             O_NONE, FOREVER)
    ALW(X_LOCKED, "lm_thread_sleep", "1 tick holding the scheduler lock", LOCKED, f_sleep, O_NONE,
        1)
    ALW(X_LOCKED, "lm_thread_sleep", "LM_WAIT_FOREVER holding the scheduler lock", LOCKED, f_sleep,
        O_NONE, FOREVER)
    ALW(X_PRESTART, "lm_thread_sleep", "5 ticks before lm_kernel_start()", STATE, f_sleep, O_NONE,
        5)
    HOST_ALW(X_IDLE, "lm_thread_sleep", "5 ticks from the idle hook", STATE, f_sleep, O_NONE, 5)

    CHK(X_THREAD, "lm_thread_sleep_until", "wake NULL", PARAM, f_sleep_until, O_NONE, SU_NULL)
    CHK(X_THREAD, "lm_thread_sleep_until", "period 0", PARAM, f_sleep_until, O_NONE, SU_P0)
    CHK(X_THREAD, "lm_thread_sleep_until", "period 0x80000000", PARAM, f_sleep_until, O_NONE,
        SU_PBIG)
    CHK(X_THREAD, "lm_thread_sleep_until", "period LM_WAIT_FOREVER", PARAM, f_sleep_until,
        O_NONE, SU_PFOREVER)
    HOST_ALW(X_ISR, "lm_thread_sleep_until", "deadline ahead, from an interrupt handler", ISR,
             f_sleep_until, O_NONE, SU_AHEAD)
    HOST_ALW(X_ISR, "lm_thread_sleep_until", "deadline passed, from an interrupt handler", ISR,
             f_sleep_until, O_NONE, SU_PASSED)
    ALW(X_LOCKED, "lm_thread_sleep_until", "deadline ahead, holding the scheduler lock", LOCKED,
        f_sleep_until, O_NONE, SU_AHEAD)
    ALW(X_PRESTART, "lm_thread_sleep_until", "deadline ahead, before lm_kernel_start()", STATE,
        f_sleep_until, O_NONE, SU_AHEAD)
    HOST_ALW(X_IDLE, "lm_thread_sleep_until", "deadline ahead, from the idle hook", STATE,
             f_sleep_until, O_NONE, SU_AHEAD)

    HOST_ALW(X_ISR, "lm_thread_yield", "from an interrupt handler", ISR, f_yield, O_NONE, 0)
    ALW(X_LOCKED, "lm_thread_yield", "holding the scheduler lock", LOCKED, f_yield, O_NONE, 0)

    CB_THREAD("lm_thread_set_priority", f_thread_set_priority, 5)
    CHK(X_THREAD, "lm_thread_set_priority", "priority LM_CFG_PRIORITIES", PRIO,
        f_thread_set_priority, O_W, LM_CFG_PRIORITIES)
    CHK(X_THREAD, "lm_thread_set_priority", "priority 0x10001 (1 if cut to 16 bits)", PRIO,
        f_thread_set_priority, O_W, 0x10001u)
    CHK(X_THREAD, "lm_thread_set_priority", "priority UINT_MAX", PRIO, f_thread_set_priority, O_W,
        UINT32_MAX)
    ALW(X_THREAD, "lm_thread_set_priority", "the idle thread", STATE, f_thread_set_priority,
        O_IDLE, 5)

    CB_THREAD("lm_thread_set_threshold", f_thread_set_threshold, LM_THRESHOLD_NONE)
    CHK(X_THREAD, "lm_thread_set_threshold", "threshold LM_CFG_PRIORITIES", PRIO,
        f_thread_set_threshold, O_W, LM_CFG_PRIORITIES)
    CHK(X_THREAD, "lm_thread_set_threshold", "threshold less urgent than the base priority", PRIO,
        f_thread_set_threshold, O_W, 9) /* sL has priority 8 */
    CHK(X_THREAD, "lm_thread_set_threshold", "threshold 0x10000 (0 if cut to 16 bits)", PRIO,
        f_thread_set_threshold, O_W, 0x10000u)
    CHK(X_THREAD, "lm_thread_set_threshold",
        "threshold 0x1FFFF (LM_THRESHOLD_NONE if cut to 16 bits)", PRIO, f_thread_set_threshold,
        O_W, 0x1FFFFu)
    ALW(X_THREAD, "lm_thread_set_threshold", "the idle thread", STATE, f_thread_set_threshold,
        O_IDLE, 0)
#if LMT_FIXED_IDLE_THRESHOLD
    /* A legal threshold for any other thread: only the idle thread is wrong
     * here. The kernel returns LM_ERR_PRIORITY (the idle thread's base
     * priority is LM_CFG_PRIORITIES, out of range), docs/errors.md says
     * "any call on the idle thread" is LM_ERR_STATE. */
    ALW(X_THREAD, "lm_thread_set_threshold", "the idle thread, LM_THRESHOLD_NONE", STATE,
        f_thread_set_threshold, O_IDLE, LM_THRESHOLD_NONE)
#endif

    CB_THREAD("lm_thread_wait_abort", f_thread_wait_abort, 0)
    ALW(X_THREAD, "lm_thread_wait_abort", "not waiting: the caller", STATE, f_thread_wait_abort,
        O_SELF, 0)
    ALW(X_THREAD, "lm_thread_wait_abort", "not waiting: suspended", STATE, f_thread_wait_abort,
        O_S, 0)
    ALW(X_THREAD, "lm_thread_wait_abort", "never started", STATE, f_thread_wait_abort, O_X, 0)
    ALW(X_THREAD, "lm_thread_wait_abort", "ended", STATE, f_thread_wait_abort, O_Z, 0)
    ALW(X_THREAD, "lm_thread_wait_abort", "the idle thread", STATE, f_thread_wait_abort, O_IDLE, 0)

    CB_THREAD("lm_thread_stack_unused", f_thread_stack_unused, 0)
    CHK(X_THREAD, "lm_thread_stack_unused", "NULL output", PARAM, f_thread_stack_unused, O_W, 1)
#if LM_CFG_STATS
    CB_THREAD("lm_thread_stats", f_thread_stats, 0)
    CHK(X_THREAD, "lm_thread_stats", "NULL output", PARAM, f_thread_stats, O_W, 1)
#endif

    /* ---- limen/kernel.h ---- */
    HOST_ALW(X_ISR, "lm_sched_lock", "from an interrupt handler", ISR, f_sched_lock, O_NONE, 0)
    ALW(X_THREAD, "lm_sched_unlock", "not locked", STATE, f_sched_unlock, O_NONE, 0)
    HOST_ALW(X_ISR, "lm_sched_unlock", "from an interrupt handler", ISR, f_sched_unlock, O_NONE, 0)
    HOST_ALW(X_ISR_LOCKED, "lm_sched_unlock",
             "from an interrupt handler while a thread holds the lock", ISR, f_sched_unlock,
             O_NONE, 0)

    /* ---- limen/sem.h ---- */
    CHK(X_THREAD, "lm_sem_create", "NULL control block", PARAM, f_sem_create, O_NONE, SC_OK)
    CHK(X_THREAD, "lm_sem_create", "maximum 0", PARAM, f_sem_create, O_SEM0, SC_MAX0)
    CHK(X_THREAD, "lm_sem_create", "initial count above the maximum", PARAM, f_sem_create, O_SEM0,
        SC_INIT_GT)
    CHK(X_THREAD, "lm_sem_create", "initial count UINT32_MAX, maximum 5", PARAM, f_sem_create,
        O_SEMC, SC_INIT_HUGE)
    CB_SEM("lm_sem_delete", f_sem_delete, 0)
    CB_SEM("lm_sem_take", f_sem_take, LM_NO_WAIT)
    CHK(X_THREAD, "lm_sem_take", "timeout 0x80000000", PARAM, f_sem_take, O_SEM0, TMO_BIG)
    CHK(X_THREAD, "lm_sem_take", "timeout 0xFFFFFFFE", PARAM, f_sem_take, O_SEMC, 0xFFFFFFFEu)
    HOST_ALW(X_ISR, "lm_sem_take", "timeout 5 from an interrupt handler (count 0)", ISR,
             f_sem_take, O_SEM0, 5)
    HOST_ALW(X_ISR, "lm_sem_take", "timeout 5 from an interrupt handler (count 2)", ISR,
             f_sem_take, O_SEMC, 5)
    HOST_ALW(X_ISR, "lm_sem_take", "LM_WAIT_FOREVER from an interrupt handler", ISR, f_sem_take,
             O_SEM0, FOREVER)
    ALW(X_LOCKED, "lm_sem_take", "timeout 5 holding the scheduler lock", LOCKED, f_sem_take,
        O_SEM0, 5)
    ALW(X_PRESTART, "lm_sem_take", "timeout 5 before lm_kernel_start()", STATE, f_sem_take,
        O_SEM0, 5)
    ALW(X_PRESTART, "lm_sem_take", "LM_WAIT_FOREVER before lm_kernel_start()", STATE, f_sem_take,
        O_SEM0, FOREVER)
    HOST_ALW(X_IDLE, "lm_sem_take", "timeout 5 from the idle hook", STATE, f_sem_take, O_SEM0, 5)
    CB_SEM("lm_sem_give", f_sem_give, 0)
    CB_SEM("lm_sem_count", f_sem_count, 0)
    CHK(X_THREAD, "lm_sem_count", "NULL output", PARAM, f_sem_count, O_SEMC, 1)

    /* ---- limen/mutex.h ---- */
    CHK(X_THREAD, "lm_mutex_create", "NULL control block", PARAM, f_mutex_create, O_NONE, 0)
    CHK(X_THREAD, "lm_mutex_create", "unknown option 0x2", PARAM, f_mutex_create, O_MTX, 0x2u)
    CHK(X_THREAD, "lm_mutex_create", "unknown option 0x80000000", PARAM, f_mutex_create, O_MTX,
        0x80000000u)
    CHK(X_THREAD, "lm_mutex_create", "every option bit", PARAM, f_mutex_create, O_MFREE,
        0xFFFFFFFFu)
    CB_MUTEX("lm_mutex_delete", f_mutex_delete, 0)
    CB_MUTEX("lm_mutex_lock", f_mutex_lock, LM_NO_WAIT)
    CHK(X_THREAD, "lm_mutex_lock", "timeout 0x80000000", PARAM, f_mutex_lock, O_MFREE, TMO_BIG)
    CHK(X_THREAD, "lm_mutex_lock", "timeout 0xFFFFFFFE", PARAM, f_mutex_lock, O_MTX, 0xFFFFFFFEu)
    HOST_ALW(X_ISR, "lm_mutex_lock", "LM_NO_WAIT from an interrupt handler (owned)", ISR,
             f_mutex_lock, O_MTX, LM_NO_WAIT)
    HOST_ALW(X_ISR, "lm_mutex_lock", "LM_NO_WAIT from an interrupt handler (free)", ISR,
             f_mutex_lock, O_MFREE, LM_NO_WAIT)
    HOST_ALW(X_ISR, "lm_mutex_lock", "timeout 5 from an interrupt handler (free)", ISR,
             f_mutex_lock, O_MFREE, 5)
    ALW(X_LOCKED, "lm_mutex_lock", "timeout 5 holding the scheduler lock (owned)", LOCKED,
        f_mutex_lock, O_MTX, 5)
    ALW(X_PRESTART, "lm_mutex_lock", "LM_NO_WAIT before lm_kernel_start() (free)", STATE,
        f_mutex_lock, O_MFREE, LM_NO_WAIT)
    ALW(X_PRESTART, "lm_mutex_lock", "timeout 5 before lm_kernel_start() (free)", STATE,
        f_mutex_lock, O_MFREE, 5)
    HOST_ALW(X_IDLE, "lm_mutex_lock", "LM_NO_WAIT from the idle hook (free)", STATE, f_mutex_lock,
             O_MFREE, LM_NO_WAIT)
    HOST_ALW(X_IDLE, "lm_mutex_lock", "LM_NO_WAIT from the idle hook (owned)", STATE,
             f_mutex_lock, O_MTX, LM_NO_WAIT)
    CB_MUTEX("lm_mutex_unlock", f_mutex_unlock, 0)
    ALW(X_THREAD, "lm_mutex_unlock", "not the owner (owned by another thread, depth 2)",
        LM_ERR_NOT_OWNER, f_mutex_unlock, O_MTX, 0)
    ALW(X_THREAD, "lm_mutex_unlock", "not the owner (free)", LM_ERR_NOT_OWNER, f_mutex_unlock,
        O_MFREE, 0)
    ALW(X_PRESTART, "lm_mutex_unlock", "before lm_kernel_start() (free)", LM_ERR_NOT_OWNER,
        f_mutex_unlock, O_MFREE, 0)
    HOST_ALW(X_IDLE, "lm_mutex_unlock", "from the idle hook (owned by another thread)",
             LM_ERR_NOT_OWNER, f_mutex_unlock, O_MTX, 0)
    HOST_ALW(X_ISR, "lm_mutex_unlock", "from an interrupt handler (owned)", ISR, f_mutex_unlock,
             O_MTX, 0)
    HOST_ALW(X_ISR, "lm_mutex_unlock", "from an interrupt handler (free)", ISR, f_mutex_unlock,
             O_MFREE, 0)

    /* ---- limen/queue.h ---- */
    CHK(X_THREAD, "lm_queue_create", "NULL control block", PARAM, f_queue_create, O_NONE, QC_OK)
    CHK(X_THREAD, "lm_queue_create", "NULL buffer", PARAM, f_queue_create, O_QFULL, QC_NULL_BUF)
    CHK(X_THREAD, "lm_queue_create", "message size 0", PARAM, f_queue_create, O_QFULL, QC_SIZE0)
    CHK(X_THREAD, "lm_queue_create", "capacity 0", PARAM, f_queue_create, O_QEMPTY, QC_CAP0)
    CHK(X_THREAD, "lm_queue_create", "size x capacity above 32 bits (65536 x 65536)", PARAM,
        f_queue_create, O_QFULL, QC_OVF)
    CHK(X_THREAD, "lm_queue_create", "size SIZE_MAX x capacity 2", PARAM, f_queue_create,
        O_QEMPTY, QC_OVF_MAX)
    CB_QUEUE("lm_queue_delete", f_queue_delete, 0)

#define QUEUE_SEND_ROWS(call, fn)                                                              \
    CB_QUEUE(call, fn, QV_OK)                                                                  \
    CHK(X_THREAD, call, "NULL message", PARAM, fn, O_QEMPTY, QV_NULL)                          \
    CHK(X_THREAD, call, "timeout 0x80000000", PARAM, fn, O_QFULL, QV_TMO_BIG)                  \
    CHK(X_THREAD, call, "timeout 0xFFFFFFFE", PARAM, fn, O_QEMPTY, QV_TMO_FFFE)                \
    CHK(X_THREAD, call, "size 0 (receivers waiting)", SIZE, fn, O_QEMPTY, QV_SIZE0)            \
    CHK(X_THREAD, call, "size 7 (receivers waiting)", SIZE, fn, O_QEMPTY, QV_SIZE_LESS)        \
    CHK(X_THREAD, call, "size 9 (receivers waiting)", SIZE, fn, O_QEMPTY, QV_SIZE_MORE)        \
    CHK(X_THREAD, call, "size SIZE_MAX (receivers waiting)", SIZE, fn, O_QEMPTY, QV_SIZE_MAX)  \
    CHK(X_THREAD, call, "size 9 (full)", SIZE, fn, O_QFULL, QV_SIZE_MORE)                      \
    HOST_ALW(X_ISR, call, "timeout 5 from an interrupt handler (full)", ISR, fn, O_QFULL,      \
             QV_T5)                                                                            \
    HOST_ALW(X_ISR, call, "timeout 5 from an interrupt handler (receivers waiting)", ISR, fn, \
             O_QEMPTY, QV_T5)                                                                  \
    ALW(X_LOCKED, call, "timeout 5 holding the scheduler lock (full)", LOCKED, fn, O_QFULL,    \
        QV_T5)                                                                                 \
    ALW(X_PRESTART, call, "timeout 5 before lm_kernel_start() (full)", STATE, fn, O_QFULL,     \
        QV_T5)                                                                                 \
    HOST_ALW(X_IDLE, call, "timeout 5 from the idle hook (full)", STATE, fn, O_QFULL, QV_T5)
    QUEUE_SEND_ROWS("lm_queue_send", f_queue_send)
    QUEUE_SEND_ROWS("lm_queue_send_front", f_queue_send_front)

    CB_QUEUE("lm_queue_receive", f_queue_receive, QV_OK)
    CHK(X_THREAD, "lm_queue_receive", "NULL buffer", PARAM, f_queue_receive, O_QFULL, QV_NULL)
    CHK(X_THREAD, "lm_queue_receive", "timeout 0x80000000", PARAM, f_queue_receive, O_QEMPTY,
        QV_TMO_BIG)
    CHK(X_THREAD, "lm_queue_receive", "timeout 0xFFFFFFFE", PARAM, f_queue_receive, O_QFULL,
        QV_TMO_FFFE)
    CHK(X_THREAD, "lm_queue_receive", "size 0 (messages queued)", SIZE, f_queue_receive, O_QFULL,
        QV_SIZE0)
    CHK(X_THREAD, "lm_queue_receive", "size 7 (messages queued)", SIZE, f_queue_receive, O_QFULL,
        QV_SIZE_LESS)
    CHK(X_THREAD, "lm_queue_receive", "size 9 (messages queued)", SIZE, f_queue_receive, O_QFULL,
        QV_SIZE_MORE)
    CHK(X_THREAD, "lm_queue_receive", "size SIZE_MAX (messages queued)", SIZE, f_queue_receive,
        O_QFULL, QV_SIZE_MAX)
    CHK(X_THREAD, "lm_queue_receive", "size 9 (empty)", SIZE, f_queue_receive, O_QEMPTY,
        QV_SIZE_MORE)
    HOST_ALW(X_ISR, "lm_queue_receive", "timeout 5 from an interrupt handler (messages queued)",
             ISR, f_queue_receive, O_QFULL, QV_T5)
    HOST_ALW(X_ISR, "lm_queue_receive", "timeout 5 from an interrupt handler (empty)", ISR,
             f_queue_receive, O_QEMPTY, QV_T5)
    ALW(X_LOCKED, "lm_queue_receive", "timeout 5 holding the scheduler lock (empty)", LOCKED,
        f_queue_receive, O_QEMPTY, QV_T5)
    ALW(X_PRESTART, "lm_queue_receive", "timeout 5 before lm_kernel_start() (empty)", STATE,
        f_queue_receive, O_QEMPTY, QV_T5)
    HOST_ALW(X_IDLE, "lm_queue_receive", "timeout 5 from the idle hook (empty)", STATE,
             f_queue_receive, O_QEMPTY, QV_T5)

    CB_QUEUE("lm_queue_peek", f_queue_peek, QV_OK)
    CHK(X_THREAD, "lm_queue_peek", "NULL buffer", PARAM, f_queue_peek, O_QFULL, QV_NULL)
    CHK(X_THREAD, "lm_queue_peek", "size 0", SIZE, f_queue_peek, O_QFULL, QV_SIZE0)
    CHK(X_THREAD, "lm_queue_peek", "size 7", SIZE, f_queue_peek, O_QFULL, QV_SIZE_LESS)
    CHK(X_THREAD, "lm_queue_peek", "size 9", SIZE, f_queue_peek, O_QFULL, QV_SIZE_MORE)
    CB_QUEUE("lm_queue_flush", f_queue_flush, 0)
    CB_QUEUE("lm_queue_count", f_queue_count, 0)
    CHK(X_THREAD, "lm_queue_count", "NULL output", PARAM, f_queue_count, O_QFULL, 1)

    /* ---- limen/flags.h ---- */
    CHK(X_THREAD, "lm_flags_create", "NULL control block", PARAM, f_flags_create, O_NONE, 0)
    CB_FLAGS("lm_flags_delete", f_flags_delete, 0)
    CB_FLAGS("lm_flags_set", f_flags_set, 0x1u)
    CB_FLAGS("lm_flags_clear", f_flags_clear, 0x10u)
    CB_FLAGS("lm_flags_wait", f_flags_wait, FW_OK)
    CHK(X_THREAD, "lm_flags_wait", "no bits requested", PARAM, f_flags_wait, O_FLG, FW_BITS0)
    CHK(X_THREAD, "lm_flags_wait", "unknown option 0x4", PARAM, f_flags_wait, O_FLG, FW_OPT4)
    CHK(X_THREAD, "lm_flags_wait", "unknown option 0x80000000", PARAM, f_flags_wait, O_FLG,
        FW_OPT_TOP)
    CHK(X_THREAD, "lm_flags_wait", "timeout 0x80000000", PARAM, f_flags_wait, O_FLG, FW_TMO_BIG)
    CHK(X_THREAD, "lm_flags_wait", "timeout 0xFFFFFFFE", PARAM, f_flags_wait, O_FLG, FW_TMO_FFFE)
    HOST_ALW(X_ISR, "lm_flags_wait", "timeout 5 from an interrupt handler (not satisfied)", ISR,
             f_flags_wait, O_FLG, FW_T5)
    HOST_ALW(X_ISR, "lm_flags_wait",
             "timeout 5 from an interrupt handler (satisfied, would consume)", ISR, f_flags_wait,
             O_FLG, FW_SAT_T5)
    ALW(X_LOCKED, "lm_flags_wait", "timeout 5 holding the scheduler lock", LOCKED, f_flags_wait,
        O_FLG, FW_T5)
    ALW(X_LOCKED, "lm_flags_wait", "LM_WAIT_FOREVER holding the scheduler lock", LOCKED,
        f_flags_wait, O_FLG, FW_FOREVER)
    ALW(X_PRESTART, "lm_flags_wait", "timeout 5 before lm_kernel_start()", STATE, f_flags_wait,
        O_FLG, FW_T5)
    HOST_ALW(X_IDLE, "lm_flags_wait", "timeout 5 from the idle hook", STATE, f_flags_wait, O_FLG,
             FW_T5)
    CB_FLAGS("lm_flags_get", f_flags_get, 0)
    CHK(X_THREAD, "lm_flags_get", "NULL output", PARAM, f_flags_get, O_FLG, 1)

    /* ---- limen/pool.h ---- */
    CHK(X_THREAD, "lm_pool_create", "NULL control block", PARAM, f_pool_create, O_NONE, PC_OK)
    CHK(X_THREAD, "lm_pool_create", "NULL buffer", PARAM, f_pool_create, O_POOLA, PC_NULL_BUF)
    CHK(X_THREAD, "lm_pool_create", "buffer misaligned by sizeof(void *)/2", PARAM, f_pool_create,
        O_POOLA, PC_MIS_HALF)
    CHK(X_THREAD, "lm_pool_create", "buffer misaligned by 1", PARAM, f_pool_create, O_POOLB,
        PC_MIS_1)
    CHK(X_THREAD, "lm_pool_create", "block size 0", PARAM, f_pool_create, O_POOLA, PC_BS0)
    CHK(X_THREAD, "lm_pool_create", "block count 0", PARAM, f_pool_create, O_POOLA, PC_CNT0)
    CHK(X_THREAD, "lm_pool_create", "5 blocks in a buffer for 4", PARAM, f_pool_create, O_POOLB,
        PC_NOFIT)
    CHK(X_THREAD, "lm_pool_create", "buffer size 0", PARAM, f_pool_create, O_POOLA, PC_BUF0)
    CHK(X_THREAD, "lm_pool_create", "block size SIZE_MAX", PARAM, f_pool_create, O_POOLA,
        PC_BS_HUGE)
    CHK(X_THREAD, "lm_pool_create", "block count SIZE_MAX", PARAM, f_pool_create, O_POOLB,
        PC_CNT_HUGE)
    CB_POOL("lm_pool_delete", f_pool_delete, 0)
    CB_POOL("lm_pool_alloc", f_pool_alloc, PA_OK)
    CHK(X_THREAD, "lm_pool_alloc", "NULL output", PARAM, f_pool_alloc, O_POOLB, PA_NULL)
    CHK(X_THREAD, "lm_pool_alloc", "timeout 0x80000000", PARAM, f_pool_alloc, O_POOLA, PA_TMO_BIG)
    CHK(X_THREAD, "lm_pool_alloc", "timeout 0xFFFFFFFE", PARAM, f_pool_alloc, O_POOLB,
        PA_TMO_FFFE)
    HOST_ALW(X_ISR, "lm_pool_alloc", "timeout 5 from an interrupt handler (empty)", ISR,
             f_pool_alloc, O_POOLA, PA_T5)
    HOST_ALW(X_ISR, "lm_pool_alloc", "timeout 5 from an interrupt handler (blocks free)", ISR,
             f_pool_alloc, O_POOLB, PA_T5)
    ALW(X_LOCKED, "lm_pool_alloc", "timeout 5 holding the scheduler lock (empty)", LOCKED,
        f_pool_alloc, O_POOLA, PA_T5)
    ALW(X_PRESTART, "lm_pool_alloc", "timeout 5 before lm_kernel_start() (empty)", STATE,
        f_pool_alloc, O_POOLA, PA_T5)
    HOST_ALW(X_IDLE, "lm_pool_alloc", "timeout 5 from the idle hook (empty)", STATE, f_pool_alloc,
             O_POOLA, PA_T5)
    CB_POOL("lm_pool_free", f_pool_free, FB_B0)
    CHK(X_THREAD, "lm_pool_free", "NULL block", PARAM, f_pool_free, O_POOLA, FB_NULL)
    CHK(X_THREAD, "lm_pool_free", "block of another pool (waiters present)", PARAM, f_pool_free,
        O_POOLA, FB_B0)
    CHK(X_THREAD, "lm_pool_free", "block of another pool", PARAM, f_pool_free, O_POOLB, FB_A1)
    CHK(X_THREAD, "lm_pool_free", "inside a block, +8 bytes (waiters present)", PARAM,
        f_pool_free, O_POOLA, FB_A1_PLUS8)
    CHK(X_THREAD, "lm_pool_free", "inside a block, +8 bytes", PARAM, f_pool_free, O_POOLB,
        FB_B0_PLUS8)
    CHK(X_THREAD, "lm_pool_free", "misaligned block, +1 byte", PARAM, f_pool_free, O_POOLA,
        FB_A1_PLUS1)
    CHK(X_THREAD, "lm_pool_free", "last byte of the buffer", PARAM, f_pool_free, O_POOLB,
        FB_B_LAST)
    CHK(X_THREAD, "lm_pool_free", "one past the end of the buffer", PARAM, f_pool_free, O_POOLA,
        FB_A_END)
    CHK(X_THREAD, "lm_pool_free", "one block before the buffer", PARAM, f_pool_free, O_POOLB,
        FB_B_BEFORE)
    CHK(X_THREAD, "lm_pool_free", "unrelated memory", PARAM, f_pool_free, O_POOLA, FB_STATIC)
    CHK(X_THREAD, "lm_pool_free", "block freed twice", STATE, f_pool_free, O_POOLB, FB_B2)
    CHK(X_THREAD, "lm_pool_free", "block never allocated", STATE, f_pool_free, O_POOLB, FB_B3)
    CB_POOL("lm_pool_available", f_pool_available, 0)
    CHK(X_THREAD, "lm_pool_available", "NULL output", PARAM, f_pool_available, O_POOLB, 1)

    /* ---- limen/timer.h ---- */
    CHK(X_THREAD, "lm_timer_create", "NULL control block", PARAM, f_timer_create, O_NONE, 0)
    CHK(X_THREAD, "lm_timer_create", "NULL callback", PARAM, f_timer_create, O_TMR, 1)
    CB_TIMER("lm_timer_delete", f_timer_delete, 0)
    CB_TIMER("lm_timer_start", f_timer_start, TS_OK)
    CHK(X_THREAD, "lm_timer_start", "delay 0", PARAM, f_timer_start, O_TMR, TS_DELAY0)
    CHK(X_THREAD, "lm_timer_start", "delay 0x80000000", PARAM, f_timer_start, O_TMR, TS_DELAY_BIG)
    CHK(X_THREAD, "lm_timer_start", "delay LM_WAIT_FOREVER", PARAM, f_timer_start, O_TMR_STOP,
        TS_DELAY_FOREVER)
    CHK(X_THREAD, "lm_timer_start", "period 0x80000000", PARAM, f_timer_start, O_TMR,
        TS_PERIOD_BIG)
    CHK(X_THREAD, "lm_timer_start", "period LM_WAIT_FOREVER", PARAM, f_timer_start, O_TMR,
        TS_PERIOD_FOREVER)
    CB_TIMER("lm_timer_stop", f_timer_stop, 0)
    ALW(X_THREAD, "lm_timer_stop", "stopped", STATE, f_timer_stop, O_TMR_STOP, 0)
};

#define NROWS ((unsigned)(sizeof rows / sizeof rows[0]))

/* ---- snapshots ---------------------------------------------------------- */

/* Raw bytes: every control block, buffer and output area. */
struct region {
    const char *name;
    const void *p;
    size_t n;
};
#define MAX_REGIONS 80u
static struct region regions[MAX_REGIONS];
static unsigned nregions;
static size_t raw_total;
#define RAW_BYTES (sizeof cbs + sizeof(lm_thread_t) * (LMT_MAX_THREADS + 1u) + \
                   sizeof spare_stack + 3u * sizeof(lm_sem_t) + 1024u)
static uint8_t raw_before[RAW_BYTES];

static void watch(const char *name, const void *p, size_t n)
{
    LMT_CHECK(nregions < MAX_REGIONS && raw_total + n <= RAW_BYTES);
    regions[nregions].name = name;
    regions[nregions].p = p;
    regions[nregions].n = n;
    nregions++;
    raw_total += n;
}

/* What the API reports. */
#define MAX_THREADS (LMT_MAX_THREADS + 1)
static lm_thread_t *threads[MAX_THREADS];
static unsigned nthreads;

struct view {
    uint32_t count[7];      /* sem0, semc, qfull, qempty, poolA, poolB (free), flg (bits) */
    lm_status_t peek_st;
    uint8_t peek[MSG];
    const lm_thread_t *owner[2];
    bool timer_active[2];
    lm_tick_t now, next_deadline;
    unsigned lock_depth;
    const lm_thread_t *self;
    lm_kernel_stats_t ks;
    struct {
        unsigned state, prio, base, threshold;
    } th[MAX_THREADS];
};
static struct view before, after;

static void view_take(struct view *v)
{
    memset(v, 0, sizeof *v);
    LMT_ST(lm_sem_count(SEM0, &v->count[0]), LM_OK);
    LMT_ST(lm_sem_count(SEMC, &v->count[1]), LM_OK);
    LMT_ST(lm_queue_count(QFULL, &v->count[2]), LM_OK);
    LMT_ST(lm_queue_count(QEMPTY, &v->count[3]), LM_OK);
    LMT_ST(lm_pool_available(POOLA, &v->count[4]), LM_OK);
    LMT_ST(lm_pool_available(POOLB, &v->count[5]), LM_OK);
    LMT_ST(lm_flags_get(FLG, &v->count[6]), LM_OK);
    v->peek_st = lm_queue_peek(QFULL, v->peek, MSG);
    v->owner[0] = lm_mutex_owner(MTX);
    v->owner[1] = lm_mutex_owner(MFREE);
    v->timer_active[0] = lm_timer_active(TMR);
    v->timer_active[1] = lm_timer_active(&cbs[O_TMR_STOP].tm);
    v->lock_depth = lm_sched_lock_depth();
    v->self = lm_thread_self();
    lm_kernel_stats(&v->ks);
    v->ks.interrupts = 0u; /* a call made from a handler counts its interrupt */
#if defined(LM_PORT_HOSTED)
    v->now = lm_tick_now();
    v->next_deadline = lm_tick_next_deadline();
#else
    /* On a board the tick keeps running while a row runs: time, the
     * distance to the next deadline and the tick count move. The armed
     * timeouts themselves are in the raw bytes of the timers and threads. */
    v->ks.ticks = 0;
#endif
    for (unsigned i = 0; i < nthreads; i++) {
        v->th[i].state = (unsigned)lm_thread_state(threads[i]);
        v->th[i].prio = lm_thread_priority(threads[i]);
        v->th[i].base = lm_thread_base_priority(threads[i]);
        v->th[i].threshold = lm_thread_threshold(threads[i]);
    }
}

static void snap_take(void)
{
    view_take(&before);
    size_t off = 0;
    for (unsigned i = 0; i < nregions; i++) {
        memcpy(raw_before + off, regions[i].p, regions[i].n);
        off += regions[i].n;
    }
}

static void snap_compare(const struct row *r)
{
    view_take(&after);
    static const char *const count_name[7] = {"sem0 count", "semc count", "qfull count",
                                              "qempty count", "poolA free", "poolB free",
                                              "flg bits"};
    for (unsigned i = 0; i < 7u; i++) {
        if (before.count[i] != after.count[i]) {
            lmt_fail(__FILE__, __LINE__, "%s / %s: %s %u -> %u", r->call, r->input, count_name[i],
                     (unsigned)before.count[i], (unsigned)after.count[i]);
        }
    }
    for (unsigned i = 0; i < nthreads; i++) {
        if (memcmp(&before.th[i], &after.th[i], sizeof before.th[i]) != 0) {
            lmt_fail(__FILE__, __LINE__,
                     "%s / %s: thread %s state/prio/base/threshold %u/%u/%u/%u -> %u/%u/%u/%u",
                     r->call, r->input, lm_thread_name(threads[i]), before.th[i].state,
                     before.th[i].prio, before.th[i].base, before.th[i].threshold,
                     after.th[i].state, after.th[i].prio, after.th[i].base,
                     after.th[i].threshold);
        }
    }
    if (memcmp(&before, &after, sizeof before) != 0) {
        lmt_fail(__FILE__, __LINE__,
                 "%s / %s: queue head, owner, timer, time, lock, running thread or switch "
                 "statistics changed",
                 r->call, r->input);
    }
    size_t off = 0;
    for (unsigned i = 0; i < nregions; i++) {
        const uint8_t *now = regions[i].p;
        if (memcmp(now, raw_before + off, regions[i].n) != 0) {
            size_t b = 0;
            while (now[b] == raw_before[off + b]) {
                b++;
            }
            lmt_fail(__FILE__, __LINE__, "%s / %s: byte %u of %s changed (0x%02x -> 0x%02x)",
                     r->call, r->input, (unsigned)b, regions[i].name,
                     (unsigned)raw_before[off + b], (unsigned)now[b]);
        }
        off += regions[i].n;
    }
}

/* ---- running the rows --------------------------------------------------- */

static unsigned rows_run;

#if defined(LM_PORT_HOSTED)
static const struct row *isr_row;
static lm_status_t isr_status;
static bool isr_ran;

static void isr_handler(void *arg)
{
    (void)arg;
    LMT_CHECK(lm_port_in_isr());
    isr_status = isr_row->fn(objp[isr_row->obj], isr_row->v);
    isr_ran = true;
}
#endif

static void run_row(const struct row *r)
{
    bool locked = r->ctx == X_LOCKED || r->ctx == X_ISR_LOCKED;
    if (locked) {
        LMT_ST(lm_sched_lock(), LM_OK);
    }
    snap_take();
    lm_status_t st;
#if defined(LM_PORT_HOSTED)
    if (r->ctx == X_ISR || r->ctx == X_ISR_LOCKED) {
        isr_row = r;
        isr_ran = false;
        LMT_EQ(lm_hosted_irq_raise(isr_handler, NULL), 0); /* delivered at once */
        LMT_CHECK(isr_ran);
        st = isr_status;
    } else
#endif
    {
        st = r->fn(objp[r->obj], r->v);
    }
    if (st != r->status) {
        lmt_fail(__FILE__, __LINE__, "%s / %s (on %s): returned %s, expected %s", r->call,
                 r->input, obj_name[r->obj], lm_status_name(st), lm_status_name(r->status));
    }
    snap_compare(r);
    if (locked) {
        LMT_ST(lm_sched_unlock(), LM_OK);
    }
    rows_run++;
}

static void run_phase(uint8_t ctx)
{
    for (unsigned i = 0; i < NROWS; i++) {
        if (rows[i].ctx == ctx) {
            run_row(&rows[i]);
        }
    }
}

/* ---- the threads -------------------------------------------------------- */

/* Two waiters per object: L (priority 8) arrives first, H (priority 4)
 * second, so that priority order and arrival order differ. */
#define NWAIT 12u
static lm_thread_t *wt[NWAIT];

static void w_sem(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(SEM0, LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void w_mutex(void *arg)
{
    (void)arg;
    lm_status_t st = lm_mutex_lock(MTX, LM_WAIT_FOREVER);
    lmt_log("%s:%s:%s", lmt_me(), lmt_sn(st), lm_mutex_owner(MTX) == lm_thread_self() ? "own" : "-");
    LMT_ST(lm_mutex_unlock(MTX), LM_OK);
}

static void w_send(void *arg)
{
    lm_status_t st = (arg == NULL) ? lm_queue_send(QFULL, msg_c, MSG, LM_WAIT_FOREVER)
                                   : lm_queue_send_front(QFULL, msg_d, MSG, LM_WAIT_FOREVER);
    lmt_log("%s:%s", lmt_me(), lmt_sn(st));
}

static void w_recv(void *arg)
{
    uint8_t *buf = rbuf[(uintptr_t)arg];
    lm_status_t st = lm_queue_receive(QEMPTY, buf, MSG, LM_WAIT_FOREVER);
    lmt_log("%s:%s:%c", lmt_me(), lmt_sn(st), msg_letter(buf));
}

static void w_flags(void *arg)
{
    uint32_t actual = 0;
    lm_status_t st = (arg == NULL)
                         ? lm_flags_wait(FLG, 0x300u, LM_FLAGS_ALL, &actual, LM_WAIT_FOREVER)
                         : lm_flags_wait(FLG, 0x200u, LM_FLAGS_ANY | LM_FLAGS_CONSUME, &actual,
                                         LM_WAIT_FOREVER);
    lmt_log("%s:%s:%x", lmt_me(), lmt_sn(st), (unsigned)actual);
}

static void w_pool(void *arg)
{
    void **slot = &pslot[(uintptr_t)arg];
    lm_status_t st = lm_pool_alloc(POOLA, slot, LM_WAIT_FOREVER);
    unsigned idx = 99;
    for (unsigned i = 0; i < NBLK; i++) {
        if (*slot == blk_a[i]) {
            idx = i;
        }
    }
    lmt_log("%s:%s:%u", lmt_me(), lmt_sn(st), idx);
}

static const struct {
    const char *name;
    lm_thread_entry_t fn;
} wdef[NWAIT / 2u] = {{"s", w_sem},   {"m", w_mutex}, {"q", w_send},
                      {"r", w_recv},  {"f", w_flags}, {"p", w_pool}};

static lm_thread_t *t_ctl, *t_o, *t_x, *t_z, *t_s, *t_b, *t_sl;

/* Owns MTX twice over (R5.1), then waits until the release. */
static void owner_entry(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(MTX, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(MTX, LM_WAIT_FOREVER), LM_OK);
    lmt_log("O:own");
    LMT_ST(lm_sem_take(&o_go, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_unlock(MTX), LM_OK);
    lmt_log("O:1:%s:p%u", lm_mutex_owner(MTX) == lm_thread_self() ? "own" : "-",
            lm_thread_priority(lm_thread_self()));
    LMT_ST(lm_mutex_unlock(MTX), LM_OK);
    lmt_log("O:2:p%u", lm_thread_priority(lm_thread_self()));
}

static void log_name(void *arg)
{
    (void)arg;
    lmt_log("%s", lmt_me());
}

static void b_entry(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&bsem, LM_WAIT_FOREVER);
    lmt_log("B:%s", lmt_sn(st));
}

static void sl_entry(void *arg)
{
    (void)arg;
    lm_status_t st = lm_thread_sleep(LM_WAIT_FOREVER);
    lmt_log("Sl:%s", lmt_sn(st));
}

#if defined(LM_PORT_HOSTED)
static bool idle_pending;

/* R11.7: the idle hook runs in the idle thread, which may not block. */
static void idle_hook(void)
{
    if (!idle_pending) {
        return;
    }
    idle_pending = false;
    LMT_CHECK(lm_thread_self() == objp[O_IDLE]);
    run_phase(X_IDLE);
    LMT_ST(lm_sem_give(&idle_sync), LM_OK);
}
#endif

/* Release every waiter and check the order and the data (R5.1, R5.4,
 * R5.5, R9.3, R10.1, R10.3-R10.6, R11.2, R11.6). */
static void release(void)
{
    uint32_t n = 0;
    /* R10.5, R10.6: the more urgent waiter first, though it came second. */
    LMT_ST(lm_sem_give(SEM0), LM_OK);
    LMT_ST(lm_sem_give(SEM0), LM_OK);
    LMT_ST(lm_sem_count(SEM0, &n), LM_OK);
    LMT_EQ(n, 0);
    /* R5.1: two locks need two unlocks; R5.4: O keeps the inherited
     * priority until the last; R5.5: then the waiters in priority order. */
    LMT_ST(lm_sem_give(&o_go), LM_OK);
    LMT_CHECK(lm_mutex_owner(MTX) == NULL);
    /* R10.3: A, B, then the senders' messages, the more urgent sender's
     * first (it sent to the front, into the slot A left). */
    uint8_t m[MSG];
    for (unsigned i = 0; i < 4u; i++) {
        LMT_ST(lm_queue_receive(QFULL, m, MSG, LM_NO_WAIT), LM_OK);
        lmt_log("C:%c", msg_letter(m));
    }
    LMT_ST(lm_queue_receive(QFULL, m, MSG, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    /* R10.3: a send hands over to the most urgent receiver. */
    LMT_ST(lm_queue_send(QEMPTY, msg_e, MSG, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(QEMPTY, msg_f, MSG, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_count(QEMPTY, &n), LM_OK);
    LMT_EQ(n, 0);
    /* R9.3, R10.1: arrival order; fL (no consume) sees 0x3F0, then fH sees
     * it too and consumes 0x200. Priority order would starve fL. Both run
     * once the set is over, by priority. */
    LMT_ST(lm_flags_set(FLG, 0x300u), LM_OK);
    LMT_ST(lm_flags_get(FLG, &n), LM_OK);
    LMT_EQ(n, 0x1F0u);
    /* R10.4: each freed block goes to the most urgent waiter. */
    LMT_ST(lm_pool_free(POOLA, blk_a[2]), LM_OK);
    LMT_ST(lm_pool_free(POOLA, blk_a[0]), LM_OK);
    LMT_ST(lm_pool_available(POOLA, &n), LM_OK);
    LMT_EQ(n, 0);
    LMT_ST(lm_pool_free(POOLA, pslot[0]), LM_OK);
    LMT_ST(lm_pool_free(POOLA, pslot[1]), LM_OK);
    LMT_ST(lm_pool_free(POOLA, blk_a[1]), LM_OK);
    LMT_ST(lm_pool_free(POOLA, blk_a[3]), LM_OK);
    LMT_ST(lm_pool_available(POOLA, &n), LM_OK);
    LMT_EQ(n, NBLK);
    /* The untouched objects still work as they were left. */
    LMT_ST(lm_sem_count(SEMC, &n), LM_OK);
    LMT_EQ(n, 2);
    LMT_ST(lm_pool_available(POOLB, &n), LM_OK);
    LMT_EQ(n, 2);
    LMT_ST(lm_mutex_lock(MFREE, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_mutex_unlock(MFREE), LM_OK);
    /* The running timer kept its deadline through every refused start. */
    LMT_ST(lm_thread_sleep(1001u - (lm_tick_t)(lm_tick_now() - timer_t0)), LM_OK);
    LMT_EQ((lm_tick_t)(lm_tick_now() - timer_t0), 1001);
    /* R11.2: B's wait ends while suspended; it runs only when resumed. */
    LMT_ST(lm_sem_give(&bsem), LM_OK);
    LMT_EQ(lm_thread_state(t_b), LM_THREAD_SUSPENDED);
    LMT_ST(lm_thread_resume(t_b), LM_OK);
    LMT_ST(lm_thread_wait_abort(t_sl), LM_OK); /* R11.6 */
    LMT_ST(lm_thread_resume(t_s), LM_OK);      /* priority 25: after C */
    lmt_log("C:end");
}

static void controller(void *arg)
{
    (void)arg;
    timer_t0 = lm_tick_now();
    LMT_ST(lm_timer_start(TMR, 1000, 0), LM_OK);
    LMT_ST(lm_thread_start(t_z), LM_OK); /* runs at once and ends */
    LMT_EQ(lm_thread_state(t_z), LM_THREAD_TERMINATED);
    LMT_ST(lm_thread_start(t_o), LM_OK);
    LMT_CHECK(lm_mutex_owner(MTX) == t_o);
    for (unsigned i = 0; i < NWAIT; i++) {
        LMT_ST(lm_thread_start(wt[i]), LM_OK); /* runs at once and blocks */
        LMT_EQ(lm_thread_state(wt[i]), LM_THREAD_BLOCKED);
    }
    LMT_EQ(lm_thread_priority(t_o), 4); /* R5.2: inherits mH's priority */
    LMT_ST(lm_thread_start(t_s), LM_OK);
    LMT_ST(lm_thread_suspend(t_s), LM_OK);
    LMT_ST(lm_thread_start(t_b), LM_OK);
    LMT_ST(lm_thread_suspend(t_b), LM_OK);
    LMT_ST(lm_thread_start(t_sl), LM_OK);
    LMT_EQ(lm_thread_state(t_s), LM_THREAD_SUSPENDED);
    LMT_EQ(lm_thread_state(t_b), LM_THREAD_BLOCKED);
    LMT_EQ(lm_thread_state(t_sl), LM_THREAD_SLEEPING);
    LMT_EQ(lm_thread_state(t_x), LM_THREAD_INACTIVE);

#if defined(LM_PORT_HOSTED)
    /* Every thread is now waiting: the idle hook runs its rows, then lets
     * the controller go on. */
    idle_pending = true;
    lm_idle_hook_set(idle_hook);
    LMT_ST(lm_sem_take(&idle_sync, LM_WAIT_FOREVER), LM_OK);
    LMT_CHECK(!idle_pending);
    lm_idle_hook_set(NULL);
#endif
    run_phase(X_THREAD);
    run_phase(X_LOCKED);
    run_phase(X_ISR);
    run_phase(X_ISR_LOCKED);
#if defined(LM_PORT_HOSTED)
    LMT_EQ(lm_tick_now(), 0); /* no row let virtual time pass */
#endif
    release();
}

/* ---- set-up ------------------------------------------------------------- */

static void make_objects(void)
{
    memset(cbs, 0, sizeof cbs);
    memset(&cbs[O_GARBAGE], 0xA5, sizeof cbs[O_GARBAGE]);
    memset(outbuf.bytes, 0x5C, sizeof outbuf.bytes);
    memset(rbuf, 0x3C, sizeof rbuf);
    memset(pslot, 0, sizeof pslot);
    memset(&o_go, 0, sizeof o_go);
    memset(&bsem, 0, sizeof bsem);
    memset(&idle_sync, 0, sizeof idle_sync);
    LMT_ST(lm_sem_create(&o_go, 0, 1), LM_OK);
    LMT_ST(lm_sem_create(&bsem, 0, 1), LM_OK);
    LMT_ST(lm_sem_create(&idle_sync, 0, 1), LM_OK);

    LMT_ST(lm_sem_create(SEM0, 0, 5), LM_OK);
    LMT_ST(lm_sem_create(SEMC, 2, 3), LM_OK);
    LMT_ST(lm_sem_create(&cbs[O_SEM_DEL].s, 1, 1), LM_OK);
    LMT_ST(lm_sem_delete(&cbs[O_SEM_DEL].s), LM_OK);

    LMT_ST(lm_mutex_create(MTX, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_mutex_create(MFREE, 0), LM_OK);
    LMT_ST(lm_mutex_create(&cbs[O_MTX_DEL].m, 0), LM_OK);
    LMT_ST(lm_mutex_delete(&cbs[O_MTX_DEL].m), LM_OK);

    LMT_ST(lm_queue_create(QFULL, qfull_buf, MSG, QCAP), LM_OK);
    LMT_ST(lm_queue_send(QFULL, msg_a, MSG, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_send(QFULL, msg_b, MSG, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_queue_create(QEMPTY, qempty_buf, MSG, QCAP), LM_OK);
    LMT_ST(lm_queue_create(&cbs[O_Q_DEL].q, qdel_buf, MSG, QCAP), LM_OK);
    LMT_ST(lm_queue_delete(&cbs[O_Q_DEL].q), LM_OK);

    LMT_ST(lm_flags_create(FLG, 0x0F0u), LM_OK);
    LMT_ST(lm_flags_create(&cbs[O_FLG_DEL].f, 0), LM_OK);
    LMT_ST(lm_flags_delete(&cbs[O_FLG_DEL].f), LM_OK);

    LMT_ST(lm_pool_create(POOLA, poolA_buf, sizeof poolA_buf, BLK, NBLK), LM_OK);
    for (unsigned i = 0; i < NBLK; i++) {
        LMT_ST(lm_pool_alloc(POOLA, &blk_a[i], LM_NO_WAIT), LM_OK);
    }
    LMT_ST(lm_pool_create(POOLB, poolB_buf, sizeof poolB_buf, BLK, NBLK), LM_OK);
    for (unsigned i = 0; i < 3u; i++) {
        LMT_ST(lm_pool_alloc(POOLB, &blk_b[i], LM_NO_WAIT), LM_OK);
    }
    LMT_ST(lm_pool_free(POOLB, blk_b[2]), LM_OK); /* free again: a second free is the bug */
    LMT_ST(lm_pool_create(&cbs[O_POOL_DEL].p, pooldel_buf, sizeof pooldel_buf, BLK, NBLK), LM_OK);
    LMT_ST(lm_pool_delete(&cbs[O_POOL_DEL].p), LM_OK);

    LMT_ST(lm_timer_create(TMR, timer_cb, NULL), LM_OK);
    LMT_ST(lm_timer_create(&cbs[O_TMR_STOP].tm, timer_cb, NULL), LM_OK);
    LMT_ST(lm_timer_create(&cbs[O_TMR_DEL].tm, timer_cb, NULL), LM_OK);
    LMT_ST(lm_timer_delete(&cbs[O_TMR_DEL].tm), LM_OK);

    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "deleted";
    a.entry = never_runs;
    a.stack = spare_stack;
    a.stack_size = LM_PORT_MIN_STACK;
    LMT_ST(lm_thread_create(&cbs[O_THR_DEL].t, &a), LM_OK);
    LMT_ST(lm_thread_delete(&cbs[O_THR_DEL].t), LM_OK);

    for (unsigned i = O_ZERO; i <= O_LAST_CB; i++) {
        objp[i] = &cbs[i];
    }
    objp[O_NONE] = NULL;
}

static lm_thread_t *spawn(const char *name, unsigned prio, lm_thread_entry_t fn, void *arg)
{
    lm_thread_t *t = lmt_spawn_ex(name, prio, LM_THRESHOLD_NONE, 0, fn, arg, false);
    threads[nthreads++] = t;
    return t;
}

static void make_threads(void)
{
    nthreads = 0;
    t_ctl = lmt_spawn("C", 20, controller, NULL);
    threads[nthreads++] = t_ctl;
    static char wname[NWAIT][3];
    for (unsigned i = 0; i < NWAIT; i++) {
        wname[i][0] = wdef[i / 2u].name[0];
        wname[i][1] = (i % 2u == 0u) ? 'L' : 'H';
        wname[i][2] = '\0';
        wt[i] = spawn(wname[i], i % 2u == 0u ? 8u : 4u, wdef[i / 2u].fn,
                      (void *)(uintptr_t)(i % 2u));
    }
    t_o = spawn("O", 12, owner_entry, NULL);
    t_x = spawn("X", 15, never_runs, NULL);
    t_z = spawn("Z", 2, log_name, NULL);
    t_s = spawn("S", 25, log_name, NULL);
    t_b = spawn("B", 10, b_entry, NULL);
    t_sl = spawn("Sl", 10, sl_entry, NULL);
    /* Before lm_kernel_start the caller is the idle thread. */
    threads[nthreads++] = lm_thread_self();

    objp[O_SELF] = t_ctl;
    objp[O_W] = wt[0]; /* sL */
    objp[O_X] = t_x;
    objp[O_Z] = t_z;
    objp[O_S] = t_s;
    objp[O_B] = t_b;
    objp[O_SL] = t_sl;
    objp[O_IDLE] = lm_thread_self();
}

static void watch_everything(void)
{
    nregions = 0;
    raw_total = 0;
    for (unsigned i = O_ZERO; i <= O_LAST_CB; i++) {
        watch(obj_name[i], &cbs[i], sizeof cbs[i]);
    }
    for (unsigned i = 0; i < nthreads; i++) {
        watch(lm_thread_name(threads[i]), threads[i], sizeof *threads[i]);
    }
    watch("qfull_buf", qfull_buf, sizeof qfull_buf);
    watch("qempty_buf", qempty_buf, sizeof qempty_buf);
    watch("qdel_buf", qdel_buf, sizeof qdel_buf);
    watch("poolA_buf", poolA_buf, sizeof poolA_buf);
    watch("poolB_buf", poolB_buf, sizeof poolB_buf);
    watch("pooldel_buf", pooldel_buf, sizeof pooldel_buf);
    watch("pool_scratch", pool_scratch, sizeof pool_scratch);
    watch("spare_stack", spare_stack, sizeof spare_stack);
    watch("outbuf", &outbuf, sizeof outbuf);
    watch("rbuf", rbuf, sizeof rbuf);
    watch("pslot", pslot, sizeof pslot);
    watch("blk_a", blk_a, sizeof blk_a);
    watch("blk_b", blk_b, sizeof blk_b);
    watch("o_go", &o_go, sizeof o_go);
    watch("bsem", &bsem, sizeof bsem);
    watch("idle_sync", &idle_sync, sizeof idle_sync);
}

/* ---- the table as Markdown (docs/errors.md) ----------------------------- */

#if defined(LM_PORT_HOSTED)
static bool same_group(const struct row *a, const struct row *b)
{
    return a->cb_set == 0u && b->cb_set == 0u && strcmp(a->call, b->call) == 0 &&
           a->status == b->status && a->checks == b->checks;
}

static const char *wrong_type(const char *input)
{
    static const char prefix[] = "wrong type: ";
    return strncmp(input, prefix, sizeof prefix - 1u) == 0 ? input + sizeof prefix - 1u : NULL;
}

static bool seen_before(unsigned i, bool (*same)(const struct row *, const struct row *))
{
    for (unsigned j = 0; j < i; j++) {
        if (same(&rows[j], &rows[i])) {
            return true;
        }
    }
    return false;
}

static bool same_cb_set(const struct row *a, const struct row *b)
{
    return a->cb_set != 0u && a->cb_set == b->cb_set;
}

static void print_markdown(void)
{
    unsigned always = 0, portable = 0, portable_always = 0;
    for (unsigned i = 0; i < NROWS; i++) {
        bool hosted_only = rows[i].ctx >= X_ISR;
        always += rows[i].checks == 0u;
        portable += !hosted_only;
        portable_always += !hosted_only && rows[i].checks == 0u;
    }
    /* The bad control blocks, once per object type. */
    printf("\n| calls | bad control blocks tried | status |\n|---|---|---|\n");
    for (unsigned i = 0; i < NROWS; i++) {
        if (rows[i].cb_set == 0u || seen_before(i, same_cb_set)) {
            continue;
        }
        const char *sep = "| ";
        for (unsigned j = i; j < NROWS; j++) {
            if (same_cb_set(&rows[j], &rows[i]) && rows[j].obj == O_NONE) {
                printf("%s`%s`", sep, rows[j].call);
                sep = ", ";
            }
        }
        printf(" | NULL; all zeros; garbage (0xA5); deleted; a live ");
        sep = "";
        for (unsigned j = i; j < NROWS && strcmp(rows[j].call, rows[i].call) == 0; j++) {
            if (wrong_type(rows[j].input) != NULL) {
                printf("%s%s", sep, wrong_type(rows[j].input));
                sep = ", ";
            }
        }
        printf(" | `LM_ERR_PARAM` (NULL), `LM_ERR_OBJECT` (the others) |\n");
    }
    /* Everything else, by call and status. */
    printf("\n| call | bad inputs tried | status |\n|---|---|---|\n");
    for (unsigned i = 0; i < NROWS; i++) {
        if (rows[i].cb_set != 0u || seen_before(i, same_group)) {
            continue;
        }
        printf("| `%s` | ", rows[i].call);
        const char *sep = "";
        for (unsigned j = i; j < NROWS; j++) {
            if (same_group(&rows[j], &rows[i])) {
                printf("%s%s", sep, rows[j].input);
                sep = "; ";
            }
        }
        printf(" | `%s`%s |\n", lm_status_name(rows[i].status), rows[i].checks ? "" : ", always");
    }
    printf("\nrows: %u; always: %u; portable: %u; portable always: %u\n", NROWS, always,
           portable, portable_always);
}
#endif

/* docs/errors.md, every class of bad input; R1.1, R3.2, R5.1, R6.1, R6.5,
 * R8.3, R9.1, R11.7, R12.1: refused with the documented status, nothing
 * changed. Then R5.1, R5.4, R5.5, R9.3, R10.1, R10.3-R10.6, R11.2, R11.6:
 * the waiters kept through the sweep wake in order with the right data. */
LMT_CASE(bad_input_sweep)
{
    lmt_begin();
    rows_run = 0;
    make_objects();
    make_threads();
    watch_everything();
    run_phase(X_PRESTART);
    lmt_run();
    lmt_expect("Z O:own "
               "sH:OK sL:OK "
               "O:1:own:p4 mH:OK:own mL:OK:own O:2:p12 "
               "qH:OK C:A qL:OK C:D C:B C:C "
               "rH:OK:E rL:OK:F "
               "fH:OK:3f0 fL:OK:3f0 "
               "pH:OK:2 pL:OK:0 "
               "T@+1000 B:OK Sl:ABORTED C:end S");
    LMT_EQ(rows_run, NROWS);
    printf("bad-input sweep: %u (call, bad input) pairs tried, all refused with their "
           "documented status, no object changed\n",
           rows_run);
#if defined(LM_PORT_HOSTED)
    if (getenv("LMT_BAD_INPUT_TABLE") != NULL) {
        print_markdown();
    }
#endif
}

#if LM_CFG_ARG_CHECKS
/* docs/errors.md: creating a control block that is live (created and not
 * deleted) returns LM_ERR_STATE and changes nothing; after a delete the same
 * block may be created again. */
static lm_sem_t live_sem;
static lm_mutex_t live_mutex;
static lm_queue_t live_queue;
static LM_QUEUE_BUFFER_DEFINE(live_qbuf, 4, 2);
static lm_flags_t live_flags;
static lm_pool_t live_pool;
static LM_POOL_BUFFER_DEFINE(live_pbuf, 16, 2);
static lm_timer_t live_timer;

static void live_timer_fn(void *arg)
{
    (void)arg;
}

LMT_CASE(create_of_live_object_refused)
{
    lmt_begin();
    memset(&live_sem, 0, sizeof live_sem);
    memset(&live_mutex, 0, sizeof live_mutex);
    memset(&live_queue, 0, sizeof live_queue);
    memset(&live_flags, 0, sizeof live_flags);
    memset(&live_pool, 0, sizeof live_pool);
    memset(&live_timer, 0, sizeof live_timer);
    LMT_ST(lm_sem_create(&live_sem, 1, 5), LM_OK);
    LMT_ST(lm_mutex_create(&live_mutex, 0), LM_OK);
    LMT_ST(lm_queue_create(&live_queue, live_qbuf, 4, 2), LM_OK);
    LMT_ST(lm_flags_create(&live_flags, 0x5u), LM_OK);
    LMT_ST(lm_pool_create(&live_pool, live_pbuf, sizeof live_pbuf, 16, 2), LM_OK);
    LMT_ST(lm_timer_create(&live_timer, live_timer_fn, NULL), LM_OK);
    uint32_t msg = 0xC0FFEEu;
    LMT_ST(lm_queue_send(&live_queue, &msg, sizeof msg, LM_NO_WAIT), LM_OK);

    lm_sem_t sem_copy = live_sem;
    lm_queue_t queue_copy = live_queue;
    lm_flags_t flags_copy = live_flags;
    lm_pool_t pool_copy = live_pool;
    lm_mutex_t mutex_copy = live_mutex;
    lm_timer_t timer_copy = live_timer;
    LMT_ST(lm_sem_create(&live_sem, 0, 1), LM_ERR_STATE);
    LMT_ST(lm_mutex_create(&live_mutex, LM_MUTEX_INHERIT), LM_ERR_STATE);
    LMT_ST(lm_queue_create(&live_queue, live_qbuf, 4, 2), LM_ERR_STATE);
    LMT_ST(lm_flags_create(&live_flags, 0), LM_ERR_STATE);
    LMT_ST(lm_pool_create(&live_pool, live_pbuf, sizeof live_pbuf, 16, 2), LM_ERR_STATE);
    LMT_ST(lm_timer_create(&live_timer, live_timer_fn, NULL), LM_ERR_STATE);
    LMT_CHECK(memcmp(&sem_copy, &live_sem, sizeof live_sem) == 0);
    LMT_CHECK(memcmp(&mutex_copy, &live_mutex, sizeof live_mutex) == 0);
    LMT_CHECK(memcmp(&queue_copy, &live_queue, sizeof live_queue) == 0);
    LMT_CHECK(memcmp(&flags_copy, &live_flags, sizeof live_flags) == 0);
    LMT_CHECK(memcmp(&pool_copy, &live_pool, sizeof live_pool) == 0);
    LMT_CHECK(memcmp(&timer_copy, &live_timer, sizeof live_timer) == 0);
    uint32_t count = 0;
    LMT_ST(lm_queue_count(&live_queue, &count), LM_OK);
    LMT_EQ(count, 1);

    /* Deleted, the same blocks are free to be created again. */
    LMT_ST(lm_sem_delete(&live_sem), LM_OK);
    LMT_ST(lm_sem_create(&live_sem, 0, 1), LM_OK);
    LMT_ST(lm_queue_delete(&live_queue), LM_OK);
    LMT_ST(lm_queue_create(&live_queue, live_qbuf, 4, 2), LM_OK);
    LMT_ST(lm_timer_delete(&live_timer), LM_OK);
    LMT_ST(lm_timer_create(&live_timer, live_timer_fn, NULL), LM_OK);
}
#define LIVE_CASES , LMT_RUN(create_of_live_object_refused)
#else
#define LIVE_CASES
#endif

LMT_MAIN(LMT_RUN(bad_input_sweep) LIVE_CASES)
