"""Learning curves as a small standalone SVG file (no plotting library needed).

``line_charts(panels)`` draws one chart per panel side by side; a panel is a
title, a y-axis label and its series ``(label, xs, ys)``. Colours repeat in the
same order in every panel, so a series keeps its colour across panels.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#393b79", "#ad494a")


@dataclass(frozen=True)
class Panel:
    title: str
    y_label: str
    series: Sequence[tuple[str, Sequence[float], Sequence[float]]]
    x_label: str = "interval"


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round-numbered ticks (steps of 1, 2 or 5 times a power of ten) covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def _panel(panel: Panel, left: float, width: float, height: float) -> list[str]:
    pad_l, pad_r, pad_t, pad_b = 56.0, 12.0, 28.0, 40.0
    xs = [x for _, sx, _ in panel.series for x in sx]
    ys = [y for _, _, sy in panel.series for y in sy]
    x0, x1 = (min(xs), max(xs)) if xs else (0.0, 1.0)
    y0, y1 = (min(ys), max(ys)) if ys else (0.0, 1.0)
    margin = (y1 - y0) * 0.05 or 0.5
    y0, y1 = y0 - margin, y1 + margin
    if x1 == x0:
        x1 = x0 + 1.0
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def px(x: float) -> float:
        return left + pad_l + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return pad_t + (1 - (y - y0) / (y1 - y0)) * plot_h

    out = [f'<text x="{left + width / 2:.1f}" y="18" text-anchor="middle" font-weight="bold">'
           f'{escape(panel.title)}</text>',
           f'<rect x="{left + pad_l:.1f}" y="{pad_t:.1f}" width="{plot_w:.1f}" height="{plot_h:.1f}" '
           'fill="none" stroke="#999"/>']
    for y in _ticks(y0, y1):
        out.append(f'<line x1="{left + pad_l:.1f}" x2="{left + pad_l + plot_w:.1f}" y1="{py(y):.1f}" '
                   f'y2="{py(y):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{left + pad_l - 4:.1f}" y="{py(y) + 4:.1f}" text-anchor="end" '
                   f'font-size="10">{y:.3g}</text>')
    for x in _ticks(x0, x1):
        out.append(f'<text x="{px(x):.1f}" y="{pad_t + plot_h + 14:.1f}" text-anchor="middle" '
                   f'font-size="10">{x:.3g}</text>')
    out.append(f'<text x="{left + pad_l + plot_w / 2:.1f}" y="{height - 6:.1f}" text-anchor="middle" '
               f'font-size="11">{escape(panel.x_label)}</text>')
    out.append(f'<text x="{left + 14:.1f}" y="{pad_t + plot_h / 2:.1f}" text-anchor="middle" font-size="11" '
               f'transform="rotate(-90 {left + 14:.1f} {pad_t + plot_h / 2:.1f})">{escape(panel.y_label)}</text>')
    for k, (_label, sx, sy) in enumerate(panel.series):
        points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(sx, sy))
        out.append(f'<polyline points="{points}" fill="none" stroke="{COLOURS[k % len(COLOURS)]}" '
                   'stroke-width="1.6"/>')
    return out


def line_charts(panels: list[Panel], title: str, panel_width: float = 360, height: float = 280) -> str:
    """An SVG document with the panels side by side and one legend below them."""
    labels = [label for label, _, _ in panels[0].series] if panels else []
    legend_rows = (len(labels) + 2) // 3
    total_w = panel_width * max(1, len(panels))
    total_h = height + 30 + 18 * legend_rows
    body = [f'<text x="8" y="{height + 20:.1f}" font-size="12" font-weight="bold">{escape(title)}</text>']
    for i, panel in enumerate(panels):
        body += _panel(panel, i * panel_width, panel_width, height)
    for k, label in enumerate(labels):
        row, col = divmod(k, 3)
        x, y = 8 + col * (total_w / 3), height + 38 + 18 * row
        body.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="14" height="4" '
                    f'fill="{COLOURS[k % len(COLOURS)]}"/>')
        body.append(f'<text x="{x + 20:.1f}" y="{y - 4:.1f}" font-size="11">{escape(label)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
            f'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>'
            + "".join(body) + "</svg>\n")
