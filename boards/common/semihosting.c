/* SPDX-License-Identifier: Apache-2.0 */
/* The boards that run under QEMU (MPS2, MPS2/MPS3 with TrustZone, micro:bit)
 * end a run and write files on the host through Arm semihosting:
 * lm_board_exit() and lm_board_file_write() (board.h). A board for real
 * hardware has its own (its exit stops in a loop). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "board.h"

/* Semihosting: the debugger (here QEMU) carries out the request. */
static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_WRITE 0x05u
#define SYS_OPEN_WB 5u /* fopen mode "wb" */

int lm_board_file_write(const char *path, const void *data, size_t bytes)
{
    uint32_t open[3] = {(uint32_t)(uintptr_t)path, SYS_OPEN_WB, (uint32_t)strlen(path)};
    uint32_t fd = semihost(SYS_OPEN, open);
    if (fd == 0xFFFFFFFFu) {
        return -1;
    }
    uint32_t write[3] = {fd, (uint32_t)(uintptr_t)data, (uint32_t)bytes};
    uint32_t left = semihost(SYS_WRITE, write); /* bytes not written */
    uint32_t close[1] = {fd};
    return (semihost(SYS_CLOSE, close) == 0u && left == 0u) ? 0 : -1;
}

#define SYS_EXIT 0x18u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUNTIME_ERROR 0x20023u

_Noreturn void lm_board_exit(int code)
{
    uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
    (void)semihost(SYS_EXIT_EXTENDED, block);
    /* Without the extended call, only success or failure can be told. */
    (void)semihost(SYS_EXIT, (const void *)(uintptr_t)(code == 0 ? ADP_STOPPED_APPLICATION_EXIT
                                                                  : ADP_STOPPED_RUNTIME_ERROR));
    for (;;) {
    }
}
