//! Names of the downloaded PDFs, for the Content-Disposition header: the patient, the analysis
//! and its date and time on the user's clock, `garcia-perez_static_2026-11-26_1531.pdf`.

use mat_core::analysis::AnalysisKind;
use mat_core::analysis::seating::lying;
use mat_protocol::device_type::DeviceType;

use crate::layout::PaperSize;
use crate::local_time::ReportClock;

/// Which PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PdfKind {
    /// The analysis report.
    Analysis,
    /// The real-scale print on the given paper.
    RealScale(PaperSize),
}

/// The part of a file name naming the patient when there is none.
const NO_PATIENT: &str = "no-patient";
/// The patient part when the name has no letter that transliterates (a name in kanji only).
const UNNAMED_PATIENT: &str = "patient";
/// The longest patient part kept (a long name still leaves the analysis and date readable).
const MAX_PATIENT_CHARS: usize = 40;

/// `{patient}_{analysis}_{YYYY-MM-DD}_{HHMM}.pdf` for the report and
/// `{patient}_{analysis}_real-scale-{a3|a4}_{YYYY-MM-DD}_{HHMM}.pdf` for the print: the patient's
/// name as an ASCII slug ([`ascii_slug`]), the analysis kind in lower case with hyphens (a bed's
/// `seatingDynamic` is `pressure-over-time`, as its title), and the record's creation on the
/// user's clock. Only ASCII letters, digits, `_`, `-` and `.`, so the name needs no quoting rules
/// beyond the plain `filename="…"`.
pub fn pdf_file_name(
    kind: PdfKind,
    patient_name: Option<&str>,
    analysis_type: AnalysisKind,
    device: DeviceType,
    creation_date_s: i64,
    clock: &ReportClock,
) -> String {
    let patient = match patient_name.map(ascii_slug) {
        None => NO_PATIENT.to_owned(),
        Some(slug) if slug.is_empty() => UNNAMED_PATIENT.to_owned(),
        Some(slug) => slug,
    };
    let patient: String = patient.chars().take(MAX_PATIENT_CHARS).collect::<String>().trim_end_matches('-').to_owned();
    let analysis = if analysis_type == AnalysisKind::SeatingDynamic && lying(device) {
        "pressure-over-time".to_owned()
    } else {
        ascii_slug(&split_camel(analysis_type.name()))
    };
    let (date, minute) = clock.date_and_minute(creation_date_s);
    match kind {
        PdfKind::Analysis => format!("{patient}_{analysis}_{date}_{minute}.pdf"),
        PdfKind::RealScale(PaperSize::A3) => format!("{patient}_{analysis}_real-scale-a3_{date}_{minute}.pdf"),
        PdfKind::RealScale(PaperSize::A4) => format!("{patient}_{analysis}_real-scale-a4_{date}_{minute}.pdf"),
    }
}

/// `seatingDynamic` → `seating Dynamic`.
fn split_camel(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A name as lower-case ASCII words joined by hyphens: Latin letters lose their accents
/// (`García Pérez` → `garcia-perez`, `Øster` → `oster`, `Straße` → `strasse`), Greek and Cyrillic
/// are transliterated (`Σοφία` → `sofia`, `Иванов` → `ivanov`), anything else (kanji, kana,
/// punctuation) separates words. May be empty (a name in Japanese script only).
pub fn ascii_slug(name: &str) -> String {
    let mut out = String::new();
    let mut pending_hyphen = false;
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        // Greek digraphs: ου is "ou", αυ and ευ are "av" and "ev" (ELOT 743, simplified).
        let next_is_upsilon = chars.peek().is_some_and(|n| matches!(n.to_lowercase().next(), Some('υ' | 'ύ')));
        let ascii = match lower {
            'ο' | 'ό' if next_is_upsilon => {
                chars.next();
                "ou"
            }
            'α' | 'ά' if next_is_upsilon => {
                chars.next();
                "av"
            }
            'ε' | 'έ' if next_is_upsilon => {
                chars.next();
                "ev"
            }
            _ => transliterate(c),
        };
        if ascii.is_empty() {
            pending_hyphen = !out.is_empty();
            continue;
        }
        if pending_hyphen {
            out.push('-');
            pending_hyphen = false;
        }
        out.push_str(ascii);
    }
    out
}

/// One character as lower-case ASCII letters or digits; empty for a separator.
fn transliterate(c: char) -> &'static str {
    const ASCII: [&str; 36] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p",
        "q", "r", "s", "t", "u", "v", "w", "x", "y", "z",
    ];
    let lower = c.to_lowercase().next().unwrap_or(c);
    if lower.is_ascii_digit() {
        return ASCII[(lower as u8 - b'0') as usize];
    }
    if lower.is_ascii_lowercase() {
        return ASCII[(lower as u8 - b'a') as usize + 10];
    }
    match lower {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĳ' => "ij",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        // Greek (ELOT 743, simplified).
        'α' | 'ά' => "a",
        'β' => "v",
        'γ' => "g",
        'δ' => "d",
        'ε' | 'έ' => "e",
        'ζ' => "z",
        'η' | 'ή' => "i",
        'θ' => "th",
        'ι' | 'ί' | 'ϊ' | 'ΐ' => "i",
        'κ' => "k",
        'λ' => "l",
        'μ' => "m",
        'ν' => "n",
        'ξ' => "x",
        'ο' | 'ό' => "o",
        'π' => "p",
        'ρ' => "r",
        'σ' | 'ς' => "s",
        'τ' => "t",
        'υ' | 'ύ' | 'ϋ' | 'ΰ' => "y",
        'φ' => "f",
        'χ' => "ch",
        'ψ' => "ps",
        'ω' | 'ώ' => "o",
        // Russian (ISO 9 / passport style, simplified).
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' | 'ё' | 'э' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' | 'й' => "i",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' => "u",
        'ф' => "f",
        'х' => "kh",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "shch",
        'ы' => "y",
        'ю' => "iu",
        'я' => "ia",
        'ъ' | 'ь' => "",
        _ => "",
    }
}

/// The Content-Disposition header value for a download named `file_name`.
pub fn content_disposition(file_name: &str) -> String {
    format!("attachment; filename=\"{file_name}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    // 1,764,171,060 s = 2025-11-26T15:31:00Z.
    const T: i64 = 1_764_171_060;

    #[test]
    fn names_carry_patient_analysis_and_local_date_and_time() {
        let utc = ReportClock::utc();
        assert_eq!(
            pdf_file_name(PdfKind::Analysis, Some("García Pérez"), AnalysisKind::Static, DeviceType::PodologyIoT, T, &utc),
            "garcia-perez_static_2025-11-26_1531.pdf"
        );
        let madrid = ReportClock { utc_offset_minutes: Some(60), time_zone: Some("Europe/Madrid".into()) };
        assert_eq!(
            pdf_file_name(
                PdfKind::RealScale(PaperSize::A4),
                Some("García Pérez"),
                AnalysisKind::Dynamic,
                DeviceType::PodologyIoT,
                T,
                &madrid
            ),
            "garcia-perez_dynamic_real-scale-a4_2025-11-26_1631.pdf"
        );
        assert_eq!(
            pdf_file_name(PdfKind::Analysis, None, AnalysisKind::SeatingDynamic, DeviceType::SeatingMatIoT, T, &utc),
            "no-patient_seating-dynamic_2025-11-26_1531.pdf"
        );
        // A bed's dynamic capture is named as its title names it.
        assert_eq!(
            pdf_file_name(PdfKind::Analysis, None, AnalysisKind::SeatingDynamic, DeviceType::MattressMatIoT, T, &utc),
            "no-patient_pressure-over-time_2025-11-26_1531.pdf"
        );
        assert_eq!(
            content_disposition("garcia-perez_static_2025-11-26_1531.pdf"),
            "attachment; filename=\"garcia-perez_static_2025-11-26_1531.pdf\""
        );
    }

    #[test]
    fn patient_names_become_ascii_slugs_in_every_script() {
        assert_eq!(ascii_slug("  Jean-Luc  O'Brien  "), "jean-luc-o-brien");
        assert_eq!(ascii_slug("Øster Straße Ñúñez"), "oster-strasse-nunez");
        assert_eq!(ascii_slug("Σοφία Παπαδοπούλου"), "sofia-papadopoulou");
        assert_eq!(ascii_slug("Иван Петров"), "ivan-petrov");
        assert_eq!(ascii_slug("山田 太郎"), "");
        // Whatever the name, the file name stays ASCII-safe and says whose it is when it can.
        for name in ["山田 太郎", "\"quoted\"; rm -rf /", "../../etc/passwd", "Ana\r\nPérez"] {
            let file = pdf_file_name(PdfKind::Analysis, Some(name), AnalysisKind::Balance, DeviceType::PodologyIoT, T, &ReportClock::utc());
            assert!(file.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)), "{file}");
            assert!(!file.starts_with('-') && !file.starts_with('.') && file.ends_with("_balance_2025-11-26_1531.pdf"), "{file}");
        }
        assert_eq!(
            pdf_file_name(PdfKind::Analysis, Some("山田 太郎"), AnalysisKind::Rehab, DeviceType::PodologyIoT, T, &ReportClock::utc()),
            "patient_rehab_2025-11-26_1531.pdf"
        );
        let long = pdf_file_name(
            PdfKind::Analysis,
            Some(&"Ab Cd ".repeat(20)),
            AnalysisKind::Static,
            DeviceType::PodologyIoT,
            T,
            &ReportClock::utc(),
        );
        assert!(long.starts_with("ab-cd-ab-cd") && long.split('_').next().unwrap().len() <= MAX_PATIENT_CHARS, "{long}");
    }
}
