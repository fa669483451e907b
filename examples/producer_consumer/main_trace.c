/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The producer-consumer experiment recorded with the event recorder
 * (LM_CFG_TRACE, docs/trace.md). For each case the whole run (WARMUP and
 * CYCLES cycles) is recorded; thread D marks every cycle boundary with the
 * user event "cycle" (payload: the cycle's number), and the trace is saved
 * as pc-<case>.lmtrace: on the hosted port into the directory given as the
 * first argument (default .), on a board through semihosting into the
 * emulator's working directory. `limen trace` reads them.
 *
 * Prints one JSON line: per case the kernel's own counters over the
 * measured cycles (from the boundary of cycle WARMUP-1 to that of cycle
 * WARMUP+CYCLES-1), which the tests compare with the records, and on a
 * board what one record costs.
 */
#include <stdio.h>
#include <string.h>

#include "limen/limen.h"
#include "limen/port.h"
#include "pc.h"
#if defined(LM_PORT_HOSTED)
#include "limen/hosted.h"
#else
#include "board.h"
#endif

#define WARMUP 4u
#define CYCLES 8u
#define EV_CYCLE 1u

static LM_TRACE_BUFFER_DEFINE(trace_buf, 64u * 1024u);

/* The kernel's statistics at the marks that bound the measured cycles
 * (pc.c's window), for the tests' cross-check against the trace. */
static lm_kernel_stats_t at_mark[2];

static void mark_cycle(uint32_t cycle)
{
    lm_trace_user(EV_CYCLE, cycle, 0u);
    if (cycle + 1u == WARMUP) {
        lm_kernel_stats(&at_mark[0]);
    } else if (cycle + 1u == WARMUP + CYCLES) {
        lm_kernel_stats(&at_mark[1]);
    }
}

_Noreturn void pc_stop(void)
{
    lm_trace_stop();
#if defined(LM_PORT_HOSTED)
    lm_hosted_stop();
#else
    lm_port_stop();
#endif
}

static int save(const char *dir, const char *name)
{
    char path[512];
    size_t n;
    const void *buf = lm_trace_buffer(&n);
    (void)snprintf(path, sizeof path, "%s%spc-%s.lmtrace", dir, dir[0] ? "/" : "", name);
#if defined(LM_PORT_HOSTED)
    (void)buf;
    return lm_hosted_trace_save(path);
#else
    return lm_board_file_write(path, buf, n);
#endif
}

#if !defined(LM_PORT_HOSTED)
/* What one record costs: lm_trace_user called 1000 times, recording and
 * with the recorder stopped, timed with the board's timestamp. */
#define COST_CALLS 1000u
static uint32_t cost_of_calls(void)
{
    uint32_t t0 = lm_board_timestamp();
    for (uint32_t i = 0; i < COST_CALLS; i++) {
        lm_trace_user(2u, i, 0u);
    }
    uint32_t t1 = lm_board_timestamp();
    return (uint32_t)(((uint64_t)(t1 - t0) * LM_BOARD_UNITS_PER_COUNT + COST_CALLS / 2u) /
                      COST_CALLS);
}
#endif

#if defined(LM_PORT_HOSTED)
int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
#else
int main(void)
{
    const char *dir = "";
#endif
    static const pc_case_t cases[] = {PC_EQUAL, PC_UNIQUE, PC_THRESHOLD};
    pc_result_t r[3];
    uint32_t dropped[3];
    lm_kernel_stats_t k[3];
    pc_cycle_hook = mark_cycle;
#if !defined(LM_PORT_HOSTED)
    lm_kernel_init();
    (void)lm_trace_start(trace_buf, sizeof trace_buf, 4u, LM_TRACE_OVERWRITE);
    uint32_t recording = cost_of_calls();
    lm_trace_stop();
    uint32_t stopped = cost_of_calls();
#endif
    for (unsigned i = 0; i < 3u; i++) {
        if (lm_trace_start(trace_buf, sizeof trace_buf, 16u, LM_TRACE_STOP_WHEN_FULL) != LM_OK) {
            return 1;
        }
        /* pc_run creates the threads (named in the registry at create);
         * the queues are named here, before it runs. */
        (void)lm_trace_name_event(EV_CYCLE, "cycle");
        pc_run(cases[i], WARMUP, CYCLES, NULL, &r[i]);
        dropped[i] = ((const lm_trace_header_t *)lm_trace_buffer(NULL))->dropped;
        k[i].relinquishes = at_mark[1].relinquishes - at_mark[0].relinquishes;
        k[i].resumptions = at_mark[1].resumptions - at_mark[0].resumptions;
        k[i].suspensions = at_mark[1].suspensions - at_mark[0].suspensions;
        k[i].interrupts = at_mark[1].interrupts - at_mark[0].interrupts;
        k[i].wait_timeouts = at_mark[1].wait_timeouts - at_mark[0].wait_timeouts;
        k[i].slice_expiries = at_mark[1].slice_expiries - at_mark[0].slice_expiries;
        if (save(dir, r[i].name) != 0) {
            printf("cannot save the trace of case %s\n", r[i].name);
            return 1;
        }
    }
    printf("JSON: {\"warmup\":%u,\"cycles\":%u,", WARMUP, CYCLES);
#if !defined(LM_PORT_HOSTED)
    printf("\"record_" LM_BOARD_TIME_UNIT "\":%lu,\"stopped_" LM_BOARD_TIME_UNIT "\":%lu,",
           (unsigned long)recording, (unsigned long)stopped);
#endif
    printf("\"cases\":[");
    for (unsigned i = 0; i < 3u; i++) {
        printf("%s{\"name\":\"%s\",\"messages\":%lu,\"context_switches\":%lu,"
               "\"preemptions\":%lu,\"dropped\":%lu,",
               i ? "," : "", r[i].name, (unsigned long)r[i].messages,
               (unsigned long)r[i].context_switches, (unsigned long)r[i].preemptions,
               (unsigned long)dropped[i]);
        printf("\"relinquishes\":%lu,\"resumptions\":%lu,\"suspensions\":%lu,"
               "\"interrupts\":%lu,\"wait_timeouts\":%lu,\"slice_expiries\":%lu}",
               (unsigned long)k[i].relinquishes, (unsigned long)k[i].resumptions,
               (unsigned long)k[i].suspensions, (unsigned long)k[i].interrupts,
               (unsigned long)k[i].wait_timeouts, (unsigned long)k[i].slice_expiries);
    }
    printf("]}\n");
    return 0;
}
