# SPDX-License-Identifier: Apache-2.0
# Armv6-M port (included by the top-level CMakeLists): port.c is the switch,
# the lock, the tick and the stack checks; fault.c the HardFault report;
# bitscan.c the bit scan the kernel's priority sets use (no CLZ here).
set(LIMEN_PORT_SOURCES ${CMAKE_CURRENT_LIST_DIR}/port.c ${CMAKE_CURRENT_LIST_DIR}/fault.c
    ${CMAKE_CURRENT_LIST_DIR}/bitscan.c)
