/*
 * Reference model of the Limen scheduler, semaphores, mutexes and message
 * queues, written from docs/rules.md alone (rule numbers in model.c). Plain
 * arrays, no kernel types: the driver (test_model.c) compares it with the
 * kernel.
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

enum md_state { MD_READY = 1, MD_BLOCKED, MD_SLEEPING, MD_SUSPENDED };
enum md_wait { MD_W_NONE, MD_W_SEM, MD_W_MUTEX, MD_W_SLEEP, MD_W_QSEND, MD_W_QRECV };

/* Status codes the model predicts; same values as lm_status_t. */
enum md_status {
    MD_OK = 0, MD_TIMEOUT = -1, MD_WOULD_BLOCK = -3, MD_OVERFLOW = -6,
    MD_DEADLOCK = -7, MD_PRIORITY = -12, MD_NOT_OWNER = -14, MD_STATE = -15
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
    uint32_t msg;          /* queue message: to send (blocked sender) or received */
    bool front;            /* blocked sender used send_front */
    int flushing;          /* queue index + 1 while its flush admits senders (R9.2) */
};

struct md {
    struct md_thread t[MD_THREADS];
    int n;
    int cur;               /* running thread, MD_NONE = idle */
    uint32_t time;
    uint32_t sem_count[MD_SEMS];
    int mtx_owner[MD_MUTEXES];
    unsigned mtx_depth[MD_MUTEXES];
    uint32_t q_cap[MD_QUEUES], q_count[MD_QUEUES];
    uint32_t q_buf[MD_QUEUES][MD_QCAP_MAX]; /* [0] is the oldest (received next) */
    int64_t headc, tailc, wseqc;
    uint64_t armc;
    char err[160];         /* set when the model finds the driver inconsistent */
};

void md_init(struct md *m, int n, const int *prio, const int *thr);
void md_queue_init(struct md *m, int q, uint32_t capacity);

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

/* Scheduling and time. */
void md_resched(struct md *m);
void md_tick(struct md *m);
void md_process_due(struct md *m);              /* every due timeout, R8.5 order */
int md_first_due(const struct md *m);           /* next due timeout's thread or MD_NONE */
void md_timeout(struct md *m, int t);           /* one timeout expiry */
bool md_any_armed(const struct md *m);
uint32_t md_next_deadline(const struct md *m);
/* Run until a thread reaches its next call (returned) or nothing can happen:
 * returns that thread, or MD_NONE when quiescent. */
int md_settle(struct md *m);
bool md_waiting(const struct md *m, int t);

#endif
