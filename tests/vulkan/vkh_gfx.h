/* SPDX-License-Identifier: MIT */
/*
 * vkh_gfx: graphics helpers for the vk_harness tests and samples, and
 * the differential runner that renders one scene on two drivers.
 *
 * A scene renders into a target (a colour image and optionally a
 * depth/stencil image), reads it back and may add values (query results,
 * buffer words) to its output. gfx_scene() runs it on the test's device,
 * applies the scene's own checks (hand-computed expectations, driver
 * independent), and — when VK_DRIVER_FILES names a second driver with a
 * GRAPHICS queue (Mesa's lavapipe in ctest) — runs it there too, applies
 * the same checks and compares the two outputs texel by texel: exactly,
 * or within the scene's tolerance where the spec leaves room.
 *
 * Images stay in the GENERAL layout (one transition at creation), so
 * scenes only need execution/memory barriers.
 */
#ifndef VKH_GFX_H
#define VKH_GFX_H

#include "vk_harness.h"

#include <stddef.h>

#define GFX_MAX_VALUES 64

struct gfx_ctx {
	struct vkh *h;
	struct vkh_device *d;
	VkDevice dev;
	VkQueue queue;
	VkCommandPool pool;
	const char *driver;
};

struct gfx_image {
	VkImage image;
	VkDeviceMemory mem;
	VkImageView view;
	VkFormat format;
	VkImageAspectFlags aspects;
	uint32_t w, h, layers;
};

/* A scene's result; gfx_scene frees the arrays. */
struct gfx_out {
	uint32_t w, h;
	VkFormat format;        /* of color */
	uint32_t texel;         /* bytes per colour texel */
	uint8_t *color;         /* w * h * texel, row-major, layer 0 */
	float *depth;           /* w * h, or NULL */
	uint8_t *stencil;       /* w * h, or NULL */
	uint32_t nvalues;
	uint64_t values[GFX_MAX_VALUES];
};

struct gfx_scene {
	const char *name;
	/* Render and read back into o; return false after a vkh_fail. */
	bool (*render)(struct gfx_ctx *c, struct gfx_out *o);
	/* Driver-independent checks of o (may be NULL). */
	void (*check)(struct gfx_ctx *c, const struct gfx_out *o);
	/* Per-channel tolerance against the other driver, in units of the
	 * channel's last bit for UNORM/SNORM/integer formats and as an
	 * absolute difference for float formats; 0: equal bytes. */
	float tolerance;
	/* Depth: absolute tolerance (0: equal). */
	float depth_tolerance;
	/* Texels allowed beyond the tolerance (0 for the tests: where the
	 * spec leaves room the tolerance says how much; a sample with
	 * implicit-LOD texture filtering allows a few). */
	uint32_t allowed_mismatches;
	/* Optional: whether a driver offers what the scene needs (e.g. a
	 * feature). The test skips without it; a second driver without it
	 * is not compared with. */
	bool (*supported)(const struct vkh *h);
};

/* Run s on (h, d) and, if there is one, on a second driver; compare. */
void gfx_scene(struct vkh *h, struct vkh_device *d, const struct gfx_scene *s);

/* True when the device has a GRAPHICS queue family. */
bool gfx_has_graphics(const struct vkh *h);

/* ---- objects ---- */

/* A 2D image (layers, one level) bound to device-local memory, with a
 * view of all layers (2D_ARRAY when layers > 1), in the GENERAL layout. */
bool gfx_image(struct gfx_ctx *c, VkFormat format, uint32_t w, uint32_t h,
               uint32_t layers, VkImageUsageFlags usage,
               struct gfx_image *out);
/* The same with samples per texel (one layer, one level). */
bool gfx_image_ms(struct gfx_ctx *c, VkFormat format, uint32_t w, uint32_t h,
                  uint32_t layers, VkSampleCountFlagBits samples,
                  VkImageUsageFlags usage, struct gfx_image *out);
void gfx_image_destroy(struct gfx_ctx *c, struct gfx_image *img);
/* A view of one layer of img (aspects: 0 = all of the image's). */
VkImageView gfx_view(struct gfx_ctx *c, const struct gfx_image *img,
                     uint32_t layer, VkImageAspectFlags aspects);

/* A host-visible buffer holding size bytes of data (data may be NULL:
 * zeros). */
bool gfx_buffer(struct gfx_ctx *c, VkBufferUsageFlags usage, const void *data,
                VkDeviceSize size, struct vkh_buffer *out);

VkShaderModule gfx_shader(struct gfx_ctx *c, const uint32_t *spv,
                          size_t size);

/* Everything a graphics pipeline of the tests can vary; gfx_pipe_init
 * fills the common defaults (triangle list, no cull, fill, CCW front,
 * one colour attachment of `format` with blending off and every
 * component written, no depth/stencil, static viewport/scissor of w x h,
 * dynamic rendering, a layout with 128 push-constant bytes for the
 * vertex and fragment stages and no sets). */
struct gfx_pipe {
	VkShaderModule vs, fs;              /* fs may be NULL */
	VkPrimitiveTopology topology;
	VkBool32 restart;
	uint32_t nbindings, nattribs;
	VkVertexInputBindingDescription bindings[8];
	VkVertexInputAttributeDescription attribs[16];
	VkPipelineRasterizationStateCreateInfo rs;
	VkPipelineDepthStencilStateCreateInfo ds;
	uint32_t ncolor;
	VkFormat color_formats[8];
	VkFormat depth_format, stencil_format;
	VkPipelineColorBlendAttachmentState blend[8];
	VkBool32 logic_op_enable;
	VkLogicOp logic_op;
	float blend_constants[4];
	uint32_t nviewports;
	VkViewport viewports[4];
	VkRect2D scissors[4];
	uint32_t ndynamic;
	VkDynamicState dynamic[32];
	VkPipelineLayout layout;            /* NULL: the default layout */
	VkRenderPass render_pass;           /* NULL: dynamic rendering */
	uint32_t subpass;
	const void *blend_next;             /* pColorBlendState pNext */
	const void *vertex_input_next;      /* pVertexInputState pNext */
	float min_sample_shading;           /* > 0: sample shading on */
	VkBool32 alpha_to_coverage, alpha_to_one;   /* multisample state */
	VkSampleCountFlagBits samples;      /* 0: 1 */
	const VkSampleMask *sample_mask;    /* NULL: all */
	uint32_t view_mask;     /* dynamic rendering: multiview's views */
};

void gfx_pipe_init(struct gfx_pipe *p, VkShaderModule vs, VkShaderModule fs,
                   VkFormat format, uint32_t w, uint32_t h);
VkPipeline gfx_pipeline(struct gfx_ctx *c, const struct gfx_pipe *p);
/* The default layout (128 push-constant bytes, vertex + fragment),
 * one per device; gfx_forget_layout destroys it (before the device). */
VkPipelineLayout gfx_default_layout(struct gfx_ctx *c);
void gfx_forget_layout(VkDevice dev);

/* ---- recording ---- */

VkCommandBuffer gfx_begin(struct gfx_ctx *c);
/* End, submit, wait (bounded), free; false after a vkh_fail. */
bool gfx_submit(struct gfx_ctx *c, VkCommandBuffer cb);
/* A full barrier: every write before, every access after. */
void gfx_barrier(VkCommandBuffer cb);

/* vkCmdBeginRendering on colour (NULL: none) and depth/stencil (NULL:
 * none) targets, whole extent, one layer. clear: colour clear value or
 * NULL for LOAD; the depth/stencil is cleared to depth, stencil when
 * clear_ds. */
void gfx_begin_rendering(VkCommandBuffer cb, const struct gfx_image *color,
                         const VkClearColorValue *clear,
                         const struct gfx_image *ds, bool clear_ds,
                         float depth, uint32_t stencil);

/* Copy layer 0 of the target back into o (colour; depth and stencil when
 * ds is not NULL): records the copies on a new command buffer after a
 * barrier, submits and waits. */
bool gfx_read(struct gfx_ctx *c, const struct gfx_image *color,
              const struct gfx_image *ds, struct gfx_out *o);
/* The same for another array layer. */
bool gfx_read_layer(struct gfx_ctx *c, const struct gfx_image *color,
                    const struct gfx_image *ds, uint32_t layer,
                    struct gfx_out *o);

/* Texel (x, y) of o's colour, as bytes. */
static inline const uint8_t *
gfx_texel(const struct gfx_out *o, uint32_t x, uint32_t y)
{
	return o->color + ((size_t)y * o->w + x) * o->texel;
}

/* RGBA8 helpers: texel (x, y) equals (r, g, b, a). */
static inline bool
gfx_rgba_is(const struct gfx_out *o, uint32_t x, uint32_t y, uint8_t r,
            uint8_t g, uint8_t b, uint8_t a)
{
	const uint8_t *t = gfx_texel(o, x, y);

	return t[0] == r && t[1] == g && t[2] == b && t[3] == a;
}

/* Save o's RGBA8 colour as a PNG (for looking at it); false on error. */
bool gfx_write_png(const char *path, const struct gfx_out *o);

#endif /* VKH_GFX_H */
