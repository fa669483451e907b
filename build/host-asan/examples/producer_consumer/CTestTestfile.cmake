# CMake generated Testfile for 
# Source directory: /work/main/examples/producer_consumer
# Build directory: /work/main/build/host-asan/examples/producer_consumer
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
