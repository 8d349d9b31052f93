/* SPDX-License-Identifier: MIT */
/*
 * tma.c - the driver's tensor-map encoder, reached for a submission
 * (tma.h says why). The runtime hands out the driver's function by its
 * name and ABI version, once; the submission never sees the lookup.
 */
#include "tma.h"

#include <cuda_runtime_api.h>

#if CUDA_VERSION >= 12000
typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
			      void *, const cuuint64_t *, const cuuint64_t *,
			      const cuuint32_t *, const cuuint32_t *,
			      CUtensorMapInterleave, CUtensorMapSwizzle,
			      CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* cuTensorMapEncodeTiled as of CUDA 12.0, or NULL. */
static encode_fn encoder(void)
{
	static encode_fn fn;
	enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
	void *p = NULL;

	if (fn)
		return fn;
#if CUDART_VERSION >= 12050
	if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p,
					     12000, cudaEnableDefault,
					     &q) != cudaSuccess ||
#else
	if (cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p,
				    cudaEnableDefault, &q) != cudaSuccess ||
#endif
	    q != cudaDriverEntryPointSuccess || !p) {
		cudaGetLastError();
		return NULL;
	}
	*(void **)&fn = p;
	return fn;
}

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
				    CUtensorMapFloatOOBfill oob)
{
	encode_fn fn = encoder();

	if (!fn)
		return CUDA_ERROR_NOT_SUPPORTED;
	return fn(map, type, rank, addr, dims, strides, box, elem_strides,
		  interleave, swizzle, l2, oob);
}
#endif /* CUDA_VERSION >= 12000 */
