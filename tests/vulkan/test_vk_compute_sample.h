/* SPDX-License-Identifier: MIT */
/*
 * test_vk_compute_sample: declarations shared by the test's files:
 * test_vk_compute_sample.c (the tests, see there), _ref.c (the spec
 * reference of a textureLod/texelFetch and the result checks) and _vk.c
 * (query/result buffers, images, views, samplers, pipelines).
 */
#ifndef TEST_VK_COMPUTE_SAMPLE_H
#define TEST_VK_COMPUTE_SAMPLE_H

#include "image_vk.h"
#include "vkh_compute.h"

#define SAMPLED_USAGE VK_IMAGE_USAGE_SAMPLED_BIT
#define MAXQ 1024                   /* queries per dispatch */
#define TOL_UNORM8 (2.0 / 255.0)
#define TOL_FETCH8 (0.5 / 255.0)    /* texelFetch: the byte itself */
#define TOL_FLOAT 1e-3
#define TOL_DEPTH 1e-6
#define MAX_REPORT 8

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A sampler: what is created and what the reference follows. */
struct sdesc {
	const char *name;
	VkFilter mag, min;
	VkSamplerMipmapMode mip;
	VkSamplerAddressMode am[3];
	VkBorderColor border;
	float min_lod, max_lod;
	bool unnorm;
};

#define SD(nm, fmag, fmin, fmip, a)                                           \
	{ .name = nm, .mag = VK_FILTER_##fmag, .min = VK_FILTER_##fmin,       \
	  .mip = VK_SAMPLER_MIPMAP_MODE_##fmip,                               \
	  .am = { VK_SAMPLER_ADDRESS_MODE_##a, VK_SAMPLER_ADDRESS_MODE_##a,   \
	          VK_SAMPLER_ADDRESS_MODE_##a },                              \
	  .border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,                  \
	  .max_lod = VK_LOD_CLAMP_NONE }

enum rkind { RV_2D, RV_ARRAY, RV_3D, RV_CUBE };

/* An image view as the reference sees it. */
struct rview {
	const struct timg *t;
	enum rkind kind;
	uint32_t base_mip, mips, base_layer, layers;
};

struct tally {
	const char *what;
	int n, bad;
};

#define TALLY_DONE(h, k)                                                      \
	do {                                                                  \
		if ((k)->bad)                                                 \
			vkh_fail((h), __FILE__, __LINE__,                     \
			         "%s: %d of %d results wrong", (k)->what,     \
			         (k)->bad, (k)->n);                           \
		else                                                          \
			printf("  %s: %d results ok\n", (k)->what, (k)->n);  \
	} while (0)

/* Query and result buffers shared by the dispatches of a test. */
struct io {
	struct vkh_buffer in, out;
	float (*q)[4];
	float (*r)[4];
};

/* ---- spec reference and checks (_ref.c) ---- */

/* Texel (x, y, z) of a view's level and layer, decoded: (D, 0, 0, 1)
 * for depth, absent channels (0, 0, 0, 1). */
void ref_texel(const struct rview *v, uint32_t level, uint32_t layer,
               int32_t x, int32_t y, int32_t z, double out[4]);
/* One textureLod with an explicit lod (2D: c[0..1]; array: c[2] is the
 * layer; 3D: c[0..2]; cube: c = direction). alt: NEAREST mip selection
 * with the spec's alternative rounding floor(d + 0.5) instead of the
 * preferred ceil(d + 0.5) - 1 (they differ only at d = n + 0.5). */
void ref_sample(const struct rview *v, const struct sdesc *s,
                const double c[3], double lod, bool alt, double out[4]);
/* A textureLod result: 2D queries are (x, y, lod), the others (x, y, z)
 * at lod 0. Only the components in mask are compared; either rounding
 * of NEAREST mip selection passes. */
void check_sample(struct tally *k, const char *kase, const struct rview *v,
                  const struct sdesc *s, const float q[4],
                  const float got[4], double tol, unsigned mask);
void check_exact(struct tally *k, const char *kase, const float q[4],
                 const float got[4], const double want[4], double tol);
/* Filtering tolerance of the view's format. */
double tol_of(const struct timg *t);

/* ---- Vulkan plumbing (_vk.c) ---- */

VkResult io_create(struct vkh *h, struct vkh_device *d, struct io *io);
void io_destroy(struct vkh_device *d, struct io *io);
/* Storage buffers at bindings in_b and in_b + 1. */
void io_bind(struct vkh_device *d, struct vkh_pipe *p, struct io *io,
             uint32_t in_b);
/* n queries through p (push constant: n); results invalidated. */
VkResult io_run(struct vkh *h, struct vkh_device *d, struct vkh_pipe *p,
                struct io *io, uint32_t n);
void set_q(float q[4], double x, double y, double z, double mode);
/* A sampled test image, its model random unless seed is 0. */
VkResult image_make(struct vkh *h, struct vkh_device *d,
                    const struct timg_desc *td, uint32_t seed,
                    struct timg *t);
/* Model -> image, then to SHADER_READ_ONLY_OPTIMAL. */
VkResult image_ready(struct vkh *h, struct vkh_device *d, struct timg *t);
VkImageView make_view(struct vkh_device *d, const struct rview *rv,
                      VkImageViewType type);
VkSampler make_sampler(struct vkh_device *d, const struct sdesc *s);
void write_image(struct vkh_device *d, VkDescriptorSet set, uint32_t binding,
                 VkDescriptorType type, VkImageView v, VkSampler s);
/* A sampler2D shader (smp_mips, smp_wrap, smp_uint): binding 0 the
 * sampler, 1 queries, 2 results, push constant n; buffers bound. */
VkResult pipe_2d(struct vkh_device *d, const uint32_t *spv, size_t size,
                 struct io *io, struct vkh_pipe *p);
/* smp_separate with its own set layout: 0 texture2D, 1 sampler, 2
 * immutable sampler imm, 3 combined image sampler with immutable cimm,
 * 4 queries, 5 results. */
VkResult pipe_separate(struct vkh_device *d, VkSampler imm, VkSampler cimm,
                       struct vkh_pipe *p);

#endif /* TEST_VK_COMPUTE_SAMPLE_H */
