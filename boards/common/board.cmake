# SPDX-License-Identifier: Apache-2.0
# What the CMake of every board shares (Cortex-M, its port, newlib-nano).
# A board's board.cmake sets
#   LIMEN_CPU_FLAGS            compiler flags for its core (-mcpu, FPU, float ABI)
#   LIMEN_BOARD_DIR            its folder: board.h and its other headers
#   LIMEN_BOARD_SOURCES        its own C files: vector table and Reset_Handler,
#                              console, timestamp, exit, clocks
#   LIMEN_BOARD_LINKER_SCRIPT  its linker script
# and then includes this file. If it needs more, it defines either of
#   limen_board_library_extras(<board library>)  e.g. private definitions
#   limen_board_image_extras(<target>)           e.g. a .bin and image checks
# before the first call of limen_board_library().
# A board on another port sets LIMEN_BOARD_PORT first (the Armv6-M and Armv8-M boards).
if(NOT LIMEN_BOARD_PORT)
  set(LIMEN_BOARD_PORT armv7m)
endif()
set(LIMEN_PORT ${LIMEN_BOARD_PORT} CACHE STRING "" FORCE)
set(LIMEN_BOARD_COMMON_DIR ${CMAKE_CURRENT_LIST_DIR})
# nano.specs at compile time too: it puts newlib-nano's headers first, so
# that structures shared with the library (struct _reent, FILE) have the
# layout libc_nano.a was built with (newlib's full headers differ).
add_compile_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -ffunction-sections -fdata-sections)
add_link_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -nostartfiles
  -Wl,--gc-sections -T${LIMEN_BOARD_LINKER_SCRIPT})
# Read by limen_board_image() wherever it is called, and by the install.
set_property(GLOBAL PROPERTY LIMEN_LINKER_SCRIPT ${LIMEN_BOARD_LINKER_SCRIPT})

# newlib's system calls: an OBJECT library that limen_board_image() links
# into every image itself (newlib_syscalls.c says why). They do not depend
# on the kernel configuration, so one serves every board library.
add_library(limen_board_syscalls OBJECT ${CMAKE_CURRENT_LIST_DIR}/newlib_syscalls.c)
target_include_directories(limen_board_syscalls PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_compile_options(limen_board_syscalls PRIVATE ${LIMEN_WARNINGS})

# limen_board_library([<name> <kernel>]): the board's own code and the
# shared start-up steps (reset.c), linked into every image. The default is
# limen_board on the kernel `limen`; an image built on another kernel
# configuration (limen_add_kernel_config) gets its own board library, so
# that only one kernel is linked into it.
function(limen_board_library)
  set(name limen_board)
  set(kernel limen)
  if(ARGC GREATER_EQUAL 2)
    set(name ${ARGV0})
    set(kernel ${ARGV1})
  endif()
  set(common ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_library(${name} STATIC ${LIMEN_BOARD_SOURCES} ${common}/reset.c)
  target_include_directories(${name} PUBLIC ${LIMEN_BOARD_DIR} ${common})
  target_link_libraries(${name} PUBLIC ${kernel})
  target_compile_options(${name} PRIVATE ${LIMEN_WARNINGS})
  if(COMMAND limen_board_library_extras)
    limen_board_library_extras(${name})
  endif()
endfunction()

# limen_board_image(<target> [<board library>]): an executable linked for
# the board, <target>.elf. It reads nothing from the directory scope, so a
# project that adds Limen as a subdirectory can call it too.
function(limen_board_image target)
  set(board limen_board)
  if(ARGC GREATER_EQUAL 2)
    set(board ${ARGV1})
  endif()
  # The system calls are linked here, by the image itself: an OBJECT
  # library's objects reach only the targets that link it directly.
  target_link_libraries(${target} PRIVATE ${board} limen_board_syscalls)
  get_property(script GLOBAL PROPERTY LIMEN_LINKER_SCRIPT)
  set_target_properties(${target} PROPERTIES LINK_DEPENDS ${script} SUFFIX .elf)
  if(COMMAND limen_board_image_extras)
    limen_board_image_extras(${target})
  endif()
endfunction()
