"""Charts drawn into a page: columns over days, horizontal bars, stacked shares
(the admin's figures) and a line over time. Each is a viewBox 400 units wide
that the page scales to its column, so at 412 px (a phone) a 13-unit label is
about 13 px. Every chart has a title, axes with labelled ticks, and an
accessible name; text is escaped. No script and no inline style: the pages'
content security policy allows neither.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime
from html import escape

from .scale import Axis, axis

WIDTH = 400
FONT = 13
INK = "#1f2328"
GRID = "#d0d7de"
BAR = "#2f6f9f"
SHADES = ("#f2f2f2", "#30363d", "#9a6700")  # white, black, draw: told apart by the legend too


def count(value: float) -> str:
    """A count short enough for a tick: 950, 1.2k, 12k."""
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


def _y_axis(scale: Axis, left: int, right: int, top: int, plot_h: int, y_label: str,
            shown: Callable[[float], str]) -> list[str]:
    """The y axis's name above it, and a labelled grid line at each tick."""
    body = [f'<text x="0" y="14" fill="{INK}" font-weight="bold">{escape(y_label)}</text>']
    for value in scale.ticks:
        y = scale.at(value, top + plot_h, top)
        body.append(f'<line x1="{left}" x2="{WIDTH - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        body.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" fill="{INK}">{shown(value)}</text>')
    return body


def _frame(left: int, right: int, top: int, plot_h: int) -> list[str]:
    return [f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="{INK}"/>',
            f'<line x1="{left}" x2="{WIDTH - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="{INK}"/>']


def columns(title: str, points: Sequence[tuple[str, float]], y_label: str) -> str:
    """Vertical columns, one per point (e.g. per day), with a y axis of counts."""
    left, right, top, bottom = 44, 8, 26, 40
    height = 230
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    scale = axis(0.0, max((v for _, v in points), default=0))
    body = _y_axis(scale, left, right, top, plot_h, y_label, count)
    n = max(len(points), 1)
    slot = plot_w / n
    label_every = max(1, math.ceil(n / 6))  # six labels at most: they stay legible on a phone
    for i, (label, v) in enumerate(points):
        h = plot_h * v / scale.high
        x = left + i * slot
        body.append(f'<rect x="{x + slot * 0.1:.1f}" y="{top + plot_h - h:.1f}" width="{max(slot * 0.8, 0.5):.1f}" '
                    f'height="{h:.1f}" fill="{BAR}"><title>{escape(label)}: {count(v)}</title></rect>')
        if i % label_every == 0:
            body.append(f'<text x="{x + slot / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle" '
                        f'fill="{INK}">{escape(label)}</text>')
    return _svg(title, height, body + _frame(left, right, top, plot_h))


def line(title: str, points: Sequence[tuple[datetime, float]], y_label: str) -> str:
    """A line through values over time (e.g. a rating after each match): x in
    proportion to time, the first, middle and last dates under it, and a y axis
    around the values rather than from zero. Each point's date and value are its
    tooltip."""
    left, right, top, bottom = 48, 12, 26, 40
    height = 230
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    values = [v for _, v in points]
    low, high = min(values, default=0.0), max(values, default=0.0)
    if low == high:  # one value: a band around it, so the line sits mid-height
        pad = max(abs(low) / 100, 1.0)
        low, high = low - pad, high + pad
    scale = axis(low, high)
    body = _y_axis(scale, left, right, top, plot_h, y_label, lambda v: f"{v:g}")
    if points:
        first, last = points[0][0].timestamp(), points[-1][0].timestamp()
        span = last - first

        def x_of(when: datetime) -> float:
            return left + plot_w * ((when.timestamp() - first) / span if span else 0.5)

        spots = [(x_of(when), scale.at(v, top + plot_h, top), when, v) for when, v in points]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in spots)
        body.append(f'<polyline points="{path}" fill="none" stroke="{BAR}" stroke-width="2"/>')
        body += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{BAR}"><title>'
                 f'{when:%Y-%m-%d}: {v:g}</title></circle>' for x, y, when, v in spots]
        # Each date once: matches of one day are that day, in the middle, not three
        # labels saying the same; a middle date the ends already say is left out.
        ends = f"{points[0][0]:%Y-%m-%d}", f"{points[-1][0]:%Y-%m-%d}"
        if span and ends[0] != ends[1]:
            middle = datetime.fromtimestamp(first + span / 2, points[0][0].tzinfo)
            dates = [(ends[0], left, "start"), (f"{middle:%Y-%m-%d}", left + plot_w / 2, "middle"),
                     (ends[1], WIDTH - right, "end")]
            dates = [d for d in dates if d[2] != "middle" or d[0] not in ends]
        else:
            dates = [(ends[0], left + plot_w / 2, "middle")]
        body += [f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="{anchor}" fill="{INK}">'
                 f'{day}</text>' for day, x, anchor in dates]
    return _svg(title, height, body + _frame(left, right, top, plot_h))


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
        text = value_text[i] if value_text is not None else count(v)
        body.append(f'<text x="{label_w - 6}" y="{y + 16}" text-anchor="end" fill="{INK}">{escape(label)}</text>')
        body.append(f'<rect x="{label_w}" y="{y + 4}" width="{w:.1f}" height="{row - 8}" fill="{BAR}"/>')
        body.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 16}" fill="{INK}">{escape(text)}</text>')
    axis_y = top + row * max(len(items), 1)
    body.append(f'<line x1="{label_w}" x2="{label_w}" y1="{top}" y2="{axis_y}" stroke="{INK}"/>')
    body.append(f'<line x1="{label_w}" x2="{label_w + plot_w}" y1="{axis_y}" y2="{axis_y}" stroke="{INK}"/>')
    body.append(f'<text x="{label_w}" y="{axis_y + 16}" fill="{INK}">0</text>')
    body.append(f'<text x="{label_w + plot_w}" y="{axis_y + 16}" text-anchor="end" fill="{INK}">{count(most)}</text>')
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
