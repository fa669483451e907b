# SPDX-License-Identifier: Apache-2.0
# BBC micro:bit (v1): nRF51822, Cortex-M0 at 16 MHz, 256 KiB of flash and
# 16 KiB of RAM. QEMU: -M microbit. The Armv6-M port, ticked by the
# nRF51's TIMER1 (the nRF51 has no SysTick, LM_PORT_BOARD_TICK).
set(LIMEN_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
set(LIMEN_QEMU_MACHINE microbit)
set(LIMEN_BOARD_PORT armv6m)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/startup.c ${CMAKE_CURRENT_LIST_DIR}/console.c)
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/nrf51822.ld)
# The port's configuration, for the kernel and everything that includes it.
add_compile_definitions(LM_PORT_BOARD_TICK=1 LM_PORT_CPU_HZ=16000000u)
# The target tests' harness in 16 KiB: 9 threads of 736 bytes, a 1 KiB trace
# (tests/harness.h); docs/porting.md lists the tests that do not fit.
set(LIMEN_TEST_DEFINITIONS LMT_MAX_THREADS=9 LMT_STACK_BYTES=736u LMT_TRACE_BYTES=1024u)
include(${CMAKE_CURRENT_LIST_DIR}/../common/board.cmake)
# The images 16 KiB cannot hold (docs/porting.md): the CMSIS-RTOS2 layer's
# tests and example (2 KiB stacks, 64 priorities), the bad-input test (its
# objects), the scheduling test (20 threads at once), the recorder's demo
# (its buffer), and the interrupt sweep (4 KiB of PCs, and the MPS2 dual
# timer it places interrupts with). All of them run on mps2-an385-v6m, the
# same Armv6-M build with more memory.
set(LIMEN_BOARD_SKIP test_bad_input test_cmsis_rtos2 test_cmsis_rtos2_p32 test_cmsis_cost
    test_sched test_sweep cmsis_rtos2_app producer_consumer_trace
    producer_consumer_live)
