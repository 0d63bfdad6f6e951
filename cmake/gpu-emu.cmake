# SPDX-License-Identifier: Apache-2.0
# FASTSM2_CUDA=EMU (docs/GPU.md, `make test-gpu-emu`): the whole GPU backend,
# src/gpu/cuda/sm2_gpu_kernels.cu included, compiled by the host C++ compiler against
# the emulated CUDA runtime of tests/gpu/emu/ (kernels run as host loops). No
# nvcc, no GPU, no download. For tests only: a library built this way signs
# on the CPU through the GPU code path, slowly.
#
# FASTSM2_GPU_CHUNK: items per chunk of a batch (default: the backend's
# 2^20; the emulator's tests use a small one so that batches span chunks).
enable_language(CXX)
set(FS2_WITH_CUDA_EMU ON)
target_sources(fastsm2_obj PRIVATE ${PROJECT_SOURCE_DIR}/tests/gpu/emu/sm2_gpu_kernels_emu.cpp)
# FS2_GPU_EMU_KERNEL_FLAGS: extra flags for the emulated kernels alone (the
# ASan + UBSan run of tests/harness/test-gpu-emu.sh gives -O1 to its Debug
# build: the same checks, several times faster than -O0).
set(FS2_GPU_EMU_KERNEL_FLAGS "" CACHE STRING "Extra compiler flags for the emulated GPU kernels (FASTSM2_CUDA=EMU)")
if(FS2_GPU_EMU_KERNEL_FLAGS)
  separate_arguments(fs2_emu_flags UNIX_COMMAND "${FS2_GPU_EMU_KERNEL_FLAGS}")
  set_source_files_properties(${PROJECT_SOURCE_DIR}/tests/gpu/emu/sm2_gpu_kernels_emu.cpp PROPERTIES COMPILE_OPTIONS "${fs2_emu_flags}")
endif()
target_compile_definitions(fastsm2_obj PRIVATE FASTSM2_WITH_CUDA=1 FS2G_CHUNK_ITEMS=${FASTSM2_GPU_CHUNK}
                           $<$<COMPILE_LANGUAGE:CXX>:FS2G_EMU=1>)
target_include_directories(fastsm2_obj PRIVATE ${PROJECT_SOURCE_DIR}/tests/gpu/emu ${PROJECT_SOURCE_DIR}/src/gpu/cuda)
set_target_properties(fastsm2_obj PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_VISIBILITY_PRESET hidden)
# no C++ runtime in the library (as with nvcc): it stays linkable as C
target_compile_options(fastsm2_obj PRIVATE
  $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -fno-threadsafe-statics -Wall -Wextra>)
message(STATUS "fastsm2: CUDA backend EMULATED on the host (tests/gpu/emu; chunk ${FASTSM2_GPU_CHUNK} items)")
