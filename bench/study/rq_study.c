/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Seed 004's ready-queue study on mps2-an386: instructions per scheduling
 * decision (insert the thread whose slice ended, take the next) for each
 * structure, 1 to 200 threads, with the study's workload: threads that only
 * yield, levels drawn at random with a fixed seed.
 *
 * Two experiments, as the study's:
 * - "linear", 5/10/20/50 levels: a thread of level k (1 .. L) runs 1/k as
 *   often (its key advances by k per slice); round robin, sorted list
 *   searched forward and backward, red-black tree, and Limen;
 * - "pow2", 8 levels: level k (0 .. 7) runs 1/2^k as often; Multi-List-1,
 *   Multi-List-2, the red-black tree with keys advancing by 2^k, and Limen.
 *
 * Timing on mps2-an386: CMSDK timer 1 (one count per 40 instructions under -icount
 * shift=0) read before and after DECISIONS decisions, after WARMUP; the
 * figure is counts x 40 / DECISIONS (resolution 0.002 instruction). The
 * loop's own instructions (an indirect call each way) are in every figure;
 * "loop_only" gives them.
 */
#include <stdbool.h>
#include <stdint.h>

#include "rq.h"

#ifdef RQ_HOST
/* The same study on the host, counted exactly by valgrind's callgrind
 * (`./limen bench study --host`): collection is switched on around the
 * timed loop only, and each figure's count is dumped under its label. */
#include <stdio.h>
#include <valgrind/callgrind.h>

#define WARMUP 500u
#define DECISIONS 2000u

static void out(const char *s)
{
    (void)fputs(s, stdout);
}

static uint32_t timing_start(void)
{
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
    return 0u;
}

/* The count is in the dump named `label`; the tool reads it from there. */
static uint32_t timing_stop(uint32_t start, const char *label)
{
    (void)start;
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(label);
    return 0u;
}
#else
#include "board.h"
#include "limen/kernel.h"

#define TIMER_VALUE (*(volatile uint32_t *)0x40001004u)
#define INSTR_PER_COUNT 40u
#define WARMUP 2000u
#define DECISIONS 20000u

static void out(const char *s)
{
    lm_board_puts(s);
}

static uint32_t timing_start(void)
{
    return TIMER_VALUE;
}

static uint32_t timing_stop(uint32_t start, const char *label)
{
    (void)label;
    return (start - TIMER_VALUE) * INSTR_PER_COUNT;
}

/* The board's fault report asks whether a kernel runs; in this image none
 * does (no kernel is linked). */
bool lm_kernel_initialised(void)
{
    return false;
}

bool lm_kernel_running(void)
{
    return false;
}
#endif

#define MAX_THREADS 200u

static rq_thread_t threads[MAX_THREADS];
static uint32_t rng;

static uint32_t xorshift(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void put_u32(uint32_t v)
{
    char buf[11];
    unsigned i = sizeof buf - 1u;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    out(&buf[i]);
}

/* One figure: N threads at random levels (seed fixed per N and L, the same
 * for every structure), WARMUP decisions, then DECISIONS timed. */
static void run(const rq_ops_t *rq, const char *mode, unsigned levels, unsigned n)
{
    int pow2 = mode[0] == 'p';
    rng = 0x9E3779B9u ^ (n * 2654435761u) ^ levels;
    rq->init(levels);
    for (unsigned i = 0u; i < n; i++) {
        rq_thread_t *t = &threads[i];
        uint32_t k = xorshift() % levels;
        t->level = k;
        t->step = pow2 ? (1u << k) : k + 1u;
        t->key = 0u;
        rq->insert(t);
    }
    rq_thread_t *cur = rq->next();
    for (unsigned i = 0u; i < WARMUP; i++) {
        rq->insert(cur);
        cur = rq->next();
    }
    char label[64];
    unsigned len = 0u;
    for (const char *p = rq->name; *p != '\0' && len < 40u; p++) {
        label[len++] = *p;
    }
    label[len++] = '-';
    label[len++] = mode[0];
    label[len++] = (char)('0' + levels / 10u);
    label[len++] = (char)('0' + levels % 10u);
    label[len++] = '-';
    label[len++] = (char)('0' + n / 100u);
    label[len++] = (char)('0' + n / 10u % 10u);
    label[len++] = (char)('0' + n % 10u);
    label[len] = '\0';
    uint32_t t0 = timing_start();
    for (unsigned i = 0u; i < DECISIONS; i++) {
        rq->insert(cur);
        cur = rq->next();
    }
    uint32_t instructions = timing_stop(t0, label);
    out("RQ ");
    out(rq->name);
    out(" mode=");
    out(mode);
    out(" levels=");
    put_u32(levels);
    out(" threads=");
    put_u32(n);
    out(" instructions=");
    put_u32(instructions);
    out(" decisions=");
    put_u32(DECISIONS);
    out(" label=");
    out(label);
    out("\n");
}

static const unsigned counts[] = {1u, 2u, 3u, 5u, 10u, 20u, 30u, 40u, 50u, 70u, 100u,
                                  150u, 200u};

int main(void)
{
    static const rq_ops_t *const linear[] = {&rq_null, &rq_round_robin, &rq_sorted_forward,
                                             &rq_sorted_backward, &rq_red_black, &rq_limen};
    static const rq_ops_t *const pow2[] = {&rq_null, &rq_multi_list_1, &rq_multi_list_2,
                                           &rq_red_black, &rq_limen};
    static const unsigned level_counts[] = {5u, 10u, 20u, 50u};
    /* Limen's ready queue is built for 32 priorities (one bit scan) in one
     * image, which also runs the 8-level experiment, and for 64 (two) in
     * another, which runs the 50-level one (RQ_WIDE). */
    for (unsigned l = 0u; l < sizeof level_counts / sizeof level_counts[0]; l++) {
        if ((level_counts[l] > 32u) != (RQ_WIDE != 0)) {
            continue;
        }
        for (unsigned s = 0u; s < sizeof linear / sizeof linear[0]; s++) {
            for (unsigned c = 0u; c < sizeof counts / sizeof counts[0]; c++) {
                run(linear[s], "linear", level_counts[l], counts[c]);
            }
        }
    }
    for (unsigned s = 0u; s < sizeof pow2 / sizeof pow2[0] && RQ_WIDE == 0; s++) {
        for (unsigned c = 0u; c < sizeof counts / sizeof counts[0]; c++) {
            run(pow2[s], "pow2", 8u, counts[c]);
        }
    }
#ifdef RQ_HOST
    return 0;
#else
    lm_board_exit(0);
#endif
}
