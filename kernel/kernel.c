/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel start-up, the idle thread, hooks and fatal errors. */
#include <string.h>
#include "lmk.h"

#if LM_CFG_IDLE_STACK_SIZE > 0
#define IDLE_STACK_SIZE LM_CFG_IDLE_STACK_SIZE
#else
#define IDLE_STACK_SIZE LM_PORT_MIN_STACK
#endif

lm_thread_t lmk_idle_thread;
static LM_STACK_DEFINE(idle_stack, IDLE_STACK_SIZE);

/* The idle thread: runs when no other thread is ready, at a priority below
 * every application priority (LM_CFG_PRIORITIES), outside the ready queue. */
void lmk_idle_entry(void *arg)
{
    (void)arg;
    for (;;) {
        if (lmk.idle_hook != NULL) {
            lmk.idle_hook();
        }
        /* Decide how long to sleep and sleep with interrupts masked, so an
         * interrupt that arms an earlier timeout cannot slip in between;
         * it is taken when the mask drops. */
        lm_irqstate_t s = lm_port_irq_lock();
#if LM_PORT_IDLE_TIMER
        lm_port_timer_arm(lmk_ticks_to_next_event());
#endif
        lm_port_idle();
        lm_port_irq_unlock(s);
    }
}

void lm_kernel_init_tick(lm_tick_t origin)
{
    /* The fatal hook survives: an application sets it first thing, and an
     * error during initialisation must reach it. */
    lm_fatal_hook_t fatal_hook = lmk.fatal_hook;
    memset(&lmk, 0, sizeof lmk);
    lmk.fatal_hook = fatal_hook;
    lmk.initialised = true; /* before the idle thread's create, which checks it */
    lmk.now = origin;
    lmk_prioq_init(&lmk.ready);
    lmk_timeout_init();
    lmk_list_init(&lmk.live);

    lm_thread_attr_t a;
    lm_thread_attr_init(&a);
    a.name = "idle";
    a.entry = lmk_idle_entry;
    a.stack = idle_stack;
    a.stack_size = sizeof idle_stack;
    a.priority = 0;
#if LM_CFG_ARG_CHECKS
    lmk_idle_thread.magic = 0u;
#endif
    (void)lm_thread_create(&lmk_idle_thread, &a);
#if LM_CFG_STACK_WATERMARK
    /* As lm_thread_start does for every other thread: without the pattern
     * its high-water mark would read 0 bytes unused. */
    lmk_thread_stack_fill(&lmk_idle_thread);
#endif
    lmk_idle_thread.prio = LM_CFG_PRIORITIES;
    lmk_idle_thread.base_prio = LM_CFG_PRIORITIES;
    lmk_idle_thread.threshold = LM_CFG_PRIORITIES;
    lmk_idle_thread.preempt_limit = LM_CFG_PRIORITIES;
    lm_port_stack_init(&lmk_idle_thread);
    lmk_idle_thread.state = LM_THREAD_READY;
    lmk_list_push_back(&lmk.live, &lmk_idle_thread.live);
    lmk.current = &lmk_idle_thread;
    lmk.next = &lmk_idle_thread;
    /* lmk.bar is 0: before lm_kernel_start no thread preempts. */
}

void lm_kernel_init(void)
{
    lm_kernel_init_tick(0);
}

void lm_kernel_start(void)
{
    if (!lmk.initialised) {
        /* There is no idle thread to fall back on: the first block would
         * fault. Say so now instead. */
        lm_fatal(LM_FATAL_ASSERT, "lm_kernel_start before lm_kernel_init");
    }
    /* The lock stays held into lm_port_start(), which drops it only once
     * the first switch can happen: an interrupt taken at an earlier unmask
     * could ready a thread and ask for a switch the port cannot yet make. */
    (void)lm_port_irq_lock();
    lmk.started = true;
    lm_thread_t *first = lmk_ready_best();
    lmk.current = first;
    lmk_sched_decide_locked(); /* first: the bar for the wakes to come */
#if LM_CFG_STATS
    first->stats.switches_in++;
#endif
    lmk_stats_cpu_start_locked();
#if LM_CFG_SWITCH_HOOK
    if (lmk.switch_hook != NULL) {
        lmk.switch_hook(NULL, first);
    }
#endif
    lm_port_start(first);
}

const lm_thread_t *lm_kernel_idle_thread(void)
{
    return &lmk_idle_thread;
}

bool lm_kernel_running(void)
{
    return lmk.started;
}

bool lm_kernel_initialised(void)
{
    return lmk.initialised;
}

void lm_idle_hook_set(lm_idle_hook_t hook)
{
    lmk.idle_hook = hook;
}

#if LM_CFG_ERROR_HOOK
static lm_error_hook_t error_hook;

void lmk_error(lm_status_t status, const char *call, const void *caller)
{
    lm_error_hook_t hook = error_hook;
    if (hook != NULL) {
        hook(status, call, caller);
    }
}
#endif

lm_status_t lm_error_hook_set(lm_error_hook_t hook)
{
#if LM_CFG_ERROR_HOOK
    error_hook = hook;
    return LM_OK;
#else
    return hook == NULL ? LM_OK : LM_ERR_STATE;
#endif
}

lm_status_t lm_switch_hook_set(lm_switch_hook_t hook)
{
#if LM_CFG_SWITCH_HOOK
    lmk.switch_hook = hook;
    return LM_OK;
#else
    return hook == NULL ? LM_OK : LM_ERR_STATE;
#endif
}

void lm_fatal_hook_set(lm_fatal_hook_t hook)
{
    lmk.fatal_hook = hook;
}

const char *lm_fatal_name(lm_fatal_t reason)
{
    switch (reason) {
    case LM_FATAL_ASSERT: return "LM_FATAL_ASSERT";
    case LM_FATAL_STACK: return "LM_FATAL_STACK";
    case LM_FATAL_PORT: return "LM_FATAL_PORT";
    case LM_FATAL_FAULT: return "LM_FATAL_FAULT";
    }
    return "LM_FATAL_?";
}

/* Without a hook a fatal error would stop the system without a word, and a
 * user who cannot see the mistake blames the kernel: say what and where.
 * Pieces, not printf: the kernel has no formatter, and this may run in a
 * fault handler on a damaged system. */
static void fatal_report(lm_fatal_t reason, const char *where, const lm_thread_t *thread)
{
    lm_port_fatal_print("limen: fatal error ");
    lm_port_fatal_print(lm_fatal_name(reason));
    lm_port_fatal_print(" at ");
    lm_port_fatal_print(where != NULL ? where : "?");
    if (thread != NULL) {
        const char *name = lm_thread_name(thread);
        lm_port_fatal_print(", thread ");
        lm_port_fatal_print(name[0] != '\0' ? name : "(unnamed)");
    }
    lm_port_fatal_print("\n");
}

_Noreturn void lmk_fatal(lm_fatal_t reason, const char *where, const lm_thread_t *thread)
{
    if (lmk.fatal_hook != NULL) {
        lmk.fatal_hook(reason, where, thread);
    } else {
        fatal_report(reason, where, thread);
    }
    lm_port_fatal_halt();
}

_Noreturn void lm_fatal(lm_fatal_t reason, const char *where)
{
    lmk_fatal(reason, where, lmk.current);
}

/* Cost: O(P/32): the bitmap only (prioq.h). */
void lmk_prioq_init(struct lm_prioq *q)
{
    memset(&q->busy, 0, sizeof q->busy);
}

const char *lm_status_name(lm_status_t status)
{
    switch (status) {
    case LM_OK: return "LM_OK";
    case LM_ERR_TIMEOUT: return "LM_ERR_TIMEOUT";
    case LM_ERR_DELETED: return "LM_ERR_DELETED";
    case LM_ERR_WOULD_BLOCK: return "LM_ERR_WOULD_BLOCK";
    case LM_ERR_ABORTED: return "LM_ERR_ABORTED";
    case LM_ERR_ABANDONED: return "LM_ERR_ABANDONED";
    case LM_ERR_OVERFLOW: return "LM_ERR_OVERFLOW";
    case LM_ERR_DEADLOCK: return "LM_ERR_DEADLOCK";
    case LM_ERR_PARAM: return "LM_ERR_PARAM";
    case LM_ERR_OBJECT: return "LM_ERR_OBJECT";
    case LM_ERR_PRIORITY: return "LM_ERR_PRIORITY";
    case LM_ERR_ISR: return "LM_ERR_ISR";
    case LM_ERR_NOT_OWNER: return "LM_ERR_NOT_OWNER";
    case LM_ERR_STATE: return "LM_ERR_STATE";
    case LM_ERR_LOCKED: return "LM_ERR_LOCKED";
    case LM_ERR_SIZE: return "LM_ERR_SIZE";
    case LM_ERR_INIT: return "LM_ERR_INIT";
    }
    return "LM_ERR_?";
}
