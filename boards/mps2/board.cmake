# Shared by the MPS2 boards. The board's own board.cmake sets LIMEN_CPU_FLAGS
# and LIMEN_QEMU_MACHINE first.
set(LIMEN_PORT armv7m CACHE STRING "" FORCE)
# nano.specs at compile time too: it puts newlib-nano's headers first, so
# that structures shared with the library (struct _reent, FILE) have the
# layout libc_nano.a was built with (newlib's full headers differ).
add_compile_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -ffunction-sections -fdata-sections)
add_link_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -nostartfiles
  -Wl,--gc-sections -T${CMAKE_CURRENT_LIST_DIR}/mps2.ld)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})

# limen_board_library([<name> <kernel>]): startup and console, linked into
# every image. The default is limen_board on the kernel `limen`; an image
# built on another kernel configuration (limen_add_kernel_config) gets its
# own board library, so that only one kernel is linked into it.
function(limen_board_library)
  set(name limen_board)
  set(kernel limen)
  if(ARGC GREATER_EQUAL 2)
    set(name ${ARGV0})
    set(kernel ${ARGV1})
  endif()
  add_library(${name} STATIC ${LIMEN_BOARD_DIR}/startup.c ${LIMEN_BOARD_DIR}/console.c)
  target_include_directories(${name} PUBLIC ${LIMEN_BOARD_DIR})
  target_link_libraries(${name} PUBLIC ${kernel})
  # Relink images when the linker script changes.
  set_property(GLOBAL PROPERTY LIMEN_LINKER_SCRIPT ${LIMEN_BOARD_DIR}/mps2.ld)
endfunction()

# limen_board_image(<target> [<board library>]): an executable linked for
# this board.
function(limen_board_image target)
  set(board limen_board)
  if(ARGC GREATER_EQUAL 2)
    set(board ${ARGV1})
  endif()
  target_link_libraries(${target} PRIVATE ${board})
  set_target_properties(${target} PROPERTIES LINK_DEPENDS ${LIMEN_BOARD_DIR}/mps2.ld SUFFIX .elf)
endfunction()
