/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 004's ready-queue study on a Cortex-M4: every structure behind one
 * interface. A scheduling decision is what the study times at the end of a
 * time-slice: insert the thread whose slice ended, then remove and return
 * the next one to run.
 */
#ifndef RQ_H
#define RQ_H

#include <stdint.h>
#include "limen/base.h"

typedef struct rq_thread {
    struct rq_thread *next, *prev;               /* lists */
    struct rq_thread *left, *right, *parent;     /* red-black tree */
    uint32_t red;
    uint32_t key;   /* virtual time at which it should run next */
    uint32_t seq;   /* insertion order: FIFO among equal keys */
    uint32_t level; /* 0 .. levels - 1 (0 runs most often, or is most urgent) */
    uint32_t step;  /* key increment per time-slice: the level's period */
    struct lm_dnode node; /* Limen's ready queue */
} rq_thread_t;

typedef struct rq_ops {
    const char *name;
    void (*init)(unsigned levels);
    void (*insert)(rq_thread_t *t);
    rq_thread_t *(*next)(void);
} rq_ops_t;

extern const rq_ops_t rq_null, rq_round_robin, rq_sorted_forward, rq_sorted_backward,
    rq_red_black, rq_multi_list_1, rq_multi_list_2, rq_limen;

#endif
