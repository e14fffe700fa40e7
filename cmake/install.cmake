# Where clgrade's files go, in the build folder and installed (harness/util/install_layout.h reads the
# same layout back at run time; nothing in the binary names a source or build path):
#
#   <prefix>/bin/clgrade                      a link to ../lib/clgrade/clgrade
#   <prefix>/lib/clgrade/                     clgrade, libclgrade_oclgrind.so, oclgrind-icd/ (the tools folder)
#   <prefix>/share/clgrade/                   rubrics/, reference/kernels/, reference/naive/, kernels_template/
#   <prefix>/lib/cmake/clgrade/               clgradeConfig.cmake, its version file, clgrade.cmake
#
# The tools go into lib/clgrade, not lib/<multiarch>: the data folder is found two levels above them.
# In the build folder the tools sit in its top and share/clgrade holds links into the source folder,
# so an edited rubric or reference kernel is used without configuring again (a build folder is not
# relocatable; an installed prefix and an unpacked .deb are).
include(CMakePackageConfigHelpers)

set(clgrade_build_data ${PROJECT_BINARY_DIR}/share/clgrade)
file(MAKE_DIRECTORY ${clgrade_build_data}/reference)
foreach(folder rubrics kernels_template reference/kernels reference/naive)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${clgrade_build_data}/${folder} SYMBOLIC)
endforeach()

# Installing and packaging are the top-level project's: a course's project that pulls clgrade in with
# FetchContent gets no clgrade files in its own install or package unless it asks (CLGRADE_INSTALL).
option(CLGRADE_INSTALL "install() rules and the CPack package for clgrade" ${clgrade_top_level})
if(NOT CLGRADE_INSTALL)
  return()
endif()

set(CLGRADE_INSTALL_TOOLS_DIR lib/clgrade)
set(CLGRADE_INSTALL_DATA_DIR share/clgrade)
set(CLGRADE_INSTALL_CMAKE_DIR lib/cmake/clgrade)

install(TARGETS clgrade RUNTIME DESTINATION ${CLGRADE_INSTALL_TOOLS_DIR})
if(TARGET clgrade_oclgrind)
  install(TARGETS clgrade_oclgrind LIBRARY DESTINATION ${CLGRADE_INSTALL_TOOLS_DIR})
  install(FILES ${CLGRADE_OCLGRIND_ICD_DIR}/oclgrind.icd DESTINATION ${CLGRADE_INSTALL_TOOLS_DIR}/oclgrind-icd)
endif()
# bin/clgrade links to the tools folder's executable: /proc/self/exe then names lib/clgrade/clgrade,
# beside its plugin. Relative, so a moved prefix (or an unpacked .deb) keeps working.
install(CODE [[
  file(MAKE_DIRECTORY "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/bin")
  file(CREATE_LINK ../lib/clgrade/clgrade "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/bin/clgrade" SYMBOLIC)
]])
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rubrics ${PROJECT_SOURCE_DIR}/kernels_template
        DESTINATION ${CLGRADE_INSTALL_DATA_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/reference/kernels ${PROJECT_SOURCE_DIR}/reference/naive
        DESTINATION ${CLGRADE_INSTALL_DATA_DIR}/reference)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/clgradeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/clgradeConfig.cmake
                              INSTALL_DESTINATION ${CLGRADE_INSTALL_CMAKE_DIR}
                              PATH_VARS CLGRADE_INSTALL_DATA_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/clgradeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/clgradeConfig.cmake ${PROJECT_BINARY_DIR}/clgradeConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/clgrade.cmake
        DESTINATION ${CLGRADE_INSTALL_CMAKE_DIR})

# `cpack -G DEB` in the build folder: clgrade_<version>_<arch>.deb, installed under /usr. Its
# dependencies come from dpkg-shlibdeps (package dpkg-dev) on the libraries the binary and the plugin
# link; the sandbox (bwrap) and the devices are named here.
set(CPACK_PACKAGE_NAME clgrade)
set(CPACK_PACKAGE_VENDOR "clgrade")
set(CPACK_PACKAGE_CONTACT "clgrade maintainers <clgrade@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Grades the OpenCL image-convolution assignment: correctness, technique, speed")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "bubblewrap")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd, oclgrind, similarity-tester")
set(CPACK_STRIP_FILES ON)
include(CPack)
