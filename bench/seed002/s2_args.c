/* SPDX-License-Identifier: Apache-2.0 */
#include "s2_args.h"

#include <string.h>

uint32_t s2_arg(const char *name, uint32_t otherwise)
{
    static char line[160];
    struct {
        char *buf;
        uint32_t len;
    } block = {line, sizeof line - 1u};
    register uint32_t r0 __asm("r0") = 0x15u; /* SYS_GET_CMDLINE */
    register void *r1 __asm("r1") = &block;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    if (r0 != 0u) {
        return otherwise;
    }
    line[block.len] = '\0';
    const char *p = strstr(line, name);
    size_t n = strlen(name);
    if (p == NULL || p[n] != '=' || p[n + 1u] < '0' || p[n + 1u] > '9') {
        return otherwise;
    }
    uint32_t v = 0u;
    for (p += n + 1u; *p >= '0' && *p <= '9'; p++) {
        v = v * 10u + (uint32_t)(*p - '0');
    }
    return v;
}
