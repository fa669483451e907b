# SPDX-License-Identifier: Apache-2.0
# Arm MPS3 with the AN547 image: Cortex-M55 with FPU, MVE (Helium) and the
# Security Extension (SSE-300 subsystem). QEMU: -M mps3-an547.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m55 -mthumb -mfloat-abi=hard)
set(LIMEN_QEMU_MACHINE mps3-an547)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/an547.ld)
add_compile_definitions(LM_PORT_CPU_HZ=32000000u)
include(${CMAKE_CURRENT_LIST_DIR}/../mps-tz/board.cmake)
