/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Event trace (LM_CFG_TRACE): a ring of 16-byte records in RAM the
 * application provides, each stamped by the port's timestamp
 * (lm_port_timestamp), behind a header and a registry of names. The layout
 * is the file format: a port or a debugger copies the buffer byte for byte
 * and `limen trace` decodes it. docs/trace.md describes every field, every
 * record type and what recording costs.
 *
 * Recording masks interrupts only to reserve a slot and read the
 * timestamp; the record is written after the mask drops, so records are in
 * the order of their timestamps. Context: any, unless said otherwise.
 */
#ifndef LIMEN_TRACE_H
#define LIMEN_TRACE_H

#include "limen/base.h"

/* Format version in the header; the decoder refuses versions it does not know. */
#define LM_TRACE_VERSION 2u
/* "LMTR" read as a little-endian word: a decoder that reads it reversed
 * knows the trace is big-endian. */
#define LM_TRACE_MAGIC 0x52544D4Cu
#define LM_TRACE_RECORD_BYTES 16u
#define LM_TRACE_NAME_BYTES 20u /* a name: 19 characters and a NUL */

/* Record types (the `type` byte of a record, docs/trace.md). */
typedef enum lm_trace_type {
    LM_TRACE_THREAD_CREATE = 1,  /* a thread, h prio */
    LM_TRACE_THREAD_START = 2,   /* a thread (made ready) */
    LM_TRACE_THREAD_END = 3,     /* a thread */
    LM_TRACE_THREAD_DELETE = 4,  /* a thread */
    LM_TRACE_THREAD_SUSPEND = 5, /* a thread, h status */
    LM_TRACE_THREAD_RESUME = 6,  /* a thread, h status */
    LM_TRACE_READY = 7,          /* a thread woken, h its wait's status */
    LM_TRACE_BLOCK = 8,          /* a thread, b object (0: sleep), arg wait kind,
                                    h 1 if a bounded inversion (R5.2), else 0 */
    LM_TRACE_SWITCH = 9,         /* a from, b to, arg lm_trace_reason_t */
    LM_TRACE_ISR_ENTER = 10,     /* h interrupt number */
    LM_TRACE_ISR_EXIT = 11,      /* h interrupt number */
    LM_TRACE_YIELD = 12,         /* a thread (lm_thread_yield) */
    LM_TRACE_SLICE = 13,         /* a thread whose time-slice expired */
    LM_TRACE_PRIO = 14,          /* a thread, h new effective priority, b mutex
                                    (0: not inheritance); arg 1 raise, 0 restore */
    LM_TRACE_OBJ = 15,           /* arg lm_trace_op_t, a object, b thread, h status */
    LM_TRACE_USER = 16,          /* h event id, a and b payload */
    LM_TRACE_TICK = 17           /* a ticks announced, b tick count after */
} lm_trace_type_t;

/* Why a thread stopped running: docs/rules.md R7.1 (the `arg` byte of a
 * switch record). */
typedef enum lm_trace_reason {
    LM_TRACE_R_BLOCK = 1,      /* (a) */
    LM_TRACE_R_SLEEP = 2,      /* (b) */
    LM_TRACE_R_SUSPEND = 3,    /* (c): suspended itself */
    LM_TRACE_R_END = 4,        /* (d): ended itself */
    LM_TRACE_R_RELINQUISH = 5, /* (e) */
    LM_TRACE_R_SLICE = 6,      /* (f) */
    LM_TRACE_R_PREEMPT = 7,    /* (g): a more urgent thread made ready, or the
                                  scheduler unlocked (R7.2: a preemption) */
    LM_TRACE_R_IDLE = 8,       /* away from the idle thread: not a preemption */
    LM_TRACE_R_PREEMPT_OWN = 9, /* (h): its own priority or threshold changed
                                   (R7.2: a preemption) */
    LM_TRACE_R_SUSPEND_ISR = 10, /* (i): a handler suspended it */
    LM_TRACE_R_END_ISR = 11    /* (i): a handler terminated or deleted it */
} lm_trace_reason_t;

/* Object operations (the `arg` byte of an LM_TRACE_OBJ record). */
typedef enum lm_trace_op {
    LM_TRACE_QUEUE_SEND = 1,
    LM_TRACE_QUEUE_SEND_FRONT = 2,
    LM_TRACE_QUEUE_RECEIVE = 3,
    LM_TRACE_SEM_TAKE = 4,
    LM_TRACE_SEM_GIVE = 5,
    LM_TRACE_MUTEX_LOCK = 6,
    LM_TRACE_MUTEX_UNLOCK = 7,
    LM_TRACE_FLAGS_SET = 8,
    LM_TRACE_FLAGS_WAIT = 9,
    LM_TRACE_POOL_ALLOC = 10,
    LM_TRACE_POOL_FREE = 11,
    LM_TRACE_TIMER_EXPIRY = 12
} lm_trace_op_t;

/* What a registry entry names. */
typedef enum lm_trace_kind {
    LM_TRACE_KIND_THREAD = 1,
    LM_TRACE_KIND_OBJECT = 2, /* a kernel object: queue, semaphore, ... */
    LM_TRACE_KIND_EVENT = 3,  /* a user event id */
    LM_TRACE_KIND_IRQ = 4     /* an interrupt number */
} lm_trace_kind_t;

typedef enum lm_trace_mode {
    LM_TRACE_STOP_WHEN_FULL = 0, /* keep the first records; count the rest as dropped */
    LM_TRACE_OVERWRITE = 1       /* keep the latest records */
} lm_trace_mode_t;

/* The interrupt number of the kernel's own tick in isr records. */
#define LM_TRACE_IRQ_TICK 0xFFFFu

/* The header at the start of the buffer (docs/trace.md). Words are in the
 * target's byte order. */
typedef struct lm_trace_header {
    uint32_t magic;        /* LM_TRACE_MAGIC */
    uint16_t version;      /* LM_TRACE_VERSION */
    uint16_t header_bytes; /* sizeof(lm_trace_header_t) */
    uint32_t timestamp_hz; /* lm_port_timestamp's rate */
    uint32_t tick_hz;      /* LM_CFG_TICK_HZ */
    uint16_t record_bytes; /* LM_TRACE_RECORD_BYTES */
    uint16_t entry_bytes;  /* bytes of a registry entry */
    uint32_t names_max;    /* registry entries after the header */
    uint32_t names;        /* entries in use */
    uint32_t records_max;  /* ring slots after the registry */
    uint32_t written;      /* records reserved since the start (wraps) */
    uint32_t next;         /* the slot the next record takes */
    uint32_t dropped;      /* records refused (stop mode) or names refused */
    uint8_t mode;          /* lm_trace_mode_t */
    uint8_t active;        /* 1 while recording */
    uint8_t address_bytes; /* sizeof(void *) on the target; records keep the
                              low 32 bits of addresses */
    uint8_t reserved;
    uint32_t idle;         /* the idle thread's address */
} lm_trace_header_t;

/* A statically allocated trace buffer of `bytes` bytes. */
#define LM_TRACE_BUFFER_DEFINE(name, bytes) _Alignas(4) uint8_t name[(((bytes) + 3u) / 4u) * 4u]

#if LM_CFG_TRACE
/* Start recording into buf (bytes long, 4-byte aligned): the header, room
 * for `names` registry entries and the ring in the rest, at least 4 records.
 * Starting again starts a new trace. The registry lists every thread
 * created from here on. Cost: O(1).
 * @retval LM_OK, LM_ERR_PARAM (NULL, misaligned, too small, bad mode) */
lm_status_t lm_trace_start(void *buf, size_t bytes, unsigned names, lm_trace_mode_t mode);
/* Stop recording; the buffer stays readable. Cost: O(1). */
void lm_trace_stop(void);
/* The trace buffer and how many of its bytes to copy out (the whole
 * buffer since lm_trace_start, NULL and 0 before). Cost: O(1). */
const void *lm_trace_buffer(size_t *bytes);

/* Name an object (`bytes` long: a record naming any address inside it is
 * about it), a user event id or an interrupt number in the registry.
 * A name longer than 19 characters is cut. Naming the same thing again
 * replaces its name. Cost: O(registry entries), a scan for the same thing.
 * @retval LM_OK, LM_ERR_PARAM (NULL name, bad kind), LM_ERR_STATE (no trace
 *         started), LM_ERR_OVERFLOW (the registry is full) */
lm_status_t lm_trace_name(lm_trace_kind_t kind, const void *obj, size_t bytes, const char *name);
static inline lm_status_t lm_trace_name_event(uint16_t id, const char *name)
{
    return lm_trace_name(LM_TRACE_KIND_EVENT, (const void *)(uintptr_t)id, 0u, name);
}
static inline lm_status_t lm_trace_name_irq(uint16_t irq, const char *name)
{
    return lm_trace_name(LM_TRACE_KIND_IRQ, (const void *)(uintptr_t)irq, 0u, name);
}

/* A user event: an id (named with lm_trace_name_event) and two words.
 * Cost: one record (docs/trace.md, "Cost"). */
void lm_trace_user(uint16_t id, uint32_t a, uint32_t b);
#endif

/* The two-call interrupt hook: first and last thing in a handler. With
 * LM_CFG_TRACE each call records; with LM_CFG_STATS the enter counts an
 * interrupt (lm_kernel_stats_t.interrupts); with neither they are empty.
 * Context: the handler. Cost: one record, a masked increment, or nothing. */
#if LM_CFG_TRACE || LM_CFG_STATS
void lm_trace_isr_enter(uint16_t irq);
void lm_trace_isr_exit(uint16_t irq);
#else
static inline void lm_trace_isr_enter(uint16_t irq)
{
    (void)irq;
}
static inline void lm_trace_isr_exit(uint16_t irq)
{
    (void)irq;
}
#endif

#endif /* LIMEN_TRACE_H */
