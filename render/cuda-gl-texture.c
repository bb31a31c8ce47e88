/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA-OpenGL interop through the CUDA runtime's C API: no CUDA C++ outside compute/. */
#include "cuda-gl-texture.h"

#include "shepard-render-private.h"

/* cuda_gl_interop.h wants the GL declarations first; epoxy's replace the system's. */
#include <epoxy/gl.h>
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

struct _ShepardCudaGlTexture {
  int device;
  cudaStream_t stream;
  struct cudaGraphicsResource *resource;
  guint texture; /* the registered texture, 0 when none is */
};

static gboolean
set_cuda_error (GError **error, cudaError_t status, const char *what)
{
  /* A failed call leaves its error for the next cudaGetLastError: clear it, so that later calls start clean. */
  cudaGetLastError ();
  g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
               "CUDA-OpenGL interop failed while %s: %s (%s).", what, cudaGetErrorString (status),
               cudaGetErrorName (status));
  return FALSE;
}

/* The CUDA devices of the current GL context (more than one only where the driver spans a context over GPUs), at
 * most GL_DEVICES_MAX; count 0 on failure, whose error is cleared. */
#define GL_DEVICES_MAX 16

static cudaError_t
gl_cuda_devices (unsigned int *count, int devices[GL_DEVICES_MAX])
{
  cudaError_t status = cudaGLGetDevices (count, devices, GL_DEVICES_MAX, cudaGLDeviceListAll);

  if (status != cudaSuccess)
    {
      cudaGetLastError ();
      *count = 0;
    }
  *count = MIN (*count, GL_DEVICES_MAX);
  return status;
}

int
shepard_render_gl_cuda_device (void)
{
  unsigned int count = 0;
  int devices[GL_DEVICES_MAX];

  return gl_cuda_devices (&count, devices) == cudaSuccess && count > 0 ? devices[0] : -1;
}

ShepardCudaGlTexture *
_shepard_cuda_gl_texture_new (int cuda_device, GError **error)
{
  const char *gl_renderer = (const char *) glGetString (GL_RENDERER);
  unsigned int count = 0;
  int devices[GL_DEVICES_MAX];

  if (gl_renderer == NULL)
    gl_renderer = "an unnamed renderer";
  cudaError_t status = gl_cuda_devices (&count, devices);
  if (status != cudaSuccess)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
                   "The OpenGL context (%s) is not on a CUDA device: %s (%s).", gl_renderer,
                   cudaGetErrorString (status), cudaGetErrorName (status));
      return NULL;
    }
  gboolean same_device = FALSE;
  for (unsigned int i = 0; i < count; i++)
    same_device = same_device || devices[i] == cuda_device;
  if (!same_device)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
                   "The OpenGL context runs on %s, not on CUDA device %d where the engine computes.", gl_renderer,
                   cuda_device);
      return NULL;
    }

  ShepardCudaGlTexture *interop = g_new0 (ShepardCudaGlTexture, 1);
  interop->device = cuda_device;
  status = cudaSetDevice (cuda_device);
  if (status == cudaSuccess)
    status = cudaStreamCreateWithFlags (&interop->stream, cudaStreamNonBlocking);
  if (status != cudaSuccess)
    {
      set_cuda_error (error, status, "starting the CUDA device");
      g_free (interop);
      return NULL;
    }
  return interop;
}

void
_shepard_cuda_gl_texture_detach (ShepardCudaGlTexture *interop)
{
  if (interop->resource != NULL)
    {
      cudaSetDevice (interop->device);
      /* Fails only when the context is already gone, and then nothing is left to release. */
      if (cudaGraphicsUnregisterResource (interop->resource) != cudaSuccess)
        cudaGetLastError ();
    }
  interop->resource = NULL;
  interop->texture = 0;
}

void
_shepard_cuda_gl_texture_free (ShepardCudaGlTexture *interop)
{
  if (interop == NULL)
    return;
  _shepard_cuda_gl_texture_detach (interop);
  cudaStreamDestroy (interop->stream);
  g_free (interop);
}

int
_shepard_cuda_gl_texture_get_device (const ShepardCudaGlTexture *interop)
{
  return interop->device;
}

gboolean
_shepard_cuda_gl_texture_attach (ShepardCudaGlTexture *interop, guint texture, GError **error)
{
  if (interop->resource != NULL && interop->texture == texture)
    return TRUE;
  _shepard_cuda_gl_texture_detach (interop);
  cudaError_t status = cudaSetDevice (interop->device);
  if (status == cudaSuccess)
    /* Write-discard: every copy replaces the whole texture, so CUDA need not preserve what GL left in it. */
    status = cudaGraphicsGLRegisterImage (&interop->resource, texture, GL_TEXTURE_2D,
                                          cudaGraphicsRegisterFlagsWriteDiscard);
  if (status != cudaSuccess)
    {
      interop->resource = NULL;
      return set_cuda_error (error, status, "registering the preview texture");
    }
  interop->texture = texture;
  return TRUE;
}

static gint fail_next_copy;

void
_shepard_render_fail_next_interop_copy (void)
{
  g_atomic_int_set (&fail_next_copy, 1);
}

gboolean
_shepard_cuda_gl_texture_copy (ShepardCudaGlTexture *interop, const float *device_values, size_t width,
                               size_t height, GError **error)
{
  g_return_val_if_fail (interop->resource != NULL, FALSE);

  if (g_atomic_int_compare_and_exchange (&fail_next_copy, 1, 0))
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
                   "CUDA-OpenGL interop failed while copying the grid into the preview texture: a failure a test "
                   "asked for.");
      return FALSE;
    }

  cudaArray_t array = NULL;
  size_t row_bytes = width * sizeof (float);
  cudaError_t status = cudaSetDevice (interop->device);
  if (status == cudaSuccess)
    status = cudaGraphicsMapResources (1, &interop->resource, interop->stream);
  if (status != cudaSuccess)
    return set_cuda_error (error, status, "mapping the preview texture");
  status = cudaGraphicsSubResourceGetMappedArray (&array, interop->resource, 0, 0);
  if (status == cudaSuccess)
    status = cudaMemcpy2DToArrayAsync (array, 0, 0, device_values, row_bytes, row_bytes, height,
                                       cudaMemcpyDeviceToDevice, interop->stream);
  cudaError_t unmapped = cudaGraphicsUnmapResources (1, &interop->resource, interop->stream);
  if (status == cudaSuccess)
    status = unmapped;
  /* The caller may hand the device grid to the next computation as soon as this returns. */
  if (status == cudaSuccess)
    status = cudaStreamSynchronize (interop->stream);
  if (status != cudaSuccess)
    return set_cuda_error (error, status, "copying the grid into the preview texture");
  return TRUE;
}
