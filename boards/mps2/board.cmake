# Shared by the MPS2 boards. The board's own board.cmake sets LIMEN_CPU_FLAGS
# and LIMEN_QEMU_MACHINE first.
set(LIMEN_PORT armv7m CACHE STRING "" FORCE)
add_compile_options(${LIMEN_CPU_FLAGS} -ffunction-sections -fdata-sections)
add_link_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -nostartfiles
  -Wl,--gc-sections -T${CMAKE_CURRENT_LIST_DIR}/mps2.ld)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})

# limen_board_library(): startup and console, linked into every image.
function(limen_board_library)
  add_library(limen_board STATIC ${LIMEN_BOARD_DIR}/startup.c ${LIMEN_BOARD_DIR}/console.c)
  target_include_directories(limen_board PUBLIC ${LIMEN_BOARD_DIR})
  target_link_libraries(limen_board PUBLIC limen)
  # Relink images when the linker script changes.
  set_property(GLOBAL PROPERTY LIMEN_LINKER_SCRIPT ${LIMEN_BOARD_DIR}/mps2.ld)
endfunction()

# limen_board_image(<target>): an executable linked for this board.
function(limen_board_image target)
  target_link_libraries(${target} PRIVATE limen_board)
  set_target_properties(${target} PROPERTIES LINK_DEPENDS ${LIMEN_BOARD_DIR}/mps2.ld SUFFIX .elf)
endfunction()
