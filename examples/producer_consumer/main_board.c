/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The seeds' producer-consumer experiment on a board. The board says what
 * its timestamp counts (board.h): under QEMU with -icount shift=0 one
 * instruction is 1 ns of virtual time and the 25 MHz timestamp counts every
 * 40 instructions (docs/measuring.md); on a real board it counts core
 * cycles. Prints the kernel's version, a table and, last, one JSON line.
 */
#include <stdio.h>

#include "board.h"
#include "limen/port.h"
#include "limen/version.h"
#include "pc.h"

#define WARMUP 16u
#define CYCLES 1000u

_Noreturn void pc_stop(void)
{
    lm_port_stop();
}

int main(void)
{
    static const pc_case_t cases[] = {PC_EQUAL, PC_UNIQUE, PC_THRESHOLD};
    pc_result_t r[3];
    uint32_t insns[3];
    pc_timestamp = lm_board_timestamp;
    for (unsigned i = 0; i < 3u; i++) {
        pc_run(cases[i], WARMUP, CYCLES, NULL, &r[i]);
        insns[i] = (uint32_t)(((uint64_t)r[i].timestamp_delta * LM_BOARD_UNITS_PER_COUNT + CYCLES / 2u) /
                              CYCLES);
        if (r[i].cycles != CYCLES || r[i].context_switches % CYCLES != 0u) {
            printf("case %s: counts are not whole per cycle\n", r[i].name);
            return 1;
        }
    }
    printf("Limen %s\n", lm_version());
    printf("%-10s %10s %10s %12s %14s %14s\n", "case", "messages", "switches", "preemptions",
           LM_BOARD_TIME_UNIT, "messages per");
    printf("%-10s %10s %10s %12s %14s %14s\n", "", "/cycle", "/cycle", "/cycle", "/cycle",
           "1e6 " LM_BOARD_TIME_UNIT_SHORT);
    for (unsigned i = 0; i < 3u; i++) {
        printf("%-10s %10lu %10lu %12lu %14lu %14lu\n", r[i].name,
               (unsigned long)(r[i].messages / CYCLES),
               (unsigned long)(r[i].context_switches / CYCLES),
               (unsigned long)(r[i].preemptions / CYCLES), (unsigned long)insns[i],
               (unsigned long)(insns[i] ? 9000000u / insns[i] : 0u));
    }
    printf("JSON: {\"limen_version\":\"%s\",\"cycles\":%u,\"cases\":[", lm_version(), CYCLES);
    for (unsigned i = 0; i < 3u; i++) {
        printf("%s{\"name\":\"%s\",\"messages_per_cycle\":%lu,\"context_switches_per_cycle\":%lu,"
               "\"preemptions_per_cycle\":%lu,\"" LM_BOARD_TIME_UNIT "_per_cycle\":%lu}",
               i ? "," : "", r[i].name, (unsigned long)(r[i].messages / CYCLES),
               (unsigned long)(r[i].context_switches / CYCLES),
               (unsigned long)(r[i].preemptions / CYCLES), (unsigned long)insns[i]);
    }
    printf("]}\n");
    return 0;
}
