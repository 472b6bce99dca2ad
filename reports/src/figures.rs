//! The figures a report prints for each kind of analysis, with their units: the key figures of
//! the summary page and the rest for a further page. Each kind has its own: feet on a podology
//! plate, the seat's loads, the bed's body regions (never feet), gait, balance, seating over
//! time, and the rehab grades.

use mat_core::analysis::bed_static::{BodyRegion, bed_static};
use mat_core::analysis::body_centre::BodyCentreQuality;
use mat_core::analysis::dynamic_podology::{ERROR_EVENTS_OUT_OF_ORDER, FootGait};
use mat_core::analysis::seating::lying;
use mat_core::analysis::seating_static::seating_static;
use mat_core::analysis::units::{MMHG_PER_KPA, cell_pitch_cm, is_mattress};
use mat_core::analysis::{
    AnalysisResult, BedStaticResult, NamedParameter, ParameterValue, PressureFrame, SeatingStaticResult, StaticResult,
};
use mat_protocol::device_type::{DeviceType, PageFamily};

use crate::i18n::{Language, Text, text, weight_basis};
use crate::input::ReportMap;
use crate::pressure_unit::{PressureScale, PressureUnit};

/// A printed figure: label and value with its unit.
pub type Figure = (String, String);

/// The figures of one report: those on the summary page, and the rest.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figures {
    pub key: Vec<Figure>,
    pub detail: Vec<Figure>,
}

/// What a static map is of, which decides its figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaticBody {
    /// Two feet on a plate or floor mat.
    Feet,
    /// A seated person.
    Seat,
    /// A person lying on a bed.
    Bed,
}

impl StaticBody {
    /// The body a static map of `device` shows.
    pub fn of(device: DeviceType) -> StaticBody {
        if is_mattress(device) || device == DeviceType::SleepMat {
            StaticBody::Bed
        } else if matches!(device.page_family(), PageFamily::Seating | PageFamily::SeatedPosition) {
            StaticBody::Seat
        } else {
            StaticBody::Feet
        }
    }
}

/// A number with `decimals` places, the language's decimal separator (a comma everywhere but en
/// and ja) and its thousands grouped as the screens group them (the browser's `Intl`): "10,304"
/// in en and ja, "10.304" in el, es, it and nl, a narrow no-break space in fr, a no-break space
/// in ru; es and it leave four digits ungrouped ("1344").
pub fn format_number(lang: Language, value: f64, decimals: usize) -> String {
    let s = format!("{value:.decimals$}");
    let (sign, digits) = s.strip_prefix('-').map_or(("", s.as_str()), |rest| ("-", rest));
    let (whole, fraction) = digits.split_once('.').map_or((digits, None), |(w, f)| (w, Some(f)));
    let (group, point, fewest) = match lang {
        Language::En | Language::Ja => (",", ".", 4),
        Language::El | Language::Nl => (".", ",", 4),
        Language::Es | Language::It => (".", ",", 5),
        Language::Fr => ("\u{202f}", ",", 4),
        Language::Ru => ("\u{a0}", ",", 4),
    };
    let mut out = String::from(sign);
    for (i, digit) in whole.chars().enumerate() {
        let left = whole.len() - i;
        if i > 0 && left % 3 == 0 && whole.len() >= fewest {
            out.push_str(group);
        }
        out.push(digit);
    }
    if let Some(fraction) = fraction {
        out.push_str(point);
        out.push_str(fraction);
    }
    out
}

struct Writer<'a> {
    lang: Language,
    scale: &'a PressureScale,
    /// The device's full scale in its steps (`scale::full_scale_steps`), where its cells are
    /// pressures: a cell there saturated.
    full_scale: Option<f64>,
}

impl Writer<'_> {
    fn t(&self, x: Text) -> String {
        text(self.lang, x).to_owned()
    }
    fn n(&self, v: f64, d: usize) -> String {
        format_number(self.lang, v, d)
    }
    /// A cell value as a pressure with its unit.
    fn pressure(&self, cell: f64) -> String {
        format!("{} {}", self.n(self.scale.pressure(cell), self.scale.decimals()), self.scale.symbol())
    }
    /// The highest cell a sensor read, as a pressure: "≥ …" at the device's full scale (the cell
    /// saturated; the pressure there may be higher).
    fn reading(&self, cell: f64) -> String {
        self.at_least(self.full_scale.is_some_and(|top| cell >= top), self.pressure(cell))
    }
    /// `value` marked as a lower bound when `saturated`.
    fn at_least(&self, saturated: bool, value: String) -> String {
        if saturated { format!("≥ {value}") } else { value }
    }
    /// A seat's or a bed's figure in mmHg that may read the map's highest cell (the maximum
    /// `max_mmhg`, or a peak equal to it): "≥" when that cell was at the full scale (`saturated`,
    /// the engine's `max_at_full_scale`); the client's `formatMmhgReading`.
    fn mmhg_reading(&self, mmhg: f64, max_mmhg: f64, saturated: bool) -> String {
        self.at_least(saturated && mmhg == max_mmhg, self.mmhg(mmhg))
    }
    /// A pressure mat-core gives in mmHg, in the report's unit.
    fn mmhg(&self, mmhg: f64) -> String {
        let value = match self.scale.unit {
            PressureUnit::MmHg => mmhg,
            PressureUnit::KPa => mmhg / MMHG_PER_KPA,
        };
        format!("{} {}", self.n(value, self.scale.decimals()), self.scale.symbol())
    }
    fn cm2(&self, v: f64) -> String {
        format!("{} cm²", self.n(v, 0))
    }
    fn percent(&self, v: f64) -> String {
        format!("{} %", self.n(v, 1))
    }
    /// A point on the map, each axis named ("x 11.0 cm · y 19.0 cm"; "11,0 ; 19,0 cm" read as
    /// one list in the languages with a decimal comma), as the client's static view writes it.
    fn point_cm(&self, x: f64, y: f64) -> String {
        format!("x {} cm · y {} cm", self.n(x, 1), self.n(y, 1))
    }
    fn seconds(&self, v: f64, d: usize) -> String {
        format!("{} {}", self.n(v, d), self.t(Text::SecondsUnit))
    }
    fn of_foot(&self, foot: Text, what: Text) -> String {
        format!("{} — {}", self.t(foot), self.t(what))
    }
}

/// The figures of `result` for a map of `device` drawn from `map`, pressures on `scale`.
pub fn figures(result: &AnalysisResult, device: DeviceType, map: &ReportMap, scale: &PressureScale, lang: Language) -> Figures {
    let w = Writer { lang, scale, full_scale: mat_protocol::scale::full_scale_steps(device).map(f64::from) };
    let mut f = Figures::default();
    pressure_basis(&w, result, &mut f);
    match result {
        AnalysisResult::Static(r) => static_figures(&w, r, device, map, &mut f),
        AnalysisResult::SeatingStatic(r) => seat_figures(&w, r, &mut f),
        AnalysisResult::BedStatic(r) => bed_figures(&w, r, &mut f),
        AnalysisResult::Dynamic(r) => {
            // The steps' list says what its columns are: "Contact → toe-off (stance) · Rockers (heel / ankle / forefoot), %".
            if r.left.stances.len() + r.right.stances.len() > 0 {
                f.detail.push((String::new(), format!("{} · {}, %", w.t(Text::StepTimes), w.t(Text::Rockers))));
            }
            for (foot, gait, max_series) in [(Text::LeftFoot, &r.left, "leftMaxPressure"), (Text::RightFoot, &r.right, "rightMaxPressure")]
            {
                f.key.push((w.of_foot(foot, Text::Steps), gait.stances.len().to_string()));
                let stance_times: Vec<f64> = gait.stances.iter().map(|s| s.events.toe_off_s - s.events.initial_contact_s).collect();
                if !stance_times.is_empty() {
                    let mean = stance_times.iter().sum::<f64>() / stance_times.len() as f64;
                    f.key.push((w.of_foot(foot, Text::StanceTime), w.seconds(mean, 2)));
                }
                f.key.push((w.of_foot(foot, Text::Rockers), rockers(&w, gait)));
                if let Some(peak) = series_max(&r.additional_parameters, max_series) {
                    f.key.push((w.of_foot(foot, Text::MaxPressure), w.reading(peak)));
                }
                for (i, stance) in gait.stances.iter().enumerate() {
                    let e = &stance.events;
                    let value = match &stance.rockers {
                        Some(k) => format!(
                            "{} → {} ({}) · {} / {} / {} %",
                            w.seconds(e.initial_contact_s, 2),
                            w.seconds(e.toe_off_s, 2),
                            w.seconds(e.toe_off_s - e.initial_contact_s, 2),
                            w.n(k.heel_rocker_share, 0),
                            w.n(k.ankle_rocker_share, 0),
                            w.n(k.forefoot_rocker_share, 0)
                        ),
                        None => format!(
                            "{} → {} ({})",
                            w.seconds(e.initial_contact_s, 2),
                            w.seconds(e.toe_off_s, 2),
                            w.seconds(e.toe_off_s - e.initial_contact_s, 2)
                        ),
                    };
                    f.detail.push((format!("{} {}", w.of_foot(foot, Text::Step), i + 1), value));
                }
            }
            f.key.push((w.t(Text::Duration), w.seconds(r.duration_s, 1)));
        }
        AnalysisResult::Balance(r) => {
            f.key.push((w.t(Text::SwayPath), format!("{} cm", w.n(r.sway_path_length_cm, 1))));
            f.key.push((w.t(Text::MeanVelocity), format!("{} cm/s", w.n(r.mean_velocity_cm_s, 2))));
            f.key.push((w.t(Text::EllipseArea), format!("{} cm²", w.n(r.confidence_ellipse_area_cm2, 2))));
            f.key.push((w.t(Text::Duration), w.seconds(r.duration_s, 1)));
        }
        AnalysisResult::SeatingDynamic(r) => {
            // The PPI is the load of the 10 cm × 10 cm window around the peak: printed as the
            // window's mean pressure (the engine's figure), so it reads in the report's unit.
            f.key.push((w.t(Text::PeakPressureIndex), w.pressure(r.ppi_mean(device))));
            // A bed's has neither (mat-core's `seating`: no ischial windows, no push-ups lying
            // down), even a record stored with a dispersion index before.
            if let Some(dispersion_index) = r.dispersion_index_on(device) {
                f.key.push((w.t(Text::DispersionIndex), w.percent(dispersion_index)));
            }
            if !lying(device) {
                f.key.push((w.t(Text::PushUps), r.push_ups.as_ref().map_or(0, Vec::len).to_string()));
            }
            f.key.push((w.t(Text::Duration), w.seconds(r.duration_s, 1)));
            for (i, p) in r.push_ups.iter().flatten().enumerate() {
                f.detail.push((
                    format!("{} {}", w.t(Text::PushUps), i + 1),
                    format!("{} ({})", w.seconds(p.start_s, 1), w.seconds(p.duration_s, 1)),
                ));
            }
        }
        AnalysisResult::Fitting(r) | AnalysisResult::Rehab(r) => {
            let quality = match r.quality {
                BodyCentreQuality::Good => Text::Good,
                BodyCentreQuality::Bad => Text::Bad,
                BodyCentreQuality::Uncomplete => Text::Uncomplete,
            };
            f.key.push((w.t(Text::DistanceToCentre), format!("{} cm — {}", w.n(r.distance_cm, 1), w.t(quality))));
            let pitch = cell_pitch_cm(device);
            for ring in &r.rings {
                // The spec's rings are named by their radius in cells: 11, 18 and 25.
                let name = format!("{} {} ({} cm)", w.t(Text::InsideRing), w.n(ring.radius, 0), w.n(ring.radius * pitch, 0));
                f.key.push((name, w.percent(ring.share)));
            }
        }
    }
    f
}

/// Which scale the page's pressures read (every kind: a walk's and a seat's series are pressures
/// too), first on the page: the fitness variant's kPa (spec §1), the weighed patient's
/// calibration (spec §9's 0.7 of the given weight, in the screen's words: "70 % of 72 kg on the
/// surface") or the sensor's documented step.
fn pressure_basis(w: &Writer<'_>, result: &AnalysisResult, f: &mut Figures) {
    if matches!(result, AnalysisResult::Balance(_)) {
        return; // sway in cm and cm/s: no pressure on the page
    }
    let basis = match (w.scale.fitness, result.weight_calibration()) {
        (true, _) => w.t(Text::FitnessBasis),
        (false, Some(c)) => weight_basis(w.lang, &w.n(c.load_share * 100.0, 0), &w.n(c.weight_kg, 1)),
        (false, None) => w.t(Text::SensorBasis),
    };
    f.key.push((w.t(Text::PressureScaleLabel), basis));
}

fn static_figures(w: &Writer<'_>, r: &StaticResult, device: DeviceType, map: &ReportMap, f: &mut Figures) {
    match StaticBody::of(device) {
        StaticBody::Feet => {
            for (foot, front, back, global, surface, peak) in [
                (
                    Text::LeftFoot,
                    r.left_front_pressure_distribution,
                    r.left_back_pressure_distribution,
                    r.left_global_pressure_distribution,
                    r.left_global_surface,
                    r.left_pressure_maximum,
                ),
                (
                    Text::RightFoot,
                    r.right_front_pressure_distribution,
                    r.right_back_pressure_distribution,
                    r.right_global_pressure_distribution,
                    r.right_global_surface,
                    r.right_pressure_maximum,
                ),
            ] {
                f.key.push((
                    w.of_foot(foot, Text::LoadDistribution),
                    format!("{} ({} {} / {} %)", w.percent(global), w.t(Text::FrontBack), w.n(front, 1), w.n(back, 1)),
                ));
                f.key.push((w.of_foot(foot, Text::Surface), w.cm2(surface)));
                if let Some([_, _, value]) = peak {
                    f.key.push((w.of_foot(foot, Text::MaxPressure), w.reading(value)));
                }
            }
            // Each foot's surface is its contact area (the spec's whole-map contact area counts
            // podology cells at 1 cm², which would contradict it).
            f.key.push((w.t(Text::MeanPressure), w.pressure(r.avg_pressure)));
            let pitch = cell_pitch_cm(device);
            let point = |p: Option<[f64; 2]>| p.map_or_else(|| "—".to_owned(), |[x, y]| w.point_cm(x * pitch, y * pitch));
            f.detail.push((w.of_foot(Text::LeftFoot, Text::CenterOfPressure), point(r.left_center_of_pressure)));
            f.detail.push((w.of_foot(Text::RightFoot, Text::CenterOfPressure), point(r.right_center_of_pressure)));
            f.detail.push((w.t(Text::ActivePoints), r.active_points_total.to_string()));
            if r.footprint_edge_warning {
                f.key.push((w.t(Text::EdgeWarning), String::new()));
            }
        }
        // Records stored before issue 21 hold a feet result for seats and beds: their map is
        // read again by the seat's or the bed's own engine (mat-core), never printed as feet.
        StaticBody::Seat | StaticBody::Bed => {
            let Ok(frame) = PressureFrame::new(map.rows, map.cols, map.cells.clone()) else { return };
            if StaticBody::of(device) == StaticBody::Seat {
                seat_figures(w, &seating_static(&frame, device, None), f);
            } else {
                let bmi_inputs = r.mattress.as_ref().map_or((None, None), |m| (m.weight_kg, m.height_cm));
                bed_figures(w, &bed_static(&frame, device, bmi_inputs.0, bmi_inputs.1), f);
            }
        }
    }
}

/// A seat's static figures (mat-core's seating engine): loads, ischial peaks, indices, contact.
/// The maximum and an ischial peak on the same cell (equal to it) are "≥" when that cell is at
/// the sensor's full scale (the engine's `max_at_full_scale`).
fn seat_figures(w: &Writer<'_>, r: &SeatingStaticResult, f: &mut Figures) {
    let reading = |mmhg: f64| w.mmhg_reading(mmhg, r.max_pressure_mmhg, r.max_at_full_scale);
    f.key.push((w.t(Text::MaxPressure), reading(r.max_pressure_mmhg)));
    f.key.push((w.t(Text::MeanPressure), w.mmhg(r.mean_pressure_mmhg)));
    f.key.push((w.t(Text::ContactArea), w.cm2(r.contact_area_cm2)));
    f.key.push((w.t(Text::PeakPressureIndex), w.mmhg(r.peak_pressure_index_mmhg)));
    f.key.push((w.t(Text::DispersionIndex), w.percent(r.dispersion_index)));
    f.key.push((w.t(Text::LoadLeftRight), format!("{} / {}", w.percent(r.left_load_percent), w.percent(r.right_load_percent))));
    f.key.push((w.t(Text::LoadFrontBack), format!("{} / {}", w.percent(r.front_load_percent), w.percent(r.back_load_percent))));
    for (side, peak) in [(Text::IschialLeft, &r.left_ischial), (Text::IschialRight, &r.right_ischial)] {
        if let Some(p) = peak {
            f.key.push((w.t(side), format!("{} ({})", reading(p.peak_mmhg), w.point_cm(p.position_cm[0], p.position_cm[1]))));
        }
    }
    if let Some([x, y]) = r.center_of_pressure_cm {
        f.detail.push((w.t(Text::CenterOfPressure), w.point_cm(x, y)));
    }
}

/// A bed's static figures (mat-core's bed engine): body regions head to heels, never feet.
/// The maximum and a region's peak on the same cell (equal to it) are "≥" when that cell is at
/// the sensor's full scale (the engine's `max_at_full_scale`).
fn bed_figures(w: &Writer<'_>, r: &BedStaticResult, f: &mut Figures) {
    let reading = |mmhg: f64| w.mmhg_reading(mmhg, r.max_pressure_mmhg, r.max_at_full_scale);
    f.key.push((w.t(Text::MaxPressure), reading(r.max_pressure_mmhg)));
    f.key.push((w.t(Text::MeanPressure), w.mmhg(r.mean_pressure_mmhg)));
    f.key.push((w.t(Text::ContactArea), w.cm2(r.mattress.contact_area_cm2)));
    if let Some(bmi) = r.mattress.bmi {
        f.key.push((w.t(Text::Bmi), format!("{} kg/m²", w.n(bmi, 1))));
    }
    for region in &r.regions {
        f.key.push((
            w.t(region_text(region.region)),
            format!(
                "{} {} · {} {} · {}",
                w.t(Text::Peak),
                reading(region.peak_mmhg),
                w.t(Text::Mean),
                w.mmhg(region.mean_mmhg),
                w.cm2(region.contact_area_cm2)
            ),
        ));
    }
}

fn region_text(region: BodyRegion) -> Text {
    match region {
        BodyRegion::Head => Text::RegionHead,
        BodyRegion::Shoulders => Text::RegionShoulders,
        BodyRegion::Back => Text::RegionBack,
        BodyRegion::Sacrum => Text::RegionSacrum,
        BodyRegion::Legs => Text::RegionLegs,
        BodyRegion::Heels => Text::RegionHeels,
    }
}

fn rockers(w: &Writer<'_>, gait: &FootGait) -> String {
    match &gait.rockers {
        Some(k) => format!(
            "{} / {} / {} s ({} / {} / {} %)",
            w.n(k.heel_rocker_s, 2),
            w.n(k.ankle_rocker_s, 2),
            w.n(k.forefoot_rocker_s, 2),
            w.n(k.heel_rocker_share, 0),
            w.n(k.ankle_rocker_share, 0),
            w.n(k.forefoot_rocker_share, 0)
        ),
        None if gait.error.as_deref() == Some(ERROR_EVENTS_OUT_OF_ORDER) => w.t(Text::RockersOutOfOrder),
        None => w.t(Text::RockersNoStance),
    }
}

/// The highest value of a named series.
fn series_max(parameters: &[NamedParameter], name: &str) -> Option<f64> {
    parameters.iter().find(|p| p.name == name).and_then(|p| match &p.value {
        ParameterValue::Series(values) => values.iter().copied().filter(|v| v.is_finite()).reduce(f64::max),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mat_core::analysis::dynamic_podology::DynamicResult;
    use mat_core::analysis::seating::SeatingResult;
    use mat_core::analysis::{AnalysisKind, AnalysisParams, Capture, PressureFrame, analyse};

    fn analysed(device: DeviceType, map: &ReportMap) -> AnalysisResult {
        let mut capture = Capture::new(device, map.rows, map.cols);
        capture.push(0, PressureFrame::new(map.rows, map.cols, map.cells.clone()).unwrap()).unwrap();
        analyse(AnalysisKind::Static, &capture, &AnalysisParams { weight_kg: Some(70.0), height_cm: Some(175.0) }).unwrap()
    }

    fn labels(figures: &[Figure]) -> String {
        figures.iter().map(|(l, v)| format!("{l}: {v}\n")).collect()
    }

    #[test]
    fn numbers_use_the_language_separator() {
        assert_eq!(format_number(Language::En, 22.857, 1), "22.9");
        assert_eq!(format_number(Language::Es, 22.857, 1), "22,9");
        assert_eq!(format_number(Language::Ja, 0.5, 3), "0.500");
    }

    #[test]
    fn thousands_are_grouped_as_the_screens_group_them() {
        assert_eq!(format_number(Language::En, 10304.0, 0), "10,304");
        assert_eq!(format_number(Language::Ja, 1234567.25, 2), "1,234,567.25");
        assert_eq!(format_number(Language::Nl, 10304.0, 0), "10.304");
        assert_eq!(format_number(Language::El, 1344.0, 0), "1.344");
        assert_eq!(format_number(Language::Es, 1344.0, 0), "1344", "four digits stay whole in es");
        assert_eq!(format_number(Language::It, 10304.5, 1), "10.304,5");
        assert_eq!(format_number(Language::Fr, 10304.0, 0), "10\u{202f}304");
        assert_eq!(format_number(Language::Ru, -1234.5, 1), "-1\u{a0}234,5");
        assert_eq!(format_number(Language::En, 999.94, 1), "999.9");
        assert_eq!(format_number(Language::En, -12.0, 0), "-12");
    }

    /// A body along a 48 × 48 bed map (its columns, head at column 0) from column 4 to column
    /// 43, rows 18 to 29: 50 steps (20 mmHg), the hips (columns 22 to 25) at `hips` steps.
    fn body_on_a_bed(hips: u16) -> ReportMap {
        let mut cells = vec![1u16; 48 * 48];
        for r in 18..30 {
            for c in 4..44 {
                cells[r * 48 + c] = if (22..26).contains(&c) { hips } else { 50 };
            }
        }
        ReportMap { rows: 48, cols: 48, cells }
    }

    #[test]
    fn a_bed_prints_body_regions_in_mmhg_and_no_feet() {
        let map = body_on_a_bed(100);
        let scale = PressureScale::new(DeviceType::MattressMatIoT, None, false);
        let f = figures(&analysed(DeviceType::MattressMatIoT, &map), DeviceType::MattressMatIoT, &map, &scale, Language::En);
        let all = labels(&f.key) + &labels(&f.detail);
        assert!(!all.contains("foot") && !all.contains("Height"), "{all}");
        assert!(all.contains("Maximum pressure: 40.0 mmHg"), "{all}");
        assert!(all.contains("BMI: 22.9 kg/m²"), "{all}");
        // A bed reads the sensor's own scale whatever the weight (docs/decisions.md).
        assert!(all.contains("Pressure scale: Sensor's documented scale"), "{all}");
        // mat-core's regions: the sacrum and pelvis span columns 4 + 40 × 0.40 = 20 to 4 + 40 × 0.58 = 27,
        // the four 100-step hip columns and three of 50: (4 × 100 + 3 × 50) / 7 × 0.4 = 31.4 mmHg.
        assert!(all.contains("Sacrum and pelvis: Peak 40.0 mmHg · Mean 31.4 mmHg · 1,344 cm²"), "{all}");
        assert!(all.contains("Head: Peak 20.0 mmHg · Mean 20.0 mmHg · 960 cm²"), "{all}");
    }

    #[test]
    fn a_maximum_at_the_sensor_s_full_scale_prints_as_at_least() {
        // The hips at a bed mat's full scale (255 steps of 0.4 mmHg).
        let map = body_on_a_bed(255);
        let scale = PressureScale::new(DeviceType::MattressMatIoT, None, false);
        let f = figures(&analysed(DeviceType::MattressMatIoT, &map), DeviceType::MattressMatIoT, &map, &scale, Language::En);
        let all = labels(&f.key);
        assert!(all.contains("Maximum pressure: ≥ 102.0 mmHg"), "{all}");
        // The region whose peak is that cell says so too; a region below it and the means stay plain.
        assert!(all.contains("Sacrum and pelvis: Peak ≥ 102.0 mmHg · Mean "), "{all}");
        assert!(all.contains("Head: Peak 20.0 mmHg · Mean 20.0 mmHg"), "{all}");
        assert!(!all.contains("Mean ≥"), "{all}");
        // One step below it is a reading like any other.
        let map = body_on_a_bed(254);
        let f = figures(&analysed(DeviceType::MattressMatIoT, &map), DeviceType::MattressMatIoT, &map, &scale, Language::En);
        let all = labels(&f.key);
        assert!(all.contains("Maximum pressure: 101.6 mmHg"), "{all}");
        assert!(all.contains("Sacrum and pelvis: Peak 101.6 mmHg"), "{all}");
    }

    #[test]
    fn a_seat_prints_loads_and_indices_without_feet() {
        let mut cells = vec![0u16; 16 * 16];
        for r in 4..12 {
            for c in 3..13 {
                cells[r * 16 + c] = 120;
            }
        }
        let map = ReportMap { rows: 16, cols: 16, cells };
        let scale = PressureScale::new(DeviceType::SeatingMatIoT, None, false);
        let f = figures(&analysed(DeviceType::SeatingMatIoT, &map), DeviceType::SeatingMatIoT, &map, &scale, Language::Fr);
        let all = labels(&f.key);
        assert!(!all.contains("pied"), "{all}");
        // 80 cells of 4 cm² carry 70 % of the patient's 70 kg (480.5 N): 1.50 N/cm² = 15.0 kPa =
        // 112.6 mmHg in every cell (spec §9's weight calibration, stated on the page).
        assert!(all.contains("Surface de contact: 320 cm²"), "{all}");
        assert!(all.contains("Pression maximale: 112,6 mmHg"), "{all}");
        assert!(all.contains("Échelle de pression: Poids du patient : 70 % de 70,0 kg sur la surface"), "{all}");
    }

    #[test]
    fn a_seat_s_ischial_peak_on_a_saturated_cell_prints_as_at_least() {
        let mut cells = vec![0u16; 16 * 16];
        for r in 4..12 {
            for c in 3..13 {
                cells[r * 16 + c] = 120;
            }
        }
        // Row 10 is in the back half (row 0 is the knees); column 5 the sitter's left, 10 the right.
        cells[10 * 16 + 5] = 200;
        cells[10 * 16 + 10] = 255;
        let map = ReportMap { rows: 16, cols: 16, cells };
        let scale = PressureScale::new(DeviceType::SeatingMatIoT, None, false);
        let AnalysisResult::SeatingStatic(result) = analysed(DeviceType::SeatingMatIoT, &map) else { panic!("a seat's static result") };
        let f = figures(&AnalysisResult::SeatingStatic(result.clone()), DeviceType::SeatingMatIoT, &map, &scale, Language::En);
        let all = labels(&f.key);
        let (left, right) = (result.left_ischial.unwrap().peak_mmhg, result.right_ischial.unwrap().peak_mmhg);
        assert_eq!(right, result.max_pressure_mmhg);
        assert!(left < right);
        let w = Writer { lang: Language::En, scale: &scale, full_scale: None };
        assert!(all.contains(&format!("Maximum pressure: ≥ {}", w.mmhg(right))), "{all}");
        assert!(all.contains(&format!("Right ischial peak: ≥ {} (", w.mmhg(right))), "{all}");
        assert!(all.contains(&format!("Left ischial peak: {} (", w.mmhg(left))), "{all}");
        // Its place with each axis named, never "11,0 ; 21,0 cm" (one list, in a language with a
        // decimal comma).
        let p = result.left_ischial.unwrap().position_cm;
        assert!(all.contains(&format!("Left ischial peak: {} (x {} cm · y {} cm)", w.mmhg(left), w.n(p[0], 1), w.n(p[1], 1))), "{all}");
        let es = figures(&AnalysisResult::SeatingStatic(result), DeviceType::SeatingMatIoT, &map, &scale, Language::Es);
        assert!(!labels(&es.key).contains(" ; "), "{}", labels(&es.key));
    }

    #[test]
    fn a_seating_dynamic_page_prints_the_ppi_as_the_windows_mean_pressure() {
        // A seat at 60 steps (1 mmHg each) with a 5 × 5 block of 150 at the back: the PPI window
        // (10 cm = 5 cells) holds the block, 25 × 150 / 25 = 150 mmHg; in kPa 20.00.
        let mut cells = vec![0u16; 16 * 16];
        for r in 2..14 {
            for c in 2..14 {
                cells[r * 16 + c] = if (9..14).contains(&r) && (3..8).contains(&c) { 150 } else { 60 };
            }
        }
        let map = ReportMap { rows: 16, cols: 16, cells: cells.clone() };
        let mut capture = Capture::new(DeviceType::SeatingMatIoT, 16, 16);
        capture.push(0, PressureFrame::new(16, 16, cells.clone()).unwrap()).unwrap();
        capture.push(500, PressureFrame::new(16, 16, cells).unwrap()).unwrap();
        let result = analyse(AnalysisKind::SeatingDynamic, &capture, &AnalysisParams::default()).unwrap();
        let AnalysisResult::SeatingDynamic(r) = &result else { panic!("{result:?}") };
        assert_eq!(r.peak_pressure_index_mean, 150.0);
        let mmhg = labels(
            &figures(&result, DeviceType::SeatingMatIoT, &map, &PressureScale::new(DeviceType::SeatingMatIoT, None, false), Language::En)
                .key,
        );
        assert!(mmhg.contains("Peak Pressure Index: 150.0 mmHg"), "{mmhg}");
        assert!(mmhg.contains("Pressure scale: Sensor's documented scale"), "{mmhg}");
        let kpa = labels(
            &figures(
                &result,
                DeviceType::SeatingMatIoT,
                &map,
                &PressureScale::new(DeviceType::SeatingMatIoT, Some(PressureUnit::KPa), false),
                Language::En,
            )
            .key,
        );
        assert!(kpa.contains("Peak Pressure Index: 20.00 kPa"), "{kpa}");
        // The fitness variant: 150 steps × 0.06 kPa, and it says so.
        let fit = labels(
            &figures(&result, DeviceType::SeatingMatIoT, &map, &PressureScale::new(DeviceType::SeatingMatIoT, None, true), Language::En)
                .key,
        );
        assert!(fit.contains("Peak Pressure Index: 9.00 kPa"), "{fit}");
        assert!(fit.contains("Pressure scale: kPa (fitness scale)"), "{fit}");
    }

    #[test]
    fn a_bed_s_pressure_over_time_page_names_no_seat_figure() {
        let map = body_on_a_bed(100);
        let mut capture = Capture::new(DeviceType::MattressMatIoT, map.rows, map.cols);
        capture.push(0, PressureFrame::new(map.rows, map.cols, map.cells.clone()).unwrap()).unwrap();
        capture.push(500, PressureFrame::new(map.rows, map.cols, map.cells.clone()).unwrap()).unwrap();
        let result = analyse(AnalysisKind::SeatingDynamic, &capture, &AnalysisParams::default()).unwrap();
        let scale = PressureScale::new(DeviceType::MattressMatIoT, None, false);
        let all = labels(&figures(&result, DeviceType::MattressMatIoT, &map, &scale, Language::En).key);
        assert!(all.contains("Peak Pressure Index: "), "{all}");
        assert!(!all.contains("Dispersion") && !all.contains("Push-ups"), "{all}");
        // A bed's record stored before beds were read lying carries a dispersion index: not printed.
        let AnalysisResult::SeatingDynamic(r) = &result else { panic!("{result:?}") };
        let stored = AnalysisResult::SeatingDynamic(SeatingResult { dispersion_index: Some(3.54), ..r.clone() });
        let old = labels(&figures(&stored, DeviceType::MattressMatIoT, &map, &scale, Language::En).key);
        assert!(!old.contains("Dispersion"), "{old}");
        assert_eq!(crate::analysis_report::kind_text(AnalysisKind::SeatingDynamic, DeviceType::MattressMatIoT), Text::BedDynamic);
        assert_eq!(crate::analysis_report::kind_text(AnalysisKind::SeatingDynamic, DeviceType::SeatingMatIoT), Text::SeatingDynamic);
    }

    #[test]
    fn a_walk_without_steps_says_so_and_figures_carry_units() {
        let result = AnalysisResult::Dynamic(DynamicResult {
            additional_parameters: vec![NamedParameter::new("leftMaxPressure", ParameterValue::Series(vec![10.0, 255.0]))],
            left: FootGait::default(),
            right: FootGait { error: Some(ERROR_EVENTS_OUT_OF_ORDER.to_owned()), ..FootGait::default() },
            feet_separated: true,
            duration_s: 4.0,
            playback_frames: 4,
        });
        let map = ReportMap { rows: 2, cols: 2, cells: vec![0; 4] };
        let scale = PressureScale::new(DeviceType::PodologyIoT, None, false);
        let f = figures(&result, DeviceType::PodologyIoT, &map, &scale, Language::Ja);
        let all = labels(&f.key);
        assert!(all.contains("左足 — 歩数: 0"), "{all}");
        assert!(all.contains("ロッカーを計算できません：接地が不足しています"), "{all}");
        assert!(all.contains("ロッカーを計算できません：歩行イベントの順序が不正です"), "{all}");
        // 255 steps of a plate's 1 kPa, its full scale (so "≥"), and the page says which scale it reads.
        assert!(all.contains("≥ 1,912.7 mmHg"), "{all}");
        assert!(all.contains("センサーの公称スケール"), "{all}");
        assert!(all.contains("時間: 4.0 秒"), "{all}");
    }
}
