/* SPDX-License-Identifier: Apache-2.0 */
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
 *
 * Stack overflow (docs/hosted.md "Stack overflow"): the low end of every
 * thread stack holds a guard pattern, checked with the stack pointer at each
 * switch away from the thread, as on Cortex-M. Above the pattern, one host
 * page is made inaccessible while the thread runs; a SIGSEGV there, taken on
 * an alternate signal stack, is reported at once.
 */
#define _GNU_SOURCE 1 /* REG_RSP in <ucontext.h>, sigaltstack */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "limen/hosted.h"

/* GCC says it compiles with AddressSanitizer through __SANITIZE_ADDRESS__,
 * clang (14) only through __has_feature. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOSTED_CLANG_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(HOSTED_CLANG_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define HOSTED_ASAN 1
#else
#define HOSTED_ASAN 0
#endif

/* Kernel entry points for ports (kernel/include/lmk.h). */
void lmk_tick_announce(lm_tick_t n);
lm_irqstate_t lmk_switch_work(void);
lm_thread_t *lmk_switch_commit_locked(void);
_Noreturn void lmk_thread_exit(void);

enum ev_kind { EV_NOW, EV_TICK, EV_UNMASK, EV_LOCK };

struct sim_irq {
    lm_hosted_irq_fn_t fn;
    void *arg;
    uint64_t when; /* tick (EV_TICK), unmask count (EV_UNMASK) or lock
                      count (EV_LOCK) */
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
    lm_thread_t *leaving; /* the thread the switch handler is leaving */
    bool switch_pending;
    lm_tick_t tick_pending; /* ticks elapsed, not yet announced */
    lm_tick_t next_event;   /* from lm_port_timer_arm */
    uint64_t unmasks;
    uint64_t locks;      /* locks taken in thread context (EV_LOCK) */
    unsigned lock_irqs;  /* EV_LOCK interrupts waiting */
    uint64_t irqs;
    uint64_t seq;
    struct sim_irq irq[MAX_IRQS];
    ucontext_t main_uc;
    const void *main_stack;
    size_t main_stack_size;
    /* instrumentation */
    uint64_t stretch;
    lm_hosted_mask_stats_t mstats;
    uint64_t blocks;             /* kernel blocks run unmasked in thread context */
    uint64_t block_at;           /* lm_hosted_irq_at_block: fire at this count */
    lm_hosted_irq_fn_t block_fn; /* NULL: none armed */
    void *block_arg;
    bool in_port;                /* in deliver(): blocks not counted */
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

/* ---- stack guard ---- */

/* The pattern fills the lowest GUARD_BYTES of every stack. The kernel's
 * watermark skips up to 64 non-fill bytes there (kernel/thread.c), and no
 * byte of the pattern equals its fill byte 0xA5. */
#define GUARD_BYTES 64u
#define GUARD_WORD UINT64_C(0x4C494D454E475244) /* "DRGNEMIL" in memory */

/* The hard guard needs the faulting stack pointer from the signal context. */
#if defined(__linux__) && defined(__x86_64__)
#define HOSTED_HARD_GUARD 1
#define SIGNAL_SP(uc) ((uintptr_t)(uc)->uc_mcontext.gregs[REG_RSP])
#elif defined(__linux__) && defined(__aarch64__)
#define HOSTED_HARD_GUARD 1
#define SIGNAL_SP(uc) ((uintptr_t)(uc)->uc_mcontext.sp)
#else
#define HOSTED_HARD_GUARD 0
#endif

/* Bytes below the stack pointer a function may use without moving it (the
 * x86-64 System V red zone); a fault there is the stack's own. */
#define SP_RED_ZONE 128u
#define ALT_STACK_BYTES (64u * 1024u)

/* Survives port_reset(): installed for one lm_port_start() at a time. */
static struct {
    size_t page;          /* host page size */
    uint8_t *armed;       /* the one page now inaccessible, or NULL */
    bool installed;       /* our SIGSEGV handler and alternate stack */
    struct sigaction old_segv;
    stack_t old_alt;
} sg;

#if HOSTED_HARD_GUARD
static _Alignas(16) uint8_t alt_stack[ALT_STACK_BYTES];
#endif

static size_t host_page(void)
{
    if (sg.page == 0u) {
        long n = sysconf(_SC_PAGESIZE);
        sg.page = n > 0 ? (size_t)n : 4096u;
    }
    return sg.page;
}

/* The hard guard page of t: the first whole page above the pattern, if at
 * least one more page of stack remains above it; else NULL. */
static uint8_t *guard_page(const lm_thread_t *t)
{
#if HOSTED_HARD_GUARD
    size_t pg = host_page();
    uintptr_t lo = (uintptr_t)t->stack;
    uintptr_t p = (lo + GUARD_BYTES + pg - 1u) & ~(uintptr_t)(pg - 1u);
    if (p + 2u * pg <= lo + t->stack_size) {
        return (uint8_t *)p;
    }
#else
    (void)t;
#endif
    return NULL;
}

const void *lm_hosted_stack_limit(const lm_thread_t *t)
{
    const uint8_t *page = guard_page(t);
    return page != NULL ? page + host_page() : (const uint8_t *)t->stack + GUARD_BYTES;
}

static void guard_write(lm_thread_t *t)
{
    uint64_t w = GUARD_WORD;
    for (unsigned i = 0; i < GUARD_BYTES / sizeof w; i++) {
        memcpy((uint8_t *)t->stack + i * sizeof w, &w, sizeof w);
    }
}

/* The pattern may lie under the red zones of frames that ran over it, so it
 * is read without address checks. */
#if HOSTED_ASAN
__attribute__((no_sanitize_address))
#endif
static bool guard_intact(const lm_thread_t *t)
{
    const volatile uint8_t *p = (const volatile uint8_t *)t->stack;
    uint64_t w = GUARD_WORD;
    const uint8_t *ref = (const uint8_t *)&w;
    for (unsigned i = 0; i < GUARD_BYTES; i++) {
        if (p[i] != ref[i % sizeof w]) {
            return false;
        }
    }
    return true;
}

/* At a switch away from t, the running thread (so lm_fatal names it): its
 * stack pointer must be above the limit and its pattern intact. */
static void guard_check(const lm_thread_t *t)
{
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if (sp < (uintptr_t)lm_hosted_stack_limit(t) ||
        sp > (uintptr_t)t->stack + t->stack_size || !guard_intact(t)) {
        lm_fatal(LM_FATAL_STACK, lm_thread_name(t));
    }
}

static void guard_disarm(void)
{
    if (sg.armed != NULL) {
        uint8_t *p = sg.armed;
        sg.armed = NULL;
        if (mprotect(p, host_page(), PROT_READ | PROT_WRITE) != 0) {
            lm_fatal(LM_FATAL_PORT, "mprotect");
        }
    }
}

static void guard_arm(const lm_thread_t *t)
{
    guard_disarm();
    uint8_t *p = sg.installed ? guard_page(t) : NULL;
    if (p != NULL) {
        if (mprotect(p, host_page(), PROT_NONE) != 0) {
            lm_fatal(LM_FATAL_PORT, "mprotect");
        }
        sg.armed = p;
    }
}

#if HOSTED_HARD_GUARD
/* Runs on the alternate stack: the faulting one may have no room left. */
static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    uintptr_t a = (uintptr_t)si->si_addr;
    uintptr_t p = (uintptr_t)sg.armed;
    if (p != 0u && a >= p && a < p + host_page()) {
        uintptr_t sp = SIGNAL_SP((ucontext_t *)ctx);
        guard_disarm(); /* the memory is ordinary again, whatever the hook does */
        if (a + SP_RED_ZONE >= sp) {
            /* The stack itself has grown into the page: frames, pushes
             * and calls all store at or just below the stack pointer. */
            lm_fatal(LM_FATAL_STACK, lm_thread_name(lm_thread_self()));
        }
        /* An access through a pointer far below the stack pointer (the
         * watermark scanning the thread's own stack): no overflow. The page
         * stays accessible until the thread is switched in again, and the
         * access is retried. */
        return;
    }
    /* Not the guard: the previous handler (the default, or a sanitizer's)
     * takes the retried access. */
    (void)sigaction(SIGSEGV, &sg.old_segv, NULL);
    sg.installed = false;
}
#endif

static void guard_install(void)
{
#if HOSTED_HARD_GUARD
    stack_t alt;
    memset(&alt, 0, sizeof alt);
    alt.ss_sp = alt_stack;
    alt.ss_size = sizeof alt_stack;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaltstack(&alt, &sg.old_alt) != 0) {
        return; /* no hard guard; the pattern still works */
    }
    /* AddressSanitizer with allow_user_segv_handler=0 reports success but
     * keeps its own handler: read back what is installed. */
    struct sigaction now;
    if (sigaction(SIGSEGV, &sa, &sg.old_segv) != 0 || sigaction(SIGSEGV, NULL, &now) != 0 ||
        (now.sa_flags & SA_SIGINFO) == 0 || now.sa_sigaction != on_segv) {
        (void)sigaction(SIGSEGV, &sg.old_segv, NULL);
        (void)sigaltstack(&sg.old_alt, NULL);
        return;
    }
    sg.installed = true;
#endif
}

static void guard_uninstall(void)
{
    guard_disarm();
#if HOSTED_HARD_GUARD
    if (sg.installed) {
        (void)sigaction(SIGSEGV, &sg.old_segv, NULL);
        (void)sigaltstack(&sg.old_alt, NULL);
        sg.installed = false;
    }
#endif
}

bool lm_hosted_stack_guard_page(void)
{
    if (hp.running) {
        return sg.installed;
    }
    guard_install();
    bool ok = sg.installed;
    guard_uninstall();
    return ok;
}

static void deliver(void);

static void thread_trampoline(void)
{
#if HOSTED_ASAN
    /* Where we came from is main's stack only for the first thread of a run
     * (entered from lm_port_start); later first runs come from a thread. */
    const void *from_stack = NULL;
    size_t from_size = 0;
    __sanitizer_finish_switch_fiber(NULL, &from_stack, &from_size);
    if (hp.main_stack == NULL) {
        hp.main_stack = from_stack;
        hp.main_stack_size = from_size;
    }
#endif
    lm_thread_t *self = lm_thread_self();
    hp.leaving = NULL; /* off the previous thread's stack */
    hp.in_port = false; /* a new thread: no switch of the port's under way here */
    deliver(); /* interrupts that were pending when this thread was chosen */
    self->entry(self->arg);
    lmk_thread_exit();
}

void lm_port_stack_init(lm_thread_t *t)
{
#if HOSTED_ASAN
    ASAN_UNPOISON_MEMORY_REGION(t->stack, t->stack_size);
#endif
    guard_write(t);
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
        hp.leaving = prev;
        guard_check(prev); /* before the kernel makes another thread current */
        /* Returns with the lock held (with nothing pending, at once). Any
         * request made so far, the deferred work's wakes' included, is
         * answered by the decision this switch carries out. */
        lm_irqstate_t s = lmk_switch_work();
        hp.switch_pending = false;
        lm_thread_t *next = lmk_switch_commit_locked();
        lm_port_irq_unlock(s);
        hp.in_pendsv = false;
        if (next != prev) {
            guard_arm(next);
            bool dies = lm_thread_state(prev) == LM_THREAD_TERMINATED;
            fiber_switch(&prev->ctx.uc, &next->ctx.uc, next->stack, next->stack_size, dies,
                         prev->stack, prev->stack_size);
        }
        hp.leaving = NULL; /* on our own stack again */
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
                   (e->kind == EV_UNMASK && hp.unmasks >= e->when) ||
                   (e->kind == EV_LOCK && hp.locks >= e->when);
        if (due && (best == NULL || e->seq < best->seq)) {
            best = e;
        }
    }
    return best;
}

/* irq: the number trace records give the handler (docs/trace.md). */
static void run_handler(lm_hosted_irq_fn_t fn, void *arg, uint16_t irq)
{
    hp.handler_depth++;
    hp.irqs++;
    /* The hooks' own masked steps are not unmasks of the handler: they count
     * or record in one uninterrupted step, as on hardware, and leave the
     * unmask counts the tests place interrupts by as they are. */
    lm_irqstate_t m = hp.masked;
    hp.masked = 1u;
    lm_trace_isr_enter(irq);
    hp.masked = m;
    fn(arg);
    m = hp.masked;
    hp.masked = 1u;
    lm_trace_isr_exit(irq);
    hp.masked = m;
    hp.handler_depth--;
}

static void tick_isr(void *arg)
{
    (void)arg;
    lm_tick_t n = hp.tick_pending;
    hp.tick_pending = 0;
    lmk_tick_announce(n);
}

static void deliver_now(void);

/* Deliver everything deliverable, then take a pended switch. The port's own
 * calls into the kernel meanwhile (lm_thread_state after a switch, say) are
 * inside the switch handler, not points where a thread can be interrupted:
 * lm_hosted_irq_at_block does not count them. */
static void deliver(void)
{
    bool was = hp.in_port;
    hp.in_port = true;
    deliver_now();
    hp.in_port = was;
}

static void deliver_now(void)
{
    if (!hp.running) {
        return;
    }
    /* The switch handler has made another thread current but still runs on
     * the stack of a thread that has just ended. A handler run here could
     * restart that thread and refill the stack in use (on Cortex-M handlers
     * run on the main stack, so there is no such window). Pending interrupts
     * wait for the next thread: it delivers them first thing. */
    if (hp.leaving != NULL && hp.leaving != lm_thread_self() &&
        lm_thread_state(hp.leaving) == LM_THREAD_TERMINATED) {
        return;
    }
    for (;;) {
        while (hp.masked == 0u && hp.handler_depth == 0u) {
            if (hp.tick_pending != 0u) {
                run_handler(tick_isr, NULL, LM_TRACE_IRQ_TICK);
                continue;
            }
            struct sim_irq *e = due_irq();
            if (e == NULL) {
                break;
            }
            lm_hosted_irq_fn_t fn = e->fn;
            void *arg = e->arg;
            uint16_t irq = (uint16_t)(e - hp.irq);
            e->used = 0;
            if (e->kind == EV_LOCK) {
                hp.lock_irqs--;
            }
            run_handler(fn, arg, irq);
        }
        if (hp.masked != 0u || hp.handler_depth != 0u || hp.in_pendsv || !hp.switch_pending ||
            !hp.running) {
            return;
        }
        /* Back here when this thread runs again: interrupts that arrived
         * meanwhile and were held back during the switch come first. */
        pendsv();
    }
}

lm_irqstate_t lm_port_irq_lock(void)
{
    lm_irqstate_t prev = hp.masked;
    if (prev == 0u && hp.handler_depth == 0u && !hp.in_pendsv) {
        /* A thread about to take the lock: on hardware an interrupt can
         * arrive at this very instruction, after whatever the caller checked
         * without the lock (lm_hosted_irq_at_lock). */
        hp.locks++;
        if (hp.lock_irqs != 0u) {
            deliver();
        }
    }
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
    /* Entered with the kernel lock held (include/limen/port.h). It drops
     * here, before the simulation runs, so nothing is delivered at this
     * unmask; the first thread delivers what is pending before its entry
     * function (thread_trampoline), with its stack in place: the point where
     * Cortex-M takes them. */
    lm_port_irq_unlock(0u);
    hp.running = true;
    guard_install();
    guard_arm(first);
    fiber_switch(&hp.main_uc, &first->ctx.uc, first->stack, first->stack_size, false, NULL, 0);
    /* Back from lm_hosted_stop(): the simulation is over. */
    guard_uninstall();
    port_reset();
}

_Noreturn void lm_hosted_stop(void)
{
    lm_thread_t *self = lm_thread_self();
    guard_check(self);
    guard_disarm();
    hp.running = false;
    fiber_switch(&self->ctx.uc, &hp.main_uc, hp.main_stack, hp.main_stack_size, true, NULL, 0);
    lm_fatal(LM_FATAL_PORT, "a stopped simulation resumed");
}

_Noreturn void lm_port_stop(void)
{
    lm_hosted_stop();
}

void lm_port_fatal_print(const char *s)
{
    fputs(s, stderr);
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

int lm_hosted_irq_at_lock(uint64_t n, lm_hosted_irq_fn_t fn, void *arg)
{
    int r = add_irq(EV_LOCK, hp.locks + (n == 0u ? 1u : n), fn, arg);
    if (r == 0) {
        hp.lock_irqs++;
    }
    return r;
}

void lm_hosted_work(lm_tick_t ticks)
{
    for (lm_tick_t i = 0; i < ticks; i++) {
        lm_irqstate_t s = lm_port_irq_lock();
        hp.tick_pending += 1u;
        lm_port_irq_unlock(s);
    }
}

lm_tick_t lm_hosted_ticks_pending(void)
{
    return hp.tick_pending;
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

int lm_hosted_irq_at_block(uint64_t n, lm_hosted_irq_fn_t fn, void *arg)
{
    if (hp.block_fn != NULL || fn == NULL) {
        return -1;
    }
    hp.block_at = hp.blocks + (n == 0u ? 1u : n);
    hp.block_fn = fn;
    hp.block_arg = arg;
    return 0;
}

bool lm_hosted_irq_at_block_pending(void)
{
    return hp.block_fn != NULL;
}

uint64_t lm_hosted_block_count(void)
{
    return hp.blocks;
}

/* Called by -fsanitize-coverage=trace-pc code at every basic block, before
 * the block runs. Unmasked and in thread context, this is a point where
 * Cortex-M could take an interrupt: an armed lm_hosted_irq_at_block handler
 * runs here, then whatever else is due and the switch it pended, exactly as
 * at an unmask. */
void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc(void)
{
    if (hp.masked != 0u) {
        hp.stretch++;
        return;
    }
    if (!hp.running || hp.handler_depth != 0u || hp.in_pendsv || hp.in_port) {
        return;
    }
    hp.blocks++;
    if (hp.block_fn != NULL && hp.blocks >= hp.block_at) {
        lm_hosted_irq_fn_t fn = hp.block_fn;
        hp.block_fn = NULL;
        run_handler(fn, hp.block_arg, MAX_IRQS);
        deliver();
    }
}
