# The kernel family the Vulkan and the Metal backends share: GLSL compute
# kernels (shaders/), their host-side interface (gpu_kernel_abi.h) and the
# translation of their SPIR-V to Metal (gen_metal.cmake, whose output is
# committed under src/backend/metal/generated). Included by
# src/backend/vulkan/CMakeLists.txt (which compiles the SPIR-V and embeds
# it) and src/backend/metal/CMakeLists.txt (which compiles the generated
# Metal sources).
set(GPL_GPU_KERNELS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(gpl_gpu_shader_dir ${GPL_GPU_KERNELS_DIR}/shaders)
# Every kernel, compiled to SPIR-V (and translated to Metal).
set(gpl_gpu_kernels gradients quantize rows_init histogram hist_reduce hist_subtract
    split_eval partition_count partition_scan partition_scatter partition_place update_margins
    predict histogram_rows bins_columns margins_split split_table hist_reduce_nodes
    hist_subtract_nodes rank_order rank_map rank_pairs rank_finish shap cox)
# Float64-free variants of the kernels that compute in double: the same
# source with GPL_SOFT_F64 (IEEE binary64 in integer arithmetic, the same
# bits), embedded as NAME_soft; used on devices without shaderFloat64 and
# translated to Metal in place of the float64 kernels.
set(gpl_gpu_soft_kernels gradients quantize split_eval rank_order rank_map rank_pairs
    rank_finish shap cox)
# The kernels the Metal host uses (their generated sources are compiled on
# Apple; docs/vulkan.md lists the others).
set(gpl_metal_kernels gradients quantize rows_init histogram_rows bins_columns hist_reduce
    hist_subtract split_eval partition_place update_margins
    hist_reduce_nodes hist_subtract_nodes split_eval_level)

# SPIR-V of every kernel into spv_dir with glslang: NAME.spv, NAME_soft.spv
# of the soft kernels and split_eval_level(_soft).spv (split_eval.comp with
# GPL_LEVEL_TABLE: the search of a level's nodes in one dispatch; its
# float64-free variant is translated to Metal). Sets in the caller's scope:
# gpl_gpu_spvs (every .spv), gpl_gpu_kernel_csv and gpl_gpu_soft_csv (the
# lists comma-separated: a ';' would split a script's argument) and
# gpl_gpu_embed_csv (",NAME_soft,..." of the variants to embed besides).
function(gpl_gpu_kernels_spirv glslang spv_dir)
  file(GLOB includes ${gpl_gpu_shader_dir}/*.glsl)
  file(MAKE_DIRECTORY ${spv_dir})
  set(spvs "")
  foreach(k ${gpl_gpu_kernels})
    add_custom_command(
      OUTPUT ${spv_dir}/${k}.spv
      COMMAND ${glslang} -V --target-env vulkan1.1 --quiet
              -o ${spv_dir}/${k}.spv ${gpl_gpu_shader_dir}/${k}.comp
      DEPENDS ${gpl_gpu_shader_dir}/${k}.comp ${includes}
      COMMENT "SPIR-V kernel ${k}"
      VERBATIM)
    list(APPEND spvs ${spv_dir}/${k}.spv)
  endforeach()
  set(embed_csv "")
  foreach(k ${gpl_gpu_soft_kernels})
    add_custom_command(
      OUTPUT ${spv_dir}/${k}_soft.spv
      COMMAND ${glslang} -V --target-env vulkan1.1 --quiet -DGPL_SOFT_F64
              -o ${spv_dir}/${k}_soft.spv ${gpl_gpu_shader_dir}/${k}.comp
      DEPENDS ${gpl_gpu_shader_dir}/${k}.comp ${includes}
      COMMENT "SPIR-V kernel ${k} (soft float64)"
      VERBATIM)
    list(APPEND spvs ${spv_dir}/${k}_soft.spv)
    string(APPEND embed_csv ",${k}_soft")
  endforeach()
  foreach(v level level_soft)
    set(defs -DGPL_LEVEL_TABLE)
    if(v STREQUAL "level_soft")
      list(APPEND defs -DGPL_SOFT_F64)
    endif()
    add_custom_command(
      OUTPUT ${spv_dir}/split_eval_${v}.spv
      COMMAND ${glslang} -V --target-env vulkan1.1 --quiet ${defs}
              -o ${spv_dir}/split_eval_${v}.spv ${gpl_gpu_shader_dir}/split_eval.comp
      DEPENDS ${gpl_gpu_shader_dir}/split_eval.comp ${includes}
      COMMENT "SPIR-V kernel split_eval_${v}"
      VERBATIM)
    list(APPEND spvs ${spv_dir}/split_eval_${v}.spv)
    string(APPEND embed_csv ",split_eval_${v}")
  endforeach()
  string(REPLACE ";" "," kernel_csv "${gpl_gpu_kernels}")
  string(REPLACE ";" "," soft_csv "${gpl_gpu_soft_kernels}")
  set(gpl_gpu_spvs ${spvs} PARENT_SCOPE)
  set(gpl_gpu_kernel_csv ${kernel_csv} PARENT_SCOPE)
  set(gpl_gpu_soft_csv ${soft_csv} PARENT_SCOPE)
  set(gpl_gpu_embed_csv ${embed_csv} PARENT_SCOPE)
endfunction()

# The Metal sources from the SPIR-V of gpl_gpu_kernels_spirv, with
# spirv-cross: target gpulayer_metal_sources rewrites the committed
# src/backend/metal/generated; test vulkan_metal_sources_current (with
# tests) translates into the build tree and compares byte for byte.
function(gpl_gpu_kernels_metal_sources spirv_cross spv_dir)
  set(metal_dir ${GPL_GPU_KERNELS_DIR}/../metal/generated)
  # split_eval_level is split_eval.comp with GPL_LEVEL_TABLE: translated
  # from split_eval_level_soft.spv, as split_eval from its soft variant.
  set(args -DSPIRV_CROSS=${spirv_cross} -DSPV_DIR=${spv_dir}
      -DKERNELS=${gpl_gpu_kernel_csv},split_eval_level
      -DSOFT_KERNELS=${gpl_gpu_soft_csv},split_eval_level)
  add_custom_target(gpulayer_metal_sources
    COMMAND ${CMAKE_COMMAND} ${args} -DOUT_DIR=${metal_dir}
            -P ${GPL_GPU_KERNELS_DIR}/gen_metal.cmake
    DEPENDS ${gpl_gpu_spvs}
    COMMENT "Translating the kernels to Metal (src/backend/metal/generated)"
    VERBATIM)
  if(GPULAYER_BUILD_TESTS)
    # The caller's directory has enabled testing (enable_testing in a
    # function would not last beyond it).
    add_test(NAME vulkan_metal_sources_current
      COMMAND ${CMAKE_COMMAND} ${args}
              -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/metal-check
              -DCHECK_DIR=${metal_dir}
              -P ${GPL_GPU_KERNELS_DIR}/gen_metal.cmake)
  endif()
endfunction()
