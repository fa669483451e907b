# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 with the AN500 image: Cortex-M7. QEMU: -M mps2-an500.
# LM_PORT_CORTEX_M7 turns on the port's workaround for erratum 837070
# (docs/porting.md).
set(LIMEN_CPU_FLAGS -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard)
set(LIMEN_QEMU_MACHINE mps2-an500)
add_compile_definitions(LM_PORT_CORTEX_M7=1)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2/board.cmake)
