/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The study's multi-list schedulers, 8 levels (A = 0 .. H = 7): a FIFO per
 * level and a fixed schedule of levels. At each entry the scheduler runs
 * through that level's FIFO `count` times over (every thread of it gets
 * `count` slices), then moves to the next entry with a non-empty FIFO.
 * Level k gets half the slices of level k - 1.
 *
 * Multi-List-1: 33 entries with counts: eight blocks A-16 B-8 C-4, every
 * second one followed by D-4 and every fourth by E-4, then F-4 G-2 H-1.
 * Multi-List-2: 255 entries, each run through once: S(A) = A,
 * S(k) = S(k-1) S(k-1) k, i.e. A A B A A B C A A B A A B C D ...
 */
#include <stddef.h>

#include "rq.h"

#define LEVELS 8u
#define ML2_SIZE 255u

typedef struct fifo {
    rq_thread_t *head, *tail;
} fifo_t;

static fifo_t lists[LEVELS];
static const uint8_t *sched_level;
static const uint8_t *sched_count;
static unsigned sched_size, sched_index;
static int remaining;
static fifo_t *this_list;
static rq_thread_t *list_last;

static uint8_t ml1_level[33], ml1_count[33];
static uint8_t ml2_level[ML2_SIZE], ml2_count[ML2_SIZE];

static void push_back(fifo_t *f, rq_thread_t *t)
{
    t->next = NULL;
    if (f->tail != NULL) {
        f->tail->next = t;
    } else {
        f->head = t;
    }
    f->tail = t;
}

static rq_thread_t *pop_front(fifo_t *f)
{
    rq_thread_t *t = f->head;
    if (t != NULL) {
        f->head = t->next;
        if (f->head == NULL) {
            f->tail = NULL;
        }
    }
    return t;
}

/* The next schedule entry whose FIFO holds a thread (there is one: the
 * thread being scheduled is in a FIFO when this runs). */
static void advance(void)
{
    do {
        sched_index = sched_index + 1u == sched_size ? 0u : sched_index + 1u;
        this_list = &lists[sched_level[sched_index]];
    } while (this_list->head == NULL);
    remaining = sched_count[sched_index];
    list_last = this_list->tail;
}

static void ml_insert(rq_thread_t *t)
{
    push_back(&lists[t->level], t);
    if (t == list_last) {
        if (--remaining <= 0) {
            advance();
        }
    }
}

static rq_thread_t *ml_next(void)
{
    rq_thread_t *t = (this_list != NULL) ? pop_front(this_list) : NULL;
    if (t == NULL) {
        advance();
        t = pop_front(this_list);
    }
    return t;
}

static void reset(void)
{
    for (unsigned i = 0u; i < LEVELS; i++) {
        lists[i].head = lists[i].tail = NULL;
    }
    sched_index = sched_size - 1u;
    remaining = 0;
    this_list = NULL;
    list_last = NULL;
}

static void ml1_init(unsigned levels)
{
    (void)levels;
    unsigned n = 0u;
    for (unsigned block = 1u; block <= 8u; block++) {
        static const uint8_t abc[3][2] = {{0u, 16u}, {1u, 8u}, {2u, 4u}};
        for (unsigned i = 0u; i < 3u; i++) {
            ml1_level[n] = abc[i][0];
            ml1_count[n++] = abc[i][1];
        }
        if (block % 2u == 0u) {
            ml1_level[n] = 3u;
            ml1_count[n++] = 4u;
        }
        if (block % 4u == 0u) {
            ml1_level[n] = 4u;
            ml1_count[n++] = 4u;
        }
    }
    static const uint8_t fgh[3][2] = {{5u, 4u}, {6u, 2u}, {7u, 1u}};
    for (unsigned i = 0u; i < 3u; i++) {
        ml1_level[n] = fgh[i][0];
        ml1_count[n++] = fgh[i][1];
    }
    sched_level = ml1_level;
    sched_count = ml1_count;
    sched_size = n;
    reset();
}

/* Writes S(k) at out; returns its length (2^(k+1) - 1). */
static unsigned ml2_fill(uint8_t *out, unsigned k)
{
    if (k == 0u) {
        out[0] = 0u;
        return 1u;
    }
    unsigned half = ml2_fill(out, k - 1u);
    for (unsigned i = 0u; i < half; i++) {
        out[half + i] = out[i];
    }
    out[2u * half] = (uint8_t)k;
    return 2u * half + 1u;
}

static void ml2_init(unsigned levels)
{
    (void)levels;
    sched_size = ml2_fill(ml2_level, LEVELS - 1u);
    for (unsigned i = 0u; i < sched_size; i++) {
        ml2_count[i] = 1u;
    }
    sched_level = ml2_level;
    sched_count = ml2_count;
    reset();
}

const rq_ops_t rq_multi_list_1 = {"multi_list_1", ml1_init, ml_insert, ml_next};
const rq_ops_t rq_multi_list_2 = {"multi_list_2", ml2_init, ml_insert, ml_next};
