# SPDX-License-Identifier: Apache-2.0
# Runs a fault image (test_fault.c built with FAULT_NO_HOOK) and checks its
# output: the dump names the exception and the thread, its PC is the
# address the image printed before faulting, the fault registers say
# "undefined instruction, escalated", and the kernel's default report
# follows. cmake -DCMD=<qemu command and image, a list> -P check_fault_dump.cmake
execute_process(COMMAND ${CMD} OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
message("${out}${err}")
set(hex "0x[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]")
if(NOT out MATCHES "expected PC (${hex})\n")
  message(FATAL_ERROR "FAIL: the image did not print the expected PC")
endif()
set(expected_pc ${CMAKE_MATCH_1})
if(NOT out MATCHES "limen: HardFault in thread faulter\n  PC (${hex}) LR ${hex} xPSR (${hex})\n")
  message(FATAL_ERROR "FAIL: no dump of the frame")
endif()
set(pc ${CMAKE_MATCH_1})
set(xpsr ${CMAKE_MATCH_2})
if(NOT pc STREQUAL expected_pc)
  message(FATAL_ERROR "FAIL: the dump's PC ${pc} is not the faulting instruction ${expected_pc}")
endif()
# Thread mode: the stacked xPSR's exception number is 0, the Thumb bit set.
math(EXPR t_and_exception "${xpsr} & 0x010001FF" OUTPUT_FORMAT HEXADECIMAL)
if(NOT t_and_exception STREQUAL "0x1000000")
  message(FATAL_ERROR "FAIL: stacked xPSR ${xpsr} is not a thread's")
endif()
# UNDEFINSTR (CFSR bit 16), FORCED (HFSR bit 30); no address was valid.
if(NOT out MATCHES "\n  CFSR 0x00010000 HFSR 0x40000000 MMFAR ${hex} BFAR ${hex}\n")
  message(FATAL_ERROR "FAIL: fault status registers not as an undefined instruction leaves them")
endif()
if(NOT out MATCHES "\nlimen: fatal error LM_FATAL_FAULT at HardFault, thread faulter\n")
  message(FATAL_ERROR "FAIL: no default fatal report after the dump")
endif()
message("ok: dump PC ${pc} = faulting instruction, CFSR/HFSR, default report")
