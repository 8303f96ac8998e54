# gen_metal.cmake -- translates each SPIR-V kernel to Metal Shading
# Language with spirv-cross, for the Metal backend (section 6 of
# DESIGN.md). Binding layout the Metal host relies on: push constants at
# buffer(0), storage buffer `binding = N` at buffer(N) (decoration
# bindings, argument buffers off), entry point named after the kernel.
#
#   cmake -DSPIRV_CROSS=... -DSPV_DIR=... -DKERNELS=a,b -DOUT_DIR=...
#         [-DCHECK_DIR=committed/dir] -P gen_metal.cmake
#
# Kernels that use float64 cannot be translated (MSL has no double); they
# are listed in OUT_DIR/UNTRANSLATED.txt with spirv-cross's reason. With
# CHECK_DIR the result is compared with the committed files instead.
if(CHECK_DIR)
  file(REMOVE_RECURSE ${OUT_DIR})
endif()
file(MAKE_DIRECTORY ${OUT_DIR})
set(untranslated "# Kernels spirv-cross could not translate to MSL; they need a\n# float64-free variant before the Metal backend can use them.\n")
string(REPLACE "," ";" KERNELS "${KERNELS}")
foreach(k ${KERNELS})
  execute_process(
    COMMAND ${SPIRV_CROSS} --msl --msl-version 20100 --msl-decoration-binding
            --rename-entry-point main ${k} comp
            --output ${OUT_DIR}/${k}.metal ${SPV_DIR}/${k}.spv
    RESULT_VARIABLE rv ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rv EQUAL 0)
    file(REMOVE ${OUT_DIR}/${k}.metal)
    string(STRIP "${err}" err)
    string(APPEND untranslated "${k}: ${err}\n")
  endif()
endforeach()
file(WRITE ${OUT_DIR}/UNTRANSLATED.txt "${untranslated}")

if(CHECK_DIR)
  file(GLOB fresh RELATIVE ${OUT_DIR} ${OUT_DIR}/*)
  file(GLOB committed RELATIVE ${CHECK_DIR} ${CHECK_DIR}/*)
  set(stale "")
  foreach(f ${fresh} ${committed})
    if(NOT EXISTS ${CHECK_DIR}/${f} OR NOT EXISTS ${OUT_DIR}/${f})
      list(APPEND stale ${f})
    else()
      execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT_DIR}/${f} ${CHECK_DIR}/${f}
                      RESULT_VARIABLE same)
      if(NOT same EQUAL 0)
        list(APPEND stale ${f})
      endif()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES stale)
  if(stale)
    message(FATAL_ERROR "src/backend/metal/generated is out of date (${stale}); "
            "regenerate with: cmake --build <build> --target gpulayer_metal_sources")
  endif()
  message(STATUS "src/backend/metal/generated matches the kernels")
endif()
