//! Reading an HL7 v2 acknowledgement: the `MSA` segment's code (`MSA-1`) and the control id of
//! the message it acknowledges (`MSA-2`). Original mode `AA`/`AE`/`AR` and enhanced mode
//! `CA`/`CE`/`CR` are read alike. Bytes come from the network: every input gives a value or an
//! [`AckError`], never a panic (fuzz target `hl7_ack`).

use crate::escape::unescape;

/// `MSA-1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AckCode {
    /// `AA` / `CA`: accepted.
    Accept,
    /// `AE` / `CE`: error, may be sent again.
    Error,
    /// `AR` / `CR`: rejected.
    Reject,
}

/// An acknowledgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ack {
    /// `MSA-1`.
    pub code: AckCode,
    /// `MSA-2`: the control id of the acknowledged message.
    pub control_id: String,
    /// `MSA-3` (text), or `ERR-8` (user message) / `ERR-7` (diagnostic) when present, unescaped;
    /// empty when none.
    pub text: String,
}

/// Why bytes are not an acknowledgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AckError {
    /// The message does not start with an `MSH` segment and its delimiters.
    NoHeader,
    /// No `MSA` segment.
    NoMsa,
    /// `MSA-1` is not one of AA, AE, AR, CA, CE, CR.
    UnknownCode(String),
}

impl std::fmt::Display for AckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AckError::NoHeader => write!(f, "not an HL7 message (no MSH header)"),
            AckError::NoMsa => write!(f, "no MSA segment in the acknowledgement"),
            AckError::UnknownCode(code) => write!(f, "unknown acknowledgement code {code:?}"),
        }
    }
}

impl std::error::Error for AckError {}

/// A message split into segments, each into fields with the message's own delimiters.
pub struct Parsed<'a> {
    segments: Vec<Vec<&'a str>>,
    component: char,
}

impl<'a> Parsed<'a> {
    /// Splits `text`: segments end at `\r` (a `\n` is tolerated), the field and component
    /// separators are MSH-1 and the first character of MSH-2.
    pub fn new(text: &'a str) -> Result<Parsed<'a>, AckError> {
        let text = text.trim_start_matches(['\r', '\n', ' ']);
        let mut chars = text.strip_prefix("MSH").ok_or(AckError::NoHeader)?.chars();
        let field = chars.next().ok_or(AckError::NoHeader)?;
        let component = chars.next().ok_or(AckError::NoHeader)?;
        if field.is_alphanumeric() || field.is_control() || component == field || component.is_control() {
            return Err(AckError::NoHeader);
        }
        let segments = text.split(['\r', '\n']).filter(|s| !s.is_empty()).map(|s| s.split(field).collect()).collect();
        Ok(Parsed { segments, component })
    }

    /// The first segment named `name`, as fields (index 0 is the name; for MSH, index 1 is MSH-2).
    pub fn segment(&self, name: &str) -> Option<&[&'a str]> {
        self.segments.iter().find(|s| s.first() == Some(&name)).map(Vec::as_slice)
    }

    /// Every segment named `name`.
    pub fn segments<'s>(&'s self, name: &'s str) -> impl Iterator<Item = &'s [&'a str]> + 's {
        self.segments.iter().filter(move |s| s.first() == Some(&name)).map(Vec::as_slice)
    }

    /// Component `n` (1-based) of a field's text, unescaped.
    pub fn component(&self, field: &str, n: usize) -> String {
        field.split(self.component).nth(n.saturating_sub(1)).map(unescape).unwrap_or_default()
    }
}

/// Field `n` of a split segment, or "".
pub fn field<'a>(segment: &[&'a str], n: usize) -> &'a str {
    segment.get(n).copied().unwrap_or("")
}

/// Reads an acknowledgement from the bytes of one MLLP frame.
pub fn parse_ack(bytes: &[u8]) -> Result<Ack, AckError> {
    let text = String::from_utf8_lossy(bytes);
    let parsed = Parsed::new(&text)?;
    let msa = parsed.segment("MSA").ok_or(AckError::NoMsa)?;
    let raw_code = parsed.component(field(msa, 1), 1);
    let code = match raw_code.trim() {
        "AA" | "CA" => AckCode::Accept,
        "AE" | "CE" => AckCode::Error,
        "AR" | "CR" => AckCode::Reject,
        _ => return Err(AckError::UnknownCode(raw_code.chars().take(16).collect())),
    };
    let control_id = parsed.component(field(msa, 2), 1);
    let mut text = parsed.component(field(msa, 3), 1);
    if let Some(err) = parsed.segment("ERR") {
        let user_message = parsed.component(field(err, 8), 1);
        let diagnostic = parsed.component(field(err, 7), 1);
        if let Some(found) = [user_message, diagnostic].into_iter().find(|t| !t.is_empty()) {
            text = found;
        }
    }
    Ok(Ack { code, control_id, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_original_mode_codes() {
        let ack = |code: &str| format!("MSH|^~\\&|AM|WARD|PMAT|HUB|20261126120000||ACK^R40^ACK|a1|P|2.6\rMSA|{code}|MSG-42|\r");
        assert_eq!(
            parse_ack(ack("AA").as_bytes()).unwrap(),
            Ack { code: AckCode::Accept, control_id: "MSG-42".into(), text: String::new() }
        );
        assert_eq!(parse_ack(ack("AE").as_bytes()).unwrap().code, AckCode::Error);
        assert_eq!(parse_ack(ack("AR").as_bytes()).unwrap().code, AckCode::Reject);
        assert_eq!(parse_ack(ack("CA").as_bytes()).unwrap().code, AckCode::Accept);
        assert_eq!(parse_ack(ack("XX").as_bytes()), Err(AckError::UnknownCode("XX".into())));
    }

    #[test]
    fn keeps_the_managers_reason_and_tolerates_line_feeds() {
        let text = "MSH|^~\\&|AM|WARD\nMSA|AR|m\\F\\1|bad\\S\\thing\nERR|||207^Application internal error^HL70357|E|||unknown location\n";
        let ack = parse_ack(text.as_bytes()).unwrap();
        assert_eq!((ack.code, ack.control_id.as_str(), ack.text.as_str()), (AckCode::Reject, "m|1", "unknown location"));
    }

    #[test]
    fn refuses_what_is_not_an_ack() {
        assert_eq!(parse_ack(b""), Err(AckError::NoHeader));
        assert_eq!(parse_ack(b"MSH"), Err(AckError::NoHeader));
        assert_eq!(parse_ack(b"MSHA^"), Err(AckError::NoHeader));
        assert_eq!(parse_ack(b"MSH||"), Err(AckError::NoHeader));
        assert_eq!(parse_ack(b"MSH|^~\\&|x\rPID|1"), Err(AckError::NoMsa));
        assert_eq!(parse_ack(b"\xff\xfe MSH"), Err(AckError::NoHeader));
        assert!(parse_ack(b"MSH|^~\\&\rMSA").is_err());
    }
}
