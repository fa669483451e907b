/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernel's trace hooks (kernel/trace.c, include/limen/trace.h): one
 * call per place where something happens. Without LM_CFG_TRACE each is an
 * empty inline function, so the kernel's code is what it is without them.
 * Every hook costs one record when a trace is recording, a load and a
 * branch when not.
 */
#ifndef LMK_TRACE_H
#define LMK_TRACE_H

#include "limen/trace.h"

struct lm_thread;

#if LM_CFG_TRACE
/* The recorder's state (kernel/trace.c); its first member points at the
 * buffer's header, for debuggers. */
extern struct lmk_trace_state lmk_trace;
/* A record: type, its argument byte, half-word and two words. Lock: any. */
void lmk_trace_rec(uint8_t type, uint8_t arg, uint16_t h, uint32_t a, uint32_t b);
/* A thread was created: its name into the registry, and a record. */
void lmk_trace_thread_create(const struct lm_thread *t);
/* The running thread changes from prev to next (called where the kernel
 * makes next current); `yielded`: prev gave the CPU up (relinquish or
 * time-slice). The record says why prev stopped (R7.1). */
void lmk_trace_switch(const struct lm_thread *prev, const struct lm_thread *next, bool yielded);
/* t's time-slice expired (R2.4): the switch that follows is (f), not (e). */
void lmk_trace_slice(const struct lm_thread *t);
/* t relinquishes (R2.3): the switch that follows is (e), whatever slice
 * expired before. */
void lmk_trace_yield(const struct lm_thread *t);
/* An object operation's outcome; returns status, so a call can end with
 * `return lmk_trace_obj(op, obj, status);`. */
lm_status_t lmk_trace_obj(uint8_t op, const void *obj, lm_status_t status);

static inline uint32_t lmk_trace_addr(const void *p)
{
    return (uint32_t)(uintptr_t)p; /* the low 32 bits (docs/trace.md) */
}
/* A thread's start, end, delete, suspend or resume (h: the status). An end
 * or suspension of the running thread by a handler is R7.1 (i). */
void lmk_trace_thread(uint8_t type, const struct lm_thread *t, uint16_t h);
/* A decision after a change of t's priority or threshold (R4.1, R4.6):
 * if t runs and is to be switched away from, that is R7.1 (h). */
void lmk_trace_decided_own(const struct lm_thread *t);
/* A wake chose a thread to preempt the running one: R7.1 (g). */
void lmk_trace_wake_preempts(void);
/* bounded: 1 if the wait is a bounded inversion (R5.2, mutex.c), so that
 * the trace counts it as the kernel does. */
static inline void lmk_trace_block(const struct lm_thread *t, uint8_t kind, const void *obj,
                                   uint16_t bounded)
{
    lmk_trace_rec(LM_TRACE_BLOCK, kind, bounded, lmk_trace_addr(t), lmk_trace_addr(obj));
}
static inline void lmk_trace_ready(const struct lm_thread *t, lm_status_t status)
{
    lmk_trace_rec(LM_TRACE_READY, 0u, (uint16_t)status, lmk_trace_addr(t), 0u);
}
static inline void lmk_trace_prio(const struct lm_thread *t, unsigned prio, const void *mutex,
                                  bool raise)
{
    lmk_trace_rec(LM_TRACE_PRIO, raise ? 1u : 0u, (uint16_t)prio, lmk_trace_addr(t),
                  lmk_trace_addr(mutex));
}
static inline void lmk_trace_tick(lm_tick_t n, lm_tick_t now)
{
    lmk_trace_rec(LM_TRACE_TICK, 0u, 0u, n, now);
}
#else
static inline void lmk_trace_thread_create(const struct lm_thread *t)
{
    (void)t;
}
static inline void lmk_trace_switch(const struct lm_thread *prev, const struct lm_thread *next,
                                    bool yielded)
{
    (void)prev;
    (void)next;
    (void)yielded;
}
static inline void lmk_trace_slice(const struct lm_thread *t)
{
    (void)t;
}
static inline void lmk_trace_yield(const struct lm_thread *t)
{
    (void)t;
}
static inline lm_status_t lmk_trace_obj(uint8_t op, const void *obj, lm_status_t status)
{
    (void)op;
    (void)obj;
    return status;
}
static inline void lmk_trace_thread(uint8_t type, const struct lm_thread *t, uint16_t h)
{
    (void)type;
    (void)t;
    (void)h;
}
static inline void lmk_trace_block(const struct lm_thread *t, uint8_t kind, const void *obj,
                                   uint16_t bounded)
{
    (void)t;
    (void)kind;
    (void)obj;
    (void)bounded;
}
static inline void lmk_trace_ready(const struct lm_thread *t, lm_status_t status)
{
    (void)t;
    (void)status;
}
static inline void lmk_trace_decided_own(const struct lm_thread *t)
{
    (void)t;
}
static inline void lmk_trace_wake_preempts(void)
{
}
static inline void lmk_trace_prio(const struct lm_thread *t, unsigned prio, const void *mutex,
                                  bool raise)
{
    (void)t;
    (void)prio;
    (void)mutex;
    (void)raise;
}
static inline void lmk_trace_tick(lm_tick_t n, lm_tick_t now)
{
    (void)n;
    (void)now;
}
#endif

#endif /* LMK_TRACE_H */
