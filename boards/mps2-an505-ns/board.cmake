# SPDX-License-Identifier: Apache-2.0
# Arm MPS2 with the AN505 image (Cortex-M33), Limen in the Non-secure
# state: a small Secure firmware (secure_boot.c) makes memory, peripherals
# and interrupts Non-secure and branches to the Non-secure image, which is
# the mps2-an505 board at Non-secure addresses. QEMU: -M mps2-an505.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard)
set(LIMEN_QEMU_MACHINE mps2-an505)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/an505-ns.ld)
set(LIMEN_BOARD_EXTRA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/secure_boot.c)
set(LIMEN_BOARD_TIMERS ON) # the SSE-200's CMSDK timers, made Non-secure
add_compile_definitions(LM_PORT_CPU_HZ=20000000u)
# Nothing of the Non-secure image refers to the Secure firmware: every
# image asks for it, so that the linker takes it from the board library.
add_link_options(-Wl,--undefined=lm_secure_boot)
include(${CMAKE_CURRENT_LIST_DIR}/../mps-tz/board.cmake)
