# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/host-asan/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[test_producer_consumer]=] "/work/main/build/host-asan/tests/test_producer_consumer")
set_tests_properties([=[test_producer_consumer]=] PROPERTIES  ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0;UBSAN_OPTIONS=print_stacktrace=1" TIMEOUT "60" _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;15;add_test;/work/main/tests/CMakeLists.txt;23;limen_test;/work/main/tests/CMakeLists.txt;0;")
