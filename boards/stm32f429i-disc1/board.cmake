# SPDX-License-Identifier: Apache-2.0
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

set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/startup.c ${CMAKE_CURRENT_LIST_DIR}/console.c
    ${CMAKE_CURRENT_LIST_DIR}/clock.c)
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/stm32f429zi.ld)
# The port's SysTick counts the core clock (HCLK = SYSCLK, clock.c).
add_compile_definitions(LM_PORT_CPU_HZ=${LIMEN_STM32_SYSCLK_MHZ}000000u
                        STM32_SYSCLK_HZ=${LIMEN_STM32_SYSCLK_MHZ}000000u)

function(limen_board_library_extras board)
  if(LIMEN_STM32_HSE_BYPASS)
    target_compile_definitions(${board} PRIVATE STM32_HSE_BYPASS_FIRST)
  endif()
endfunction()

# Each image also gets <target>.bin (for st-flash) and a target
# check_image_<target> that runs tools/check_image.py on it with this
# board's memory map. Paths come from this file's location, so a project
# that adds Limen as a subdirectory gets them too.
function(limen_board_image_extras target)
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
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

include(${CMAKE_CURRENT_LIST_DIR}/../common/board.cmake)
