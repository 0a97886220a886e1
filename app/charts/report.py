"""Charts saved as files beside a report (the bots' balance report,
docs/balance/*.svg): bars, grouped or stacked, with optional error bars, on a
white ground of a fixed size, so they read the same in any viewer."""

from __future__ import annotations

from html import escape

from .scale import axis

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 40, 96


def _text(x: float, y: float, text: str, size: int = 12, anchor: str = "middle",
          rotate: float = 0.0, weight: str = "normal") -> str:
    turn = f' transform="rotate({rotate:g} {x:.1f} {y:.1f})"' if rotate else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{turn}>{escape(text)}</text>')


def bars(title: str, labels: list[str], series: dict[str, list[float]], *,
         errors: dict[str, list[tuple[float, float]]] | None = None, stacked: bool = False,
         y_label: str = "", top: float | None = None, low: float = 0.0,
         line: float | None = None, percent: bool = False) -> str:
    """A bar chart: one group of bars per label, one bar (or stack part) per
    series. `errors` are (low, high) per bar; `line` draws a dashed reference
    (e.g. 50%); `low` below zero allows bars that go down. The y axis reaches
    `low` and `top` (the tallest bar when None), each rounded out to a tick."""
    names = list(series)
    n = len(labels)
    if stacked:
        peak = max((sum(series[s][i] for s in names) for i in range(n)), default=1.0)
    else:
        peak = max((v for s in names for v in series[s]), default=1.0)
        if errors:
            peak = max([peak] + [hi for s in errors for _, hi in errors[s]])
    scale = axis(low, top if top is not None else peak)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: float) -> float:
        return scale.at(value, TOP + plot_h, TOP)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" role="img">',
           f'<title>{escape(title)}</title>',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           _text(WIDTH / 2, 22, title, 15, weight="bold")]
    for value in scale.ticks:
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
                   f'stroke="#ddd"/>')
        shown = f"{100 * value:.4g}%" if percent else f"{value:g}"  # 12.5%, not 12%
        out.append(_text(LEFT - 6, y(value) + 4, shown, 11, "end"))
    if y_label:
        out.append(_text(16, TOP + plot_h / 2, y_label, 12, rotate=-90))
    group = plot_w / max(n, 1)
    bar_w = group * 0.8 / (1 if stacked else max(len(names), 1))
    for i, label in enumerate(labels):
        x0 = LEFT + group * i + group * 0.1
        base = 0.0
        for j, name in enumerate(names):
            value = series[name][i]
            colour = PALETTE[j % len(PALETTE)]
            x = x0 if stacked else x0 + j * bar_w
            a, b = (base, base + value) if stacked else (0.0, value)
            y_hi, y_lo = y(max(a, b)), y(min(a, b))
            out.append(f'<rect x="{x:.1f}" y="{y_hi:.1f}" width="{bar_w:.1f}" '
                       f'height="{max(y_lo - y_hi, 0):.1f}" fill="{colour}"><title>{escape(label)} · '
                       f'{escape(name)}: {value:.3g}</title></rect>')
            if errors and name in errors:
                lo, hi = errors[name][i]
                cx = x + bar_w / 2
                out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" '
                           f'stroke="black"/>')
                for v in (lo, hi):
                    out.append(f'<line x1="{cx - 4:.1f}" x2="{cx + 4:.1f}" y1="{y(v):.1f}" '
                               f'y2="{y(v):.1f}" stroke="black"/>')
            base += value if stacked else 0.0
        rotate = -35.0 if n > 8 else 0.0
        out.append(_text(LEFT + group * (i + 0.5), HEIGHT - BOTTOM + 16, label, 11,
                         "end" if rotate else "middle", rotate))
    if line is not None:
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(line):.1f}" y2="{y(line):.1f}" '
                   f'stroke="#c00" stroke-dasharray="6 4"/>')
    if low < 0:
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#555"/>')
    if len(names) > 1:
        for j, name in enumerate(names):
            x = LEFT + j * 130
            out.append(f'<rect x="{x}" y="{HEIGHT - 22}" width="12" height="12" '
                       f'fill="{PALETTE[j % len(PALETTE)]}"/>')
            out.append(_text(x + 16, HEIGHT - 12, name, 11, "start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
