# SPDX-License-Identifier: Apache-2.0
# Seed 002's suite (seed002/, `./limen bench seed002`), included by
# bench/CMakeLists.txt inside its loop over configurations (${cfg}): the
# periodicity images (10 and 100 ms, with and without a load) and the FFT
# application. Context switch and interrupt-to-thread latency are measure
# 2's and 3's images (apps/m2_yield.c, apps/m3_irq.c).
set(S2_DIR ${CMAKE_CURRENT_SOURCE_DIR}/seed002)
set_source_files_properties(${S2_DIR}/s2_args.c ${S2_DIR}/s2_fft.c
    PROPERTIES COMPILE_OPTIONS "${BENCH_WARNINGS}")
foreach(period 10 100)
    foreach(load 0 1)
        bench_image(${cfg} s2_period_p${period}_l${load} ../seed002/s2_period.c
                    PERIOD=${period}u LOAD=${load})
        target_sources(${cfg}-s2_period_p${period}_l${load} PRIVATE ${S2_DIR}/s2_args.c)
        target_include_directories(${cfg}-s2_period_p${period}_l${load} PRIVATE ${S2_DIR})
    endforeach()
endforeach()
bench_image(${cfg} s2_fft ../seed002/s2_fft_app.c)
target_sources(${cfg}-s2_fft PRIVATE ${S2_DIR}/s2_args.c ${S2_DIR}/s2_fft.c)
target_include_directories(${cfg}-s2_fft PRIVATE ${S2_DIR})
target_link_libraries(${cfg}-s2_fft PRIVATE m)
