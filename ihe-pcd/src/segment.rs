//! Building segments: fields joined by `|`, components by `^`, each component escaped once here
//! so no caller can forget it.

/// One field: repetitions of components, each plain text (escaped when the segment is written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Field(Vec<Vec<String>>);

impl Field {
    /// A field of one component.
    pub(crate) fn text(value: impl Into<String>) -> Field {
        Field(vec![vec![value.into()]])
    }

    /// A field of several repetitions of one component each (`PH~SP`).
    pub(crate) fn repeated<I: IntoIterator<Item = S>, S: Into<String>>(values: I) -> Field {
        Field(values.into_iter().map(|v| vec![v.into()]).collect())
    }

    /// A field of several components.
    pub(crate) fn components<I: IntoIterator<Item = S>, S: Into<String>>(parts: I) -> Field {
        Field(vec![parts.into_iter().map(Into::into).collect()])
    }

    /// An empty field.
    pub(crate) fn empty() -> Field {
        Field(Vec::new())
    }

    fn is_empty(&self) -> bool {
        self.0.iter().flatten().all(String::is_empty)
    }

    fn write(&self, out: &mut String) {
        for (r, components) in self.0.iter().enumerate() {
            if r > 0 {
                out.push('~');
            }
            let last = components.iter().rposition(|c| !c.is_empty()).map_or(0, |i| i + 1);
            for (i, component) in components[..last].iter().enumerate() {
                if i > 0 {
                    out.push('^');
                }
                out.push_str(&crate::escape::escape(component));
            }
        }
    }
}

/// A segment: its name and its fields from field 1.
pub(crate) struct Segment {
    name: &'static str,
    fields: Vec<Field>,
}

impl Segment {
    pub(crate) fn new(name: &'static str) -> Segment {
        Segment { name, fields: Vec::new() }
    }

    /// Sets field `n` (1-based), filling the fields before it with empty ones.
    pub(crate) fn set(mut self, n: usize, field: Field) -> Segment {
        if self.fields.len() < n {
            self.fields.resize(n, Field::empty());
        }
        self.fields[n - 1] = field;
        self
    }

    /// The segment's text, without the segment terminator. Trailing empty fields are dropped.
    pub(crate) fn write(&self, out: &mut String) {
        out.push_str(self.name);
        let last = self.fields.iter().rposition(|f| !f.is_empty()).map_or(0, |i| i + 1);
        for field in &self.fields[..last] {
            out.push('|');
            field.write(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_components_are_joined_and_escaped() {
        let mut out = String::new();
        Segment::new("PV1").set(3, Field::components(["3^W", "", "12", ""])).set(5, Field::empty()).write(&mut out);
        assert_eq!(out, r"PV1|||3\S\W^^12");
        let mut out = String::new();
        Segment::new("OBX").set(2, Field::repeated(["PH", "S~P"])).write(&mut out);
        assert_eq!(out, r"OBX||PH~S\R\P");
    }
}
