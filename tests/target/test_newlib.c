/* SPDX-License-Identifier: Apache-2.0 */
/*
 * newlib under Limen (LM_CFG_NEWLIB=1, this image's kernel;
 * ports/armv7m/newlib.c): per-thread errno and stdio streams, and malloc,
 * free, snprintf and printf called by time-sliced threads at once.
 */
#include <errno.h>
#include <malloc.h>
#include <reent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "harness.h"
#include "limen/armv7m.h"

#if !LM_CFG_NEWLIB
#error "build this test with LM_CFG_NEWLIB=1"
#endif

/* ---- errno ---- */

static struct _reent *reent_of_a;

static void errno_a(void *arg)
{
    (void)arg;
    reent_of_a = _impure_ptr;
    errno = 11;
    LMT_ST(lm_thread_sleep(2), LM_OK); /* B sets its errno meanwhile */
    LMT_EQ(errno, 11);
    LMT_CHECK(_impure_ptr == reent_of_a);
    lmt_log("A");
    /* newlib itself sets errno (strtol out of range): in A's state only. */
    (void)strtol("99999999999999999999", NULL, 10);
    LMT_EQ(errno, ERANGE);
    LMT_ST(lm_thread_sleep(2), LM_OK);
    LMT_EQ(errno, ERANGE);
    lmt_log("A2");
}

static void errno_b(void *arg)
{
    (void)arg;
    LMT_ST(lm_thread_sleep(1), LM_OK);
    LMT_CHECK(_impure_ptr != reent_of_a && _impure_ptr != _global_impure_ptr);
    LMT_EQ(errno, 0); /* a fresh thread starts with errno 0 */
    errno = 22;
    LMT_ST(lm_thread_sleep(2), LM_OK); /* A's strtol runs meanwhile */
    LMT_EQ(errno, 22);
    lmt_log("B");
}

/* Each thread sees only its own errno; main's is kept across the run
 * (docs/porting.md, "newlib": per-thread reentrancy). */
LMT_CASE(errno_is_per_thread)
{
    lmt_begin();
    errno = 33;
    lmt_spawn("A", 3, errno_a, NULL);
    lmt_spawn("B", 3, errno_b, NULL);
    lmt_run();
    LMT_EQ(errno, 33);
    LMT_CHECK(_impure_ptr == _global_impure_ptr);
    lmt_expect("A B A2");
}

/* ---- malloc, free, snprintf, printf from time-sliced threads ---- */

#define HAMMERS 3u
#define HAMMER_TICKS 100u
#define LIVE 8u

static lm_tick_t hammer_start;
static unsigned iterations[HAMMERS];

/* The text snprintf must produce, built without stdio. */
static void expected_text(char *out, unsigned id, unsigned i, unsigned n)
{
    char digits[12];
    unsigned vals[3] = {id, i, n};
    char *p = out;
    *p++ = 't';
    for (unsigned v = 0; v < 3u; v++) {
        if (v != 0u) {
            *p++ = '-';
        }
        unsigned x = vals[v], k = 0;
        do {
            digits[k++] = (char)('0' + x % 10u);
            x /= 10u;
        } while (x != 0u);
        while (k != 0u) {
            *p++ = digits[--k];
        }
    }
    *p = '\0';
}

static void hammer(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    uint8_t *live[LIVE] = {0};
    size_t len[LIVE] = {0};
    char got[48], want[48];
    unsigned i = 0;
    while (lm_tick_now() - hammer_start < HAMMER_TICKS) {
        unsigned slot = i % LIVE;
        uint8_t mark = (uint8_t)(id * 16u + slot);
        if (live[slot] != NULL) {
            for (size_t b = 0; b < len[slot]; b++) {
                LMT_CHECK(live[slot][b] == mark); /* nobody else got this block */
            }
            free(live[slot]);
        }
        unsigned n = 1u + (i * 37u + id * 11u) % 300u;
        live[slot] = malloc(n);
        LMT_CHECK(live[slot] != NULL);
        memset(live[slot], mark, n);
        len[slot] = n;
        if (id == 0u) {
            /* A walk of the heap under newlib's malloc lock: long enough that
             * slice ends fall inside the lock, whatever the instruction
             * timing of the rest of the loop. */
            LMT_CHECK(mallinfo().uordblks > 0u);
        }
        int w = snprintf(got, sizeof got, "t%u-%u-%u", id, i, n);
        expected_text(want, id, i, n);
        LMT_EQ(w, (long long)strlen(want));
        LMT_CHECK(strcmp(got, want) == 0);
        if (i % 200u == 0u) {
            printf("# hammer %u at %u\n", id, i); /* the thread's own stdout */
        }
        i++;
    }
    for (unsigned s = 0; s < LIVE; s++) {
        free(live[s]);
    }
    iterations[id] = i;
}

static void hammer_start_all(void *arg)
{
    (void)arg;
    hammer_start = lm_tick_now();
    for (unsigned id = 0; id < HAMMERS; id++) {
        /* Equal priority, one-tick slices: they preempt each other anywhere,
         * inside malloc and printf too. */
        lmt_spawn_ex("H", 5, LM_THRESHOLD_NONE, 1, hammer, (void *)(uintptr_t)id, true);
    }
}

/* R2.4 slices; docs/porting.md, "newlib": malloc/free and stdio are safe
 * from threads that preempt each other at every tick: no block is handed
 * out twice, no text is garbled, the heap's books balance, and the threads
 * did meet inside newlib (they waited on its malloc lock). Without the
 * lock, the heap's books do not balance. */
LMT_CASE(malloc_and_printf_under_time_slicing)
{
    lmt_begin();
    memset(iterations, 0, sizeof iterations);
    size_t in_use0 = mallinfo().uordblks;
    uint32_t contended0 = lm_armv7m_newlib_contended();
    lm_kernel_stats_t k0, k1;
    lm_kernel_stats(&k0);
    lmt_spawn("start", 1, hammer_start_all, NULL);
    lmt_run();
    lm_kernel_stats(&k1);
    uint32_t contended = lm_armv7m_newlib_contended() - contended0;
    printf("# %u/%u/%u iterations, %u slice expiries, %u waits on a newlib lock\n",
           iterations[0], iterations[1], iterations[2],
           (unsigned)(k1.slice_expiries - k0.slice_expiries), (unsigned)contended);
    for (unsigned id = 0; id < HAMMERS; id++) {
        LMT_CHECK(iterations[id] > 100u);
    }
    LMT_CHECK(k1.slice_expiries - k0.slice_expiries >= HAMMER_TICKS / 2u);
    LMT_CHECK(contended > 0u);
    /* The heap is still whole: every block came back (the threads' stdio
     * buffers too), and a large block comes and goes. */
    LMT_EQ(mallinfo().uordblks, in_use0);
    void *big = malloc(256u * 1024u);
    LMT_CHECK(big != NULL);
    free(big);
}

/* ---- a thread's streams are its own, and given back when it ends ---- */

static void printer(void *arg)
{
    (void)arg;
    LMT_CHECK(stdout != _global_impure_ptr->_stdout);
    printf("# a line from a thread\n");
    lmt_log("p");
}

/* docs/porting.md, "newlib": threads come and go without leaking their
 * stdio streams or buffers; the heap in use is the same after each of
 * several runs. */
LMT_CASE(thread_streams_are_given_back)
{
    size_t in_use[3];
    for (unsigned run = 0; run < 3u; run++) {
        lmt_begin();
        lmt_spawn("P", 3, printer, NULL);
        lmt_spawn("Q", 3, printer, NULL);
        lmt_run();
        lmt_expect("p p");
        in_use[run] = mallinfo().uordblks;
    }
    /* The first run may grow newlib's table of FILE objects for good. */
    LMT_EQ(in_use[2], in_use[1]);
}

/* ---- a run that stops with a newlib lock held ---- */

static lm_sem_t never;
static void *volatile block; /* volatile: the compiler may not drop the malloc */

static void holder(void *arg)
{
    (void)arg;
    __malloc_lock(_impure_ptr);
    lmt_log("held");
    (void)lm_sem_take(&never, LM_WAIT_FOREVER); /* the run stops meanwhile */
}

static void waiter(void *arg)
{
    (void)arg;
    lmt_log("waits");
    block = malloc(16); /* blocks on the malloc lock for good */
    free(block);
    lmt_log("never");
}

static void allocator(void *arg)
{
    (void)arg;
    block = malloc(32);
    LMT_CHECK(block != NULL);
    free(block);
    lmt_log("%s", lmt_me());
}

/* docs/porting.md, "newlib": each run of the kernel starts with its newlib
 * locks free, however the earlier run ended (here: with the malloc lock
 * held by one of its threads and wanted by another). */
LMT_CASE(locks_are_free_after_a_restart)
{
    lmt_begin();
    memset(&never, 0, sizeof never);
    LMT_ST(lm_sem_create(&never, 0, 1), LM_OK);
    lmt_spawn("A", 2, holder, NULL);
    lmt_spawn("B", 3, waiter, NULL);
    lmt_run();
    lmt_expect("held waits");
    for (unsigned again = 0; again < 2u; again++) {
        lmt_begin();
        lmt_spawn("C", 2, allocator, NULL);
        lmt_spawn("D", 3, allocator, NULL);
        lmt_run();
        lmt_expect("C D");
    }
}

LMT_MAIN(LMT_RUN(errno_is_per_thread), LMT_RUN(malloc_and_printf_under_time_slicing),
         LMT_RUN(thread_streams_are_given_back), LMT_RUN(locks_are_free_after_a_restart))
