#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests cts-subset/select_cases.py: tier rules on known case names, the
output files, splitting of large lists, and that the committed lists agree with
the rules (every committed case classifies into the list holding it)."""

import glob
import importlib.util
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location(
	"select_cts", os.path.join(TOP, "select_cases.py"))
sel = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sel)

EXPECT = {
	"dEQP-VK.info.build": "tier1",
	"dEQP-VK.api.buffer.basic.size_max_uint64": "tier1",
	"dEQP-VK.api.object_management.single.buffer": "tier1",
	"dEQP-VK.api.object_management.single.graphics_pipeline": "tier3",
	"dEQP-VK.api.copy_and_blit.core.buffer_to_buffer.whole": "tier1",
	"dEQP-VK.api.copy_and_blit.core.resolve_image.whole_copy_before_resolving.2_bit": "tier3",
	"dEQP-VK.api.copy_and_blit.dedicated_allocation.buffer_to_buffer.whole": None,
	"dEQP-VK.memory.mapping.suballocation.full.33": "tier1",
	"dEQP-VK.memory.pipeline_barrier.host_read_transfer_dst.1024": None,
	"dEQP-VK.synchronization.basic.fence.one": "tier1",
	"dEQP-VK.synchronization2.basic.event.device_set_reset_cq": "tier1",
	"dEQP-VK.synchronization.smoke.fences": "tier3",
	"dEQP-VK.synchronization.smoke.queue_type_ignore_buffer_foreign": "tier1",
	"dEQP-VK.synchronization.timeline_semaphore.one_to_n.write_copy_buffer_read_copy_buffer.buffer_16384": "tier1",
	"dEQP-VK.synchronization.timeline_semaphore.one_to_n.write_ssbo_compute_read_copy_buffer.buffer_16384": "tier2",
	"dEQP-VK.synchronization2.timeline_semaphore.wait_before_signal.write_draw_read_copy_image.image_128x128_r8_unorm": "tier3",
	"dEQP-VK.synchronization.timeline_semaphore.max_difference_value": "tier1",
	"dEQP-VK.synchronization.op.single_queue.fence.write_copy_buffer_read_copy_buffer.buffer_16384": None,
	"dEQP-VK.compute.pipeline.basic.empty_shader": "tier2",
	"dEQP-VK.api.command_buffers.record_simul_use_primary": "tier2",
	"dEQP-VK.api.command_buffers.render_pass_continue": "tier3",
	"dEQP-VK.api.smoke.create_sampler": "tier2",
	"dEQP-VK.api.smoke.triangle": "tier3",
	"dEQP-VK.glsl.arrays.constructor.float3_vertex": None,
	# Graphics capabilities (select_cases.py GRAPHICS_CAPABILITY): the
	# format must offer COLOR_ATTACHMENT/VERTEX_BUFFER; BC needs none.
	"dEQP-VK.api.info.format_properties.r8g8b8a8_unorm": "tier3",
	"dEQP-VK.api.info.format_properties.depth_stencil": "tier3",
	"dEQP-VK.api.info.format_properties.compressed_formats": "tier1",
	"dEQP-VK.api.info.format_properties.r8g8b8a8_unorm_extra": "tier1",
	"dEQP-VK.api.info.format_properties.b10g11r11_ufloat_pack32": "tier1",
	"dEQP-VK.api.object_management.single.image_2d": "tier3",
	"dEQP-VK.api.object_management.private_data.image_view_cube_arr": "tier3",
	"dEQP-VK.api.object_management.single.image_view_2d_arr": "tier3",
	"dEQP-VK.api.object_management.single.image_1d": "tier1",
	"dEQP-VK.api.object_management.single.image_view_3d": "tier1",
	"dEQP-VK.api.object_management.alloc_callback_fail.render_pass": "tier3",
	"dEQP-VK.api.object_management.alloc_callback_fail.device": "tier1",
	"dEQP-VK.synchronization.smoke.queue_type_image_barrier_external": "tier3",
	"dEQP-VK.info.device_mandatory_features": "tier3",
	"dEQP-VK.info.device_mandatory_features_x": "tier1",
	"dEQP-VK.api.command_buffers.recording_to_invalid": "tier3",
	"dEQP-VK.api.command_buffers.record_query_precise_w_flag": "tier3",
	# The graphics groups (TIER3_GROUPS), whole or sampled by crc32.
	"dEQP-VK.draw.renderpass.simple_draw.simple_draw_triangle_list": "tier3",
	"dEQP-VK.clipping.clip_volume.clipped.large_points": "tier3",
	"dEQP-VK.query_pool.occlusion_query.basic_conservative": "tier3",
	"dEQP-VK.query_pool.statistics_query.compute_shader_invocations.primary": None,
	"dEQP-VK.renderpasses.renderpass1.custom_resolve.fast_lib.depth_format_change_d16s8_to_d16": "tier3",
	"dEQP-VK.renderpasses.renderpass1.custom_resolve.fast_lib.att_index_change": None,
	# Issue 21: multiview whole, texture 1/16, pipeline.monolithic 1/256,
	# glsl vertex/fragment stage cases 1/16 (compute-stage glsl: none).
	"dEQP-VK.multiview.clear_attachments.no_queries.15": "tier3",
	"dEQP-VK.texture.compressed.astc_10x10_srgb_block_voidextent_2d_npot_compute": "tier3",
	"dEQP-VK.texture.compressed.astc_10x10_srgb_block_2d_compute_npot_compute": None,
	"dEQP-VK.pipeline.monolithic.attachment_feedback_loop_layout.misc.no_color_draw": None,
	"dEQP-VK.glsl.arrays.return.float_vec3_vertex": "tier3",
	"dEQP-VK.glsl.opaque_type_indexing.sampler.const_literal.fragment.isampler2darray": "tier3",
	"dEQP-VK.glsl.arrays.constructor.bool3_fragment": None,
	"dEQP-VK.glsl.atomic_operations.add_f16vec2_compute": None,
}

failures = []


def check(cond, what):
	print(("ok   " if cond else "FAIL ") + what)
	if not cond:
		failures.append(what)


def main():
	for case, want in EXPECT.items():
		got = sel.classify(case)
		check(got == want, "%s -> %s (want %s)" % (case, got, want))

	with tempfile.TemporaryDirectory(prefix="cts-select-test-") as tmp:
		src = os.path.join(tmp, "in.txt")
		with open(src, "w") as f:
			f.write("\n".join(EXPECT) + "\n" +
				"dEQP-VK.info.build\n")  # duplicate
		out = os.path.join(tmp, "out")
		os.makedirs(out)
		p = subprocess.run([sys.executable, os.path.join(TOP,
				    "select_cases.py"), "--out", out, src],
				   capture_output=True, text=True)
		check(p.returncode == 0, "select_cases.py runs")
		for name in ("tier1", "tier2", "tier3"):
			with open(os.path.join(out, name + ".txt")) as f:
				got = f.read().split()
			want = [c for c, t in EXPECT.items() if t == name]
			check(got == want, "%s.txt holds its cases in order"
			      % name)
		# Tiny split size forces the per-group layout.
		p = subprocess.run([sys.executable, os.path.join(TOP,
				    "select_cases.py"), "--out", out,
				    "--split-bytes", "100", src],
				   capture_output=True, text=True)
		parts = sorted(glob.glob(os.path.join(out, "tier1", "*.txt")))
		check(parts and
		      not os.path.exists(os.path.join(out, "tier1.txt")),
		      "large list split per group")
		got = []
		for path in parts:
			with open(path) as f:
				text = f.read()
			check(len(text) <= 100 or text.count("\n") == 1,
			      "%s within --split-bytes (or one case)" %
			      os.path.basename(path))
			got += text.split()
		want = [c for c, t in EXPECT.items() if t == "tier1"]
		check(sorted(got) == sorted(want),
		      "split parts hold exactly the tier-1 cases")
		# Back to one file: the split files must go, or run would
		# read the cases twice.
		p = subprocess.run([sys.executable, os.path.join(TOP,
				    "select_cases.py"), "--out", out, src],
				   capture_output=True, text=True)
		check(os.path.exists(os.path.join(out, "tier1.txt")) and
		      not glob.glob(os.path.join(out, "tier1", "*.txt")),
		      "stale split files removed when one file suffices")

	# The committed lists obey the rules and stay under the 2 MiB limit.
	for name in ("tier1", "tier2", "tier3"):
		files = glob.glob(os.path.join(TOP, name + ".txt")) + \
			glob.glob(os.path.join(TOP, name, "*.txt"))
		bad, n = 0, 0
		for path in files:
			check(os.path.getsize(path) < 2 << 20,
			      "%s under 2 MiB" % os.path.relpath(path, TOP))
			with open(path) as f:
				for case in f.read().split():
					n += 1
					bad += sel.classify(case) != name
		check(n > 0 and bad == 0,
		      "committed %s: %d cases, %d misfiled" % (name, n, bad))

	if failures:
		print("%d checks failed" % len(failures))
		return 1
	print("all checks passed")
	return 0


if __name__ == "__main__":
	sys.exit(main())
