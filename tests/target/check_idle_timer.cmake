# SPDX-License-Identifier: Apache-2.0
# LM_PORT_IDLE_TIMER (include/limen/port.h): on a port that ignores the
# next deadline (a periodic tick) the idle thread does not ask for it, and
# an image that does not ask itself (lm_tick_next_deadline) links no scan
# of the timeout wheel; the tickless idle thread asks.
# cmake -DOBJDUMP=<objdump> -DIMAGE=<elf> -DWANT=absent|called -P check_idle_timer.cmake
#   absent: lmk_idle_entry does not call lmk_ticks_to_next_event, and the
#           image does not contain it;
#   called: lmk_idle_entry calls it.
execute_process(COMMAND ${OBJDUMP} -d ${IMAGE} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "FAIL: ${OBJDUMP} -d ${IMAGE} exited with ${rc}")
endif()
# The idle thread's loop, from its label to the next function's.
string(FIND "${out}" "<lmk_idle_entry>:\n" at)
if(at LESS 0)
  message(FATAL_ERROR "FAIL: ${IMAGE} has no lmk_idle_entry")
endif()
string(SUBSTRING "${out}" ${at} -1 idle)
string(FIND "${idle}" "\n\n" end)
string(SUBSTRING "${idle}" 0 ${end} idle)
string(FIND "${idle}" "<lmk_ticks_to_next_event>" call)
string(FIND "${out}" "<lmk_ticks_to_next_event>:\n" defined)
if(WANT STREQUAL "called")
  if(call LESS 0)
    message(FATAL_ERROR "FAIL: the idle thread of ${IMAGE} does not ask for the next deadline")
  endif()
elseif(NOT call LESS 0 OR NOT defined LESS 0)
  message(FATAL_ERROR "FAIL: ${IMAGE} links the timeout wheel's scan (idle call at ${call}, definition at ${defined})")
endif()
message("${IMAGE}: lmk_ticks_to_next_event ${WANT}, as expected")
