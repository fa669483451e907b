# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 with the AN385 image (Cortex-M3), running the Armv6-M port built
# for a Cortex-M0: an Armv7-M core executes Armv6-M code, so the full target
# suite runs on the Armv6-M build where memory is plentiful. The suite runs
# with unaligned accesses trapping (LMT_TRAP_UNALIGNED, tests/target/support.c):
# an Armv6-M core faults on them, a Cortex-M3 would not say.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
set(LIMEN_QEMU_MACHINE mps2-an385)
set(LIMEN_BOARD_PORT armv6m)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2/board.cmake)
