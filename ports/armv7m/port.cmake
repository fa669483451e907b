# Armv7-M port (included by the top-level CMakeLists).
set(LIMEN_PORT_SOURCES ${CMAKE_CURRENT_LIST_DIR}/port.c)
