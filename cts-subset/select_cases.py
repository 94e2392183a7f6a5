#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Select the swgpu CTS subset from Khronos VK-GL-CTS mustpass lists.

  python3 cts-subset/select_cases.py [--out cts-subset] \\
      <VK-GL-CTS>/external/vulkancts/mustpass/main/vk-default/*.txt

Inputs are mustpass files (one dEQP-VK case per line) or directories of
them; any case outside the groups below is ignored, so passing every
vk-default file is fine.  Writes, in input order and de-duplicated:

  tier1.txt     no shaders: transfers, memory, objects, host sync
  tier2.txt     compute (needs the SPIR-V compute engine)
  tier3.txt     graphics: the cases of those groups that need a graphics
                pipeline or graphics capabilities, and the graphics groups
                (TIER3_GROUPS), some of them a deterministic sample

A list larger than --split-bytes (default 1.5 MiB: the repository rejects
tracked files over 2 MiB) is written instead as tier<N>/<group>.txt, one
file per two-level group; cts-subset/run reads both layouts.

The rules (issue 6, item 1) are name based, because mustpass lists carry
nothing else; they were checked against the test sources where noted.
"""

import argparse
import os
import re
import sys
import zlib

P = "dEQP-VK."

TIER1_GROUPS = [
	"info.", "api.info.", "api.device_init.", "api.object_management.",
	"api.buffer.", "api.fill_and_update_buffer.", "api.copy_and_blit.core.",
	"memory.allocation.", "memory.mapping.", "memory.requirements.",
	"memory.binding.", "synchronization.basic.", "synchronization2.basic.",
]
TIER2_GROUPS = ["compute.", "api.command_buffers.", "api.smoke."]
# Shader-engine groups of tier 2 (issue 23), compute stage only: every
# subgroups case whose name has a ".compute." component (the graphics and
# ray-tracing stages of the same tests belong to later tiers), and a
# deterministic half of spirv_assembly.instruction.compute (19,898 cases,
# sampled like TIER3_GROUPS by crc32 % 2 so the sample does not depend on
# the input order).
TIER2_SHADER_GROUPS = [
	("subgroups.", ".compute.", 1),
	("spirv_assembly.instruction.compute.", "", 2),
]
# Graphics groups of tier 3 (issue 17), as (prefix, N): a case is taken
# when N == 1 or crc32(name) % N == 0 (in_sample), a sample that does not
# depend on the order or the other cases of the input. The first matching
# prefix wins. Sampled: the groups too big to run whole on 2 cores --
# the dynamic_rendering variant of draw.* (the same tests as
# draw.renderpass.* begun with vkCmdBeginRendering), the render pass
# groups, multi_draw (VK_EXT_multi_draw), and two rasterization groups of
# extensions swgpu does not offer (depth_bias_control, shader_tile_image).
TIER3_GROUPS = [
	("draw.renderpass.multi_draw.", 4),
	("draw.renderpass.", 1),
	("draw.dynamic_rendering.", 8),
	("renderpasses.renderpass1.", 8),
	("renderpasses.renderpass2.", 8),
	("renderpasses.dynamic_rendering.", 8),
	("rasterization.depth_bias_control.", 16),
	("rasterization.shader_tile_image.", 16),
	("rasterization.", 1),
	("fragment_operations.", 1),
	("clipping.", 1),
	("query_pool.occlusion_query.", 1),
	# Issue 21 item 4: the groups of the fourth deqp-vk build.
	# multiview whole; texture (the sampler in fragment and compute
	# shaders: filtering, mipmaps, compressed, shadow, swizzle) and
	# pipeline.monolithic (465,366 cases) sampled; glsl below.
	("multiview.", 1),
	("texture.", 16),
	("pipeline.monolithic.", 256),
]
# Groups of tier 3 taken only where a name component says the case runs
# in the vertex or fragment stage (glsl.*: <case>_vertex,
# <case>_fragment, ....vertex.<case>, ....fragment.<case>), as
# (prefix, regex, N); the compute-stage cases of glsl are not in a tier.
TIER3_STAGE_GROUPS = [
	("glsl.", re.compile(r"[._](vertex|fragment)([._]|$)"), 16),
]


def in_sample(name, n):
	return n == 1 or zlib.crc32(name.encode()) % n == 0


# Split by operation: transfer/host -> tier 1, compute -> tier 2,
# anything drawing -> tier 3.
SYNC_OP_GROUPS = [
	"synchronization.smoke.", "synchronization2.smoke.",
	"synchronization.timeline_semaphore.",
	"synchronization2.timeline_semaphore.",
]

# Words that mean a case records draws, render passes or graphics
# pipelines (api.command_buffers, api.smoke, api.copy_and_blit.core).
# copy_and_blit.core.resolve_image and the multisample copies render
# their source image with a triangle first; use_after_copy
# (vktApiUseAfterCopyTests.cpp) samples or loads the copied image in a
# render pass of its own.
GRAPHICS_WORDS = re.compile(
	r"draw|render|triangle|graphics|vertex|fragment|geometry|tess|"
	r"attachment|subpass|framebuffer|resolve|multisample|msaa|"
	r"conditional|use_after_copy")
# Synchronization operation names (vktSynchronizationOperation.cpp):
# write_ssbo_vertex, read_vertex_input, write_draw, write_clear_attachments,
# write_indirect_buffer_draw, read_index_input ... draw; *_compute and
# *_dispatch run a compute shader; the rest are transfers or host access.
SYNC_GRAPHICS_WORDS = re.compile(
	r"vertex|fragment|geometry|tess|draw|clear_attachments|index_input")
SYNC_COMPUTE_WORDS = re.compile(r"compute|dispatch")
# synchronization{,2}.smoke: fences/binary_semaphores/timeline_semaphores
# and queue_type_ignore_image_* draw (vktSynchronizationSmokeTests.cpp,
# initShaders / initQueueFamilyTypePrograms are vertex+fragment);
# queue_type_ignore_buffer_* fill a buffer; queue_type_image_barrier_external
# records only a barrier.
SMOKE_GRAPHICS = re.compile(
	r"\.smoke\.(fences|binary_semaphores|timeline_semaphores|"
	r"queue_type_ignore_image_)")

# Cases that draw nothing but can pass only on a driver with graphics
# capabilities: they check that graphics features are offered or create
# objects only a graphics driver can (each one's diagnosis, from its qpa
# log, is in FAILURES.md and was its baseline entry before it moved here).
#  - api.info.format_properties.<format>: the spec's required format
#    support makes COLOR_ATTACHMENT(_BLEND), DEPTH_STENCIL_ATTACHMENT or
#    VERTEX_BUFFER mandatory for these formats (vktApiFeatureInfo.cpp
#    checks the mandatory features); depth_stencil asks
#    DEPTH_STENCIL_ATTACHMENT of X8_D24_UNORM_PACK32 or D32_SFLOAT.
#  - api.object_management 2D/cube images and their views: the test image
#    has COLOR_ATTACHMENT usage besides SAMPLED (vktApiObjectManagementTests
#    .cpp, img2D/imgCube); render passes and framebuffers.
#  - synchronization{,2}.smoke.queue_type_image_barrier_external: its image
#    has COLOR_ATTACHMENT usage (vktSynchronizationSmokeTests.cpp).
#  - info.device_mandatory_features: dynamicRendering, multiview,
#    imagelessFramebuffer, separateDepthStencilLayouts,
#    shaderDemoteToHelperInvocation, shaderTerminateInvocation.
#  - api.command_buffers.recording_to_invalid (a render pass) and
#    record_query_precise_w_flag (an occlusion query, on a graphics queue).
ATTACHMENT_FORMATS = set("""
	a1r5g5b5_unorm_pack16 a2b10g10r10_uint_pack32 a2b10g10r10_unorm_pack32
	a8b8g8r8_sint_pack32 a8b8g8r8_snorm_pack32 a8b8g8r8_srgb_pack32
	a8b8g8r8_uint_pack32 a8b8g8r8_unorm_pack32 b8g8r8a8_srgb b8g8r8a8_unorm
	d16_unorm depth_stencil r16_sfloat r16_sint r16_snorm r16_uint r16_unorm
	r16g16_sfloat r16g16_sint r16g16_snorm r16g16_uint r16g16_unorm
	r16g16b16a16_sfloat r16g16b16a16_sint r16g16b16a16_snorm
	r16g16b16a16_uint r16g16b16a16_unorm r32_sfloat r32_sint r32_uint
	r32g32_sfloat r32g32_sint r32g32_uint r32g32b32_sfloat r32g32b32_sint
	r32g32b32_uint r32g32b32a32_sfloat r32g32b32a32_sint r32g32b32a32_uint
	r5g6b5_unorm_pack16 r8_sint r8_snorm r8_uint r8_unorm r8g8_sint
	r8g8_snorm r8g8_uint r8g8_unorm r8g8b8a8_sint r8g8b8a8_snorm
	r8g8b8a8_srgb r8g8b8a8_uint r8g8b8a8_unorm""".split())
GRAPHICS_CAPABILITY = re.compile(
	r"api\.object_management\.[a-z_]+\.(image_2d|image_view_2d|"
	r"image_view_2d_arr|image_view_cube|image_view_cube_arr|render_pass|"
	r"framebuffer)$|"
	r"synchronization2?\.smoke\.queue_type_image_barrier_external$|"
	r"info\.device_mandatory_features$|"
	r"api\.command_buffers\.(recording_to_invalid|"
	r"record_query_precise_w_flag)$")


def needs_graphics_capability(name):
	"""name without the dEQP-VK. prefix."""
	fp = "api.info.format_properties."
	if name.startswith(fp) and name[len(fp):] in ATTACHMENT_FORMATS:
		return True
	return bool(GRAPHICS_CAPABILITY.match(name))


def classify(case):
	"""Returns 'tier1', 'tier2', 'tier3' or None (not in the subset)."""
	if not case.startswith(P):
		return None
	name = case[len(P):]
	for g, n in TIER3_GROUPS:
		if name.startswith(g):
			return "tier3" if in_sample(name, n) else None
	for g, stage, n in TIER3_STAGE_GROUPS:
		if name.startswith(g):
			ok = stage.search(name[len(g):]) and in_sample(name, n)
			return "tier3" if ok else None
	if needs_graphics_capability(name):
		return "tier3"
	for g in TIER1_GROUPS:
		if name.startswith(g):
			rest = name[len(g):]
			if g == "api.object_management." and \
			   "graphics_pipeline" in rest:
				return "tier3"
			if g == "api.copy_and_blit.core." and \
			   GRAPHICS_WORDS.search(rest):
				return "tier3"
			return "tier1"
	for g, word, n in TIER2_SHADER_GROUPS:
		if name.startswith(g):
			ok = word in name and in_sample(name, n)
			return "tier2" if ok else None
	for g in TIER2_GROUPS:
		if name.startswith(g):
			rest = name[len(g):]
			if g != "compute." and GRAPHICS_WORDS.search(rest):
				return "tier3"
			return "tier2"
	for g in SYNC_OP_GROUPS:
		if name.startswith(g):
			rest = name[len(g):]
			if SMOKE_GRAPHICS.search(name) or \
			   SYNC_GRAPHICS_WORDS.search(rest):
				return "tier3"
			if SYNC_COMPUTE_WORDS.search(rest):
				return "tier2"
			return "tier1"
	return None


def group_of(case):
	parts = case.split(".")
	return ".".join(parts[1:3]) if len(parts) >= 4 else parts[1]


def inputs(paths):
	for p in paths:
		if os.path.isdir(p):
			for root, _, files in sorted(os.walk(p)):
				for f in sorted(files):
					if f.endswith(".txt"):
						yield os.path.join(root, f)
		else:
			yield p


def write_list(out_dir, name, cases, split_bytes):
	single = os.path.join(out_dir, name + ".txt")
	split_dir = os.path.join(out_dir, name)
	text = "".join(c + "\n" for c in cases)
	# Stale files of the other layout (or of groups that vanished)
	# would be read by cts-subset/run too: remove them first.
	if os.path.isdir(split_dir):
		for f in os.listdir(split_dir):
			if f.endswith(".txt"):
				os.remove(os.path.join(split_dir, f))
	if len(text.encode()) <= split_bytes:
		with open(single, "w", encoding="utf-8") as f:
			f.write(text)
		if os.path.isdir(split_dir) and not os.listdir(split_dir):
			os.rmdir(split_dir)
		return [single]
	os.makedirs(split_dir, exist_ok=True)
	by_group = {}
	for c in cases:
		by_group.setdefault(group_of(c), []).append(c)
	written = []
	for g, cs in by_group.items():
		# A group still over the limit goes into numbered parts
		# (<group>.1.txt, .2.txt, ...; run reads them in sorted
		# order, so parts are zero-padded).
		parts, cur, size = [], [], 0
		for c in cs:
			n = len(c.encode()) + 1
			if cur and size + n > split_bytes:
				parts.append(cur)
				cur, size = [], 0
			cur.append(c)
			size += n
		parts.append(cur)
		for i, part in enumerate(parts):
			name = g + (".%02d" % (i + 1) if len(parts) > 1 else "")
			path = os.path.join(split_dir, name + ".txt")
			with open(path, "w", encoding="utf-8") as f:
				f.write("".join(c + "\n" for c in part))
			written.append(path)
	if os.path.exists(single):
		os.remove(single)
	return written


def main():
	ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
	ap.add_argument("mustpass", nargs="+",
			help="mustpass .txt files or directories")
	ap.add_argument("--out", default=os.path.dirname(
		os.path.abspath(__file__)), help="output directory")
	ap.add_argument("--split-bytes", type=int, default=3 << 19)
	a = ap.parse_args()

	lists = {"tier1": [], "tier2": [], "tier3": []}
	seen = set()
	for path in inputs(a.mustpass):
		with open(path, encoding="utf-8") as f:
			for line in f:
				case = line.strip()
				if not case or case in seen:
					continue
				seen.add(case)
				t = classify(case)
				if t:
					lists[t].append(case)
	for name, cases in lists.items():
		files = write_list(a.out, name, cases, a.split_bytes)
		counts = {}
		for c in cases:
			counts[group_of(c)] = counts.get(group_of(c), 0) + 1
		print("%s: %d cases in %d file(s)" % (name, len(cases),
						      len(files)))
		for g in sorted(counts):
			print("  %-40s %6d" % (g, counts[g]))
	return 0


if __name__ == "__main__":
	sys.exit(main())
