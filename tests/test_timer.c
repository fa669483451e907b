/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Software timers (include/limen/timer.h; docs/rules.md R8, R9.5, R10.2,
 * R12.1): one-shot and periodic expiry ticks, no drift, stop / start /
 * restart / delete, the callback's context, wrap-around, far deadlines and
 * bad input.
 */
#include <string.h>
#include "harness.h"
#include "limen/port.h"

#if defined(LM_PORT_HOSTED)
#define FAR 100000u
#else
#define FAR 1500u /* board ticks are real (virtual) time: keep it short */
#endif

#define NTIMERS 6
static lm_timer_t tms[NTIMERS];
static unsigned fired[NTIMERS];
static unsigned stop_after[NTIMERS]; /* a callback stops its timer after n runs */
static lm_sem_t sem;

static const char *const names[NTIMERS] = {"A", "B", "C", "D", "E", "F"};

/* Every callback logs "<name>@<tick>", counts, and stops its own timer
 * after stop_after[] runs when that is set. */
static void cb_log(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    fired[i]++;
    lmt_log("%s@%u", names[i], (unsigned)lm_tick_now());
    if (stop_after[i] != 0u && fired[i] == stop_after[i]) {
        LMT_ST(lm_timer_stop(&tms[i]), LM_OK);
        LMT_CHECK(!lm_timer_active(&tms[i]));
    }
}

/* Fresh kernel at `origin`, all timers zeroed and created with cb_log. */
static void begin(lm_tick_t origin)
{
    lmt_begin_at(origin);
    memset(tms, 0, sizeof tms);
    memset(fired, 0, sizeof fired);
    memset(stop_after, 0, sizeof stop_after);
    for (unsigned i = 0; i < NTIMERS; i++) {
        LMT_ST(lm_timer_create(&tms[i], cb_log, (void *)(uintptr_t)i), LM_OK);
        LMT_CHECK(!lm_timer_active(&tms[i]));
    }
    memset(&sem, 0, sizeof sem);
    LMT_ST(lm_sem_create(&sem, 0, 10), LM_OK);
}

static void check_active(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(5), LM_OK);
    lmt_log("T:%d%d%d%d%d", lm_timer_active(&tms[0]), lm_timer_active(&tms[1]),
            lm_timer_active(&tms[2]), lm_timer_active(&tms[3]), lm_timer_active(&tms[4]));
}

/* timer.h: a one-shot runs once, exactly `delay` ticks after the start
 * (R8.2), in order of expiry; active until it expires, inactive after. */
LMT_CASE(one_shot_fires_once_on_time)
{
    begin(0);
    LMT_ST(lm_timer_start(&tms[0], 1000, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[1], 1, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[2], LM_CFG_TIMER_WHEEL_SLOTS + 1, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[3], 10, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[4], LM_CFG_TIMER_WHEEL_SLOTS, 0), LM_OK);
    lmt_spawn("T", 3, check_active, NULL);
    lmt_run();
    char buf[128];
    snprintf(buf, sizeof buf, "B@1 T:10111 D@10 E@%u C@%u A@1000", LM_CFG_TIMER_WHEEL_SLOTS,
             LM_CFG_TIMER_WHEEL_SLOTS + 1u);
    lmt_expect(buf);
    for (unsigned i = 0; i < 5u; i++) {
        LMT_EQ(fired[i], 1);
        LMT_CHECK(!lm_timer_active(&tms[i]));
    }
    LMT_EQ(lm_tick_now(), 1000);
}

/* R10.2: a periodic timer expires at delay, delay+period, ...; stopping
 * it from its own callback ends it (LM_OK), a second stop is LM_ERR_STATE. */
LMT_CASE(periodic_exact_then_stopped)
{
    begin(0);
    stop_after[0] = 4;
    LMT_ST(lm_timer_start(&tms[0], 5, 10), LM_OK);
    lmt_run();
    lmt_expect("A@5 A@15 A@25 A@35");
    LMT_EQ(lm_tick_now(), 35);
    LMT_ST(lm_timer_stop(&tms[0]), LM_ERR_STATE);
    LMT_EQ(lm_tick_next_deadline(), LM_WAIT_FOREVER);
}

#if defined(LM_PORT_HOSTED)
static void long_callback(void *arg)
{
    cb_log(arg);
    if (fired[0] == 1u) {
        lm_hosted_work(3); /* this callback runs 3 ticks long */
    }
}

static void long_isr(void *arg)
{
    /* An interrupt that holds the tick work off for `arg` ticks: the
     * expiry due meanwhile runs late. */
    lm_hosted_work((lm_tick_t)(uintptr_t)arg);
}

/* R10.2: expiries stay period apart from the first one when a callback
 * runs long (3 ticks at tick 10) or runs late (an interrupt holds the
 * tick-20 expiry off until 25, and later the 50 and 60 expiries until 66):
 * 10 20 30 40 50 60 70, each run once, none pushed back. */
LMT_CASE(periodic_no_drift_when_late)
{
    begin(0);
    memset(&tms[0], 0, sizeof tms[0]);
    LMT_ST(lm_timer_create(&tms[0], long_callback, (void *)(uintptr_t)0), LM_OK);
    stop_after[0] = 7;
    LMT_ST(lm_timer_start(&tms[0], 10, 10), LM_OK);
    LMT_CHECK(lm_hosted_irq_at_tick(19, long_isr, (void *)(uintptr_t)6) == 0);
    LMT_CHECK(lm_hosted_irq_at_tick(41, long_isr, (void *)(uintptr_t)25) == 0);
    lmt_run();
    lmt_expect("A@10 A@25 A@30 A@40 A@66 A@66 A@70");
    LMT_EQ(lm_tick_now(), 70);
}
#endif

static void restarter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(5), LM_OK);
    LMT_CHECK(lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_start(&tms[0], 10, 0), LM_OK); /* restart: now due at 15 */
    LMT_ST(lm_thread_sleep(15), LM_OK);                 /* tick 20 */
    lmt_log("T@%u", (unsigned)lm_tick_now());
    LMT_CHECK(!lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_stop(&tms[0]), LM_ERR_STATE); /* expired one-shot */
    LMT_ST(lm_timer_start(&tms[0], 3, 4), LM_OK);  /* now periodic: 23 27 */
    LMT_ST(lm_thread_sleep(8), LM_OK);             /* tick 28 */
    LMT_CHECK(lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_stop(&tms[0]), LM_OK);
    LMT_CHECK(!lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_stop(&tms[0]), LM_ERR_STATE);
    LMT_ST(lm_thread_sleep(10), LM_OK); /* tick 38: the stopped timer stays silent */
    lmt_log("T@%u", (unsigned)lm_tick_now());
    LMT_ST(lm_timer_start(&tms[0], 2, 0), LM_OK); /* start after stop */
    LMT_ST(lm_timer_start(&tms[1], 5, 5), LM_OK);
    LMT_ST(lm_thread_sleep(7), LM_OK);             /* tick 45 */
    LMT_ST(lm_timer_start(&tms[1], 4, 0), LM_OK);  /* periodic restarted as one-shot */
    LMT_ST(lm_thread_sleep(10), LM_OK);
}

/* timer.h: start of an active timer restarts it from now; stop cancels
 * the pending expiry (a stopped timer's callback does not run again);
 * stop of a stopped or expired timer is LM_ERR_STATE; a stopped timer can
 * be started again; a periodic timer restarted with period 0 is one-shot. */
LMT_CASE(stop_start_restart)
{
    begin(0);
    LMT_ST(lm_timer_start(&tms[0], 10, 0), LM_OK);
    lmt_spawn("T", 3, restarter, NULL);
    lmt_run();
    lmt_expect("A@15 T@20 A@23 A@27 T@38 A@40 B@43 B@49");
    LMT_EQ(lm_tick_now(), 55);
}

static void deleter(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(12), LM_OK);
    LMT_CHECK(lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_delete(&tms[0]), LM_OK);
    LMT_CHECK(!lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_start(&tms[0], 5, 0), LM_ERR_OBJECT);
    LMT_ST(lm_timer_stop(&tms[0]), LM_ERR_OBJECT);
    LMT_ST(lm_timer_delete(&tms[0]), LM_ERR_OBJECT);
    LMT_CHECK(!lm_timer_active(&tms[0]));
    LMT_ST(lm_thread_sleep(20), LM_OK); /* tick 32: nothing from A */
    lmt_log("T@%u", (unsigned)lm_tick_now());
    memset(&tms[0], 0, sizeof tms[0]);
    LMT_ST(lm_timer_create(&tms[0], cb_log, (void *)(uintptr_t)0), LM_OK);
    LMT_ST(lm_timer_start(&tms[0], 1, 0), LM_OK);
}

static void delete_self_cb(void *arg)
{
    cb_log(arg);
    if (fired[1] == 2u) {
        LMT_ST(lm_timer_delete(&tms[1]), LM_OK);
    }
}

/* timer.h: deleting an active periodic timer (from a thread, or from its
 * own callback) stops it for good; a deleted timer is LM_ERR_OBJECT to
 * start, stop and delete, and can be created again. */
LMT_CASE(delete_active_timer)
{
    begin(0);
    memset(&tms[1], 0, sizeof tms[1]);
    LMT_ST(lm_timer_create(&tms[1], delete_self_cb, (void *)(uintptr_t)1), LM_OK);
    LMT_ST(lm_timer_start(&tms[0], 5, 5), LM_OK);
    LMT_ST(lm_timer_start(&tms[1], 3, 3), LM_OK);
    lmt_spawn("T", 3, deleter, NULL);
    lmt_run();
    lmt_expect("B@3 A@5 B@6 A@10 T@32 A@33");
    LMT_EQ(lm_tick_now(), 33);
}

static void stop_others_cb(void *arg)
{
    cb_log(arg);
    LMT_ST(lm_timer_stop(&tms[1]), LM_OK);   /* due on this same tick */
    LMT_ST(lm_timer_delete(&tms[2]), LM_OK); /* likewise */
}

/* timer.h, R9.4: a timer due on this tick but not yet processed is stopped
 * (or deleted) by an earlier callback of the same tick: it does not run. */
LMT_CASE(stop_timer_due_on_same_tick)
{
    begin(0);
    memset(&tms[0], 0, sizeof tms[0]);
    LMT_ST(lm_timer_create(&tms[0], stop_others_cb, (void *)(uintptr_t)0), LM_OK);
    LMT_ST(lm_timer_start(&tms[0], 10, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[1], 10, 10), LM_OK);
    LMT_ST(lm_timer_start(&tms[2], 10, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[3], 10, 0), LM_OK);
    lmt_run();
    lmt_expect("A@10 D@10");
    LMT_EQ(fired[1] + fired[2], 0);
    LMT_EQ(lm_tick_next_deadline(), LM_WAIT_FOREVER);
}

#if LM_CFG_MUTEX
static lm_mutex_t mtx;
#endif
static LM_STACK_DEFINE(cb_stack, LM_PORT_MIN_STACK);
static lm_thread_t cb_thread;
#if defined(LM_PORT_HOSTED)
static lm_thread_t *interrupted;
#endif

static void nop_entry(void *arg)
{
    (void)arg;
}

static void context_cb(void *arg)
{
    (void)arg;
    lmt_log("cb@%u", (unsigned)lm_tick_now());
    LMT_CHECK(lm_port_in_isr()); /* R9.5: interrupt context as the kernel sees it */
    /* R12.1: blocking forms are refused with LM_ERR_ISR and change nothing. */
    LMT_ST(lm_sem_take(&sem, 5), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&sem, LM_WAIT_FOREVER), LM_ERR_ISR);
    LMT_ST(lm_sem_take(&sem, LM_NO_WAIT), LM_ERR_WOULD_BLOCK);
    LMT_ST(lm_thread_sleep(1), LM_ERR_ISR);
    LMT_ST(lm_thread_sleep(0), LM_ERR_ISR); /* docs/errors.md: sleep from a handler */
    LMT_ST(lm_thread_yield(), LM_ERR_ISR);
    LMT_ST(lm_sched_lock(), LM_ERR_ISR);
    LMT_ST(lm_sched_unlock(), LM_ERR_ISR);
    LMT_EQ(lm_sched_lock_depth(), 0);
#if LM_CFG_MUTEX
    LMT_ST(lm_mutex_lock(&mtx, LM_NO_WAIT), LM_ERR_ISR);
    LMT_ST(lm_mutex_unlock(&mtx), LM_ERR_ISR);
    LMT_CHECK(lm_mutex_owner(&mtx) == NULL);
#endif
#if LM_CFG_ARG_CHECKS
    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.entry = nop_entry;
    a.stack = cb_stack;
    a.stack_size = sizeof cb_stack;
    LMT_ST(lm_thread_create(&cb_thread, &a), LM_ERR_ISR);
#endif
    uint32_t c = 99;
    LMT_ST(lm_sem_count(&sem, &c), LM_OK);
    LMT_EQ(c, 0);
#if defined(LM_PORT_HOSTED)
    LMT_CHECK(lm_thread_self() == interrupted); /* the thread the tick interrupted */
#endif
    /* Non-blocking calls work: the give wakes W, which runs only after
     * the callback has returned; a timer can be started. */
    LMT_ST(lm_sem_give(&sem), LM_OK);
    LMT_ST(lm_timer_start(&tms[1], 2, 0), LM_OK);
    lmt_log("cb:end");
}

static void sem_waiter(void *arg)
{
    (void)arg;
    lm_status_t st = lm_sem_take(&sem, 100);
    lmt_log("W:%s@%u", lmt_sn(st), (unsigned)lm_tick_now());
}

#if defined(LM_PORT_HOSTED)
static void busy_low(void *arg)
{
    (void)arg;
    lm_hosted_work(15);
    lmt_log("L@%u", (unsigned)lm_tick_now());
}
#endif

/* R9.5, R12.1: a callback runs in interrupt context (lm_port_in_isr());
 * blocking calls return LM_ERR_ISR and change nothing, mutexes, relinquish,
 * sleep, the scheduler lock and thread creation are refused; non-blocking
 * calls work, and the thread a give wakes runs after the callback. */
LMT_CASE(callback_context)
{
    begin(0);
#if LM_CFG_MUTEX
    memset(&mtx, 0, sizeof mtx);
    LMT_ST(lm_mutex_create(&mtx, 0), LM_OK);
#endif
    memset(&cb_thread, 0, sizeof cb_thread);
    memset(&tms[0], 0, sizeof tms[0]);
    LMT_ST(lm_timer_create(&tms[0], context_cb, NULL), LM_OK);
    LMT_ST(lm_timer_start(&tms[0], 10, 0), LM_OK);
    lmt_spawn("W", 2, sem_waiter, NULL);
#if defined(LM_PORT_HOSTED)
    interrupted = lmt_spawn("L", 5, busy_low, NULL);
    lmt_run();
    lmt_expect("cb@10 cb:end W:OK@10 B@12 L@15");
#else
    lmt_run();
    lmt_expect("cb@10 cb:end W:OK@10 B@12");
#endif
}

#if defined(LM_PORT_HOSTED)
static void irq_log(void *arg)
{
    (void)arg;
    lmt_log("irq");
}

static void raising_cb(void *arg)
{
    (void)arg;
    lmt_log("cb1");
    LMT_CHECK(lm_hosted_irq_raise(irq_log, NULL) == 0);
    lmt_log("cb2");
    LMT_ST(lm_sem_give(&sem), LM_OK); /* its unmask lets the interrupt in */
    lmt_log("cb3");
}

/* R9.5: a callback runs with the kernel lock released, so an interrupt
 * raised meanwhile is served at the callback's next unmask, before the
 * callback ends. */
LMT_CASE(interrupts_served_during_callback)
{
    begin(0);
    memset(&tms[0], 0, sizeof tms[0]);
    LMT_ST(lm_timer_create(&tms[0], raising_cb, NULL), LM_OK);
    LMT_ST(lm_timer_start(&tms[0], 4, 0), LM_OK);
    lmt_run();
    lmt_expect("cb1 cb2 irq cb3");
}
#endif

static void run_wrap(lm_tick_t origin)
{
    begin(origin);
    stop_after[0] = 5;
    LMT_ST(lm_timer_start(&tms[0], 3, 7), LM_OK);
    LMT_ST(lm_timer_start(&tms[1], 100, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[2], 16, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[3], 1000, 0), LM_OK);
    lmt_run();
    char buf[256];
    lm_tick_t o = origin;
    snprintf(buf, sizeof buf, "A@%u A@%u C@%u A@%u A@%u A@%u B@%u D@%u", (unsigned)(o + 3u),
             (unsigned)(o + 10u), (unsigned)(o + 16u), (unsigned)(o + 17u), (unsigned)(o + 24u),
             (unsigned)(o + 31u), (unsigned)(o + 100u), (unsigned)(o + 1000u));
    lmt_expect(buf);
}

/* R8.3, R10.2: one-shot and periodic timers straddling the wrap at 2^32
 * (and the signed boundary at 2^31) expire on their exact ticks. */
LMT_CASE(timers_across_wrap)
{
    run_wrap(0xFFFFFFF0u);
    run_wrap(0xFFFFFFFDu);
    run_wrap(0x7FFFFFF8u);
}

/* R10.2 and far deadlines: periods longer than the wheel (100, 2 and 1
 * revolutions exactly) and one-shots of 1000 and FAR ticks are exact. */
LMT_CASE(far_and_wheel_sized_periods)
{
    begin(0);
    const unsigned s = LM_CFG_TIMER_WHEEL_SLOTS;
    stop_after[0] = 3;
    stop_after[1] = 3;
    stop_after[2] = 3;
    LMT_ST(lm_timer_start(&tms[0], 100, 100), LM_OK);
    LMT_ST(lm_timer_start(&tms[1], 2 * s, 2 * s), LM_OK);
    LMT_ST(lm_timer_start(&tms[2], 1, s), LM_OK);
    LMT_ST(lm_timer_start(&tms[3], 1000, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[4], FAR, 0), LM_OK);
    lmt_run();
    /* Expected events sorted by tick; ties in arming order (R8.5). */
    struct { unsigned t, i; } ev[] = {
        {100, 0}, {200, 0}, {300, 0}, {2 * s, 1}, {4 * s, 1}, {6 * s, 1},
        {1, 2}, {1 + s, 2}, {1 + 2 * s, 2}, {1000, 3}, {FAR, 4},
    };
    const unsigned n = sizeof ev / sizeof ev[0];
    for (unsigned i = 1; i < n; i++) { /* insertion sort: by tick, then timer */
        for (unsigned j = i; j > 0u && (ev[j - 1u].t > ev[j].t ||
                                         (ev[j - 1u].t == ev[j].t && ev[j - 1u].i > ev[j].i));
             j--) {
            __typeof__(ev[0]) tmp = ev[j];
            ev[j] = ev[j - 1u];
            ev[j - 1u] = tmp;
        }
    }
    char buf[256];
    size_t len = 0;
    for (unsigned i = 0; i < n; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s@%u", i != 0u ? " " : "",
                                names[ev[i].i], ev[i].t);
    }
    lmt_expect(buf);
    LMT_EQ(lm_tick_now(), FAR);
}

/* docs/errors.md: NULL timer or callback, delay 0, delay or period above
 * LM_TICK_MAX_TIMEOUT are LM_ERR_PARAM; an uncreated timer is LM_ERR_OBJECT.
 * A refused start changes nothing: the running timer keeps its deadline,
 * a stopped one stays stopped. */
LMT_CASE(bad_input)
{
    begin(0);
    lm_timer_t raw;
    memset(&raw, 0, sizeof raw);
    LMT_ST(lm_timer_create(NULL, cb_log, NULL), LM_ERR_PARAM);
    LMT_ST(lm_timer_create(&raw, NULL, NULL), LM_ERR_PARAM);
    LMT_ST(lm_timer_start(NULL, 1, 0), LM_ERR_PARAM);
    LMT_ST(lm_timer_stop(NULL), LM_ERR_PARAM);
    LMT_ST(lm_timer_delete(NULL), LM_ERR_PARAM);
    LMT_CHECK(!lm_timer_active(NULL));
    LMT_ST(lm_timer_start(&raw, 1, 0), LM_ERR_OBJECT); /* never created */
    LMT_ST(lm_timer_stop(&raw), LM_ERR_OBJECT);
    LMT_ST(lm_timer_delete(&raw), LM_ERR_OBJECT);

    LMT_ST(lm_timer_start(&tms[0], 10, 0), LM_OK);
    LMT_ST(lm_timer_start(&tms[0], 0, 0), LM_ERR_PARAM);
    LMT_ST(lm_timer_start(&tms[0], LM_TICK_MAX_TIMEOUT + 1u, 0), LM_ERR_PARAM);
    LMT_ST(lm_timer_start(&tms[0], LM_WAIT_FOREVER, 0), LM_ERR_PARAM);
    LMT_ST(lm_timer_start(&tms[0], 3, LM_TICK_MAX_TIMEOUT + 1u), LM_ERR_PARAM);
    LMT_CHECK(lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_start(&tms[1], 0, 5), LM_ERR_PARAM);
    LMT_CHECK(!lm_timer_active(&tms[1]));
    LMT_ST(lm_timer_stop(&tms[1]), LM_ERR_STATE); /* never started */
    /* The limits themselves are legal. */
    LMT_ST(lm_timer_start(&tms[2], LM_TICK_MAX_TIMEOUT, LM_TICK_MAX_TIMEOUT), LM_OK);
    LMT_ST(lm_timer_stop(&tms[2]), LM_OK);
    lmt_run();
    lmt_expect("A@10");
    LMT_EQ(fired[1] + fired[2], 0);
}

#if defined(LM_PORT_HOSTED)
static void arm_max_isr(void *arg)
{
    (void)arg;
    /* Tick 40 has been announced after an idle jump of 40 ticks: the wheel
     * has not visited those ticks yet when this runs. */
    LMT_ST(lm_timer_start(&tms[0], LM_TICK_MAX_TIMEOUT, 0), LM_OK);
    lmt_log("isr@%u", (unsigned)lm_tick_now());
}

static void sleep40_then_stop(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(40), LM_OK);
    lmt_log("S@%u", (unsigned)lm_tick_now());
    LMT_CHECK(lm_timer_active(&tms[0]));
    LMT_ST(lm_timer_stop(&tms[0]), LM_OK);
}

/* R8.3: an interrupt arms the largest timeout (2^31-1 ticks) while the
 * expiry work of a 40-tick idle jump is still pending. Its deadline is far
 * ahead: it must neither fire nor stall the expiry work; S still wakes on
 * tick 40 and finds the timer active. */
LMT_CASE(far_timeout_armed_while_expiry_lags)
{
    begin(0);
    lmt_spawn("S", 3, sleep40_then_stop, NULL);
    LMT_CHECK(lm_hosted_irq_at_tick(40, arm_max_isr, NULL) == 0);
    lmt_run();
    lmt_expect("isr@40 S@40");
    LMT_EQ(fired[0], 0);
    LMT_EQ(lm_tick_now(), 40);
    LMT_EQ(lm_tick_next_deadline(), LM_WAIT_FOREVER);
}
#endif

#if defined(LM_PORT_HOSTED)
#define HOSTED_CASES                                                                      \
    LMT_RUN(periodic_no_drift_when_late), LMT_RUN(interrupts_served_during_callback),   \
        LMT_RUN(far_timeout_armed_while_expiry_lags),
#else
#define HOSTED_CASES
#endif

LMT_MAIN(LMT_RUN(one_shot_fires_once_on_time), LMT_RUN(periodic_exact_then_stopped),
         LMT_RUN(stop_start_restart), LMT_RUN(delete_active_timer),
         LMT_RUN(stop_timer_due_on_same_tick), LMT_RUN(callback_context), HOSTED_CASES
         LMT_RUN(timers_across_wrap), LMT_RUN(far_and_wheel_sized_periods), LMT_RUN(bad_input))
