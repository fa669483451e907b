# SPDX-License-Identifier: Apache-2.0
# Armv7-M port (included by the top-level CMakeLists). newlib.c compiles to
# nothing unless LM_CFG_NEWLIB is 1; fault.c holds the fault handlers' dump
# and the optional MPU stack guard. port.c alone (with kernel/*.c) is a
# complete port: the stack checks and the fatal report are there.
set(LIMEN_PORT_SOURCES ${CMAKE_CURRENT_LIST_DIR}/port.c ${CMAKE_CURRENT_LIST_DIR}/newlib.c
    ${CMAKE_CURRENT_LIST_DIR}/fault.c ${CMAKE_CURRENT_LIST_DIR}/trace.c)
