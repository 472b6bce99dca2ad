//! HL7 v2 escaping with the standard encoding characters `|^~\&` (MSH-1, MSH-2).
//!
//! Text put into a field or component must not contain a delimiter: each one becomes its escape
//! sequence (`\F\` field, `\S\` component, `\R\` repetition, `\T\` subcomponent, `\E\` escape),
//! and a line break becomes `\.br\` (a carriage return would end the segment). Other control
//! characters are dropped: they have no meaning in the text of an alarm and a manager's parser
//! may choke on them.

/// `text` with every HL7 delimiter escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '|' => out.push_str("\\F\\"),
            '^' => out.push_str("\\S\\"),
            '~' => out.push_str("\\R\\"),
            '&' => out.push_str("\\T\\"),
            '\\' => out.push_str("\\E\\"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\.br\\");
            }
            '\n' => out.push_str("\\.br\\"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The text of an escaped value (the inverse of [`escape`] for its sequences; an unknown or
/// unterminated sequence is kept as written).
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('\\') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find('\\') {
            Some(end) => {
                let sequence = &after[..end];
                match sequence {
                    "F" => out.push('|'),
                    "S" => out.push('^'),
                    "R" => out.push('~'),
                    "T" => out.push('&'),
                    "E" => out.push('\\'),
                    ".br" => out.push('\n'),
                    other => {
                        out.push('\\');
                        out.push_str(other);
                        out.push('\\');
                    }
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_delimiter_is_escaped() {
        assert_eq!(escape(r"Room 3|B^2~x&y\z"), r"Room 3\F\B\S\2\R\x\T\y\E\z");
        assert_eq!(escape("two\r\nlines\rand\nmore"), r"two\.br\lines\.br\and\.br\more");
        assert_eq!(escape("bell\u{7}"), "bell");
        assert_eq!(escape("Chambre 12 — lit B, 3ᵉ étage"), "Chambre 12 — lit B, 3ᵉ étage");
    }

    #[test]
    fn unescape_reverses_escape() {
        for text in [r"Room 3|B^2~x&y\z", "a\nb", "plain", "", r"\", "|||"] {
            assert_eq!(unescape(&escape(text)), text, "{text:?}");
        }
        assert_eq!(unescape(r"\X0D\ kept"), r"\X0D\ kept");
        assert_eq!(unescape(r"open \F"), r"open \F");
    }
}
