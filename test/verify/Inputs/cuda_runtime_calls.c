/* Calls each CUDA runtime function the verify probe counts, a known number
   of times (test/verify/cuda-runtime-interposition.test). The runtime's C
   ABI is declared here: the test needs no CUDA toolkit, only the runtime
   library LibTorch's CUDA build ships. Every call may fail (no GPU): the
   probe counts calls, and forwards each to the runtime. */
#include <stddef.h>
#include <stdio.h>

typedef struct {
  unsigned x, y, z;
} dim3;

int cudaStreamSynchronize(void *stream);
int cudaDeviceSynchronize(void);
int cudaEventSynchronize(void *event);
int cudaMemcpy(void *dst, const void *src, size_t count, int kind);
int cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                    void *stream);
int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                     size_t shared, void *stream);

int main(void) {
  static char host[64], device[64];
  const dim3 one = {1, 1, 1};
  int errors = 0;
  errors += cudaStreamSynchronize(NULL) != 0;
  errors += cudaStreamSynchronize(NULL) != 0;
  errors += cudaDeviceSynchronize() != 0;
  errors += cudaEventSynchronize(NULL) != 0;
  errors += cudaMemcpy(host, device, 16, 2 /* device to host */) != 0;
  for (int i = 0; i < 3; ++i) /* a pageable source: static memory */
    errors += cudaMemcpyAsync(device, host, 16, 1 /* host to device */,
                              NULL) != 0;
  errors += cudaLaunchKernel(NULL, one, one, NULL, 0, NULL) != 0;
  printf("%d of 9 calls failed in the runtime\n", errors);
  return 0;
}
