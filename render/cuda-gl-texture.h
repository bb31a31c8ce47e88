/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The grid texture as a CUDA graphics resource: registered once per texture (a new size is a new texture), mapped,
 * written on the device and unmapped per frame. Every function needs the renderer's GL context current. Builds
 * without CUDA compile cuda-gl-texture-none.c, whose _new says so. */
typedef struct _ShepardCudaGlTexture ShepardCudaGlTexture;

/* Fails with SHEPARD_RENDER_ERROR_INTEROP unless the current GL context runs on CUDA device cuda_device. */
ShepardCudaGlTexture *_shepard_cuda_gl_texture_new (int cuda_device, GError **error);

/* Unregisters the texture, if one is attached. */
void _shepard_cuda_gl_texture_free (ShepardCudaGlTexture *interop);

int _shepard_cuda_gl_texture_get_device (const ShepardCudaGlTexture *interop);

/* Registers texture (a GL_R32F GL_TEXTURE_2D) unless it already is the attached one; a previous one is unregistered
 * first. */
gboolean _shepard_cuda_gl_texture_attach (ShepardCudaGlTexture *interop, guint texture, GError **error);

/* Unregisters the attached texture: call it before that texture is deleted. */
void _shepard_cuda_gl_texture_detach (ShepardCudaGlTexture *interop);

/* Copies width x height packed float32 values from device memory into the attached texture; done on return. */
gboolean _shepard_cuda_gl_texture_copy (ShepardCudaGlTexture *interop, const float *device_values, size_t width,
                                        size_t height, GError **error);

G_END_DECLS
