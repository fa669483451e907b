# STM32F429I-DISC1 (32F429IDISCOVERY): STM32F429ZI, Cortex-M4F, 2 MiB flash,
# 192 KiB SRAM + 64 KiB CCM, 8 MHz HSE, console on USART1 (ST-LINK virtual
# COM port). Built here, not run here: see README.md in this folder.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)

set(LIMEN_STM32_SYSCLK_MHZ 84 CACHE STRING "Core clock in MHz: 84 (default) or 168")
set_property(CACHE LIMEN_STM32_SYSCLK_MHZ PROPERTY STRINGS 84 168)
if(NOT LIMEN_STM32_SYSCLK_MHZ MATCHES "^(84|168)$")
  message(FATAL_ERROR "LIMEN_STM32_SYSCLK_MHZ must be 84 or 168, not ${LIMEN_STM32_SYSCLK_MHZ}")
endif()
option(LIMEN_STM32_HSE_BYPASS
  "Try the HSE as an external clock (ST-LINK MCO) before trying it as a crystal" OFF)

set(LIMEN_PORT armv7m CACHE STRING "" FORCE)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
# nano.specs when compiling too: newlib-nano's headers give the structures
# shared with libc_nano.a (struct _reent, FILE) the layout it was built with.
add_compile_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -ffunction-sections -fdata-sections)
# The port's SysTick counts the core clock (HCLK = SYSCLK, clock.c).
add_compile_definitions(LM_PORT_CPU_HZ=${LIMEN_STM32_SYSCLK_MHZ}000000u
                        STM32_SYSCLK_HZ=${LIMEN_STM32_SYSCLK_MHZ}000000u)
add_link_options(${LIMEN_CPU_FLAGS} --specs=nano.specs -nostartfiles
  -Wl,--gc-sections -T${CMAKE_CURRENT_LIST_DIR}/stm32f429zi.ld)

# limen_board_library([<name> <kernel>]): start-up, clocks and console,
# linked into every image; by default limen_board on the kernel `limen`
# (another kernel configuration gets its own board library, as on MPS2).
function(limen_board_library)
  set(name limen_board)
  set(kernel limen)
  if(ARGC GREATER_EQUAL 2)
    set(name ${ARGV0})
    set(kernel ${ARGV1})
  endif()
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_library(${name} STATIC ${dir}/startup.c ${dir}/console.c ${dir}/clock.c)
  target_include_directories(${name} PUBLIC ${dir})
  target_link_libraries(${name} PUBLIC ${kernel})
  target_compile_options(${name} PRIVATE ${LIMEN_WARNINGS})
  if(LIMEN_STM32_HSE_BYPASS)
    target_compile_definitions(${name} PRIVATE STM32_HSE_BYPASS_FIRST)
  endif()
  set_property(GLOBAL PROPERTY LIMEN_LINKER_SCRIPT ${dir}/stm32f429zi.ld)
endfunction()

# limen_board_image(<target> [<board library>]): an executable linked for
# this board, plus <target>.bin (for st-flash) and a target
# check_image_<target> that runs tools/check_image.py on it with this board's
# memory map. Paths come from this file's location, so a project that adds
# Limen as a subdirectory can call it too.
function(limen_board_image target)
  set(board limen_board)
  if(ARGC GREATER_EQUAL 2)
    set(board ${ARGV1})
  endif()
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  target_link_libraries(${target} PRIVATE ${board})
  set_target_properties(${target} PROPERTIES LINK_DEPENDS ${dir}/stm32f429zi.ld SUFFIX .elf)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O binary $<TARGET_FILE:${target}>
            $<TARGET_FILE_DIR:${target}>/${target}.bin
    COMMENT "${target}.bin for st-flash")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_FOUND)
    string(REGEX REPLACE "nm$" "" prefix "${CMAKE_NM}")
    add_custom_target(check_image_${target}
      COMMAND Python3::Interpreter ${dir}/../../tools/check_image.py $<TARGET_FILE:${target}>
              --flash 0x08000000:2048K --ram 0x20000000:192K --extra-ram 0x10000000:64K
              --irqs 91 --cpu-arch v7E-M --hard-float
              --bin $<TARGET_FILE_DIR:${target}>/${target}.bin --tool-prefix ${prefix}
      DEPENDS ${target}
      COMMENT "Checking the ${target} image for the STM32F429I-DISC1"
      VERBATIM)
  endif()
endfunction()
