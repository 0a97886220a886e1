"""SVG charts drawn here, for the figures page: columns over days, horizontal
bars, and stacked shares. Each is a viewBox 400 units wide that the page scales
to its column, so at 412 px (a phone) a 13-unit label is about 13 px. Every
chart has a title, axes with labelled ticks, and an accessible name; text is
escaped. No script and no inline style: the page's CSP allows neither.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

WIDTH = 400
FONT = 13
INK = "#1f2328"
GRID = "#d0d7de"
BAR = "#2f6f9f"
SHADES = ("#f2f2f2", "#30363d", "#9a6700")  # white, black, draw: told apart by the legend too


def _nice_step(top: float, ticks: int = 4) -> float:
    if top <= 0:
        return 1.0
    raw = top / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw:
            return float(m * power)
    return float(10 * power)


def _number(value: float) -> str:
    if value >= 10_000:
        return f"{value / 1000:.0f}k"
    if value >= 1000:
        return f"{value / 1000:.1f}k".replace(".0k", "k")
    return f"{value:g}"


def _svg(title: str, height: int, body: list[str]) -> str:
    t = escape(title)
    return (f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{t}" '
            f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" font-size="{FONT}">'
            f'<title>{t}</title>' + "".join(body) + "</svg>")


def columns(title: str, points: Sequence[tuple[str, float]], y_label: str) -> str:
    """Vertical columns, one per point (e.g. per day), with a y axis of counts."""
    left, right, top, bottom = 44, 8, 26, 40
    height = 230
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    most = max((v for _, v in points), default=0)
    step = _nice_step(most)
    y_top = step * max(1, math.ceil(most / step))
    body = [f'<text x="0" y="14" fill="{INK}" font-weight="bold">{escape(y_label)}</text>']
    value = 0.0
    while value <= y_top + 1e-9:
        y = top + plot_h - plot_h * value / y_top
        body.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        body.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">{_number(value)}</text>')
        value += step
    n = max(len(points), 1)
    slot = plot_w / n
    label_every = max(1, math.ceil(n / 6))  # six labels at most: they stay legible on a phone
    for i, (label, v) in enumerate(points):
        h = plot_h * v / y_top
        x = left + i * slot
        body.append(f'<rect x="{x + slot * 0.1:.1f}" y="{top + plot_h - h:.1f}" width="{max(slot * 0.8, 0.5):.1f}" '
                    f'height="{h:.1f}" fill="{BAR}"><title>{escape(label)}: {_number(v)}</title></rect>')
        if i % label_every == 0:
            body.append(f'<text x="{x + slot / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle" '
                        f'fill="{INK}">{escape(label)}</text>')
    body.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="{INK}"/>')
    body.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="{INK}"/>')
    return _svg(title, height, body)


def bars(title: str, items: Sequence[tuple[str, float]], value_text: Sequence[str] | None = None) -> str:
    """Horizontal bars, one per labelled item, its value written at its end."""
    label_w, right, row, top = 150, 48, 24, 8
    height = top + row * max(len(items), 1) + 24
    plot_w = WIDTH - label_w - right
    most = max((v for _, v in items), default=0) or 1
    body = []
    for i, (label, v) in enumerate(items):
        y = top + i * row
        w = plot_w * v / most
        text = value_text[i] if value_text is not None else _number(v)
        body.append(f'<text x="{label_w - 6}" y="{y + 16}" text-anchor="end" fill="{INK}">{escape(label)}</text>')
        body.append(f'<rect x="{label_w}" y="{y + 4}" width="{w:.1f}" height="{row - 8}" fill="{BAR}"/>')
        body.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 16}" fill="{INK}">{escape(text)}</text>')
    axis_y = top + row * max(len(items), 1)
    body.append(f'<line x1="{label_w}" x2="{label_w}" y1="{top}" y2="{axis_y}" stroke="{INK}"/>')
    body.append(f'<line x1="{label_w}" x2="{label_w + plot_w}" y1="{axis_y}" y2="{axis_y}" stroke="{INK}"/>')
    body.append(f'<text x="{label_w}" y="{axis_y + 16}" fill="{INK}">0</text>')
    body.append(f'<text x="{label_w + plot_w}" y="{axis_y + 16}" text-anchor="end" fill="{INK}">{_number(most)}</text>')
    return _svg(title, height, body)


def shares(title: str, rows: Sequence[tuple[str, Sequence[float | None]]], parts: Sequence[str]) -> str:
    """One bar per row split into `parts` (fractions adding up to 1), with a legend
    and the percentages on the axis: e.g. white, black and draw per variant."""
    label_w, right, row, top = 150, 10, 26, 30
    height = top + row * max(len(rows), 1) + 24
    plot_w = WIDTH - label_w - right
    body = []
    x = 0
    for k, part in enumerate(parts):
        body.append(f'<rect x="{x}" y="4" width="14" height="14" fill="{SHADES[k]}" stroke="{INK}"/>')
        body.append(f'<text x="{x + 18}" y="16" fill="{INK}">{escape(part)}</text>')
        x += 18 + 9 * len(part) + 16
    for i, (label, fractions) in enumerate(rows):
        y = top + i * row
        body.append(f'<text x="{label_w - 6}" y="{y + 17}" text-anchor="end" fill="{INK}">{escape(label)}</text>')
        if all(f is None for f in fractions):
            body.append(f'<text x="{label_w + 4}" y="{y + 17}" fill="{INK}">no matches</text>')
            continue
        start = 0.0
        for k, f in enumerate(fractions):
            w = plot_w * (f or 0.0)
            body.append(f'<rect x="{label_w + start:.1f}" y="{y + 4}" width="{w:.1f}" height="{row - 8}" '
                        f'fill="{SHADES[k]}" stroke="{INK}" stroke-width="0.5">'
                        f'<title>{escape(label)}, {escape(parts[k])}: {100 * (f or 0):.0f}%</title></rect>')
            start += w
    axis_y = top + row * max(len(rows), 1)
    for pct in (0, 50, 100):
        px = label_w + plot_w * pct / 100
        anchor = "start" if pct == 0 else "end" if pct == 100 else "middle"
        body.append(f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{top}" y2="{axis_y}" stroke="{GRID}"/>')
        body.append(f'<text x="{px:.1f}" y="{axis_y + 16}" text-anchor="{anchor}" fill="{INK}">{pct}%</text>')
    return _svg(title, height, body)
