# The Debian package (scripts/package runs cpack with this configuration):
# build/package/libtorch-tidy_<version>_<arch>.deb with everything that
# `cmake --install` installs, under /usr: the CLI, the plugin, the clang-tidy
# wrapper, the verify harness and probe, the docs and the man page.
#
# Depends: the shared libraries the CLI, the plugin and the harness link, as
# dpkg-shlibdeps finds them when cpack runs (cmake/CPackDepends.cmake.in;
# the LLVM major's libllvmN and libclang-cppN among them), and
# libclang-common-N-dev, which holds clang's builtin headers (<stddef.h>)
# that the CLI needs to parse anything (driver/ResourceDir.cpp), and the C++
# standard library headers (libstdc++-12-dev | libstdc++-dev), as clang-N.
# Recommends: clang-tidy-N, the clang-tidy that loads the plugin.
# Suggests: libtorch-dev: the verify probe links LibTorch, and `verify` builds
# the measured program with it; it is left out of the dependencies of the
# probe so that installing the analyzer does not pull in LibTorch.

# The man page, compressed as Debian installs man pages.
set(LIBTORCH_TIDY_MAN_PAGE ${CMAKE_CURRENT_BINARY_DIR}/man/libtorch-tidy.1.gz)
add_custom_command(
  OUTPUT ${LIBTORCH_TIDY_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/docs/man/libtorch-tidy.1
          ${CMAKE_CURRENT_BINARY_DIR}/man/libtorch-tidy.1
  COMMAND gzip -9nf ${CMAKE_CURRENT_BINARY_DIR}/man/libtorch-tidy.1
  DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/libtorch-tidy.1
  COMMENT "Compressing the man page" VERBATIM)
add_custom_target(LibTorchTidyManPage ALL DEPENDS ${LIBTORCH_TIDY_MAN_PAGE})
install(FILES ${LIBTORCH_TIDY_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(LIBTORCH_TIDY_PACKAGE_MAINTAINER
    "libtorch-tidy developers <maintainers@libtorch-tidy.invalid>"
    CACHE STRING "The Maintainer of the Debian package")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME libtorch-tidy)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR libtorch-tidy)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "LibTorch GPU-utilization checks: a clang-tidy-${LLVM_VERSION_MAJOR} plugin and a CLI")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "libtorch-tidy finds the code in LibTorch (PyTorch C++ API) training
programs that leaves a GPU idle: data loaders without worker threads,
per-step host syncs, tensors and modules that never reach the device,
broken gradient accumulation, evaluation without NoGradGuard, and more.
It ships the libtorch-tidy CLI (clang-tidy's flags and configuration, CI
exit codes, SARIF for GitHub code scanning), the LibTorchTidy.so plugin
for clang-tidy-${LLVM_VERSION_MAJOR} (and one for each other supported LLVM
major it was built with), a clang-tidy wrapper that loads it, and
`libtorch-tidy verify`, which measures what each finding costs at run
time.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LIBTORCH_TIDY_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${LIBTORCH_TIDY_INFORMATION_URI}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-tidy-${LIBTORCH_TIDY_LLVM_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libtorch-dev")
# Read by cpack: computes Depends from the built programs.
set(LIBTORCH_TIDY_PACKAGED_PROGRAMS
    ${CMAKE_INSTALL_BINDIR}/$<TARGET_FILE_NAME:libtorch-tidy>
    ${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:LibTorchTidyPlugin>
    ${CMAKE_INSTALL_BINDIR}/$<TARGET_FILE_NAME:libtorch-tidy-verify>)
configure_file(${CMAKE_CURRENT_LIST_DIR}/CPackDepends.cmake.in
               ${CMAKE_BINARY_DIR}/CPackDepends.cmake.in @ONLY)
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/CPackDepends.cmake
     INPUT ${CMAKE_BINARY_DIR}/CPackDepends.cmake.in)
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/CPackDepends.cmake)
include(CPack)
