/* SPDX-License-Identifier: Apache-2.0 */
/*
 * newlib under Limen (LM_CFG_NEWLIB): what makes errno, stdio and malloc
 * safe to use from several threads.
 *
 * - Reentrancy. newlib keeps its per-caller state (errno, the stdio
 *   streams, strtok's position...) in a struct _reent that _impure_ptr
 *   points to (arm-none-eabi newlib is not built with __DYNAMIC_REENT__, so
 *   __getreent() just returns _impure_ptr). Each thread gets its own, at the
 *   top of its stack, and the context switch points _impure_ptr at it
 *   (port.c). The idle thread, and main before and after the kernel runs,
 *   use newlib's global one.
 *
 * - Locks. Debian's newlib 3.3 is built without _RETARGETABLE_LOCKING: its
 *   internal locks are empty macros, and only __malloc_lock, __env_lock and
 *   __tz_lock are functions an application can replace. They become
 *   recursive kernel mutexes with priority inheritance here. A newlib built
 *   with retargetable locking (newlib 4.x from Arm's toolchains) calls
 *   __retarget_lock_*() instead; the second half of this file provides them
 *   on the same mutexes.
 *
 * - stdio streams. Without retargetable locking, newlib does not serialise
 *   the handing out of FILE objects (__sinit, __sfp) that a thread's first
 *   stdio call does. Every thread therefore sets its streams up before its
 *   entry function runs, under a mutex, and gives them back when the entry
 *   returns. A stream shared by several threads (a FILE one thread opened
 *   and passes on) is not locked by this newlib: one thread at a time.
 *
 * Locks are not taken before the kernel runs, after lm_port_stop(), or in an
 * interrupt handler (nobody to wait for, or nobody who may wait); newlib
 * must not be called from interrupt handlers.
 */
#include "limen/config.h"

#if LM_CFG_NEWLIB

#if !LM_CFG_MUTEX
#error "LM_CFG_NEWLIB needs LM_CFG_MUTEX"
#endif

#include <malloc.h>
#include <reent.h>
#include <stdio.h>
#include <string.h>
#include <sys/lock.h>

#include "limen/armv7m.h"
#include "limen/limen.h"
#include "limen/port.h"
#include "newlib_port.h"

void lmk_idle_entry(void *arg);

/* A newlib lock: a kernel mutex created on its first use in a run (the
 * kernel's runs are counted by lmp_newlib_start), so that it never refers
 * to threads of an earlier run. */
struct lm_newlib_lock {
    lm_mutex_t m;
    uint32_t run; /* the run its mutex belongs to; 0: none */
};

static uint32_t contended;
static uint32_t run; /* the kernel's current run, from 1 */

uint32_t lm_armv7m_newlib_contended(void)
{
    return contended;
}

static bool locking(void)
{
    return lm_armv7m_threads_running() && !lm_port_in_isr();
}

/* Make l's mutex one of this run. A thread, threads running. The creation
 * clears the mutex's wait queue, O(priorities): it runs under the scheduler
 * lock, which keeps every other thread (and so a second creation) out, not
 * under the kernel lock, so interrupts are not held back meanwhile. */
static void lock_ready(struct lm_newlib_lock *l)
{
    if (l->run == run) {
        return; /* the usual case: created earlier in this run */
    }
    if (lm_sched_lock() != LM_OK) {
        lm_fatal(LM_FATAL_PORT, "newlib lock: scheduler lock");
    }
    if (l->run != run) {
        /* A mutex of an earlier run belongs to a kernel initialised again
         * since: nothing refers to it any more, and it may still look live
         * (held when that run stopped), which create would refuse. */
        memset(&l->m, 0, sizeof l->m);
        if (lm_mutex_create(&l->m, LM_MUTEX_INHERIT) != LM_OK) {
            lm_fatal(LM_FATAL_PORT, "newlib lock: create");
        }
        l->run = run;
    }
    if (lm_sched_unlock() != LM_OK) {
        lm_fatal(LM_FATAL_PORT, "newlib lock: scheduler unlock");
    }
}

static void lock_take(struct lm_newlib_lock *l)
{
    if (l == NULL || !locking()) {
        return;
    }
    lock_ready(l);
    lm_irqstate_t s = lm_port_irq_lock();
    lm_thread_t *owner = lm_mutex_owner(&l->m);
    if (owner != NULL && owner != lm_thread_self()) {
        contended++;
    }
    lm_port_irq_unlock(s);
    /* LM_ERR_ABANDONED: its owner ended inside newlib; the lock is ours. */
    lm_status_t st = lm_mutex_lock(&l->m, LM_WAIT_FOREVER);
    if (st != LM_OK && st != LM_ERR_ABANDONED) {
        lm_fatal(LM_FATAL_PORT, "newlib lock"); /* e.g. the idle hook waited */
    }
}

static void lock_give(struct lm_newlib_lock *l)
{
    if (l == NULL || !locking()) {
        return;
    }
    if (lm_mutex_unlock(&l->m) != LM_OK) {
        lm_fatal(LM_FATAL_PORT, "newlib unlock");
    }
}

/* ---- per-thread state ---- */

static struct lm_newlib_lock streams_lock; /* FILE hand-out: __sinit, __sfp */

uintptr_t lmp_newlib_thread_init(lm_thread_t *t, uintptr_t top)
{
    if (t->entry == lmk_idle_entry) {
        t->ctx.reent = _global_impure_ptr;
        return top;
    }
    top = (top - sizeof(struct _reent)) & ~(uintptr_t)7u;
    t->ctx.reent = (struct _reent *)top;
    _REENT_INIT_PTR(t->ctx.reent);
    return top;
}

void lmp_newlib_thread_entry(lm_thread_t *t)
{
    struct _reent *r = _impure_ptr; /* t->ctx.reent, set by the switch */
    lock_take(&streams_lock);
    __sinit(r);
    lock_give(&streams_lock);
    t->entry(t->arg);
    /* Give the streams back (flushing stdout) so a later thread reuses the
     * FILE objects, then newlib's other per-thread allocations. newlib's
     * _reclaim_reent() ignores the structure in use, so the thread finishes
     * on the global one. */
    lock_take(&streams_lock);
    FILE *own[3] = {r->_stdout, r->_stderr, r->_stdin};
    for (unsigned i = 0; i < 3u; i++) {
        if (own[i]->_flags != 0) { /* not closed by the thread itself */
            (void)_fclose_r(r, own[i]);
        }
    }
    lock_give(&streams_lock);
    lm_irqstate_t s = lm_port_irq_lock();
    t->ctx.reent = _global_impure_ptr;
    _impure_ptr = _global_impure_ptr;
    lm_port_irq_unlock(s);
    _reclaim_reent(r);
}

/* ---- locks of a newlib without retargetable locking ---- */

static struct lm_newlib_lock malloc_lock, env_lock, tz_lock;

void __malloc_lock(struct _reent *r) { (void)r; lock_take(&malloc_lock); }
void __malloc_unlock(struct _reent *r) { (void)r; lock_give(&malloc_lock); }
void __env_lock(struct _reent *r);
void __env_lock(struct _reent *r) { (void)r; lock_take(&env_lock); }
void __env_unlock(struct _reent *r);
void __env_unlock(struct _reent *r) { (void)r; lock_give(&env_lock); }
void __tz_lock(void);
void __tz_lock(void) { lock_take(&tz_lock); }
void __tz_unlock(void);
void __tz_unlock(void) { lock_give(&tz_lock); }

/* ---- locks of a newlib with retargetable locking ---- */
#if defined(_RETARGETABLE_LOCKING)

struct __lock {
    struct lm_newlib_lock l;
    bool used; /* a dynamic lock handed out */
};

/* newlib's own static locks, by the names it refers to them. */
struct __lock __lock___sinit_recursive_mutex, __lock___sfp_recursive_mutex,
    __lock___atexit_recursive_mutex, __lock___at_quick_exit_mutex,
    __lock___malloc_recursive_mutex, __lock___env_recursive_mutex, __lock___tz_mutex,
    __lock___dd_hash_mutex, __lock___arc4random_mutex;
static struct __lock *const static_locks[] = {
    &__lock___sinit_recursive_mutex, &__lock___sfp_recursive_mutex,
    &__lock___atexit_recursive_mutex, &__lock___at_quick_exit_mutex,
    &__lock___malloc_recursive_mutex, &__lock___env_recursive_mutex, &__lock___tz_mutex,
    &__lock___dd_hash_mutex, &__lock___arc4random_mutex};
static struct __lock dynamic_locks[LM_CFG_NEWLIB_LOCKS];

void __retarget_lock_init(_LOCK_T *lock)
{
    *lock = NULL; /* out of locks: the FILE goes unlocked */
    lm_irqstate_t s = lm_port_irq_lock();
    for (unsigned i = 0; i < LM_CFG_NEWLIB_LOCKS; i++) {
        if (!dynamic_locks[i].used) {
            dynamic_locks[i].used = true;
            dynamic_locks[i].l.run = 0u; /* its mutex is created on first use */
            *lock = &dynamic_locks[i];
            break;
        }
    }
    lm_port_irq_unlock(s);
}
void __retarget_lock_init_recursive(_LOCK_T *lock) { __retarget_lock_init(lock); }
void __retarget_lock_close(_LOCK_T lock)
{
    if (lock == NULL) {
        return;
    }
    if (locking() && lock->l.run == run && lm_mutex_delete(&lock->l.m) != LM_OK) {
        lm_fatal(LM_FATAL_PORT, "newlib lock: delete");
    }
    lock->l.run = 0u;
    lock->used = false;
}
void __retarget_lock_close_recursive(_LOCK_T lock) { __retarget_lock_close(lock); }
void __retarget_lock_acquire(_LOCK_T lock) { lock_take(lock != NULL ? &lock->l : NULL); }
void __retarget_lock_acquire_recursive(_LOCK_T lock) { __retarget_lock_acquire(lock); }
void __retarget_lock_release(_LOCK_T lock) { lock_give(lock != NULL ? &lock->l : NULL); }
void __retarget_lock_release_recursive(_LOCK_T lock) { __retarget_lock_release(lock); }
int __retarget_lock_try_acquire(_LOCK_T lock)
{
    if (lock == NULL || !locking()) {
        return 1;
    }
    lock_ready(&lock->l);
    lm_status_t st = lm_mutex_lock(&lock->l.m, LM_NO_WAIT);
    return st == LM_OK || st == LM_ERR_ABANDONED;
}
int __retarget_lock_try_acquire_recursive(_LOCK_T lock) { return __retarget_lock_try_acquire(lock); }
#endif

void lmp_newlib_start(void)
{
    /* Kernel lock held: O(1). Every lock's mutex is of an earlier run now,
     * and is created again on its first use in this one (lock_ready). */
    if (++run == 0u) {
        run = 1u;
    }
    _impure_ptr = _global_impure_ptr;
}

#endif /* LM_CFG_NEWLIB */
