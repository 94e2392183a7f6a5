# SPDX-License-Identifier: MIT
# swgpu_sanitizer_timeouts(): called at the end of a test directory's
# CMakeLists. Sanitizer builds run 5-15x slower and CI runs them two tests
# at a time on two cores, so each test's hang bound (TIMEOUT) is tripled
# there: TSan runs at load 7 passed the 120 s of swgpu_gfx_depth and
# swgpu_shader_jit_flow while still making progress. Every wait inside a
# test stays bounded on its own. (set_tests_properties reaches only the
# calling directory's tests, hence one call per directory.)
function(swgpu_sanitizer_timeouts)
  if(NOT (SWGPU_TSAN OR SWGPU_ASAN))
    return()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    get_test_property(${t} TIMEOUT to)
    if(to)
      math(EXPR to "${to} * 3")
      set_tests_properties(${t} PROPERTIES TIMEOUT ${to})
    endif()
  endforeach()
endfunction()
