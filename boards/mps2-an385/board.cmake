# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 with the AN385 image: Cortex-M3. QEMU: -M mps2-an385.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
set(LIMEN_QEMU_MACHINE mps2-an385)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2/board.cmake)
