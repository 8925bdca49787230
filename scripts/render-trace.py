#!/usr/bin/env python3
"""Renders a trellis-run --trace file (Chrome trace JSON) as an SVG timeline.

Usage: render-trace.py TRACE.json OUT.svg [--title TEXT] [--from MS] [--to MS]

One row per track, in the trace's sort order: each device's own track
(compute, matmul, collectives, waits), then its transfer tracks (payloads in
flight). Uses only the Python standard library.
"""
import argparse
import html
import json
import sys

COLORS = {
    "matmul": "#1f5fa8",
    "compute": "#7fa7d6",
    "collective": "#c0392b",
    "wait": "#d5d5d5",
    "waiting for a core": "#eeeeee",
    "transfer": "#e69f00",
}
LEGEND = [
    ("matmul", "matmul (Eigen)"),
    ("compute", "other compute"),
    ("collective", "collective call (blocking)"),
    ("wait", "waiting for data"),
    ("transfer", "payload in flight"),
]


def color(event):
    if event["name"] == "matmul":
        return COLORS["matmul"]
    if event["name"] == "waiting for a core":
        return COLORS["waiting for a core"]
    return COLORS.get(event.get("cat", ""), "#999999")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("out")
    parser.add_argument("--title", default="")
    parser.add_argument("--from", dest="start", type=float, default=None,
                        help="start of the window, in ms")
    parser.add_argument("--to", dest="end", type=float, default=None,
                        help="end of the window, in ms")
    parser.add_argument("--width", type=int, default=1200)
    args = parser.parse_args()

    with open(args.trace) as f:
        trace = json.load(f)
    names, order, spans = {}, {}, {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e["name"] == "thread_name":
            names[e["tid"]] = e["args"]["name"]
        elif e.get("ph") == "M" and e["name"] == "thread_sort_index":
            order[e["tid"]] = e["args"]["sort_index"]
        elif e.get("ph") == "X":
            spans.setdefault(e["tid"], []).append(e)
    tracks = sorted(spans, key=lambda t: (order.get(t, t), t))
    if not tracks:
        sys.exit("render-trace: no spans in " + args.trace)

    t0 = min(e["ts"] for t in tracks for e in spans[t])
    t1 = max(e["ts"] + e["dur"] for t in tracks for e in spans[t])
    lo = t0 if args.start is None else args.start * 1e3
    hi = t1 if args.end is None else args.end * 1e3
    if hi <= lo:
        sys.exit("render-trace: empty window")

    label_w, row_h, top, right = 190, 18, 40, 20
    plot_w = args.width - label_w - right
    height = top + row_h * len(tracks) + 70

    def x(ts):
        return label_w + (ts - lo) / (hi - lo) * plot_w

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{args.width}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>']
    if args.title:
        out.append(f'<text x="{label_w}" y="18" font-size="13" '
                   f'font-weight="bold">{html.escape(args.title)}</text>')
    for row, tid in enumerate(tracks):
        y = top + row * row_h
        is_transfer = "transfers" in names.get(tid, "")
        if not is_transfer:
            out.append(f'<rect x="{label_w}" y="{y}" width="{plot_w}" '
                       f'height="{row_h}" fill="#f7f7f7"/>')
        out.append(f'<text x="{label_w - 6}" y="{y + row_h - 5}" '
                   f'text-anchor="end" fill="{"#a06800" if is_transfer else "black"}">'
                   f'{html.escape(names.get(tid, str(tid)))}</text>')
        for e in spans[tid]:
            s, d = e["ts"], e["dur"]
            if s + d < lo or s > hi:
                continue
            a, b = x(max(s, lo)), x(min(s + d, hi))
            w = max(b - a, 0.5)
            tip = f'{e["name"]}: {d / 1e3:.3f} ms'
            if e.get("args", {}).get("bytes"):
                tip += f', {e["args"]["bytes"]} bytes'
            out.append(f'<rect x="{a:.2f}" y="{y + 2}" width="{w:.2f}" '
                       f'height="{row_h - 4}" fill="{color(e)}">'
                       f'<title>{html.escape(tip)}</title></rect>')
    # Time axis.
    axis_y = top + row_h * len(tracks) + 4
    out.append(f'<line x1="{label_w}" y1="{axis_y}" x2="{label_w + plot_w}" '
               f'y2="{axis_y}" stroke="black"/>')
    span_ms = (hi - lo) / 1e3
    step = next(s for s in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500,
                            1000, 2000, 5000) if span_ms / s <= 12)
    tick = (int(lo / 1e3 / step) + 1) * step
    while tick * 1e3 <= hi:
        tx = x(tick * 1e3)
        out.append(f'<line x1="{tx:.1f}" y1="{axis_y}" x2="{tx:.1f}" '
                   f'y2="{axis_y + 4}" stroke="black"/>')
        out.append(f'<text x="{tx:.1f}" y="{axis_y + 16}" '
                   f'text-anchor="middle">{tick:g} ms</text>')
        tick += step
    # Legend.
    lx, ly = label_w, axis_y + 34
    for key, text in LEGEND:
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="12" height="10" '
                   f'fill="{COLORS[key]}"/>')
        out.append(f'<text x="{lx + 16}" y="{ly}">{html.escape(text)}</text>')
        lx += 30 + 7 * len(text)
    out.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
