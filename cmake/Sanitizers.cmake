# Two build configurations for hostile input (README, "Sanitizers and
# fuzzing"), each in its own build directory:
#
#   -DLIBTORCH_TIDY_SANITIZE=ON  ASan + UBSan on everything that links LLVM:
#       the check library, the CLI, the plugin and the unit tests. The lit
#       suite runs the CLI instrumented, and runs the plugin inside the stock
#       (uninstrumented) clang-tidy with the ASan runtime preloaded.
#   -DLIBTORCH_TIDY_FUZZ=ON      the libFuzzer target test/fuzz (the clang++
#       of the build's LLVM major only): the check library instrumented for coverage, ASan and UBSan.
#
# Clang and LLVM themselves stay uninstrumented (Debian's libraries): the
# reports are about our code and what it does with theirs.

option(LIBTORCH_TIDY_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(LIBTORCH_TIDY_FUZZ "Build the libFuzzer target test/fuzz (needs the clang++ of the LLVM major)" OFF)

if(LIBTORCH_TIDY_SANITIZE AND LIBTORCH_TIDY_FUZZ)
  message(FATAL_ERROR "LIBTORCH_TIDY_SANITIZE and LIBTORCH_TIDY_FUZZ need separate build directories")
endif()

# The sanitizer flags travel with the check library to everything that
# links it (CLI, unit tests, fuzzer); the parts of the check module below it
# (its analysis layers) and the driver's layers, not all of which link it,
# get them each; the plugin gets them itself.
function(libtorch_tidy_instrument sanitizers)
  set(flags -fsanitize=${sanitizers} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_compile_options(LibTorchTidyChecks PUBLIC ${flags})
  get_property(parts GLOBAL PROPERTY LIBTORCH_TIDY_CHECK_PARTS)
  foreach(part ${parts})
    target_compile_options(${part} PRIVATE ${flags})
  endforeach()
  get_property(layers GLOBAL PROPERTY LIBTORCH_TIDY_DRIVER_LAYERS)
  foreach(layer ${layers})
    target_compile_options(${layer} PRIVATE ${flags})
  endforeach()
  target_link_options(LibTorchTidyChecks INTERFACE ${flags})
  target_link_options(LibTorchTidyPlugin PRIVATE ${flags})
endfunction()

if(LIBTORCH_TIDY_SANITIZE)
  libtorch_tidy_instrument(address,undefined)
  # The runtime a stock clang-tidy must preload to load the instrumented
  # plugin ("ASan runtime does not come first in initial library list").
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(asan_runtime_name libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so)
    # A shared object built by clang does not link the runtime by default.
    target_link_options(LibTorchTidyPlugin PRIVATE -shared-libasan)
  else()
    set(asan_runtime_name libasan.so)
  endif()
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${asan_runtime_name}
    OUTPUT_VARIABLE asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(asan_runtime "${asan_runtime}" REALPATH)
  if(NOT EXISTS "${asan_runtime}")
    message(FATAL_ERROR "ASan runtime ${asan_runtime_name} not found by ${CMAKE_CXX_COMPILER}")
  endif()
  set(LIBTORCH_TIDY_ASAN_RUNTIME "${asan_runtime}" CACHE INTERNAL "")
  message(STATUS "libtorch-tidy: ASan+UBSan build; the plugin tests preload ${asan_runtime}")
endif()

if(LIBTORCH_TIDY_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang"
     OR NOT CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL LLVM_VERSION_MAJOR
     OR NOT CMAKE_CXX_COMPILER_VERSION VERSION_LESS ${LLVM_VERSION_MAJOR}.99)
    message(FATAL_ERROR "LIBTORCH_TIDY_FUZZ needs clang ${LLVM_VERSION_MAJOR} (libFuzzer): "
                        "configure a separate build directory with "
                        "-DCMAKE_CXX_COMPILER=clang++-${LLVM_VERSION_MAJOR} "
                        "-DCMAKE_C_COMPILER=clang-${LLVM_VERSION_MAJOR} (found "
                        "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION})")
  endif()
  libtorch_tidy_instrument(fuzzer-no-link,address,undefined)
  add_subdirectory(test/fuzz)
endif()
