# The plugin for the other LLVM majors installed here. A clang-tidy plugin
# loads only into the major it was built against, so each of them is a build
# of its own of the check library (this source tree, configured with
# LIBTORCH_TIDY_PLUGIN_ONLY) in <build>/llvm-<major>/, giving
# <build>/llvm-<major>/lib/LibTorchTidy.so. The check tests run their plugin
# variants through each (test/check_libtorch_tidy.py); the package installs
# them (cmake/Package.cmake).
#
# LIBTORCH_TIDY_OTHER_PLUGIN_MAJORS names them; left unset, it is every other
# supported major whose clang-tidy and development files are installed.
include(ExternalProject)

if(NOT DEFINED LIBTORCH_TIDY_OTHER_PLUGIN_MAJORS)
  set(found "")
  foreach(major IN LISTS LIBTORCH_TIDY_SUPPORTED_LLVM_MAJORS)
    if(NOT major EQUAL LLVM_VERSION_MAJOR
       AND EXISTS /usr/lib/llvm-${major}/lib/cmake/clang/ClangConfig.cmake
       AND EXISTS /usr/lib/llvm-${major}/include/clang-tidy/ClangTidyCheck.h
       AND EXISTS /usr/lib/llvm-${major}/bin/clang-tidy)
      list(APPEND found ${major})
    endif()
  endforeach()
  set(LIBTORCH_TIDY_OTHER_PLUGIN_MAJORS "${found}" CACHE STRING
      "Other LLVM majors to build the clang-tidy plugin for")
endif()

set(LIBTORCH_TIDY_OTHER_PLUGINS "")
foreach(major IN LISTS LIBTORCH_TIDY_OTHER_PLUGIN_MAJORS)
  set(dir ${CMAKE_BINARY_DIR}/llvm-${major})
  ExternalProject_Add(LibTorchTidyPlugin${major}
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${dir}
    CMAKE_GENERATOR ${CMAKE_GENERATOR}
    CMAKE_ARGS -DLIBTORCH_TIDY_LLVM_MAJOR=${major}
               -DLIBTORCH_TIDY_PLUGIN_ONLY=ON
               -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
               -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
               -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}
               -DLIBTORCH_TIDY_PCH=${LIBTORCH_TIDY_PCH}
               -DLIBTORCH_TIDY_UNITY=${LIBTORCH_TIDY_UNITY}
               -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
    BUILD_COMMAND ${CMAKE_COMMAND} --build ${dir} --target LibTorchTidyPlugin
    # The checks' sources are this tree's: its build decides what is stale.
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS ${dir}/lib/LibTorchTidy.so
    USES_TERMINAL_BUILD ON)
  list(APPEND LIBTORCH_TIDY_OTHER_PLUGINS
       "{\"major\": ${major}, \"clang_tidy\": \"/usr/lib/llvm-${major}/bin/clang-tidy\", \"plugin\": \"${dir}/lib/LibTorchTidy.so\"}")
  install(FILES ${dir}/lib/LibTorchTidy.so
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/libtorch-tidy/llvm-${major})
endforeach()
list(JOIN LIBTORCH_TIDY_OTHER_PLUGINS ", " LIBTORCH_TIDY_OTHER_PLUGINS_JSON)
set(LIBTORCH_TIDY_OTHER_PLUGINS_JSON "[${LIBTORCH_TIDY_OTHER_PLUGINS_JSON}]")
