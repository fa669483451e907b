/* SPDX-License-Identifier: Apache-2.0 */
/* The acceptance scenario (seeds 000/001): exact switch sequences per case,
 * whole-number counts from the kernel's counters, and a control case. */
#include <string.h>
#include "harness.h"
#include "pc.h"
#include "limen/port.h"

_Noreturn void pc_stop(void)
{
    lm_port_stop();
}

static void switch_logger(const lm_thread_t *from, const lm_thread_t *to)
{
    lmt_log("%s>%s", from != NULL ? lm_thread_name(from) : "-", lm_thread_name(to));
}

static void cycle_marker(uint32_t cycle)
{
    lmt_log("|%u", (unsigned)cycle);
}

/* Run two measured cycles after one warm-up cycle and check the trace. */
static void run_case(pc_case_t c, const char *expected, uint32_t msgs, uint32_t sw, uint32_t pre)
{
    lmt_begin();
    pc_cycle_hook = cycle_marker;
    pc_result_t r;
    pc_run(c, 1, 2, switch_logger, &r);
    pc_cycle_hook = NULL;
    lmt_expect(expected);
    LMT_EQ(r.cycles, 2);
    LMT_EQ(r.messages, 2 * msgs);
    LMT_EQ(r.context_switches, 2 * sw);
    LMT_EQ(r.preemptions, 2 * pre);
}

/* Case 1, all priority 4 (R2.2, R2.3): A, B, C block in creation order,
 * D fills the queues, relinquishes, each consumer drains its queue. */
LMT_CASE(equal_priorities_four_switches)
{
    run_case(PC_EQUAL,
             "->A A>B B>C C>D D>A A>B B>C C>D |0 D>A A>B B>C C>D |1 D>A A>B B>C C>D |2",
             9, 4, 0);
}

/* Case 2, A=1 B=2 C=3 D=4 (R1.2): every send preempts D (R7.2). */
LMT_CASE(unique_priorities_eighteen_switches)
{
    const char *cyc = "D>A A>D D>B B>D D>C C>D D>A A>D D>B B>D D>C C>D D>A A>D D>B B>D D>C C>D";
    char expected[1024];
    snprintf(expected, sizeof expected, "->A A>B B>C C>D %s |0 %s |1 %s |2", cyc, cyc, cyc);
    run_case(PC_UNIQUE, expected, 9, 18, 9);
}

/* Case 3, D's threshold 1 (R3.1, R3.3): nobody preempts D; its relinquish
 * lets A, B, C run in priority order. */
LMT_CASE(threshold_four_switches)
{
    run_case(PC_THRESHOLD,
             "->A A>B B>C C>D D>A A>B B>C C>D |0 D>A A>B B>C C>D |1 D>A A>B B>C C>D |2",
             9, 4, 0);
}

/* Control: capacity 1 makes D block on a full queue (R10.3), so the
 * counts differ - the measurement is not blind to the scenario. */
LMT_CASE(control_capacity_one_differs)
{
    run_case(PC_CONTROL,
             "->A A>B B>C C>D D>A A>B B>C C>D D>B B>C C>D |0 D>A A>B B>C C>D D>B B>C C>D |1 "
             "D>A A>B B>C C>D D>B B>C C>D |2",
             9, 7, 0);
}

/* Long run: the per-cycle figures stay exact over many cycles. */
LMT_CASE(counts_are_exact_over_many_cycles)
{
    static const pc_case_t cases[] = {PC_EQUAL, PC_UNIQUE, PC_THRESHOLD};
    static const uint32_t sw[] = {4, 18, 4}, pre[] = {0, 9, 0};
    for (unsigned i = 0; i < 3u; i++) {
        lmt_begin();
        pc_result_t r;
        pc_run(cases[i], 16, 500, NULL, &r);
        LMT_EQ(r.messages, 9u * 500u);
        LMT_EQ(r.context_switches, sw[i] * 500u);
        LMT_EQ(r.preemptions, pre[i] * 500u);
    }
}

LMT_MAIN(LMT_RUN(equal_priorities_four_switches), LMT_RUN(unique_priorities_eighteen_switches),
         LMT_RUN(threshold_four_switches), LMT_RUN(control_capacity_one_differs),
         LMT_RUN(counts_are_exact_over_many_cycles))
