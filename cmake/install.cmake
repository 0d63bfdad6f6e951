# SPDX-License-Identifier: Apache-2.0
# Install rules, included by the top-level CMakeLists.txt when FASTSM2_INSTALL
# is on (the default when fastsm2 is the top project):
#   lib/      libfastsm2.a, libfastsm2.so.<version> (SONAME libfastsm2.so.0)
#   include/  fastsm2.h
#   bin/      fastsm2 (FASTSM2_CLI) and fastsm2-speed (FASTSM2_BENCH: the
#             benchmark that `fastsm2 speed` runs; it links OpenSSL)
#   share/man/man1/fastsm2.1
#   lib/pkgconfig/fastsm2.pc
#   lib/cmake/fastsm2/  find_package(fastsm2): fastsm2::fastsm2, ::static, ::shared
# `cmake --install BUILD --prefix X` writes BUILD/install_manifest.txt; the
# uninstall target removes the files it lists.
include(CMakePackageConfigHelpers)

set(FS2_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/fastsm2)
set(FS2_PKGCONFIG_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS fastsm2_static fastsm2_shared EXPORT fastsm2Targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/fastsm2.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(FASTSM2_CLI)
  install(TARGETS fastsm2 RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/docs/fastsm2.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
if(TARGET fastsm2-speed)
  install(TARGETS fastsm2-speed RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# ---- CMake package ---------------------------------------------------------
install(EXPORT fastsm2Targets NAMESPACE fastsm2:: DESTINATION ${FS2_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/fastsm2Config.cmake.in
                              ${PROJECT_BINARY_DIR}/fastsm2Config.cmake
                              INSTALL_DESTINATION ${FS2_CMAKE_DIR})
# 0.x: a minor version may change the ABI (the SONAME follows it).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fastsm2ConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fastsm2Config.cmake ${PROJECT_BINARY_DIR}/fastsm2ConfigVersion.cmake
        DESTINATION ${FS2_CMAKE_DIR})

# ---- pkg-config ------------------------------------------------------------
# prefix is found from the .pc file's own place (${pcfiledir}), so the file
# is right whatever prefix `cmake --install --prefix` is given.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(FS2_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH FS2_PC_UP /fs2root/${FS2_PKGCONFIG_DIR} /fs2root)
  string(REGEX REPLACE "/$" "" FS2_PC_UP "${FS2_PC_UP}")
  set(FS2_PC_PREFIX "\${pcfiledir}/${FS2_PC_UP}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(FS2_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(FS2_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(FS2_PC_LIBS_PRIVATE "${CMAKE_THREAD_LIBS_INIT}")
if(FS2_WITH_CUDA)
  string(APPEND FS2_PC_LIBS_PRIVATE " -lcudart_static -ldl -lrt")
endif()
configure_file(${PROJECT_SOURCE_DIR}/fastsm2.pc.in ${PROJECT_BINARY_DIR}/fastsm2.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/fastsm2.pc DESTINATION ${FS2_PKGCONFIG_DIR})

# ---- uninstall --------------------------------------------------------------
if(FS2_TOP AND NOT TARGET uninstall)
  add_custom_target(uninstall
    COMMAND ${CMAKE_COMMAND} -DMANIFEST=${PROJECT_BINARY_DIR}/install_manifest.txt
            -P ${PROJECT_SOURCE_DIR}/cmake/uninstall.cmake
    COMMENT "Removing the files listed in install_manifest.txt")
endif()
