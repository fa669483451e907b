/* SPDX-License-Identifier: Apache-2.0 */
/* The run length of seed 002's images, from the semihosting command line
 * (QEMU -append "<name>=<n>"): tools/bench_seed002.py passes a short one
 * for the test command's smoke run. */
#ifndef S2_ARGS_H
#define S2_ARGS_H

#include <stdint.h>

/* n of "<name>=<n>" on the command line, or `otherwise`. */
uint32_t s2_arg(const char *name, uint32_t otherwise);

#endif
