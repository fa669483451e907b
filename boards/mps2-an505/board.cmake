# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 with the AN505 image: Cortex-M33 with FPU and the Security
# Extension (SSE-200 subsystem). QEMU: -M mps2-an505.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard)
set(LIMEN_QEMU_MACHINE mps2-an505)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/an505.ld)
add_compile_definitions(LM_PORT_CPU_HZ=20000000u)
include(${CMAKE_CURRENT_LIST_DIR}/../mps-tz/board.cmake)
