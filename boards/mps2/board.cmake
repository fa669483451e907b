# SPDX-License-Identifier: Apache-2.0
# Shared by the MPS2 boards. The board's own board.cmake sets LIMEN_CPU_FLAGS
# and LIMEN_QEMU_MACHINE first; the rest is ../common/board.cmake.
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/startup.c ${CMAKE_CURRENT_LIST_DIR}/console.c)
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/mps2.ld)
include(${CMAKE_CURRENT_LIST_DIR}/../common/board.cmake)
