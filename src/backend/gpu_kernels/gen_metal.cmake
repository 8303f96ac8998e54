# gen_metal.cmake -- translates each SPIR-V kernel to Metal Shading
# Language with spirv-cross, for the Metal backend (ADR 0002,
# docs/adr/0002-metal-backend.md). Binding layout the Metal host relies on:
# push constants at buffer(0), storage buffer `binding = N` at buffer(N)
# (decoration bindings, argument buffers off), entry point named after the
# kernel.
#
#   cmake -DSPIRV_CROSS=... -DSPV_DIR=... -DKERNELS=a,b [-DSOFT_KERNELS=a]
#         -DOUT_DIR=... [-DCHECK_DIR=committed/dir] -P gen_metal.cmake
#
# MSL has no double: a kernel in SOFT_KERNELS is translated from its
# float64-free variant NAME_soft.spv (double arithmetic on 64-bit
# integers), which needs MSL 2.2 for 64-bit integers; the others from
# NAME.spv at MSL 2.1. A kernel spirv-cross cannot translate is listed in
# OUT_DIR/UNTRANSLATED.txt with spirv-cross's reason (no such file when all
# translate). With CHECK_DIR the result is compared with the committed
# files instead.
if(CHECK_DIR)
  file(REMOVE_RECURSE ${OUT_DIR})
endif()
file(MAKE_DIRECTORY ${OUT_DIR})
set(untranslated "")
string(REPLACE "," ";" KERNELS "${KERNELS}")
string(REPLACE "," ";" SOFT_KERNELS "${SOFT_KERNELS}")
foreach(k ${KERNELS})
  set(spv ${SPV_DIR}/${k}.spv)
  set(msl_version 20100)
  list(FIND SOFT_KERNELS ${k} soft_index)
  if(soft_index GREATER -1)
    set(spv ${SPV_DIR}/${k}_soft.spv)
    set(msl_version 20200)
  endif()
  execute_process(
    COMMAND ${SPIRV_CROSS} --msl --msl-version ${msl_version} --msl-decoration-binding
            --rename-entry-point main ${k} comp
            --output ${OUT_DIR}/${k}.metal ${spv}
    RESULT_VARIABLE rv ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rv EQUAL 0)
    file(REMOVE ${OUT_DIR}/${k}.metal)
    string(STRIP "${err}" err)
    string(APPEND untranslated "${k}: ${err}\n")
  endif()
endforeach()
if(untranslated)
  file(WRITE ${OUT_DIR}/UNTRANSLATED.txt
       "# Kernels spirv-cross could not translate to MSL; the Metal backend\n"
       "# cannot use them until they can be.\n${untranslated}")
else()
  file(REMOVE ${OUT_DIR}/UNTRANSLATED.txt)
endif()

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
