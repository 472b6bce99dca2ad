//! Names of the downloaded PDFs, for the Content-Disposition header.

use mat_core::analysis::AnalysisKind;
use mat_core::analysis::export::iso_8601_utc;

use crate::layout::PaperSize;

/// Which PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PdfKind {
    /// The analysis report.
    Analysis,
    /// The real-scale print on the given paper.
    RealScale(PaperSize),
}

/// `{type}_analysis_report_{YYYY-MM-DD}.pdf` or `{type}_real_scale_{a3|a4}_{YYYY-MM-DD}.pdf`, with
/// the analysis type lower-cased and the record's creation date (UTC), like the raw export's
/// `type_kind_analysis_YYYY-MM-DD.json`. Only ASCII letters, digits, `_`, `-` and `.`, so the name
/// needs no quoting rules beyond the plain `filename="…"`.
pub fn pdf_file_name(kind: PdfKind, analysis_type: AnalysisKind, creation_date_s: i64) -> String {
    let date = &iso_8601_utc(creation_date_s.saturating_mul(1000))[..10];
    let type_name = analysis_type.name().to_lowercase();
    match kind {
        PdfKind::Analysis => format!("{type_name}_analysis_report_{date}.pdf"),
        PdfKind::RealScale(PaperSize::A3) => format!("{type_name}_real_scale_a3_{date}.pdf"),
        PdfKind::RealScale(PaperSize::A4) => format!("{type_name}_real_scale_a4_{date}.pdf"),
    }
}

/// The Content-Disposition header value for a download named `file_name`.
pub fn content_disposition(file_name: &str) -> String {
    format!("attachment; filename=\"{file_name}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_type_kind_and_date() {
        // 1,700,000,000 s = 2023-11-14T22:13:20Z.
        assert_eq!(
            pdf_file_name(PdfKind::Analysis, AnalysisKind::Static, 1_700_000_000),
            "static_analysis_report_2023-11-14.pdf"
        );
        assert_eq!(
            pdf_file_name(PdfKind::RealScale(PaperSize::A4), AnalysisKind::Dynamic, 1_700_000_000),
            "dynamic_real_scale_a4_2023-11-14.pdf"
        );
        assert_eq!(
            content_disposition("seatingdynamic_analysis_report_2023-11-14.pdf"),
            "attachment; filename=\"seatingdynamic_analysis_report_2023-11-14.pdf\""
        );
    }
}
