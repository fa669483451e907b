# Arm MPS2 with the AN500 image: Cortex-M7. QEMU: -M mps2-an500.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard)
set(LIMEN_QEMU_MACHINE mps2-an500)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2/board.cmake)
