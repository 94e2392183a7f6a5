# SPDX-License-Identifier: MIT
# GLSL compute shaders compiled at build time by glslangValidator into C
# headers holding the SPIR-V words:
#
#   swgpu_add_shaders(<target> <shader.comp>...)         (Vulkan 1.3)
#   swgpu_add_shaders_env(<target> <env> <shader.comp>...)
#
# compiles each <dir>/<name>.comp to ${CMAKE_CURRENT_BINARY_DIR}/shaders/
# <name>.spv.h declaring `const uint32_t <name>_spv[]` (dots and
# dashes in <name> become underscores), and adds that directory to
# <target>'s include path: #include "<name>.spv.h".
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)

function(swgpu_add_shaders target)
  swgpu_add_shaders_env(${target} vulkan1.3 ${ARGN})
endfunction()

# The same for another target environment, e.g. vulkan1.0 (SPIR-V 1.0)
# for programs written against Vulkan 1.0.
function(swgpu_add_shaders_env target env)
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  file(MAKE_DIRECTORY ${outdir})
  set(headers)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME_WE)
    string(REGEX REPLACE "[.-]" "_" var ${name})
    set(out ${outdir}/${name}.spv.h)
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${GLSLANG_VALIDATOR} -V --target-env ${env} --quiet
              --vn ${var}_spv -o ${out} ${abs}
      DEPENDS ${abs}
      COMMENT "glslang ${name}.comp"
      VERBATIM)
    list(APPEND headers ${out})
  endforeach()
  add_custom_target(${target}_shaders_${env} DEPENDS ${headers})
  add_dependencies(${target} ${target}_shaders_${env})
  target_include_directories(${target} PRIVATE ${outdir})
endfunction()

# SPIR-V written by hand (what GLSL cannot express, e.g. variable
# pointers):
#   swgpu_add_spvasm(<target> <env> <shader.spvasm>...)
# assembles each <name>.spvasm with spirv-as for <env> (e.g. spv1.4) into
# ${CMAKE_CURRENT_BINARY_DIR}/shaders/<name>.spv.h declaring
# `static const uint32_t <name>_spv[]`, validated by spirv-val for Vulkan
# 1.3 (SPIR-V up to 1.6).
find_program(SPIRV_AS spirv-as REQUIRED)
find_program(SPIRV_VAL spirv-val REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

function(swgpu_add_spvasm target env)
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  file(MAKE_DIRECTORY ${outdir})
  set(headers)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME_WE)
    string(REGEX REPLACE "[.-]" "_" var ${name})
    set(spv ${outdir}/${name}.spv)
    set(out ${outdir}/${name}.spv.h)
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${SPIRV_AS} --target-env ${env} -o ${spv} ${abs}
      COMMAND ${SPIRV_VAL} --target-env vulkan1.3 ${spv}
      COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/cmake/spv_header.py
              ${spv} ${out} ${var}_spv
      DEPENDS ${abs} ${PROJECT_SOURCE_DIR}/cmake/spv_header.py
      COMMENT "spirv-as ${name}.spvasm"
      VERBATIM)
    list(APPEND headers ${out})
  endforeach()
  add_custom_target(${target}_spvasm DEPENDS ${headers})
  add_dependencies(${target} ${target}_spvasm)
  target_include_directories(${target} PRIVATE ${outdir})
endfunction()
