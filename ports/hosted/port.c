/*
 * Hosted port. Every kernel thread has a ucontext on its own stack; the
 * process has one host thread, so a program's events are reproducible.
 *
 *   "interrupt mask"   a flag; lock/unlock nest through lm_irqstate_t
 *   "interrupts"       callbacks queued by the simulation API, delivered when
 *                      the mask drops outside a handler
 *   "PendSV"           a flag; the switch runs at an unmask when no handler
 *                      is active, exactly where Cortex-M would take PendSV
 *   "tick"             accumulated virtual ticks, announced as an interrupt
 *
 * Under AddressSanitizer every stack switch is announced with
 * __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber, and a
 * stack is unpoisoned when a thread (re)starts on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/hosted.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define HOSTED_ASAN 1
#else
#define HOSTED_ASAN 0
#endif

/* Kernel entry points for ports (kernel/include/lmk.h). */
void lmk_tick_announce(lm_tick_t n);
lm_thread_t *lmk_switch_select(void);
_Noreturn void lmk_thread_exit(void);

enum ev_kind { EV_NOW, EV_TICK, EV_UNMASK };

struct sim_irq {
    lm_hosted_irq_fn_t fn;
    void *arg;
    uint64_t when; /* tick (EV_TICK) or unmask count (EV_UNMASK) */
    uint64_t seq;  /* raise order, for a stable delivery order */
    uint8_t kind;
    uint8_t used;
};

#define MAX_IRQS 64

static struct {
    bool running;
    unsigned masked;
    unsigned handler_depth; /* simulated interrupt handlers active */
    bool in_pendsv;
    bool switch_pending;
    lm_tick_t tick_pending; /* ticks elapsed, not yet announced */
    lm_tick_t next_event;   /* from lm_port_timer_arm */
    uint64_t unmasks;
    uint64_t irqs;
    uint64_t seq;
    struct sim_irq irq[MAX_IRQS];
    ucontext_t main_uc;
    const void *main_stack;
    size_t main_stack_size;
    /* instrumentation */
    uint64_t stretch;
    lm_hosted_mask_stats_t mstats;
} hp;

/* ---- fiber switching ---- */

static void fiber_switch(ucontext_t *from, ucontext_t *to, const void *to_stack,
                         size_t to_size, bool from_dies, void *from_stack, size_t from_size)
{
#if HOSTED_ASAN
    void *fake = NULL;
    if (from_dies && from_stack != NULL) {
        /* R11.4: the dead thread's stack is the application's again; drop
         * the red zones of its frames, which never return. */
        ASAN_UNPOISON_MEMORY_REGION(from_stack, from_size);
    }
    __sanitizer_start_switch_fiber(from_dies ? NULL : &fake, to_stack, to_size);
    if (swapcontext(from, to) != 0) {
        lm_fatal(LM_FATAL_PORT, "swapcontext");
    }
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    (void)to_stack;
    (void)to_size;
    (void)from_dies;
    (void)from_stack;
    (void)from_size;
    if (swapcontext(from, to) != 0) {
        lm_fatal(LM_FATAL_PORT, "swapcontext");
    }
#endif
}

static void deliver(void);

static void thread_trampoline(void)
{
#if HOSTED_ASAN
    __sanitizer_finish_switch_fiber(NULL, &hp.main_stack, &hp.main_stack_size);
#endif
    lm_thread_t *self = lm_thread_self();
    deliver(); /* interrupts that were pending when this thread was chosen */
    self->entry(self->arg);
    lmk_thread_exit();
}

void lm_port_stack_init(lm_thread_t *t)
{
#if HOSTED_ASAN
    ASAN_UNPOISON_MEMORY_REGION(t->stack, t->stack_size);
#endif
    if (getcontext(&t->ctx.uc) != 0) {
        lm_fatal(LM_FATAL_PORT, "getcontext");
    }
    t->ctx.uc.uc_stack.ss_sp = t->stack;
    t->ctx.uc.uc_stack.ss_size = t->stack_size;
    t->ctx.uc.uc_link = NULL;
    makecontext(&t->ctx.uc, thread_trampoline, 0);
}

/* The context-switch handler ("PendSV"). Runs at an unmask outside any
 * handler; simulated interrupts may still be delivered inside it. */
static void pendsv(void)
{
    while (hp.switch_pending && hp.running) {
        hp.switch_pending = false;
        hp.in_pendsv = true;
        lm_thread_t *prev = lm_thread_self();
        lm_thread_t *next = lmk_switch_select();
        hp.in_pendsv = false;
        if (next != prev) {
            bool dies = lm_thread_state(prev) == LM_THREAD_TERMINATED;
            fiber_switch(&prev->ctx.uc, &next->ctx.uc, next->stack, next->stack_size, dies,
                         prev->stack, prev->stack_size);
        }
    }
}

/* ---- interrupts ---- */

static struct sim_irq *due_irq(void)
{
    struct sim_irq *best = NULL;
    lm_tick_t now = lm_tick_now();
    for (unsigned i = 0; i < MAX_IRQS; i++) {
        struct sim_irq *e = &hp.irq[i];
        if (!e->used) {
            continue;
        }
        bool due = (e->kind == EV_NOW) ||
                   (e->kind == EV_TICK && (int32_t)(now - (lm_tick_t)e->when) >= 0) ||
                   (e->kind == EV_UNMASK && hp.unmasks >= e->when);
        if (due && (best == NULL || e->seq < best->seq)) {
            best = e;
        }
    }
    return best;
}

static void run_handler(lm_hosted_irq_fn_t fn, void *arg)
{
    hp.handler_depth++;
    hp.irqs++;
    fn(arg);
    hp.handler_depth--;
}

static void tick_isr(void *arg)
{
    (void)arg;
    lm_tick_t n = hp.tick_pending;
    hp.tick_pending = 0;
    lmk_tick_announce(n);
}

/* Deliver everything deliverable, then take a pended switch. */
static void deliver(void)
{
    if (!hp.running) {
        return;
    }
    while (hp.masked == 0u && hp.handler_depth == 0u) {
        if (hp.tick_pending != 0u) {
            run_handler(tick_isr, NULL);
            continue;
        }
        struct sim_irq *e = due_irq();
        if (e == NULL) {
            break;
        }
        lm_hosted_irq_fn_t fn = e->fn;
        void *arg = e->arg;
        e->used = 0;
        run_handler(fn, arg);
    }
    if (hp.masked == 0u && hp.handler_depth == 0u && !hp.in_pendsv && hp.switch_pending) {
        pendsv();
    }
}

lm_irqstate_t lm_port_irq_lock(void)
{
    lm_irqstate_t prev = hp.masked;
    if (prev == 0u) {
        hp.masked = 1u;
        hp.stretch = 0;
    }
    return prev;
}

void lm_port_irq_unlock(lm_irqstate_t state)
{
    if (state != 0u) {
        return; /* an inner unlock: still masked */
    }
    hp.masked = 0u;
    hp.unmasks++;
    hp.mstats.stretches++;
    hp.mstats.last_blocks = hp.stretch;
    hp.mstats.total_blocks += hp.stretch;
    if (hp.stretch > hp.mstats.max_blocks) {
        hp.mstats.max_blocks = hp.stretch;
    }
    deliver();
}

bool lm_port_in_isr(void)
{
    return hp.handler_depth != 0u || hp.in_pendsv;
}

void lm_port_switch_pend(void)
{
    hp.switch_pending = true;
}

void lm_port_timer_arm(lm_tick_t ticks)
{
    hp.next_event = ticks;
}

/* Idle, called with interrupts masked: let virtual time jump to the next
 * event, or end the simulation when nothing can ever happen again. */
void lm_port_idle(void)
{
    lm_tick_t now = lm_tick_now();
    lm_tick_t step = hp.next_event;
    for (unsigned i = 0; i < MAX_IRQS; i++) {
        const struct sim_irq *e = &hp.irq[i];
        if (!e->used) {
            continue;
        }
        if (e->kind != EV_TICK) {
            return; /* delivered at the coming unmask(s) */
        }
        int32_t d = (int32_t)((lm_tick_t)e->when - now);
        lm_tick_t dt = d > 0 ? (lm_tick_t)d : 0u;
        if (step == LM_WAIT_FOREVER || dt < step) {
            step = dt;
        }
    }
    if (step == LM_WAIT_FOREVER) {
        lm_hosted_stop();
    }
    if (step == 0u) {
        hp.switch_pending = true; /* due work: let the switch handler run it */
        return;
    }
    hp.tick_pending += step;
}

static void port_reset(void)
{
    memset(&hp, 0, sizeof hp);
}

void lm_port_start(lm_thread_t *first)
{
    hp.running = true;
    hp.masked = 0u;
    fiber_switch(&hp.main_uc, &first->ctx.uc, first->stack, first->stack_size, false, NULL, 0);
    /* Back from lm_hosted_stop(): the simulation is over. */
    port_reset();
}

_Noreturn void lm_hosted_stop(void)
{
    lm_thread_t *self = lm_thread_self();
    hp.running = false;
    fiber_switch(&self->ctx.uc, &hp.main_uc, hp.main_stack, hp.main_stack_size, true, NULL, 0);
    lm_fatal(LM_FATAL_PORT, "a stopped simulation resumed");
}

_Noreturn void lm_port_stop(void)
{
    lm_hosted_stop();
}

_Noreturn void lm_port_fatal_halt(void)
{
    fprintf(stderr, "limen: fatal error, halting\n");
    fflush(stderr);
    abort();
}

/* ---- simulation API ---- */

static int add_irq(uint8_t kind, uint64_t when, lm_hosted_irq_fn_t fn, void *arg)
{
    for (unsigned i = 0; i < MAX_IRQS; i++) {
        struct sim_irq *e = &hp.irq[i];
        if (!e->used) {
            e->fn = fn;
            e->arg = arg;
            e->when = when;
            e->kind = kind;
            e->seq = hp.seq++;
            e->used = 1;
            return 0;
        }
    }
    return -1;
}

int lm_hosted_irq_raise(lm_hosted_irq_fn_t fn, void *arg)
{
    int r = add_irq(EV_NOW, 0, fn, arg);
    if (r == 0 && hp.masked == 0u && hp.handler_depth == 0u && !hp.in_pendsv) {
        deliver();
    }
    return r;
}

int lm_hosted_irq_at_tick(lm_tick_t tick, lm_hosted_irq_fn_t fn, void *arg)
{
    return add_irq(EV_TICK, tick, fn, arg);
}

int lm_hosted_irq_at_unmask(uint64_t n, lm_hosted_irq_fn_t fn, void *arg)
{
    return add_irq(EV_UNMASK, hp.unmasks + (n == 0u ? 1u : n), fn, arg);
}

void lm_hosted_work(lm_tick_t ticks)
{
    for (lm_tick_t i = 0; i < ticks; i++) {
        lm_irqstate_t s = lm_port_irq_lock();
        hp.tick_pending += 1u;
        lm_port_irq_unlock(s);
    }
}

uint64_t lm_hosted_unmask_count(void)
{
    return hp.unmasks;
}

uint64_t lm_hosted_irq_count(void)
{
    return hp.irqs;
}

void lm_hosted_mask_stats_reset(void)
{
    memset(&hp.mstats, 0, sizeof hp.mstats);
}

void lm_hosted_mask_stats(lm_hosted_mask_stats_t *out)
{
    *out = hp.mstats;
}

/* Called by -fsanitize-coverage=trace-pc code at every basic block. */
void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc(void)
{
    if (hp.masked != 0u) {
        hp.stretch++;
    }
}
