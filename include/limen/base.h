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
 * Used for the ready queue and for every wait queue, so that inserting,
 * removing and finding the most urgent entry cost O(1) whatever the number
 * of entries and their priorities (docs/design.md).
 */
struct lm_prioq {
    struct lm_prio_set busy; /* priorities whose ring is not empty */
    struct lm_dnode *ring[LM_CFG_PRIORITIES];
};

/* An armed timeout: a node of the timeout wheel. */
struct lm_timeout {
    struct lm_dnode link;  /* next == NULL when not armed */
    lm_tick_t deadline;
    uint8_t is_timer;      /* 1: an lm_timer_t, 0: a thread's wait */
};

/* Magic words of control blocks (present only with LM_CFG_ARG_CHECKS). */
#define LM_MAGIC_THREAD 0x4C6D5468u /* "LmTh" */
#define LM_MAGIC_SEM 0x4C6D5365u    /* "LmSe" */
#define LM_MAGIC_MUTEX 0x4C6D4D75u  /* "LmMu" */
#define LM_MAGIC_QUEUE 0x4C6D5175u  /* "LmQu" */
#define LM_MAGIC_FLAGS 0x4C6D466Cu  /* "LmFl" */
#define LM_MAGIC_POOL 0x4C6D506Fu   /* "LmPo" */
#define LM_MAGIC_TIMER 0x4C6D5469u  /* "LmTi" */

#endif /* LIMEN_BASE_H */
