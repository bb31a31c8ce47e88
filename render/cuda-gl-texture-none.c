/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Builds without CUDA: interop is never possible, and the renderer keeps uploading through host memory. */
#include "cuda-gl-texture.h"

#include "shepard-render-private.h"

int
shepard_render_gl_cuda_device (void)
{
  return -1;
}

ShepardCudaGlTexture *
_shepard_cuda_gl_texture_new (int cuda_device, GError **error)
{
  g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
               "This build of Shepard has no CUDA support (it was built without nvcc).");
  return NULL;
}

/* No texture object can exist: _new never succeeds. */
void
_shepard_cuda_gl_texture_free (ShepardCudaGlTexture *interop)
{
  g_return_if_fail (interop == NULL);
}

int
_shepard_cuda_gl_texture_get_device (const ShepardCudaGlTexture *interop)
{
  g_return_val_if_reached (-1);
}

gboolean
_shepard_cuda_gl_texture_attach (ShepardCudaGlTexture *interop, guint texture, GError **error)
{
  g_return_val_if_reached (FALSE);
}

void
_shepard_cuda_gl_texture_detach (ShepardCudaGlTexture *interop)
{
  g_return_if_reached ();
}

gboolean
_shepard_cuda_gl_texture_copy (ShepardCudaGlTexture *interop, const float *device_values, size_t width,
                               size_t height, GError **error)
{
  g_return_val_if_reached (FALSE);
}

/* Nothing to fail: no copy ever happens without CUDA. */
void
_shepard_render_fail_next_interop_copy (void)
{
}
