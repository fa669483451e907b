# SPDX-License-Identifier: Apache-2.0
# Hosted port: sources and settings (included by the top-level CMakeLists).
set(LIMEN_PORT_SOURCES ${CMAKE_CURRENT_LIST_DIR}/port.c ${CMAKE_CURRENT_LIST_DIR}/trace.c)
