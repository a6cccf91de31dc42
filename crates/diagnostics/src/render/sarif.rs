//! SARIF 2.1.0 output (spec 60 §8): cudafe++'s envelope and result objects,
//! all on one line, but as valid JSON. cudafe++ writes a comma only before
//! the second and later *errors* and leaves `relatedLocations` commas off
//! after the first entry, producing invalid JSON (§8.4); we write correct
//! separators, escape control characters, and do not put `Error limit
//! reached.` inside the document.

use crate::diagnostic::{Diagnostic, Location, LocationKind};
use crate::render::text::Shown;
use crate::severity::Severity;

/// Written when compilation starts.
pub const HEADER: &str = concat!(
    r#"{"version":"2.1.0","$schema":"https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json","#,
    r#""runs":[{"tool":{"driver":{"name":"EDG CPFE","version":"6.6","organization":"Edison Design Group","#,
    r#""fullName":"Edison Design Group C/C++ Front End - 6.6","informationUri":"https://edg.com/c"}},"#,
    r#""columnKind":"unicodeCodePoints","results":["#
);

/// Written at the end.
pub const FOOTER: &str = "]}]}\n";

/// Appends `s` as JSON string contents (without the quotes).
pub fn escape_into(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
}

/// Absolute, lexically normalised path (`sub/../inc/h.h` → `/cwd/inc/h.h`).
pub fn normalise_path(file: &str, cwd: &str) -> String {
    let joined =
        if file.starts_with('/') { file.to_owned() } else { format!("{}/{}", cwd.trim_end_matches('/'), file) };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Writes `{"physicalLocation":{…}` — the caller closes the outer object.
fn physical_location(loc: &Location, cwd: &str, out: &mut String) {
    out.push_str(r#"{"physicalLocation":{"artifactLocation":{"uri":"file://"#);
    escape_into(&normalise_path(&loc.file, cwd), out);
    out.push_str(r#""},"region":{"startLine":"#);
    out.push_str(&loc.line.to_string());
    // The end-of-source position has no column.
    if loc.column > 0 && loc.kind != LocationKind::EndOfSource {
        out.push_str(r#","startColumn":"#);
        out.push_str(&loc.column.to_string());
    }
    out.push_str("}}");
}

/// One result object (no separator). `cwd` makes relative file names absolute.
pub fn result(diag: &Diagnostic, shown: Shown, cwd: &str, out: &mut String) {
    let level = if shown.promoted { Severity::Error.sarif_level() } else { shown.severity.sarif_level() };
    out.push_str(r#"{"ruleId":"EC"#);
    out.push_str(&diag.id.index().to_string());
    out.push_str(r#"","level":""#);
    out.push_str(level);
    out.push_str(r#"","message":{"text":""#);
    escape_into(&diag.message(), out);
    out.push_str(r#""}"#);
    if let Some(loc) = &diag.location {
        out.push_str(r#","locations":["#);
        physical_location(loc, cwd, out);
        out.push_str("}]");
    }
    if !diag.notes.is_empty() {
        out.push_str(r#","relatedLocations":["#);
        for (i, note) in diag.notes.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(r#"{"message":{"text":""#);
            escape_into(&note.message(), out);
            out.push_str(r#""}"#);
            if let Some(loc) = &note.location {
                out.push(',');
                // `physical_location` writes `{"physicalLocation":…}`; splice its members in.
                let mut pl = String::new();
                physical_location(loc, cwd, &mut pl);
                out.push_str(&pl[1..]);
            }
            out.push('}');
        }
        out.push(']');
    }
    out.push('}');
}
