# SPDX-License-Identifier: Apache-2.0
# Shared by the Armv8-M boards under QEMU (mps2-an505, mps3-an547): their
# own board.cmake sets LIMEN_CPU_FLAGS, LIMEN_QEMU_MACHINE, LIMEN_BOARD_DIR
# (its board.h), LIMEN_BOARD_LINKER_SCRIPT and, if it has more C files,
# LIMEN_BOARD_EXTRA_SOURCES first. The firmware runs in the Secure state,
# as QEMU boots it, or Non-secure behind mps2-an505-ns's Secure firmware
# (docs/porting.md).
set(LIMEN_BOARD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/startup.c ${CMAKE_CURRENT_LIST_DIR}/console.c
    ${LIMEN_BOARD_EXTRA_SOURCES})
set(LIMEN_BOARD_PORT armv8m)
include(${CMAKE_CURRENT_LIST_DIR}/../common/board.cmake)
