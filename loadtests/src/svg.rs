//! The sweep's plot as a self-contained SVG (written by hand: no plotting dependency).
//!
//! Top panel: device → viewer latency p50 / p99 / p99.9 (log scale) against the frames per second
//! offered, one colour per target, with the p99 limit drawn across. Bottom panel: the target's
//! CPU per frame. Points where the generator saturated are drawn as crosses: they say nothing
//! about the target.

use std::fmt::Write as _;

use crate::sweep::{Point, Verdict};

const WIDTH: f64 = 900.0;
const PANEL: f64 = 300.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 180.0;
const TOP: f64 = 40.0;
const GAP: f64 = 70.0;
const COLOURS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

/// Escapes text for an SVG text node or attribute.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A linear or base-10 logarithmic axis mapping values to pixels.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    from_px: f64,
    to_px: f64,
}

impl Axis {
    fn px(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(self.lo).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.from_px + t.clamp(0.0, 1.0) * (self.to_px - self.from_px)
    }
}

/// A round upper bound for a linear axis.
fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * magnitude).find(|&c| c >= v).unwrap_or(10.0 * magnitude)
}

/// Renders the sweep.
pub fn plot(points: &[Point], p99_limit_ms: f64, rate_hz: f64) -> String {
    let mut targets: Vec<&str> = Vec::new();
    for p in points {
        if !targets.contains(&p.target.as_str()) {
            targets.push(&p.target);
        }
    }
    let height = TOP + 2.0 * PANEL + GAP + 60.0;
    let x_hi = nice_ceiling(1.05 * points.iter().map(|p| p.offered_fps).fold(0.0, f64::max));
    let x = Axis { lo: 0.0, hi: x_hi, log: false, from_px: LEFT, to_px: WIDTH - RIGHT };
    let lat = Axis { lo: 1.0, hi: 10_000.0, log: true, from_px: TOP + PANEL, to_px: TOP };
    let cpu_hi = nice_ceiling(1.05 * points.iter().filter_map(|p| p.cpu_us_per_frame).fold(0.0, f64::max));
    let cpu_top = TOP + PANEL + GAP;
    let cpu = Axis { lo: 0.0, hi: cpu_hi, log: false, from_px: cpu_top + PANEL, to_px: cpu_top };

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="20" font-size="14" font-weight="bold">Capacity sweep at {rate_hz} Hz per mat: device → viewer latency and CPU per frame</text>"#
    );

    // Frames: axes, grid and labels.
    for (axis, title) in [(&lat, "latency (ms, log)"), (&cpu, "CPU per frame (µs)")] {
        let (top, bottom) = (axis.to_px, axis.from_px);
        let _ =
            writeln!(s, r##"<rect x="{LEFT}" y="{top}" width="{}" height="{PANEL}" fill="none" stroke="#444"/>"##, WIDTH - RIGHT - LEFT);
        let _ = writeln!(
            s,
            r#"<text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">{}</text>"#,
            (top + bottom) / 2.0,
            (top + bottom) / 2.0,
            escape(title)
        );
        let ticks: Vec<f64> =
            if axis.log { vec![1.0, 10.0, 100.0, 1_000.0, 10_000.0] } else { (0..=4).map(|i| axis.hi * f64::from(i) / 4.0).collect() };
        for t in ticks {
            let y = axis.px(t);
            let _ = writeln!(s, r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#ddd"/>"##, WIDTH - RIGHT);
            let _ = writeln!(s, r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#, LEFT - 6.0, y + 4.0, t);
        }
        for i in 0..=4 {
            let v = x.hi * f64::from(i) / 4.0;
            let px = x.px(v);
            let _ = writeln!(s, r#"<text x="{px:.1}" y="{}" text-anchor="middle">{v:.0}</text>"#, bottom + 16.0);
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">frames per second offered</text>"#,
            (LEFT + WIDTH - RIGHT) / 2.0,
            bottom + 34.0
        );
    }
    let limit_y = lat.px(p99_limit_ms);
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{limit_y:.1}" x2="{}" y2="{limit_y:.1}" stroke="#d00" stroke-dasharray="6 4"/>"##,
        WIDTH - RIGHT
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{:.1}" fill="#d00" text-anchor="end">p99 limit {p99_limit_ms} ms</text>"##,
        WIDTH - RIGHT - 4.0,
        limit_y - 4.0
    );

    // Series.
    for (i, target) in targets.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mine: Vec<&Point> = points.iter().filter(|p| p.target == *target).collect();
        let line = |value: &dyn Fn(&Point) -> Option<f64>, axis: &Axis, dash: &str, width: f64, s: &mut String| {
            let coords: Vec<String> =
                mine.iter().filter_map(|p| value(p).map(|v| format!("{:.1},{:.1}", x.px(p.offered_fps), axis.px(v)))).collect();
            if !coords.is_empty() {
                let _ = writeln!(
                    s,
                    r#"<polyline data-target="{}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-dasharray="{dash}" points="{}"/>"#,
                    escape(target),
                    coords.join(" ")
                );
            }
        };
        line(&|p| Some(p.p99_ms), &lat, "none", 2.0, &mut s);
        line(&|p| Some(p.p50_ms), &lat, "2 3", 1.0, &mut s);
        line(&|p| Some(p.p999_ms), &lat, "8 3", 1.0, &mut s);
        line(&|p| p.cpu_us_per_frame, &cpu, "none", 2.0, &mut s);
        for p in &mine {
            let px = x.px(p.offered_fps);
            for (axis, v) in [(&lat, Some(p.p99_ms)), (&cpu, p.cpu_us_per_frame)] {
                let Some(v) = v else { continue };
                let py = axis.px(v);
                match p.verdict {
                    Verdict::GeneratorSaturated(_) => {
                        let _ = writeln!(
                            s,
                            r#"<path d="M{:.1},{:.1} l8,8 m0,-8 l-8,8" stroke="{colour}" stroke-width="2"><title>{} mats: generator saturated</title></path>"#,
                            px - 4.0,
                            py - 4.0,
                            p.mats
                        );
                    }
                    Verdict::Knee(_) => {
                        let _ = writeln!(
                            s,
                            r#"<circle cx="{px:.1}" cy="{py:.1}" r="5" fill="white" stroke="{colour}" stroke-width="2"><title>{} mats: knee</title></circle>"#,
                            p.mats
                        );
                    }
                    Verdict::Held => {
                        let _ = writeln!(
                            s,
                            r#"<circle cx="{px:.1}" cy="{py:.1}" r="4" fill="{colour}"><title>{} mats</title></circle>"#,
                            p.mats
                        );
                    }
                }
            }
        }
        let ly = TOP + 10.0 + 18.0 * i as f64;
        let lx = WIDTH - RIGHT + 14.0;
        let _ = writeln!(s, r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"/>"#, lx + 20.0);
        let _ = writeln!(s, r#"<text x="{}" y="{}">{}</text>"#, lx + 26.0, ly + 4.0, escape(target));
    }
    let ly = TOP + 10.0 + 18.0 * targets.len() as f64 + 10.0;
    let lx = WIDTH - RIGHT + 14.0;
    for (k, text) in ["solid: p99", "dotted: p50", "dashed: p99.9", "filled dot: held", "open dot: knee", "cross: generator saturated"]
        .iter()
        .enumerate()
    {
        let _ = writeln!(s, r##"<text x="{lx}" y="{}" font-size="10" fill="#444">{}</text>"##, ly + 14.0 * k as f64, escape(text));
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(target: &str, fps: f64, p99: f64, verdict: Verdict) -> Point {
        Point {
            target: target.to_owned(),
            mats: (fps / 10.0) as usize,
            viewers: 1,
            offered_fps: fps,
            sent_fps: fps,
            delivered_fps: fps,
            p50_ms: p99 / 4.0,
            p99_ms: p99,
            p999_ms: p99 * 2.0,
            cpu_us_per_frame: Some(40.0),
            cpu_percent: None,
            rss_mib: None,
            frames_lost: Some(0),
            connected: 0,
            verdict,
        }
    }

    #[test]
    fn one_series_per_target_with_markers_by_verdict() {
        let points = vec![
            pt("hub-quic", 2_500.0, 8.0, Verdict::Held),
            pt("hub-quic", 5_000.0, 80.0, Verdict::Knee(vec!["p99".into()])),
            pt("mosquitto<tls>", 2_500.0, 3.0, Verdict::GeneratorSaturated(vec!["cpu".into()])),
        ];
        let svg = plot(&points, 50.0, 10.0);
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches(r#"data-target="hub-quic""#).count(), 4, "p99, p50, p99.9 and CPU lines");
        assert_eq!(svg.matches(r#"data-target="mosquitto&lt;tls&gt;""#).count(), 4, "names are escaped");
        assert!(svg.contains("knee</title>"));
        assert!(svg.contains("generator saturated</title>"));
        assert!(svg.contains("p99 limit 50 ms"));
        assert!(!svg.contains("<tls>"));
    }

    #[test]
    fn axes() {
        let log = Axis { lo: 1.0, hi: 10_000.0, log: true, from_px: 300.0, to_px: 0.0 };
        assert!((log.px(100.0) - 150.0).abs() < 1e-9);
        assert_eq!(log.px(0.1), 300.0, "clamped below");
        assert_eq!(nice_ceiling(7_300.0), 10_000.0);
        assert_eq!(nice_ceiling(2_100.0), 2_500.0);
        assert_eq!(nice_ceiling(0.0), 1.0);
    }
}
