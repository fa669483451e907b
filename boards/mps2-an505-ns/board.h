/* SPDX-License-Identifier: Apache-2.0 */
/* MPS2 AN505 with Limen in the Non-secure state (secure_boot.c starts it):
 * the board services of ../mps2-an505/board.h at Non-secure addresses. */
#ifndef LIMEN_BOARD_NS_H
#define LIMEN_BOARD_NS_H

#define MPS_TZ_NONSECURE 1
#include "../mps2-an505/board.h"

#endif
