# SPDX-License-Identifier: Apache-2.0
# B-U585I-IOT02A Discovery kit: STM32U585AI, Cortex-M33 with FPU, 2 MiB
# flash, 768 KiB SRAM, TrustZone disabled (the kit's default: the core runs
# Non-secure), console on USART1 (STLINK-V3E virtual COM port). The Armv8-M
# port. Built here, not run here: see README.md in this folder.
set(LIMEN_CPU_FLAGS -mcpu=cortex-m33 -mthumb -mfpu=fpv5-sp-d16 -mfloat-abi=hard)
set(LIMEN_BOARD_DIR ${CMAKE_CURRENT_LIST_DIR})
set(LIMEN_BOARD_SOURCES ${CMAKE_CURRENT_LIST_DIR}/startup.c ${CMAKE_CURRENT_LIST_DIR}/console.c)
set(LIMEN_BOARD_LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/stm32u585ai.ld)
# The port's SysTick counts the core clock (HCLK = SYSCLK, startup.c).
add_compile_definitions(LM_PORT_CPU_HZ=160000000u)

# Each image also gets <target>.bin (for STM32CubeProgrammer or st-flash)
# and a target check_image_<target> that runs tools/check_image.py on it
# with this board's memory map.
function(limen_board_image_extras target)
  set(dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O binary $<TARGET_FILE:${target}>
            $<TARGET_FILE_DIR:${target}>/${target}.bin
    COMMENT "${target}.bin for the flash tools")
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_FOUND)
    string(REGEX REPLACE "nm$" "" prefix "${CMAKE_NM}")
    add_custom_target(check_image_${target}
      COMMAND Python3::Interpreter ${dir}/../../tools/check_image.py $<TARGET_FILE:${target}>
              --flash 0x08000000:2048K --ram 0x20000000:768K
              --irqs 125 --cpu-arch v8-M.mainline --hard-float
              --require lmp_stack_limit --require lmp_exc_return_thread
              --msplim __main_stack_bottom
              --bin $<TARGET_FILE_DIR:${target}>/${target}.bin --tool-prefix ${prefix}
      DEPENDS ${target}
      COMMENT "Checking the ${target} image for the B-U585I-IOT02A"
      VERBATIM)
  endif()
endfunction()

set(LIMEN_BOARD_PORT armv8m)
include(${CMAKE_CURRENT_LIST_DIR}/../common/board.cmake)
