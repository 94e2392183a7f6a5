#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a screenshot of vkcube: the cube and its texture are in it.

    check_vkcube.py SHOT.png [--ref REF.png ...] [--max-diff FRACTION]
                    [--crop]

vkcube clears to grey 0.2 (51, 51, 51), draws a grey-shaded cube whose
faces carry the LunarG logo (dark teal, white lettering). The picture
passes when it has all of: background (at least 20 % of the pixels),
cube faces (grey of another level, 5 %), the logo's teal (2 %) and its
white letters (0.1 %). Each --ref (the same frame on another driver, same
size) is compared pixel by pixel: a pixel differs when a channel is more
than 12/255 off; the best reference must differ in at most --max-diff of
the pixels (default 0.01: edges rasterized a little differently).

PNG reading is the standard library's: 8-bit grey or colour, not
interlaced (what wsi_capture and weston-screenshooter write).
"""
import argparse
import struct
import sys
import zlib


def read_png(path):
    """(width, height, channels, rows of bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (0, 2, 4, 6) or interlace:
        raise ValueError(f"{path}: not an 8-bit, non-interlaced, "
                         "non-palette PNG")
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(ch, stride):
                line[i] = (line[i] + line[i - ch]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                a = line[i - ch] if i >= ch else 0
                line[i] = (line[i] + ((a + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - ch] if i >= ch else 0
                b, c = prev[i], prev[i - ch] if i >= ch else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    return w, h, ch, rows


def pixels(png):
    """RGB of every pixel; with alpha, as composited onto black (weston's
    screenshots keep the output's alpha, un-premultiplied)."""
    w, h, ch, rows = png
    for row in rows:
        for x in range(w):
            if ch < 3:
                yield row[x * ch], row[x * ch], row[x * ch]
            elif ch == 3:
                yield row[x * 3], row[x * 3 + 1], row[x * 3 + 2]
            else:
                a = row[x * 4 + 3]
                yield tuple((row[x * 4 + i] * a + 127) // 255
                            for i in range(3))


def is_background(p):
    return max(abs(p[0] - 51), abs(p[1] - 51), abs(p[2] - 51)) <= 3


def crop_to_window(png, run=64):
    """vkcube's window on a screenshot of a whole desktop: the box
    spanned by runs of at least `run` pixels of its background colour
    (a desktop's pattern has no such runs)."""
    w, h, ch, rows = png
    x0, x1, y0, y1 = w, 0, h, 0
    px = list(pixels(png))
    for y in range(h):
        start = None
        for x in range(w + 1):
            bg = x < w and is_background(px[y * w + x])
            if bg and start is None:
                start = x
            elif not bg and start is not None:
                if x - start >= run:
                    x0, x1 = min(x0, start), max(x1, x)
                    y0, y1 = min(y0, y), max(y1, y + 1)
                start = None
    if x1 <= x0:
        return png
    return (x1 - x0, y1 - y0, ch,
            [row[x0 * ch:x1 * ch] for row in rows[y0:y1]])


def classify(png):
    n = bg = face = teal = white = 0
    for r, g, b in pixels(png):
        n += 1
        if is_background((r, g, b)):
            bg += 1
        elif r > 200 and g > 200 and b > 200:
            white += 1
        elif g > r + 15 and b > r + 15:
            teal += 1
        elif max(r, g, b) - min(r, g, b) <= 12:
            face += 1
    return {k: v / n for k, v in
            (("background", bg), ("faces", face), ("teal", teal),
             ("white", white))}


def diff_fraction(a, b):
    if a[:2] != b[:2]:
        return 1.0
    n = bad = 0
    for p, q in zip(pixels(a), pixels(b)):
        n += 1
        if max(abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2])) > 12:
            bad += 1
    return bad / n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("shot")
    ap.add_argument("--ref", action="append", default=[])
    ap.add_argument("--max-diff", type=float, default=0.01)
    ap.add_argument("--crop", action="store_true",
                    help="look only at vkcube's window on a desktop "
                    "screenshot (the box its background colour spans)")
    opts = ap.parse_args()
    try:
        shot = read_png(opts.shot)
        refs = [read_png(r) for r in opts.ref]
        if opts.crop:
            shot = crop_to_window(shot)
            refs = [crop_to_window(r) for r in refs]
    except (OSError, ValueError, zlib.error) as e:
        print(f"check_vkcube: {e}")
        return 1
    c = classify(shot)
    need = {"background": 0.20, "faces": 0.05, "teal": 0.02,
            "white": 0.001}
    ok = all(c[k] >= v for k, v in need.items())
    print(f"{opts.shot}: {shot[0]}x{shot[1]}, " +
          ", ".join(f"{k} {100 * v:.1f}%" for k, v in c.items()) +
          (" — cube and texture found" if ok else
           " — NOT the textured cube"))
    if opts.ref:
        best = min(diff_fraction(shot, r) for r in refs)
        good = best <= opts.max_diff
        print(f"{opts.shot}: {100 * best:.2f}% of the pixels differ from "
              f"the closest reference (at most {100 * opts.max_diff:.1f}%"
              f" allowed)")
        ok = ok and good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
