# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 with the AN386 image: Cortex-M4F. QEMU: -M mps2-an386.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
set(LIMEN_QEMU_MACHINE mps2-an386)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2/board.cmake)
