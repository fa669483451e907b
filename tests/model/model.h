/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reference model of the Limen scheduler, semaphores, mutexes, message
 * queues, event flags, a block pool, software timers and object deletion,
 * written from docs/rules.md alone (rule numbers in model*.c). Plain arrays,
 * no kernel types: the driver (test_model.c) compares it with the kernel.
 *
 *     model.c         threads, ready rings, thresholds, time, sems, mutexes, queues
 *     model_flags.c   event flags (R9.3, R10.1)
 *     model_pool.c    the block pool (R10.4)
 *     model_timer.c   software timers (R8.5, R9.4, R9.5, R10.2)
 *     model_delete.c  deleting and re-creating objects (R9.1, R5.8)
 *     model_thread.c  thread end, delete, re-start, wait abort (R11, R5.6)
 */
#ifndef LIMEN_MODEL_H
#define LIMEN_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define MD_THREADS 8
#define MD_SEMS 2
#define MD_SEM_MAX 3u
#define MD_MUTEXES 2
#define MD_NONE (-1)
#define MD_QUEUES 2
#define MD_QCAP_MAX 3u
#define MD_FLAGS 2
#define MD_POOL_BLOCKS 2u
#define MD_TIMERS 2
#define MD_LOG 256            /* timer event log ring (entries) */
/* Timeout owners in md_first_due/md_timeout: threads 0..MD_THREADS-1, then
 * the timers. */
#define MD_TIMER_ID(k) (MD_THREADS + (k))

enum md_state { MD_INACTIVE = 0, MD_READY, MD_BLOCKED, MD_SLEEPING, MD_SUSPENDED, MD_TERMINATED };
enum md_wait {
    MD_W_NONE, MD_W_SEM, MD_W_MUTEX, MD_W_SLEEP, MD_W_QSEND, MD_W_QRECV, MD_W_FLAGS, MD_W_POOL
};
/* Object kinds a thread may delete (R9.1). */
enum md_obj { MD_O_SEM, MD_O_MUTEX, MD_O_QUEUE, MD_O_FLAGS, MD_O_POOL };

/* Status codes the model predicts; same values as lm_status_t. */
enum md_status {
    MD_OK = 0, MD_TIMEOUT = -1, MD_DELETED = -2, MD_WOULD_BLOCK = -3, MD_ABORTED = -4,
    MD_ABANDONED = -5, MD_OVERFLOW = -6, MD_DEADLOCK = -7, MD_OBJECT = -11, MD_PRIORITY = -12,
    MD_NOT_OWNER = -14, MD_STATE = -15, MD_LOCKED = -16
};

struct md_thread {
    int base, thr, prio;   /* base priority, raw threshold, effective priority */
    int state;             /* enum md_state */
    bool susp_req;         /* suspended while waiting (R11.2) */
    bool held;             /* preempted, keeps its threshold (R3.6) */
    bool yielded;          /* gave up the CPU for this decision (R3.3) */
    int wait;              /* enum md_wait */
    int wobj;              /* sem or mutex index */
    int64_t wseq;          /* FIFO position among equal priorities in a wait queue */
    int64_t rseq;          /* position in its ready ring (smaller = nearer the head) */
    bool armed;            /* timeout armed */
    uint32_t deadline;
    uint64_t arm_seq;
    int ret;               /* status its current call returns */
    uint32_t work_left;    /* ticks of lm_hosted_work still to do */
    uint32_t msg;          /* queue message: to send (blocked sender) or received;
                              flags: the flags reported (R10.1); pool: the block
                              handed over (R10.4), MD_BLOCK_ANY from the free list */
    bool front;            /* blocked sender used send_front */
    int flushing;          /* queue index + 1 while its flush admits senders (R9.2) */
    uint32_t fwant;        /* flags waiter: requested bits */
    unsigned fopt;         /* flags waiter: MD_F_ALL | MD_F_CONSUME */
    bool fpend;            /* flags waiter not yet checked by the current scan (R9.3) */
    int fscan;             /* flags index + 1 while its set checks waiters (R9.3) */
    bool deleting;         /* its delete wakes waiters (R9.1), then re-creates */
    int del_kind, del_idx; /* enum md_obj and index of the object it deletes */
    int starting;          /* 1 + the thread its lm_thread_start is starting */
    bool del_walked;       /* its delete has woken every waiter and returned;
                              the re-create is still to come */
    uint32_t slice;        /* time-slice length, 0 = none (R2.4) */
    uint32_t slice_left;   /* ticks left of it (R2.1, R2.6) */
    bool dead;             /* deleted (lm_thread_delete), not created again: R9.1-like,
                              calls on it return MD_OBJECT */
};

#define MD_F_ALL 0x1u
#define MD_F_CONSUME 0x2u
#define MD_BLOCK_ANY 0xFFFFFFFFu

struct md_timer {
    bool active;
    bool armed;
    uint32_t deadline, period;
    uint64_t arm_seq;
    int action;            /* callback: -1 nothing, 0..MD_SEMS-1 give S, else resume T(action-MD_SEMS) */
};

struct md_log_entry {
    int timer;
    uint32_t tick;
};

struct md {
    struct md_thread t[MD_THREADS];
    int n;
    int cur;               /* running thread, MD_NONE = idle */
    uint32_t time;
    uint32_t sem_count[MD_SEMS];
    int mtx_owner[MD_MUTEXES];
    unsigned mtx_depth[MD_MUTEXES];
    uint64_t mtx_seq[MD_MUTEXES];  /* when its owner got it (order of release, R5.6) */
    bool mtx_abandoned[MD_MUTEXES]; /* its owner ended with no waiter (R5.6) */
    uint64_t mtx_seqc;
    uint32_t q_cap[MD_QUEUES], q_count[MD_QUEUES];
    uint32_t q_buf[MD_QUEUES][MD_QCAP_MAX]; /* [0] is the oldest (received next) */
    uint32_t f_bits[MD_FLAGS];
    uint32_t pool_free;
    struct md_timer tm[MD_TIMERS];
    struct md_log_entry log[MD_LOG]; /* callback runs, ring of MD_LOG */
    unsigned long nlog;
    bool tm_stopped_self;  /* the last callback stopped its timer (all threads suspended) */
    int tm_status;         /* what the last callback's action returned */
    /* Deleted and not yet re-created (R9.1): calls return MD_OBJECT. */
    bool sem_dead[MD_SEMS], mtx_dead[MD_MUTEXES], q_dead[MD_QUEUES], f_dead[MD_FLAGS], pool_dead;
    /* How often the new paths were taken (printed at the end of a run). */
    unsigned long n_flag_wakes, n_handovers, n_fires, n_deleted_wakes, n_mutex_taken;
    /* Steps of a flush or a flags set that found the object deleted with
     * waiters still left for the delete (R9.1). */
    unsigned long n_dead_steps;
    unsigned long n_ended, n_abandoned, n_aborts, n_refused, n_unlock_switches, n_expiries;
    unsigned lock_depth;   /* scheduler lock (R6), held by cur */
    /* Threads that ended owning two mutexes or more: the first went at once,
     * the others go one per step before the next decision (R5.6), in the
     * order the threads ended. */
    int relq[MD_THREADS];
    int nrelq;
    int64_t headc, tailc, wseqc;
    uint64_t armc;
    char err[160];         /* set when the model finds the driver inconsistent */
};

void md_init(struct md *m, int n, const int *prio, const int *thr);
void md_queue_init(struct md *m, int q, uint32_t capacity);
void md_pool_init(struct md *m);

/* Thread calls, made by m->cur. Each sets the caller's ret or blocks it. */
void md_sem_take(struct md *m, int s, uint32_t timeout);
int md_sem_give(struct md *m, int s);           /* also from interrupts */
void md_mutex_lock(struct md *m, int x, uint32_t timeout);
void md_mutex_unlock(struct md *m, int x);
int md_set_priority(struct md *m, int t, int prio);
int md_set_threshold(struct md *m, int t, int thr); /* thr < 0: none */
void md_yield(struct md *m);
int md_suspend(struct md *m, int t);
int md_resume(struct md *m, int t);             /* also from interrupts */
void md_sleep(struct md *m, uint32_t ticks);
void md_work(struct md *m, uint32_t ticks);

/* Message queues (R10.3, R10.6, R9.2). Thread calls by m->cur; the _nowait
 * forms are what a handler (or a thread with LM_NO_WAIT) may do (R12.1). */
void md_queue_send(struct md *m, int q, uint32_t val, bool front, uint32_t timeout);
int md_queue_send_nowait(struct md *m, int q, uint32_t val, bool front);
void md_queue_receive(struct md *m, int q, uint32_t timeout); /* value in msg */
int md_queue_receive_nowait(struct md *m, int q, uint32_t *val);
int md_queue_peek(const struct md *m, int q, uint32_t *val);
void md_queue_flush(struct md *m, int q);
/* The sender thread t's flush would admit next, or MD_NONE (flush ends). */
int md_flush_candidate(const struct md *m, int t);
/* One masked step of t's flush: admits a sender (true) or ends it. */
bool md_flush_step(struct md *m, int t);

/* Event flags (R9.3, R10.1). A thread's set ORs the bits in and then checks
 * the waiters as it runs (md_settle). The _isr forms make the whole call. */
void md_flags_set(struct md *m, int f, uint32_t bits);
int md_flags_set_isr(struct md *m, int f, uint32_t bits);
int md_flags_clear(struct md *m, int f, uint32_t bits);
void md_flags_wait(struct md *m, int f, uint32_t want, unsigned opt, uint32_t timeout);
int md_flags_wait_nowait(struct md *m, int f, uint32_t want, unsigned opt, uint32_t *actual);
int md_flags_get(const struct md *m, int f, uint32_t *bits);

/* Block pool (R10.4). A block from the free list is not predicted (the rules
 * do not say which one): msg = MD_BLOCK_ANY; a handed-over block is. */
void md_pool_alloc(struct md *m, uint32_t timeout);
int md_pool_alloc_nowait(struct md *m);
int md_pool_free(struct md *m, uint32_t block);  /* also from interrupts */
int md_pool_available(const struct md *m, uint32_t *n);

/* Software timers (R8.5, R9.4, R10.2). */
int md_timer_start(struct md *m, int k, uint32_t delay, uint32_t period, int action);
int md_timer_stop(struct md *m, int k);
bool md_timer_active(const struct md *m, int k);
void md_timer_fire(struct md *m, int k);       /* one expiry, from md_timeout */

/* Deleting (R9.1, R5.8): marks the object deleted, then the caller wakes
 * one waiter per step as it runs (md_settle) and, with none left,
 * re-creates it (the driver's delete op is delete + create). */
void md_delete(struct md *m, int kind, int idx);
bool md_dead(const struct md *m, int kind, int idx);
/* Create a deleted object again (its deleter ended before doing so). */
int md_create(struct md *m, int kind, int idx);

/* Multi-step calls (flush R9.2, flags set R9.3, delete R9.1) in progress. */
bool md_stepping(const struct md *m, int t);
/* The thread t's next step would wake, or MD_NONE if it wakes nobody. */
int md_step_candidate(const struct md *m, int t);
/* One step of t's call: wakes a thread (true) or finishes the call. */
bool md_step(struct md *m, int t);

/* Shared by model*.c. */
int md_first_waiter(const struct md *m, int kind, int obj);
void md_block(struct md *m, int t, int kind, int obj, uint32_t timeout);
void md_end_wait(struct md *m, int t, int status);
void md_update_eff(struct md *m, int t);
uint64_t md_next_arm_seq(struct md *m);
int md_flags_candidate(const struct md *m, int f);
bool md_flags_scan_one(struct md *m, int f);
bool md_delete_step(struct md *m, int t);
int md_delete_candidate(const struct md *m, int t);

/* Thread life cycle (R11, R5.6). md_end_thread: t ends (terminated, deleted
 * or returned from its entry) wherever it is. */
void md_end_thread(struct md *m, int t);
/* The mutex an ended thread releases next (R5.6 order), MD_NONE if none;
 * md_release_step: the first queued thread releases it. */
int md_next_release(const struct md *m, int t);
void md_release_step(struct md *m);
int md_terminate(struct md *m, int t);          /* R11.3; t may be the caller */
int md_thread_delete(struct md *m, int t);      /* R11.4 */
int md_end_isr(struct md *m, int t, bool del);  /* terminate or delete, from a handler */
int md_thread_create(struct md *m, int t, int prio, int thr); /* INACTIVE (R11.1) */
int md_thread_start(struct md *m, int starter, int t); /* R11.1 */
void md_start_step(struct md *m, int starter);  /* its last step */
int md_wait_abort(struct md *m, int t);         /* R11.6; also from interrupts */
bool md_live(const struct md *m, int t);
void md_make_ready(struct md *m, int t);
void md_mutex_acquire(struct md *m, int x, int t);

/* Scheduler lock (R6), by m->cur. md_refuse_block: R6.1, sets the caller's
 * MD_LOCKED and returns true if the lock is held. */
int md_sched_lock(struct md *m);
/* A thread's multi-step call (R9) holds the scheduler lock throughout. */
void md_walk_begin(struct md *m);
void md_walk_end(struct md *m);
int md_sched_unlock(struct md *m);
bool md_refuse_block(struct md *m);

/* Scheduling and time. */
void md_resched(struct md *m);
void md_tick(struct md *m);
void md_process_due(struct md *m);              /* every due timeout, R8.5 order */
int md_first_due(const struct md *m);           /* next due: thread, MD_TIMER_ID(k) or MD_NONE */
void md_timeout(struct md *m, int t);           /* one expiry (thread or timer) */
bool md_any_armed(const struct md *m);
uint32_t md_next_deadline(const struct md *m);
/* Run until a thread reaches its next call (returned) or nothing can happen:
 * returns that thread, or MD_NONE when quiescent. */
int md_settle(struct md *m);
bool md_waiting(const struct md *m, int t);

#endif
