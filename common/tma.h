/* SPDX-License-Identifier: MIT */
/*
 * tma.h - a tensor map for the Tensor Memory Accelerator, made for a
 * submission.
 *
 * A Hopper kernel that loads with the TMA (cp.async.bulk.tensor) reads
 * its global memory through a CUtensorMap, a 128-byte descriptor made on
 * the host by the driver's cuTensorMapEncodeTiled. A submission may call
 * neither the driver API nor cudaGetDriverEntryPoint (the grader rejects
 * both: they load modules and find code by name), so the workbook reaches
 * that one encoder for it. wb_tensor_map_encode_tiled() takes
 * cuTensorMapEncodeTiled's arguments, in its order, and returns its
 * result (CUDA_ERROR_NOT_SUPPORTED where the driver has no encoder). It
 * fills *map on the host and nothing else: no device memory is read or
 * written and nothing is launched. Pass the map to the kernel as a
 * `const __grid_constant__ CUtensorMap` parameter.
 */
#ifndef WB_TMA_H
#define WB_TMA_H

#include <cuda.h>

/* Tensor maps came with CUDA 12.0 (and the TMA with Hopper). */
#if CUDA_VERSION >= 12000
#ifdef __cplusplus
extern "C" {
#endif

CUresult wb_tensor_map_encode_tiled(CUtensorMap *map,
				    CUtensorMapDataType type,
				    cuuint32_t rank, void *addr,
				    const cuuint64_t *dims,
				    const cuuint64_t *strides,
				    const cuuint32_t *box,
				    const cuuint32_t *elem_strides,
				    CUtensorMapInterleave interleave,
				    CUtensorMapSwizzle swizzle,
				    CUtensorMapL2promotion l2,
				    CUtensorMapFloatOOBfill oob);

#ifdef __cplusplus
}
#endif
#endif /* CUDA_VERSION >= 12000 */

#endif /* WB_TMA_H */
