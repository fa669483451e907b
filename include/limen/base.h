/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Types shared by every control block. The layouts are public only so that
 * the application can allocate control blocks; their fields are private to
 * the kernel and may change between releases.
 */
#ifndef LIMEN_BASE_H
#define LIMEN_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "limen/config.h"
#include "limen/status.h"

/* Time in ticks. Wraps at 2^32; every comparison is wrap-safe, so a finite
 * timeout may be at most LM_TICK_MAX_TIMEOUT ticks. */
typedef uint32_t lm_tick_t;

#define LM_NO_WAIT ((lm_tick_t)0)
#define LM_WAIT_FOREVER ((lm_tick_t)0xFFFFFFFFu)
#define LM_TICK_MAX_TIMEOUT ((lm_tick_t)0x7FFFFFFFu)

/* A timeout argument is LM_NO_WAIT, LM_WAIT_FOREVER or 1..LM_TICK_MAX_TIMEOUT:
 * as a signed 32-bit number, -1 or more. One compare with -1 (Arm: `cmn`,
 * then the branch), where the unsigned range takes an add as well. */
_Static_assert(LM_WAIT_FOREVER == (lm_tick_t)-1 && LM_TICK_MAX_TIMEOUT + 1u == 0x80000000u &&
                   sizeof(lm_tick_t) == sizeof(int32_t),
               "the valid timeouts are the int32_t values from -1 up");
static inline bool lm_timeout_valid(lm_tick_t timeout)
{
    return (int32_t)timeout >= -1;
}

/* Milliseconds to ticks, rounded up so a wait is never shorter than asked. */
#define LM_MS_TO_TICKS(ms) \
    ((lm_tick_t)((((uint64_t)(ms)) * LM_CFG_TICK_HZ + 999u) / 1000u))

/* Node of an intrusive, circular, doubly linked list. */
struct lm_dnode {
    struct lm_dnode *next;
    struct lm_dnode *prev;
};

#define LM_PRIO_WORDS ((LM_CFG_PRIORITIES + 31) / 32)

/*
 * A set of priorities, as a bitmap: bit p%32 of word p/32. Above 32
 * priorities a summary word has bit w set while word w is not zero, so the
 * most urgent member is found with two bit scans whatever the set holds.
 */
struct lm_prio_set {
#if LM_PRIO_WORDS > 1
    uint32_t summary;
#endif
    uint32_t word[LM_PRIO_WORDS];
};

/*
 * Priority queue: one FIFO ring per priority and the set of non-empty ones.
 * Used for the ready queue and, unless LM_CFG_WAIT_QUEUE_COMPACT, for every
 * wait queue (struct lm_waitq), so that inserting,
 * removing and finding the most urgent entry cost O(1) whatever the number
 * of entries and their priorities (docs/design.md).
 */
struct lm_prioq {
    struct lm_prio_set busy; /* priorities whose ring is not empty */
    struct lm_dnode *ring[LM_CFG_PRIORITIES];
};

struct lm_thread;

/*
 * Wait queue: the threads waiting on one object, most urgent first, FIFO
 * among equal priorities (kernel/include/waitq.h, docs/design.md).
 * Table: a priority queue as above, 4*P + 4*P/32 bytes. Compact
 * (LM_CFG_WAIT_QUEUE_COMPACT): two pointers whatever P; the trie links live
 * in the threads (lm_thread_t.wq_*).
 */
struct lm_waitq {
#if LM_CFG_WAIT_QUEUE_COMPACT
    struct lm_thread *head; /* most urgent waiter, NULL if none */
    struct lm_thread *root; /* root of the trie of priority leaders */
#else
    struct lm_prioq table;
#endif
};

/* An armed timeout: a node of the timeout wheel. */
struct lm_timeout {
    struct lm_dnode link;  /* next == NULL when not armed */
    lm_tick_t deadline;
    uint8_t kind;          /* what its expiry ends: a sleep, a wait, a timer */
};

/* Magic words of control blocks (present only with LM_CFG_ARG_CHECKS). Each
 * repeats one byte, the type's letter: Arm's Thumb-2 compares a register
 * with such a constant in one instruction, where any other 32-bit value
 * costs a literal load on every checked call. No fill pattern in common use
 * (0x00, 0xFF, 0xA5, 0xAA, 0x55, 0xCC, 0xCD, 0xDD, 0xEF, 0xFE) is one. */
#define LM_MAGIC_THREAD 0x54545454u /* "TTTT" */
#define LM_MAGIC_SEM 0x53535353u    /* "SSSS" */
#define LM_MAGIC_MUTEX 0x4D4D4D4Du  /* "MMMM" */
#define LM_MAGIC_QUEUE 0x51515151u  /* "QQQQ" */
#define LM_MAGIC_FLAGS 0x46464646u  /* "FFFF" */
#define LM_MAGIC_POOL 0x50505050u   /* "PPPP" */
#define LM_MAGIC_PQUEUE 0x4F4F4F4Fu /* "OOOO": ordered */
#define LM_MAGIC_TIMER 0x49494949u  /* "IIII" */

#endif /* LIMEN_BASE_H */
