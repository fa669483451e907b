/* SPDX-License-Identifier: Apache-2.0 */
/* The event recorder (LM_CFG_TRACE, include/limen/trace.h, docs/trace.md):
 * the buffer's layout, the registry, both ring modes, and the records the
 * kernel writes, in their exact order; the reason of every switch as
 * docs/rules.md R7.1 names it. The records are read back from the buffer
 * as a decoder reads them, names from the registry. */
#include <string.h>
#include "harness.h"

#define REC LM_TRACE_RECORD_BYTES
#define ENTRY 32u

struct rec {
    uint32_t ts;
    uint8_t type;
    uint8_t arg;
    uint16_t h;
    uint32_t a;
    uint32_t b;
};

static LM_TRACE_BUFFER_DEFINE(buf, 64u * 1024u);

static const lm_trace_header_t *hdr(void)
{
    return (const lm_trace_header_t *)(const void *)buf;
}

/* The registry's name for an address inside a named object, or "?". */
static const char *name_of(uint32_t addr, uint8_t kind)
{
    const uint8_t *e = buf + sizeof(lm_trace_header_t);
    for (uint32_t i = 0; i < hdr()->names; i++, e += ENTRY) {
        uint32_t a, n;
        memcpy(&a, e, 4);
        memcpy(&n, e + 4, 4);
        if (e[8] == kind && (addr == a || (addr > a && addr - a < n))) {
            return (const char *)(e + 12);
        }
    }
    return "?";
}

static const char *thread_name(uint32_t addr)
{
    return addr == hdr()->idle ? "idle" : name_of(addr, LM_TRACE_KIND_THREAD);
}

/* The i-th record, oldest first. */
static struct rec record(uint32_t i)
{
    const lm_trace_header_t *h = hdr();
    uint32_t n = h->written < h->records_max ? h->written : h->records_max;
    uint32_t first = (h->written <= h->records_max) ? 0u : h->next;
    uint32_t slot = (first + i) % h->records_max;
    LMT_CHECK(i < n);
    struct rec r;
    memcpy(&r, buf + sizeof *h + h->names_max * ENTRY + slot * REC, sizeof r);
    return r;
}

static uint32_t records(void)
{
    return hdr()->written < hdr()->records_max ? hdr()->written : hdr()->records_max;
}

static const char *const reason[] = {"?", "block", "sleep", "suspend", "end",
                                     "yield", "slice", "preempt", "idle", "preempt_own",
                                     "suspend_isr", "end_isr"};
static const char *const op[] = {"?", "qsend", "qsendf", "qrecv", "take", "give", "lock",
                                 "unlock", "set", "wait", "alloc", "free", "expiry"};

/* The records whose type bit is in `types` as harness tokens. */
static void log_records(uint32_t types)
{
    uint32_t last_ts = 0;
    for (uint32_t i = 0; i < records(); i++) {
        struct rec r = record(i);
        LMT_CHECK(i == 0u || (int32_t)(r.ts - last_ts) >= 0); /* in time order */
        last_ts = r.ts;
        if ((types & (1u << r.type)) == 0u) {
            continue;
        }
        switch (r.type) {
        case LM_TRACE_SWITCH:
            lmt_log("%s>%s:%s", thread_name(r.a), thread_name(r.b), reason[r.arg]);
            break;
        case LM_TRACE_OBJ:
            lmt_log("%s:%s(%s)=%s", thread_name(r.b), op[r.arg],
                    name_of(r.a, LM_TRACE_KIND_OBJECT), lmt_sn((lm_status_t)(int16_t)r.h));
            break;
        case LM_TRACE_BLOCK:
            lmt_log("block:%s(%s)", thread_name(r.a),
                    r.b == 0u ? "-" : name_of(r.b, LM_TRACE_KIND_OBJECT));
            break;
        case LM_TRACE_READY:
            lmt_log("ready:%s=%s", thread_name(r.a), lmt_sn((lm_status_t)(int16_t)r.h));
            break;
        case LM_TRACE_ISR_ENTER:
        case LM_TRACE_ISR_EXIT:
            lmt_log("%s%s", r.type == LM_TRACE_ISR_ENTER ? "isr>" : "isr<",
                    r.h == LM_TRACE_IRQ_TICK ? "tick" : name_of(r.h, LM_TRACE_KIND_IRQ));
            break;
        case LM_TRACE_PRIO:
            lmt_log("prio:%s=%u%s", thread_name(r.a), r.h, r.arg ? "+" : "-");
            break;
        case LM_TRACE_USER:
            lmt_log("%s:%u,%u", name_of(r.h, LM_TRACE_KIND_EVENT), (unsigned)r.a,
                    (unsigned)r.b);
            break;
        case LM_TRACE_TICK:
            lmt_log("tick:%u", (unsigned)r.a);
            break;
        default: {
            static const char *const th[] = {"?", "create", "start", "end", "delete",
                                             "suspend", "resume"};
            if (r.type <= LM_TRACE_THREAD_RESUME) {
                lmt_log("%s:%s", th[r.type], thread_name(r.a));
            } else {
                lmt_log("%s:%s", r.type == LM_TRACE_YIELD ? "yield" : "slice",
                        thread_name(r.a));
            }
            break;
        }
        }
    }
}

#define T(x) (1u << (x))
#define SWITCHES T(LM_TRACE_SWITCH)

/* ---------------------------------------------------------------------- */

/* Before any start: nothing to copy, names refused, records ignored.
 * Runs first: the recorder's state outlives lm_kernel_init. */
LMT_CASE(trace_before_start)
{
    lmt_begin();
    size_t n = 99;
    LMT_CHECK(lm_trace_buffer(&n) == NULL);
    LMT_EQ(n, 0);
    LMT_CHECK(lm_trace_buffer(NULL) == NULL);
    lm_trace_stop();
    lm_trace_user(1, 2, 3);
    LMT_ST(lm_trace_name_event(1, "e"), LM_ERR_STATE);
}

/* Bad arguments are refused and change nothing (docs/errors.md). */
LMT_CASE(trace_bad_arguments)
{
    lmt_begin();
    LMT_ST(lm_trace_start(NULL, sizeof buf, 4, LM_TRACE_OVERWRITE), LM_ERR_PARAM);
    LMT_ST(lm_trace_start(buf + 2, 1024, 4, LM_TRACE_OVERWRITE), LM_ERR_PARAM);
    LMT_ST(lm_trace_start(buf, sizeof buf, 4, (lm_trace_mode_t)2), LM_ERR_PARAM);
    LMT_ST(lm_trace_start(buf, sizeof buf, 0x10000u, LM_TRACE_OVERWRITE), LM_ERR_PARAM);
    /* The header, 4 entries and 4 records is the least. */
    LMT_ST(lm_trace_start(buf, 52u + 4u * ENTRY + 4u * REC - 1u, 4, LM_TRACE_OVERWRITE),
           LM_ERR_PARAM);
    if (sizeof(size_t) > 4u) { /* more slots than the header can count */
        LMT_ST(lm_trace_start(buf, SIZE_MAX, 4, LM_TRACE_OVERWRITE), LM_ERR_PARAM);
    }
    LMT_CHECK(lm_trace_buffer(NULL) == NULL);
    LMT_ST(lm_trace_start(buf, 52u + 4u * ENTRY + 4u * REC, 4, LM_TRACE_OVERWRITE), LM_OK);
    LMT_EQ(hdr()->records_max, 4);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_EVENT, NULL, 0, NULL), LM_ERR_PARAM);
    LMT_ST(lm_trace_name((lm_trace_kind_t)0, NULL, 0, "x"), LM_ERR_PARAM);
    LMT_ST(lm_trace_name((lm_trace_kind_t)5, NULL, 0, "x"), LM_ERR_PARAM);
    LMT_EQ(hdr()->names, 0);
}

/* The header says what a decoder needs (docs/trace.md, "Header"). */
LMT_CASE(trace_header)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, 1000, 3, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    const lm_trace_header_t *h = hdr();
    LMT_EQ(h->magic, LM_TRACE_MAGIC);
    LMT_CHECK(memcmp(buf, "LMTR", 4) == 0); /* little-endian host */
    LMT_EQ(h->version, LM_TRACE_VERSION);
    LMT_EQ(h->header_bytes, 52);
    LMT_EQ(h->timestamp_hz, 1000000);
    LMT_EQ(h->tick_hz, LM_CFG_TICK_HZ);
    LMT_EQ(h->record_bytes, REC);
    LMT_EQ(h->entry_bytes, ENTRY);
    LMT_EQ(h->names_max, 3);
    LMT_EQ(h->names, 0);
    LMT_EQ(h->records_max, (1000 - 52 - 3 * 32) / 16);
    LMT_EQ(h->written, 0);
    LMT_EQ(h->next, 0);
    LMT_EQ(h->dropped, 0);
    LMT_EQ(h->mode, LM_TRACE_STOP_WHEN_FULL);
    LMT_EQ(h->active, 1);
    LMT_EQ(h->address_bytes, sizeof(void *));
    LMT_EQ(h->idle, (uint32_t)(uintptr_t)lm_kernel_idle_thread());
    size_t n = 0;
    LMT_CHECK(lm_trace_buffer(&n) == buf);
    LMT_EQ(n, 52 + 3 * 32 + h->records_max * 16);
    lm_trace_stop();
    LMT_EQ(h->active, 0);
    lm_trace_user(1, 2, 3);
    LMT_EQ(h->written, 0);
}

/* Stop-when-full keeps the first records and counts the others. */
LMT_CASE(trace_stop_when_full)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, 52u + ENTRY + 4u * REC, 1, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    LMT_ST(lm_trace_name_event(7, "ev"), LM_OK);
    for (uint32_t i = 0; i < 10u; i++) {
        lm_trace_user(7, i, 100u + i);
    }
    LMT_EQ(hdr()->written, 4);
    LMT_EQ(hdr()->dropped, 6);
    log_records(T(LM_TRACE_USER));
    lmt_expect("ev:0,100 ev:1,101 ev:2,102 ev:3,103");
}

/* Overwrite keeps the latest records; the oldest is at `next`. */
LMT_CASE(trace_overwrite)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, 52u + ENTRY + 4u * REC, 1, LM_TRACE_OVERWRITE), LM_OK);
    LMT_ST(lm_trace_name_event(7, "ev"), LM_OK);
    for (uint32_t i = 0; i < 10u; i++) {
        lm_trace_user(7, i, 0);
    }
    LMT_EQ(hdr()->written, 10);
    LMT_EQ(hdr()->next, 2);
    LMT_EQ(hdr()->dropped, 0);
    log_records(T(LM_TRACE_USER));
    lmt_expect("ev:6,0 ev:7,0 ev:8,0 ev:9,0");
}

static void nop(void *arg)
{
    (void)arg;
}

/* The registry: threads name themselves at create, a name again replaces,
 * a long name is cut to 19 characters, a full registry refuses. */
LMT_CASE(trace_registry)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, sizeof buf, 3, LM_TRACE_OVERWRITE), LM_OK);
    lm_thread_t *a = lmt_spawn_ex("A", 3, LM_THRESHOLD_NONE, 0, nop, NULL, false);
    static lm_thread_t anon;
    static LM_STACK_DEFINE(anon_stack, LM_PORT_MIN_STACK);
    lm_thread_attr_t at;
    lm_thread_attr_init(&at);
    at.entry = nop;
    at.stack = anon_stack;
    at.stack_size = sizeof anon_stack;
    at.priority = 3;
    memset(&anon, 0, sizeof anon);
    LMT_ST(lm_thread_create(&anon, &at), LM_OK); /* no name: not in the registry */
    LMT_EQ(hdr()->names, 1);
    LMT_CHECK(strcmp(thread_name((uint32_t)(uintptr_t)a), "A") == 0);
    /* Any address inside the thread's control block is the thread. */
    LMT_CHECK(strcmp(thread_name((uint32_t)(uintptr_t)a + 8u), "A") == 0);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_THREAD, a, sizeof *a, "renamed"), LM_OK);
    LMT_CHECK(strcmp(thread_name((uint32_t)(uintptr_t)a), "renamed") == 0);
    LMT_ST(lm_trace_name_irq(5, "a name longer than nineteen"), LM_OK);
    LMT_CHECK(strcmp(name_of(5, LM_TRACE_KIND_IRQ), "a name longer than n") == 0 ||
              strcmp(name_of(5, LM_TRACE_KIND_IRQ), "a name longer than ") == 0);
    LMT_EQ(strlen(name_of(5, LM_TRACE_KIND_IRQ)), 19);
    /* A size beyond 32 bits is kept as the largest 32-bit one. */
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, (void *)(uintptr_t)5u, SIZE_MAX, "big"), LM_OK);
    uint32_t big;
    memcpy(&big, buf + sizeof(lm_trace_header_t) + 2u * ENTRY + 4u, 4);
    LMT_EQ(big, sizeof(size_t) > 4u ? UINT32_MAX : (uint32_t)SIZE_MAX);
    LMT_EQ(hdr()->names, 3);
    LMT_ST(lm_trace_name_event(5, "ev5"), LM_ERR_OVERFLOW); /* same number, other kind */
    LMT_EQ(hdr()->names, 3);
    LMT_EQ(hdr()->dropped, 1);
    log_records(T(LM_TRACE_THREAD_CREATE));
    lmt_expect("create:renamed create:?"); /* names as they are now */
}

static lm_sem_t sem;
static lm_thread_t *th_h, *th_m;

static void reasons_h(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK); /* (a) block */
    LMT_ST(lm_thread_sleep(3), LM_OK);                 /* (b) sleep */
    LMT_ST(lm_thread_suspend(lm_thread_self()), LM_OK); /* (c) suspend */
}                                                       /* (d) end */

static void reasons_m(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_give(&sem), LM_OK); /* (g) H preempts */
    LMT_ST(lm_thread_yield(), LM_OK); /* (e) to N */
    lm_hosted_work(1);
    LMT_ST(lm_thread_resume(th_h), LM_OK); /* (g) again */
}

static void reasons_n(void *arg)
{
    (void)arg;
    lm_hosted_work(2); /* (f) slice after 2 ticks */
}

/* One switch for each reason of R7.1, the reason in each record: a block,
 * a preemption by a give, a sleep, a relinquish, a time-slice expiry, a
 * suspension, an end, and the idle thread giving way. */
LMT_CASE(trace_switch_reasons)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, sizeof buf, 8, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &sem, sizeof sem, "S"), LM_OK);
    th_h = lmt_spawn("H", 1, reasons_h, NULL);
    th_m = lmt_spawn_ex("M", 3, LM_THRESHOLD_NONE, 2, reasons_m, NULL, true);
    (void)lmt_spawn_ex("N", 3, LM_THRESHOLD_NONE, 2, reasons_n, NULL, true);
    lmt_run();
    LMT_EQ(hdr()->dropped, 0);
    log_records(SWITCHES);
    /* N's slice ends at tick 2, H's sleep at tick 3, during M's work. */
    lmt_expect("H>M:block M>H:preempt H>M:sleep M>N:yield N>M:slice M>H:preempt "
               "H>M:suspend M>H:preempt H>M:end M>N:end N>idle:end");
}

/* R7.1 (h) apart from (g), (i) apart from (c) and (d). */
static lm_thread_t *th_x;

static void own_h(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(lm_thread_self(), 4), LM_OK); /* (h): M runs */
}

static void isr_suspend_x(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_suspend(th_x), LM_OK);
}

static void isr_terminate_x(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_terminate(th_x), LM_OK);
}

static void own_x(void *arg)
{
    (void)arg;
    LMT_EQ(lm_hosted_irq_at_unmask(1, isr_suspend_x, NULL), 0);
    LMT_ST(lm_sem_give(&sem), LM_OK); /* its unmask: (i) suspended */
    LMT_EQ(lm_hosted_irq_at_unmask(1, isr_terminate_x, NULL), 0);
    LMT_ST(lm_sem_give(&sem), LM_OK); /* its unmask: (i) ended */
}

static void own_m(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_set_priority(th_h, 0), LM_OK); /* another's priority: (g) */
    th_x = lmt_spawn("X", 2, own_x, NULL);          /* M's threshold 1 bars X */
    LMT_ST(lm_thread_set_threshold(lm_thread_self(), LM_THRESHOLD_NONE), LM_OK); /* (h) */
    LMT_ST(lm_thread_resume(th_x), LM_OK); /* (g) */
}

LMT_CASE(trace_switch_reasons_own_and_isr)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, sizeof buf, 8, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 2), LM_OK);
    th_h = lmt_spawn("H", 1, own_h, NULL);
    (void)lmt_spawn_ex("M", 3, 1, 0, own_m, NULL, true);
    lmt_run();
    LMT_EQ(hdr()->dropped, 0);
    log_records(SWITCHES);
    lmt_expect("H>M:preempt_own M>H:preempt H>M:end M>X:preempt_own X>M:suspend_isr "
               "M>X:preempt X>M:end_isr M>idle:end");
}

/* A slice that expires with no peer ready leaves the thread running; its
 * relinquish later is (e), not (f). */
static void slice_then_yield(void *arg)
{
    (void)arg;
    lm_hosted_work(3); /* expires, nobody else at its priority */
    (void)lmt_spawn_ex("P", 3, LM_THRESHOLD_NONE, 0, nop, NULL, true);
    LMT_ST(lm_thread_yield(), LM_OK);
}

LMT_CASE(trace_slice_then_yield)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, sizeof buf, 8, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    (void)lmt_spawn_ex("Y", 3, LM_THRESHOLD_NONE, 2, slice_then_yield, NULL, true);
    lmt_run();
    log_records(SWITCHES | T(LM_TRACE_SLICE) | T(LM_TRACE_YIELD));
    lmt_expect("slice:Y yield:Y Y>P:yield P>Y:end Y>idle:end");
}


static lm_queue_t q;
static LM_QUEUE_BUFFER_DEFINE(qbuf, sizeof(uint32_t), 1);
static lm_mutex_t mtx;
static lm_flags_t flg;
static lm_pool_t pool;
static uint8_t pool_buf[2 * LM_POOL_BLOCK_SIZE(16)];
static lm_timer_t tmr;

static void on_timer(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_give(&sem), LM_OK);
}

static void irq_give(void *arg)
{
    (void)arg;
    LMT_ST(lm_flags_set(&flg, 1u), LM_OK);
}

/* High: waits on each object in turn; each wait is ended by Low. */
static void ops_high(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    LMT_ST(lm_queue_receive(&q, &v, sizeof v, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK); /* Low inherits 1 */
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
    uint32_t seen = 0;
    LMT_ST(lm_flags_wait(&flg, 1u, LM_FLAGS_ANY, &seen, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_OK); /* the timer gives, from idle */
    void *blk = NULL;
    LMT_ST(lm_pool_alloc(&pool, &blk, LM_NO_WAIT), LM_OK);
    LMT_ST(lm_pool_free(&pool, blk), LM_OK);
    LMT_ST(lm_queue_receive(&q, &v, sizeof v, 2), LM_ERR_TIMEOUT);
}

static void ops_low(void *arg)
{
    (void)arg;
    uint32_t v = 7;
    LMT_ST(lm_mutex_lock(&mtx, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_queue_send(&q, &v, sizeof v, LM_WAIT_FOREVER), LM_OK); /* High preempts */
    LMT_ST(lm_mutex_unlock(&mtx), LM_OK);
    LMT_CHECK(lm_hosted_irq_raise(irq_give, NULL) == 0);
    LMT_ST(lm_timer_start(&tmr, 1, 0), LM_OK);
}

/* Every object operation with its outcome, wakes with their cause, blocks
 * with the object, priority inheritance raised and restored, an interrupt
 * with its entry and exit, and the idle thread giving way to a timer. */
LMT_CASE(trace_objects)
{
    lmt_begin();
    LMT_ST(lm_trace_start(buf, sizeof buf, 16, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    memset(&sem, 0, sizeof sem);
    memset(&q, 0, sizeof q);
    memset(&mtx, 0, sizeof mtx);
    memset(&flg, 0, sizeof flg);
    memset(&pool, 0, sizeof pool);
    memset(&tmr, 0, sizeof tmr);
    LMT_ST(lm_sem_create(&sem, 0, 1), LM_OK);
    LMT_ST(lm_queue_create(&q, qbuf, sizeof(uint32_t), 1), LM_OK);
    LMT_ST(lm_mutex_create(&mtx, LM_MUTEX_INHERIT), LM_OK);
    LMT_ST(lm_flags_create(&flg, 0), LM_OK);
    LMT_ST(lm_pool_create(&pool, pool_buf, sizeof pool_buf, 16, 2), LM_OK);
    LMT_ST(lm_timer_create(&tmr, on_timer, NULL), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &sem, sizeof sem, "S"), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &q, sizeof q, "Q"), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &mtx, sizeof mtx, "X"), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &flg, sizeof flg, "F"), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &pool, sizeof pool, "P"), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, &tmr, sizeof tmr, "T"), LM_OK);
    LMT_ST(lm_trace_name_irq(0, "irq0"), LM_OK);
    (void)lmt_spawn("L", 5, ops_low, NULL);
    (void)lmt_spawn("H", 1, ops_high, NULL);
    lmt_run();
    LMT_EQ(hdr()->dropped, 0);
    log_records(SWITCHES | T(LM_TRACE_OBJ) | T(LM_TRACE_BLOCK) | T(LM_TRACE_READY) |
                T(LM_TRACE_ISR_ENTER) | T(LM_TRACE_ISR_EXIT) | T(LM_TRACE_PRIO));
    /* An operation's record is written when its call returns: after the
     * switches it caused, and for a wait after the wake (R7.1 (g)). The
     * timer expires in the deferred tick work, after the tick's handler. */
    lmt_expect("block:H(Q) H>L:block L:lock(X)=OK ready:H=OK L>H:preempt H:qrecv(Q)=OK "
               "block:H(X) prio:L=1+ H>L:block L:qsend(Q)=OK prio:L=5- ready:H=OK "
               "L>H:preempt H:lock(X)=OK H:unlock(X)=OK block:H(F) H>L:block "
               "L:unlock(X)=OK isr>irq0 ready:H=OK L:set(F)=OK isr<irq0 L>H:preempt "
               "H:wait(F)=OK block:H(S) H>L:block L>idle:end isr>tick isr<tick "
               "idle:expiry(T)=OK ready:H=OK idle:give(S)=OK idle>H:idle H:take(S)=OK "
               "H:alloc(P)=OK H:free(P)=OK block:H(Q) H>idle:block isr>tick isr<tick "
               "ready:H=TIMEOUT idle>H:idle H:qrecv(Q)=TIMEOUT H>idle:end");
}

/* Priority inversions: H waits on a mutex L owns while M, between them,
 * becomes ready. With inheritance L runs at H's priority and M waits
 * (bounded); without, M runs while H waits (unbounded). The trace is saved
 * as inversions.lmtrace in the working directory: tools/tests counts it. */
static lm_mutex_t inv_mutexes[2];
static lm_mutex_t *inv_mutex;

static void inv_low(void *arg)
{
    (void)arg;
    LMT_ST(lm_mutex_lock(inv_mutex, LM_WAIT_FOREVER), LM_OK);
    lm_hosted_work(3); /* H blocks at tick 1, M wakes at tick 2 */
    LMT_ST(lm_mutex_unlock(inv_mutex), LM_OK);
}

static void inv_high(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_ST(lm_mutex_lock(inv_mutex, LM_WAIT_FOREVER), LM_OK);
    LMT_ST(lm_mutex_unlock(inv_mutex), LM_OK);
}

static void inv_middle(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(2), LM_OK);
    lm_hosted_work(1);
}

static void inversion_run(unsigned i, unsigned options, const char *mutex_name)
{
    lmt_begin();
    inv_mutex = &inv_mutexes[i];
    memset(inv_mutex, 0, sizeof *inv_mutex);
    LMT_ST(lm_mutex_create(inv_mutex, options), LM_OK);
    LMT_ST(lm_trace_name(LM_TRACE_KIND_OBJECT, inv_mutex, sizeof *inv_mutex, mutex_name),
           LM_OK);
    (void)lmt_spawn("L", 5, inv_low, NULL);
    (void)lmt_spawn("H", 1, inv_high, NULL);
    (void)lmt_spawn("M", 3, inv_middle, NULL);
    lmt_run();
}

/* With LM_CFG_STATS_INVERSIONS the kernel's counts go into the trace as a
 * user event "kernel" (bounded, unbounded), for tools/tests to compare
 * with its analysis of the same records. */
static void kernel_counts(uint32_t bounded, uint32_t unbounded)
{
    lm_kernel_stats_t k;
    lm_kernel_stats(&k); /* counted since lm_kernel_init */
    LMT_EQ(k.inversions_bounded, bounded); /* as the trace's analysis counts (tools/tests) */
#if LM_STATS_INVERSIONS
    LMT_EQ(k.inversions_unbounded, unbounded);
    lm_trace_user(2, k.inversions_bounded, k.inversions_unbounded);
#else
    (void)unbounded;
#endif
}

LMT_CASE(trace_inversions)
{
    LMT_ST(lm_trace_start(buf, sizeof buf, 16, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    LMT_ST(lm_trace_name_event(1, "phase"), LM_OK);
    LMT_ST(lm_trace_name_event(2, "kernel"), LM_OK);
    lm_trace_user(1, 0, 0);
    inversion_run(0, LM_MUTEX_INHERIT, "inheriting");
    kernel_counts(1, 0);
    lm_trace_user(1, 1, 0);
    inversion_run(1, 0u, "plain");
    kernel_counts(0, 1);
    lm_trace_stop();
    LMT_EQ(((const lm_trace_header_t *)lm_trace_buffer(NULL))->dropped, 0);
    LMT_EQ(lm_hosted_trace_save("inversions.lmtrace"), 0);
    log_records(SWITCHES | T(LM_TRACE_PRIO));
    /* Inheriting: L runs at 1 and M never runs while H waits. Plain: M
     * preempts L while H waits (an unbounded inversion). */
    lmt_expect("H>M:sleep M>L:sleep L>H:preempt prio:L=1+ H>L:block prio:L=5- L>H:preempt "
               "H>M:end M>L:end L>idle:end "
               "H>M:sleep M>L:sleep L>H:preempt H>L:block L>M:preempt M>L:end L>H:preempt "
               "H>L:end L>idle:end");
}

#if LM_STATS_INVERSIONS
/* Unbounded inversions on a busy run, for tools/tests to count from the
 * trace and compare with the kernel's counts (saved as
 * inversions-mixed.lmtrace): six threads lock one or two of three mutexes
 * (two without inheritance; the same one twice: recursively) with and
 * without timeouts, change priorities around, and a seventh ends and
 * starts them again, mutexes held or waited on. At the end the kernel's counts go into the trace: "kernel"
 * (bounded, unbounded) and, per thread, "thread" (address, unbounded). */
#define MIX_THREADS 6u
static LM_TRACE_BUFFER_DEFINE(mix_buf, 512u * 1024u);
static lm_mutex_t mix_mx[3];
static lm_thread_t *mix_t[MIX_THREADS];
static uint32_t mix_state;

static unsigned mix_rnd(unsigned n)
{
    mix_state = mix_state * 1103515245u + 12345u;
    return (unsigned)((mix_state >> 16) % n);
}

static void mix_worker(void *arg)
{
    (void)arg;
    for (unsigned round = 0; round < 25u; round++) {
        unsigned a = mix_rnd(3u), b = mix_rnd(3u);
        lm_tick_t to = mix_rnd(4u) == 0u ? LM_WAIT_FOREVER : (lm_tick_t)(1u + mix_rnd(3u));
        lm_status_t sa = lm_mutex_lock(&mix_mx[a], to);
        bool has_a = (sa == LM_OK || sa == LM_ERR_ABANDONED);
        bool has_b = false;
        if (has_a) { /* b == a: a second level of a */
            lm_status_t sb = lm_mutex_lock(&mix_mx[b], (lm_tick_t)(1u + mix_rnd(3u)));
            has_b = (sb == LM_OK || sb == LM_ERR_ABANDONED);
        }
        lm_hosted_work(mix_rnd(2u));
        if (mix_rnd(3u) == 0u) {
            LMT_ST(lm_thread_set_priority(mix_t[mix_rnd(MIX_THREADS)], 2u + mix_rnd(12u)), LM_OK);
        }
        if (has_b) {
            LMT_ST(lm_mutex_unlock(&mix_mx[b]), LM_OK);
        }
        if (has_a) {
            LMT_ST(lm_mutex_unlock(&mix_mx[a]), LM_OK);
        }
        LMT_ST(lm_thread_sleep(mix_rnd(3u)), LM_OK);
    }
}

static void mix_reaper(void *arg)
{
    (void)arg;
    for (unsigned round = 0; round < 20u; round++) {
        LMT_ST(lm_thread_sleep(1u + mix_rnd(4u)), LM_OK);
        lm_thread_t *t = mix_t[mix_rnd(MIX_THREADS)];
        if (lm_thread_terminate(t) == LM_OK) {
            LMT_ST(lm_thread_start(t), LM_OK);
        }
    }
}

LMT_CASE(trace_inversions_mixed)
{
    static const char *const names[MIX_THREADS] = {"W0", "W1", "W2", "W3", "W4", "W5"};
    lmt_begin();
    mix_state = 7u;
    LMT_ST(lm_trace_start(mix_buf, sizeof mix_buf, 16, LM_TRACE_STOP_WHEN_FULL), LM_OK);
    LMT_ST(lm_trace_name_event(2, "kernel"), LM_OK);
    LMT_ST(lm_trace_name_event(3, "thread"), LM_OK);
    LMT_ST(lm_trace_name_event(4, "thread-bounded"), LM_OK);
    for (unsigned i = 0; i < 3u; i++) {
        memset(&mix_mx[i], 0, sizeof mix_mx[i]);
        LMT_ST(lm_mutex_create(&mix_mx[i], i == 2u ? LM_MUTEX_INHERIT : 0u), LM_OK);
    }
    for (unsigned i = 0; i < MIX_THREADS; i++) {
        mix_t[i] = lmt_spawn(names[i], 2u + mix_rnd(12u), mix_worker, NULL);
    }
    (void)lmt_spawn("R", 1, mix_reaper, NULL);
    lmt_run();
    lm_kernel_stats_t k;
    lm_kernel_stats(&k);
    LMT_CHECK(k.inversions_unbounded > 10u);
    LMT_CHECK(k.inversions_bounded > 0u);
    lm_trace_user(2, k.inversions_bounded, k.inversions_unbounded);
    for (unsigned i = 0; i < MIX_THREADS; i++) {
        lm_thread_stats_t s;
        LMT_ST(lm_thread_stats(mix_t[i], &s), LM_OK);
        lm_trace_user(3, (uint32_t)(uintptr_t)mix_t[i], s.inversions_unbounded);
        lm_trace_user(4, (uint32_t)(uintptr_t)mix_t[i], s.inversions_bounded);
    }
    lm_trace_stop();
    LMT_EQ(((const lm_trace_header_t *)lm_trace_buffer(NULL))->dropped, 0);
    LMT_EQ(lm_hosted_trace_save("inversions-mixed.lmtrace"), 0);
}
#define MIXED_CASE , LMT_RUN(trace_inversions_mixed)
#else
#define MIXED_CASE
#endif

LMT_MAIN(LMT_RUN(trace_before_start), LMT_RUN(trace_bad_arguments), LMT_RUN(trace_header),
         LMT_RUN(trace_stop_when_full), LMT_RUN(trace_overwrite), LMT_RUN(trace_registry),
         LMT_RUN(trace_switch_reasons), LMT_RUN(trace_switch_reasons_own_and_isr),
         LMT_RUN(trace_slice_then_yield),
         LMT_RUN(trace_objects), LMT_RUN(trace_inversions) MIXED_CASE)
