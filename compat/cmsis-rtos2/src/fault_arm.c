/* SPDX-License-Identifier: Apache-2.0 */
/* Fault handlers on Armv6-M, Armv7-M and Armv8-M: the exception number in
 * IPSR is HardFault (3), MemManage (4), BusFault (5), UsageFault (6) or
 * SecureFault (7). */
#include <stdint.h>
#include "lmc_fault.h"

bool lmc_in_fault(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    ipsr &= 0x1FFu;
    return ipsr >= 3u && ipsr <= 7u;
}
