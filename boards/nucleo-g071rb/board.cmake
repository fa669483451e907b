# SPDX-License-Identifier: Apache-2.0
# NUCLEO-G071RB: STM32G071RB, Cortex-M0+ at 64 MHz (HSI16 and the PLL),
# 128 KiB flash, 36 KiB SRAM, console on USART2 (ST-LINK virtual COM port).
# The Armv6-M port with SysTick. Built here, not run here: see README.md.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m0plus -mthumb -mfloat-abi=soft)
set(LIMEN_BOARD_PORT armv6m)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/startup.c ${CMAKE_CURRENT_LIST_DIR}/console.c)
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/stm32g071rb.ld)
# The port's SysTick counts the core clock (HCLK = SYSCLK, startup.c).
add_compile_definitions(LM_PORT_CPU_HZ=64000000u STM32G0_SYSCLK_HZ=64000000u)

# Each image also gets <target>.bin (for st-flash) and a target
# check_image_<target> that runs tools/check_image.py on it with this
# board's memory map and Armv6-M's vector table.
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
              --flash 0x08000000:128K --ram 0x20000000:36K --irqs 32 --cpu-arch v6S-M
              --armv6m --require lm_armv6m_ctz --require __ctzsi2
              --bin $<TARGET_FILE_DIR:${target}>/${target}.bin --tool-prefix ${prefix}
      DEPENDS ${target}
      COMMENT "Checking the ${target} image for the NUCLEO-G071RB"
      VERBATIM)
  endif()
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/../common/board.cmake)
