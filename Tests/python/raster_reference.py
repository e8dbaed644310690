"""Google's `vector_to_raster` (the Quick, Draw! community reference renderer) in pycairo,
parameterised for the general mode: side, line width, padding (256-units) and polarity."""
import cairo
import numpy as np


def canvas(side, line_diameter, padding):
    """The ARGB32 surface and context of `vector_to_raster`: antialias BEST, round caps and joins,
    the line width, `scale(s, s)` then the half-padding translation."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, side, side)
    ctx = cairo.Context(surface)
    ctx.set_antialias(cairo.ANTIALIAS_BEST)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    ctx.set_line_width(line_diameter)
    total_padding = padding * 2.0 + line_diameter
    scale = float(side) / float(256.0 + total_padding)
    ctx.scale(scale, scale)
    ctx.translate(total_padding / 2.0, total_padding / 2.0)
    return surface, ctx


def vector_to_raster(drawings, side=28, line_diameter=16, padding=16, white_on_black=True):
    """One uint8 row of side*side per drawing; each drawing is a list of (x, y) coordinate lists or
    (2, n) float arrays (used as they are, so `Benchmarks/Scripts/bench_raster_reference.py` times only the rendering)."""
    background, ink = ((0, 0, 0), (1, 1, 1)) if white_on_black else ((1, 1, 1), (0, 0, 0))
    surface, ctx = canvas(side, line_diameter, padding)
    rows = []
    for strokes in drawings:
        strokes = [np.asarray(stroke, dtype=float) for stroke in strokes]
        ctx.set_source_rgb(*background)
        ctx.paint()
        offset = (((256.0, 256.0) - np.hstack(strokes).max(axis=1)) / 2.0).reshape(-1, 1)
        ctx.set_source_rgb(*ink)
        for xv, yv in (stroke + offset for stroke in strokes):
            ctx.move_to(xv[0], yv[0])
            for x, y in zip(xv, yv):
                ctx.line_to(x, y)
            ctx.stroke()
        surface.flush()
        rows.append(np.copy(np.asarray(surface.get_data())[::4]))  # byte 0 of little-endian ARGB32 = blue
    return np.stack(rows)
