# SPDX-License-Identifier: Apache-2.0
# The same tests against other kernel configurations: argument checks and
# asserts compiled out (production), and 1024 priorities (two-level bitmaps).
# Only tests that do not exercise argument checking run without checks.
limen_add_kernel_config(limen_nochecks LM_CFG_ARG_CHECKS=0 LM_CFG_ASSERT=0)
limen_add_kernel_config(limen_p1024 LM_CFG_PRIORITIES=1024)
limen_add_kernel_config(limen_errhook LM_CFG_ERROR_HOOK=1)
limen_add_kernel_config(limen_trace LM_CFG_TRACE=1)

# limen_test_variant(<kernel> <suffix> <test names...>)
function(limen_test_variant kernel suffix)
  add_library(lmt_harness_${suffix} STATIC harness.c)
  target_link_libraries(lmt_harness_${suffix} PUBLIC ${kernel})
  target_compile_options(lmt_harness_${suffix} PRIVATE ${LIMEN_WARNINGS})
  add_library(pc_scenario_${suffix} STATIC ${PROJECT_SOURCE_DIR}/examples/producer_consumer/pc.c)
  target_include_directories(pc_scenario_${suffix} PUBLIC ${PROJECT_SOURCE_DIR}/examples/producer_consumer)
  target_link_libraries(pc_scenario_${suffix} PUBLIC ${kernel})
  foreach(t ${ARGN})
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${t}.c)
      add_executable(${t}_${suffix} ${t}.c)
      target_link_libraries(${t}_${suffix} PRIVATE lmt_harness_${suffix} pc_scenario_${suffix})
      target_include_directories(${t}_${suffix} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
      target_compile_options(${t}_${suffix} PRIVATE ${LIMEN_WARNINGS})
      add_test(NAME ${t}_${suffix} COMMAND ${t}_${suffix})
      set_tests_properties(${t}_${suffix} PROPERTIES TIMEOUT ${LIMEN_TEST_TIMEOUT})
    endif()
  endforeach()
endfunction()

limen_test_variant(limen_nochecks nochecks test_producer_consumer test_sched test_timeslice
                   test_bad_input)
limen_test_variant(limen_p1024 p1024 test_producer_consumer test_sched test_timeslice test_sem
                   test_mutex test_queue test_timeout test_bad_input)
# With the error hook the kernel makes the argument checks the public headers
# otherwise make inline (docs/errors.md, "Where the checks run"): the same
# refusals either way.
limen_test_variant(limen_errhook errhook test_error_hook test_bad_input)
# The recorder's own test, and rule tests on the kernel with the recorder
# compiled in (not started): the hooks change no behaviour.
limen_test_variant(limen_trace trace test_trace test_sched test_timeslice test_sem test_queue
                   test_mutex test_flags test_pool test_timer test_thread test_producer_consumer)
# Per-thread CPU time (LM_CFG_STATS_CPU_TIME): the statistics' own test and
# rule tests on the kernel that reads the timestamp at every switch.
limen_add_kernel_config(limen_cputime LM_CFG_STATS_CPU_TIME=1)
limen_test_variant(limen_cputime cputime test_stats test_sched test_timeslice)
# Unbounded inversions counted by the kernel (LM_CFG_STATS_INVERSIONS),
# with the recorder compiled in: the statistics' own test, test_trace's
# inversions trace (tools/tests compares its analysis with the kernel's
# count), and the rule tests that change mutexes' waiters, owners and
# priorities every way the count follows.
limen_add_kernel_config(limen_inv LM_CFG_STATS_INVERSIONS=1 LM_CFG_TRACE=1)
limen_test_variant(limen_inv inv test_stats test_trace test_mutex test_thread test_races
                   test_coverage)
# White-box: test_stats' reference count reads wait queues.
target_include_directories(test_stats_inv PRIVATE ${PROJECT_SOURCE_DIR}/kernel/include)
target_include_directories(test_races_inv PRIVATE ${PROJECT_SOURCE_DIR}/kernel/include)

# Compact wait queues (LM_CFG_WAIT_QUEUE_COMPACT, kernel/waitq.c) at 32
# priorities (where the table is the default) and at 64 (where compact is):
# the rule tests, the model and the order-against-a-reference test on each.
limen_add_kernel_config(limen_wqc32 LM_CFG_WAIT_QUEUE_COMPACT=1)
limen_add_kernel_config(limen_wqc64 LM_CFG_PRIORITIES=64)
limen_add_kernel_config(limen_wqt64 LM_CFG_PRIORITIES=64 LM_CFG_WAIT_QUEUE_COMPACT=0)
set(LIMEN_WAITQ_TESTS test_waitq test_sched test_timeslice test_sem test_mutex test_queue
    test_pool test_flags test_timer test_thread test_timeout test_isr test_races
    test_invariants test_producer_consumer test_bad_input test_kcheck test_sleep_until)
limen_test_variant(limen_wqc32 wqc32 ${LIMEN_WAITQ_TESTS})
limen_test_variant(limen_wqc64 wqc64 ${LIMEN_WAITQ_TESTS})
limen_test_variant(limen_wqt64 wqt64 test_waitq)
foreach(v wqc32 wqc64 wqt64)
  foreach(t test_waitq test_races test_invariants test_kcheck)
    if(TARGET ${t}_${v})
      target_include_directories(${t}_${v} PRIVATE ${PROJECT_SOURCE_DIR}/kernel/include)
    endif()
  endforeach()
  if(TARGET test_kcheck_${v})
    target_sources(test_kcheck_${v} PRIVATE kcheck.c)
  endif()
endforeach()

# The kernel compiled for size (-Os, as `limen size` builds it): a few paths
# take another form there (__OPTIMIZE_SIZE__: the timeout runs of both kinds
# in one copy, kernel/timeout.c; the hand-over's preemption called, not
# inlined, kernel/include/lmk.h). The tests that reach them.
limen_add_kernel(limen_os -Os)
limen_test_variant(limen_os os test_timeout test_races test_isr test_queue test_sem test_pool
                   test_producer_consumer)
target_include_directories(test_races_os PRIVATE ${PROJECT_SOURCE_DIR}/kernel/include)
