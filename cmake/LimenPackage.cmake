# SPDX-License-Identifier: Apache-2.0
# Using Limen from another CMake project, and installing it (included at the
# end of the top-level CMakeLists.txt, after the kernel and board targets
# exist). Two ways, described in examples/external-app/README.md:
#
#   add_subdirectory(<limen>)   the targets limen (alias limen::limen) and,
#                               with a board, limen_board (alias limen::board)
#                               and limen_board_syscalls (limen::board_syscalls)
#   find_package(limen)         the same as imported targets limen::limen,
#                               limen::board and limen::board_syscalls from
#                               `cmake --install` of a build
#
# A build of Limen is for one port (or board) and one kernel configuration:
# control blocks are laid out from the configuration, so the kernel and the
# application must agree on it. The usage requirements below carry both:
# the board's compiler and linker flags and the LM_CONFIG_HEADER definition.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(LIMEN_INSTALL "Generate install and export rules for Limen" ${PROJECT_IS_TOP_LEVEL})

set(LIMEN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/limen)
set(LIMEN_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/limen)

# ---- the board's (or the sanitizers') flags as usage requirements ----
# board.cmake and LIMEN_SANITIZE set them for this directory only; whatever
# links Limen from elsewhere needs the same (CPU and float ABI, linker script,
# sanitizer runtime). In-tree targets already have them, so the build
# interface gets them only when Limen is a subproject.
get_property(_lm_linker_script GLOBAL PROPERTY LIMEN_LINKER_SCRIPT)
get_directory_property(_lm_copts COMPILE_OPTIONS)
get_directory_property(_lm_defs COMPILE_DEFINITIONS)
get_directory_property(_lm_lopts LINK_OPTIONS)
# _lm_interface_add(<list> <build value> <installed value>): one flag for the
# install interface and, in a subproject, for the build interface.
function(_lm_interface_add list build installed)
  set(values ${${list}} "$<INSTALL_INTERFACE:${installed}>")
  if(NOT PROJECT_IS_TOP_LEVEL)
    list(APPEND values "$<BUILD_INTERFACE:${build}>")
  endif()
  set(${list} "${values}" PARENT_SCOPE)
endfunction()
set(_lm_iface_copts)
set(_lm_iface_defs)
set(_lm_iface_lopts)
foreach(o IN LISTS _lm_copts)
  _lm_interface_add(_lm_iface_copts "${o}" "${o}")
endforeach()
foreach(d IN LISTS _lm_defs)
  _lm_interface_add(_lm_iface_defs "${d}" "${d}")
endforeach()
foreach(o IN LISTS _lm_lopts)
  set(installed ${o})
  if(o MATCHES "^-T(.+)$")
    # The linker script is installed next to the package.
    get_filename_component(name "${CMAKE_MATCH_1}" NAME)
    set(installed "-T$<INSTALL_PREFIX>/${LIMEN_INSTALL_DATADIR}/${name}")
    if(NOT _lm_linker_script)
      set(_lm_linker_script ${CMAKE_MATCH_1})
    endif()
  endif()
  _lm_interface_add(_lm_iface_lopts "${o}" "${installed}")
endforeach()
target_compile_options(limen INTERFACE ${_lm_iface_copts})
target_compile_definitions(limen INTERFACE ${_lm_iface_defs})
target_link_options(limen INTERFACE ${_lm_iface_lopts})

# ---- the configuration header ----
# In the build tree LM_CONFIG_HEADER names the header as given (an absolute
# path, or a name on the include path). An install copies the header to
# include/limen_config/ and names that copy instead.
set(_lm_cfg_file "")
set(_lm_cfg_install_name "")
if(LIMEN_CONFIG_HEADER)
  foreach(candidate ${LIMEN_CONFIG_HEADER} ${CMAKE_SOURCE_DIR}/${LIMEN_CONFIG_HEADER}
          ${PROJECT_SOURCE_DIR}/${LIMEN_CONFIG_HEADER})
    if(NOT _lm_cfg_file AND IS_ABSOLUTE "${candidate}" AND EXISTS "${candidate}"
       AND NOT IS_DIRECTORY "${candidate}")
      set(_lm_cfg_file ${candidate})
    endif()
  endforeach()
  if(_lm_cfg_file)
    get_filename_component(_lm_cfg_name ${_lm_cfg_file} NAME)
    set(_lm_cfg_install_name limen_config/${_lm_cfg_name})
    get_target_property(defs limen INTERFACE_COMPILE_DEFINITIONS)
    set(fixed)
    foreach(d IN LISTS defs)
      if(d STREQUAL "LM_CONFIG_HEADER=\"${LIMEN_CONFIG_HEADER}\"")
        list(APPEND fixed "$<BUILD_INTERFACE:${d}>"
             "$<INSTALL_INTERFACE:LM_CONFIG_HEADER=\"${_lm_cfg_install_name}\">")
      else()
        list(APPEND fixed "${d}")
      endif()
    endforeach()
    set_property(TARGET limen PROPERTY INTERFACE_COMPILE_DEFINITIONS "${fixed}")
  elseif(LIMEN_INSTALL)
    message(STATUS "limen: LIMEN_CONFIG_HEADER ${LIMEN_CONFIG_HEADER} is not a file here; "
            "an installed Limen expects it on the application's include path")
  endif()
endif()

# ---- the board library ----
if(TARGET limen_board)
  add_library(limen::board ALIAS limen_board)
  set_target_properties(limen_board PROPERTIES EXPORT_NAME board)
  # Its headers (board.h, ...) are installed to include/limen_board.
  get_target_property(incs limen_board INTERFACE_INCLUDE_DIRECTORIES)
  set(fixed)
  foreach(i IN LISTS incs)
    if(i MATCHES "^\\$<")
      list(APPEND fixed "${i}")
    else()
      list(APPEND fixed "$<BUILD_INTERFACE:${i}>")
    endif()
  endforeach()
  list(APPEND fixed "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/limen_board>")
  set_property(TARGET limen_board PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${fixed}")
  # newlib's system calls, an object file limen_board_image() links into
  # every image (boards/common/newlib_syscalls.c).
  add_library(limen::board_syscalls ALIAS limen_board_syscalls)
  set_target_properties(limen_board_syscalls PROPERTIES EXPORT_NAME board_syscalls)
endif()

# ---- the CMSIS-RTOS2 layer (compat/cmsis-rtos2) ----
set_target_properties(limen_cmsis_rtos2 PROPERTIES EXPORT_NAME cmsis_rtos2)

# A parent project calling limen_board_image() (board.cmake) needs what that
# function reads from the directory scope.
if(NOT PROJECT_IS_TOP_LEVEL)
  foreach(v LIMEN_ROOT LIMEN_BOARD_DIR LIMEN_CPU_FLAGS LIMEN_QEMU_MACHINE LIMEN_WARNINGS)
    set(${v} "${${v}}" PARENT_SCOPE)
  endforeach()
endif()

if(NOT LIMEN_INSTALL)
  return()
endif()

# ---- install ----
set(_lm_targets limen limen_cmsis_rtos2)
if(TARGET limen_board)
  list(APPEND _lm_targets limen_board limen_board_syscalls)
endif()
install(TARGETS ${_lm_targets} EXPORT limenTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/limen)
install(DIRECTORY ${LIMEN_ROOT}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${LIMEN_PORT_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${LIMEN_ROOT}/compat/cmsis-rtos2/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cmsis-rtos2)
if(_lm_cfg_file)
  install(FILES ${_lm_cfg_file} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/limen_config)
  file(SHA256 ${_lm_cfg_file} _lm_cfg_sha256)
else()
  set(_lm_cfg_sha256 "")
endif()
set(_lm_linker_script_name "")
if(TARGET limen_board)
  # board.h includes board_services.h, the declarations every board shares.
  file(GLOB _lm_board_headers ${LIMEN_BOARD_DIR}/*.h)
  list(APPEND _lm_board_headers ${LIMEN_BOARD_COMMON_DIR}/board_services.h)
  install(FILES ${_lm_board_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/limen_board)
  if(_lm_linker_script)
    install(FILES ${_lm_linker_script} DESTINATION ${LIMEN_INSTALL_DATADIR})
    get_filename_component(_lm_linker_script_name ${_lm_linker_script} NAME)
  endif()
  install(FILES ${LIMEN_ROOT}/cmake/arm-none-eabi.cmake DESTINATION ${LIMEN_INSTALL_DATADIR})
endif()
install(EXPORT limenTargets NAMESPACE limen:: DESTINATION ${LIMEN_INSTALL_CMAKEDIR})

# Values limenConfig.cmake records (see cmake/limenConfig.cmake.in).
set(LIMEN_PACKAGE_PORT ${LIMEN_PORT})
set(LIMEN_PACKAGE_BOARD ${LIMEN_BOARD})
set(LIMEN_PACKAGE_QEMU_MACHINE "${LIMEN_QEMU_MACHINE}")
set(LIMEN_PACKAGE_CONFIG_HEADER "${_lm_cfg_install_name}")
if(LIMEN_CONFIG_HEADER AND NOT _lm_cfg_file)
  set(LIMEN_PACKAGE_CONFIG_HEADER "${LIMEN_CONFIG_HEADER}") # on the user's include path
endif()
set(LIMEN_PACKAGE_CONFIG_SHA256 "${_lm_cfg_sha256}")
set(LIMEN_PACKAGE_SANITIZE ${LIMEN_SANITIZE})
set(LIMEN_PACKAGE_LINKER_SCRIPT "${_lm_linker_script_name}")
set(LIMEN_PACKAGE_DATADIR ${LIMEN_INSTALL_DATADIR})
configure_package_config_file(${LIMEN_ROOT}/cmake/limenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/limenConfig.cmake
  INSTALL_DESTINATION ${LIMEN_INSTALL_CMAKEDIR}
  PATH_VARS LIMEN_PACKAGE_DATADIR)
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/limenConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/limenConfig.cmake
  ${PROJECT_BINARY_DIR}/limenConfigVersion.cmake
  DESTINATION ${LIMEN_INSTALL_CMAKEDIR})
