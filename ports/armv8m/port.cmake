# SPDX-License-Identifier: Apache-2.0
# Armv8-M Mainline port (Cortex-M33, M35P, M55, M85): the Armv7-M port's
# sources and headers, with the differences behind LM_PORT_ARMV8M (defined
# here for every target, the application's included): the stack limit
# registers in stack_limit.c, the security state in security.c. The kernel and the install see the Armv7-M
# folder as the port folder: its headers are the port's headers.
include(${CMAKE_CURRENT_LIST_DIR}/../armv7m/port.cmake)
set(LIMEN_PORT_DIR ${LIMEN_ROOT}/ports/armv7m)
list(APPEND LIMEN_PORT_SOURCES ${CMAKE_CURRENT_LIST_DIR}/stack_limit.c
     ${CMAKE_CURRENT_LIST_DIR}/security.c)
add_compile_definitions(LM_PORT_ARMV8M=1)
