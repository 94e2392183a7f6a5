/* SPDX-License-Identifier: MIT */
/*
 * test_icd_gfx_record: unit tests of the graphics recording side of the
 * ICD. They link the driver's objects (no loader, no validation layer),
 * record command buffers through the icd_* entry points and decode the
 * packets in command memory, checking each against swgpu_packet.h's
 * "Graphics packets" contract. This works without a graphics engine:
 * nothing is submitted.
 */
#ifndef TEST_ICD_GFX_RECORD_H
#define TEST_ICD_GFX_RECORD_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "cmd_gfx.h"
#include "pipeline.h"
#include "render_pass.h"

#define REC_MAX_PACKETS 512

/* One decoded packet (NOPs, i.e. data, are skipped). */
struct rec_pkt {
	uint32_t op, flags, len;
	const uint32_t *p;      /* header dword, host pointer */
};

struct rec {
	uint32_t n;
	struct rec_pkt pkt[REC_MAX_PACKETS];
};

/* The fixture every test shares (test_icd_gfx_record.c). */
struct fx {
	VkInstance instance;
	VkPhysicalDevice pdev;
	VkDevice device;
	VkCommandPool pool;
	VkDeviceMemory mem;
	VkImage color[2], ds;
	VkImageView color_view[2], ds_view;
	VkBuffer vbuf, ibuf, argbuf;
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkDescriptorPool dpool;
	VkDescriptorSet set;
	/* A graphics pipeline as recording sees it, without shaders (the
	 * translation of VERTEX/FRAGMENT shaders is another unit's). */
	struct icd_pipeline fake[2];
};

extern struct fx fx;

/* A primary (or secondary) command buffer, begun. */
VkCommandBuffer rec_begin(VkCommandBufferLevel level,
                          const VkCommandBufferBeginInfo *bi);
/* End it (returning vkEndCommandBuffer's result) and decode its
 * packets into r, following INDIRECT_BUFFER into secondaries. */
VkResult rec_end(VkCommandBuffer cb, struct rec *r);
/* Host pointer of a VA in any command buffer recorded so far. */
const void *rec_host(uint64_t va);
/* Index of the i-th packet with opcode op at or after start, or -1. */
int rec_find(const struct rec *r, uint32_t op, int start);
uint32_t rec_count(const struct rec *r, uint32_t op);
void rec_free(VkCommandBuffer cb);

VkRenderPass make_render_pass_2subpasses(void);
VkFramebuffer make_framebuffer(VkRenderPass rp, bool imageless);

/* Tests (test_icd_gfx_record_draw.c). */
void test_draw_state(void **state);
void test_draw_errors(void **state);
void test_draw_indirect(void **state);
void test_secondary(void **state);
void test_pipeline_state(void **state);
void test_dynamic_state(void **state);
void test_occlusion_query(void **state);

#endif /* TEST_ICD_GFX_RECORD_H */
