#!/usr/bin/env python3
"""The soak's verdict, summary and plot, from the samples `scripts/soak.sh` wrote.

Reads OUT/samples.csv (one row per sample) and OUT/cycle-*.json (the loadtests reports of each
cycle); writes OUT/summary.json and OUT/soak.svg (RSS and open descriptors over time); exits 1
when a bound is broken:

- RSS: the peak of the second half of the run (after warm-up) is at most the first half's peak
  times (1 + pct/100) plus MiB;
- descriptors: the second half's peak is at most the first half's peak plus N;
- frames lost at the hub: hub_frames_dropped_ingest_total did not increase, and every frame
  received was processed by the last sample (taken after the load stopped).
"""

import argparse
import csv
import glob
import json
import os
import sys


def load_samples(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    def num(value):
        try:
            return float(value)
        except (TypeError, ValueError):
            return None
    return [{k: num(v) for k, v in row.items()} for row in rows]


def halves(rows, warmup):
    steady = [r for r in rows if r["elapsed_s"] >= warmup] or rows
    middle = steady[0]["elapsed_s"] + (steady[-1]["elapsed_s"] - steady[0]["elapsed_s"]) / 2
    first = [r for r in steady if r["elapsed_s"] <= middle]
    second = [r for r in steady if r["elapsed_s"] > middle] or first
    return first, second


def verdict(rows, warmup, rss_pct, rss_mib, fd_growth):
    first, second = halves(rows, warmup)
    rss_first = max(r["rss_kib"] for r in first) / 1024
    rss_second = max(r["rss_kib"] for r in second) / 1024
    rss_bound = rss_first * (1 + rss_pct / 100) + rss_mib
    fd_first = max(r["fds"] for r in first)
    fd_second = max(r["fds"] for r in second)
    counters = [r for r in rows if r["frames_received"] is not None]
    dropped = counters[-1]["frames_dropped_ingest"] - counters[0]["frames_dropped_ingest"] if counters else None
    unprocessed = counters[-1]["frames_received"] - counters[-1]["frames_processed"] if counters else None
    checks = {
        "rss": {"first_half_peak_mib": round(rss_first, 1), "second_half_peak_mib": round(rss_second, 1),
                "bound_mib": round(rss_bound, 1), "pass": rss_second <= rss_bound},
        "fds": {"first_half_peak": fd_first, "second_half_peak": fd_second, "bound": fd_first + fd_growth,
                "pass": fd_second <= fd_first + fd_growth},
        "frames_lost_at_hub": {"dropped_at_ingest": dropped, "received_not_processed": unprocessed,
                               "pass": dropped == 0 and unprocessed == 0},
    }
    return checks


def cycles(out):
    reports = []
    for path in sorted(glob.glob(os.path.join(out, "cycle-*.json"))):
        with open(path) as f:
            reports.append(json.load(f))
    sent = sum(r["devices"]["frames_sent"] for r in reports)
    p99 = [r["latency_us"].get("p99") for r in reports if r.get("latency_us")]
    p99 = [v for v in p99 if v is not None]
    return {"cycles": len(reports), "frames_sent_in_windows": sent,
            "device_connects": sum(r["devices"]["connects"] for r in reports),
            "worst_cycle_latency_p99_ms": round(max(p99) / 1000, 1) if p99 else None}


def polyline(points, x_of, y_of):
    return " ".join(f"{x_of(x):.1f},{y_of(y):.1f}" for x, y in points)


def svg(rows, title):
    """Two panels sharing the time axis: RSS (MiB) above, open descriptors below."""
    width, panel, left, top, gap = 720, 180, 70, 40, 50
    height = top + 2 * panel + gap + 40
    t_max = max(r["elapsed_s"] for r in rows) or 1
    x_of = lambda t: left + (width - left - 20) * t / t_max
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="20" font-size="14">{title}</text>']
    series = [("RSS (MiB)", [(r["elapsed_s"], r["rss_kib"] / 1024) for r in rows], "#1f77b4"),
              ("open file descriptors", [(r["elapsed_s"], r["fds"]) for r in rows], "#d62728")]
    for i, (label, points, colour) in enumerate(series):
        y0 = top + i * (panel + gap)
        values = [v for _, v in points]
        low, high = 0, max(values) * 1.15 or 1
        y_of = lambda v, y0=y0, high=high: y0 + panel - panel * (v - low) / (high - low)
        parts.append(f'<rect x="{left}" y="{y0}" width="{width - left - 20}" height="{panel}" fill="none" stroke="#999"/>')
        for k in range(5):
            v = low + (high - low) * k / 4
            parts.append(f'<text x="{left - 6}" y="{y_of(v) + 4:.1f}" text-anchor="end">{v:.0f}</text>')
            parts.append(f'<line x1="{left}" x2="{width - 20}" y1="{y_of(v):.1f}" y2="{y_of(v):.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{left + 6}" y="{y0 + 14}" fill="{colour}">{label}</text>')
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{polyline(points, x_of, y_of)}"/>')
        for x, y in points:
            parts.append(f'<circle cx="{x_of(x):.1f}" cy="{y_of(y):.1f}" r="2.5" fill="{colour}"/>')
    axis_y = top + 2 * panel + gap
    for k in range(6):
        t = t_max * k / 5
        parts.append(f'<text x="{x_of(t):.1f}" y="{axis_y + 16}" text-anchor="middle">{t / 60:.1f}</text>')
    parts.append(f'<text x="{left + (width - left) / 2}" y="{axis_y + 34}" text-anchor="middle">minutes</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out")
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument("--rss-growth-pct", type=float, default=10)
    parser.add_argument("--rss-growth-mib", type=float, default=16)
    parser.add_argument("--fd-growth", type=float, default=8)
    parser.add_argument("--command", default="")
    parser.add_argument("--hub-bin", default="")
    args = parser.parse_args()
    rows = load_samples(os.path.join(args.out, "samples.csv"))
    if len(rows) < 3:
        print(f"soak: only {len(rows)} samples; run longer than three sample periods", file=sys.stderr)
        return 1
    checks = verdict(rows, args.warmup, args.rss_growth_pct, args.rss_growth_mib, args.fd_growth)
    passed = all(c["pass"] for c in checks.values())
    summary = {"command": args.command, "hub_bin": args.hub_bin, "samples": len(rows),
               "duration_s": rows[-1]["elapsed_s"], "checks": checks, "load": cycles(args.out), "pass": passed}
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(args.out, "soak.svg"), "w") as f:
        f.write(svg(rows, f"hub soak: {args.command}"))
    print(json.dumps(summary, indent=2))
    print(f"soak: {'PASS' if passed else 'FAIL'} ({args.out}/summary.json, {args.out}/soak.svg)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
