/* SPDX-License-Identifier: Apache-2.0 */
/* Armv8-M Mainline: the system timer is the Armv7-M port's SysTick, read
 * the same way. */
#include "systimer_armv7m.c"
