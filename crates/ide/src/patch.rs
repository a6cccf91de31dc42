//! Patching an edit of a user file into its unit without the preprocessor.
//!
//! An edit is patched in place when the preprocessor would have copied the
//! edited lines through unchanged: the changed lines (before and after)
//! hold no directive, no line continuation, no block comment or raw
//! string, balanced quotes, and no identifier that names a macro; and the
//! old lines were copied through (their tokens equal the unit's, which also
//! proves they were not in a skipped `#if` group — for a pure insertion, the
//! nearest non-blank line above must be). The changed unit lines are
//! replaced by the new lines, and every later line marker that returns to
//! the file is shifted by the change in line count. Anything else needs the
//! preprocessor again: [`NotPatchable`] says why.

use cufront_syntax::source_map::parse_marker;
use rustc_hash::FxHashSet;

use crate::lines::UnitLines;

/// Why an edit needs the preprocessor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPatchable {
    /// The macro set is not known yet.
    NoMacroSet,
    /// A changed line is a directive, continues a line, opens or closes a
    /// block comment or raw string, or has unbalanced quotes.
    Directive(u32),
    /// A changed line names a macro.
    MacroUse(String),
    /// The unit does not hold the old line as written (a macro expanded in
    /// it, or a skipped `#if` group).
    NotCopied(u32),
    /// The file is not in the unit.
    UnknownFile,
    /// The unit's device preprocessing failed: only running it again tells
    /// whether the edit fixed it.
    DeviceFailed,
    /// The preprocessor warned about the file: only running it again tells
    /// whether the warning still holds, and on which line.
    PreprocessorMessages,
}

/// The new unit text after `old` became `new` in `file`.
pub fn patch(
    unit: &str,
    lines: &UnitLines,
    file: &str,
    old: &str,
    new: &str,
    macros: &FxHashSet<String>,
) -> Result<String, NotPatchable> {
    if macros.is_empty() {
        return Err(NotPatchable::NoMacroSet);
    }
    let fid = lines.file_id(file).ok_or(NotPatchable::UnknownFile)?;
    let old_lines: Vec<&str> = old.split('\n').collect();
    let new_lines: Vec<&str> = new.split('\n').collect();
    let prefix = old_lines.iter().zip(&new_lines).take_while(|(a, b)| a == b).count();
    let max_suffix = old_lines.len().min(new_lines.len()) - prefix;
    let suffix = old_lines.iter().rev().zip(new_lines.iter().rev()).take_while(|(a, b)| a == b).count().min(max_suffix);
    let old_changed = &old_lines[prefix..old_lines.len() - suffix];
    let new_changed = &new_lines[prefix..new_lines.len() - suffix];
    if old_changed.is_empty() && new_changed.is_empty() {
        return Ok(unit.to_string());
    }
    for (i, l) in old_changed.iter().chain(new_changed.iter()).enumerate() {
        check_line(l, macros).map_err(|e| match e {
            NotPatchable::Directive(_) => NotPatchable::Directive((prefix + i) as u32),
            e => e,
        })?;
    }
    // Where the changed lines are in the unit: consecutive unit lines,
    // copied through unchanged.
    let unit_of = |l: usize| lines.unit_line(fid, l as u32);
    let (from, to) = if old_changed.is_empty() {
        // A pure insertion before old line `prefix`: anchored after the line above.
        let mut above = prefix;
        while above > 0 && old_lines[above - 1].trim().is_empty() {
            above -= 1;
        }
        if above > 0 {
            let u = unit_of(above - 1).ok_or(NotPatchable::NotCopied((above - 1) as u32))?;
            if !copied(unit, lines, u, old_lines[above - 1]) {
                return Err(NotPatchable::NotCopied((above - 1) as u32));
            }
        }
        let at = unit_of(prefix)
            .or_else(|| prefix.checked_sub(1).and_then(unit_of).map(|u| u + 1))
            .ok_or(NotPatchable::NotCopied(prefix as u32))?;
        (at, at)
    } else {
        let first = unit_of(prefix).ok_or(NotPatchable::NotCopied(prefix as u32))?;
        for (k, l) in old_changed.iter().enumerate() {
            let u = first + k;
            let ok = u < lines.lines.len()
                && !lines.lines[u].marker
                && lines.lines[u].file == fid
                && lines.lines[u].line == (prefix + k) as u32
                && copied(unit, lines, u, l);
            if !ok {
                return Err(NotPatchable::NotCopied((prefix + k) as u32));
            }
        }
        (first, first + old_changed.len())
    };
    let start = lines.lines.get(from).map_or(unit.len(), |l| l.start as usize);
    let end = lines.lines.get(to).map_or(unit.len(), |l| l.start as usize);
    let delta = new_changed.len() as i64 - old_changed.len() as i64;
    let mut out = String::with_capacity(unit.len() + new.len().saturating_sub(old.len()) + 64);
    out.push_str(&unit[..start]);
    for l in new_changed {
        out.push_str(l);
        out.push('\n');
    }
    if end == unit.len() && !unit.ends_with('\n') && !new_changed.is_empty() && to >= lines.lines.len() {
        out.pop();
    }
    // Later markers that return to this file are shifted.
    let mut at = end;
    for u in to..lines.lines.len() {
        let l = lines.lines[u];
        if !l.marker || delta == 0 {
            continue;
        }
        let next_is_file = lines.lines.get(u + 1).is_some_and(|n| n.file == fid);
        if !next_is_file {
            continue;
        }
        let (s, e) = lines.line_range(unit, u);
        let Some((n, name, _)) = parse_marker(&unit[s as usize..e as usize]) else {
            continue;
        };
        out.push_str(&unit[at..s as usize]);
        let rest_at = unit[s as usize..e as usize].find(char::is_numeric).map_or(s as usize, |i| s as usize + i);
        let digits = unit[rest_at..].bytes().take_while(u8::is_ascii_digit).count();
        out.push_str(&unit[s as usize..rest_at]);
        out.push_str(&((n as i64 + delta).max(1)).to_string());
        let _ = name;
        at = rest_at + digits;
    }
    out.push_str(&unit[at..]);
    Ok(out)
}

/// Unit line `u` holds the source line `src` as the preprocessor copies it.
fn copied(unit: &str, lines: &UnitLines, u: usize, src: &str) -> bool {
    let (s, e) = lines.line_range(unit, u);
    let got = &unit[s as usize..e as usize];
    words(got) == words(src)
}

fn words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            break;
        }
        let st = i;
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
            while !s.is_char_boundary(i) {
                i += 1;
            }
        }
        out.push(&s[st..i]);
    }
    out
}

fn check_line(l: &str, macros: &FxHashSet<String>) -> Result<(), NotPatchable> {
    let t = l.trim_start();
    let quotes = l.replace("\\\\", "").replace("\\\"", "").replace("'\"'", "").matches('"').count();
    if t.starts_with('#')
        || l.trim_end().ends_with('\\')
        || l.contains("/*")
        || l.contains("*/")
        || l.contains("R\"")
        || quotes % 2 == 1
    {
        return Err(NotPatchable::Directive(0));
    }
    let code = match l.find("//") {
        Some(i) => &l[..i],
        None => l,
    };
    for w in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()) && macros.contains(w) {
            return Err(NotPatchable::MacroUse(w.to_string()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn macros() -> FxHashSet<String> {
        ["N".to_string(), "__CUDACC__".to_string()].into_iter().collect()
    }

    const UNIT: &str =
        "# 1 \"/w/a.cu\"\nint f() {\n  int x = 1;\n# 1 \"/w/b.h\" 1\nint b;\n# 4 \"/w/a.cu\" 2\n  return x;\n}\n";
    const SRC: &str = "int f() {\n  int x = 1;\n#include \"b.h\"\n  return x;\n}\n";

    #[test]
    fn body_edits_are_patched_and_markers_shift() {
        let lines = UnitLines::new(UNIT, "/w/a.cu", "/w");
        let new = SRC.replace("  int x = 1;\n", "  int x = 1;\n  x += 2;\n");
        let got = patch(UNIT, &lines, "/w/a.cu", SRC, &new, &macros()).unwrap();
        expect_test::expect![[r##"
            # 1 "/w/a.cu"
            int f() {
              int x = 1;
              x += 2;
            # 1 "/w/b.h" 1
            int b;
            # 5 "/w/a.cu" 2
              return x;
            }
        "##]]
        .assert_eq(&got);
        // Replacing a line in place.
        let new = SRC.replace("return x;", "return x + 1;");
        let got = patch(UNIT, &lines, "/w/a.cu", SRC, &new, &macros()).unwrap();
        assert!(got.contains("# 4 \"/w/a.cu\" 2\n  return x + 1;\n}"), "{got}");
    }

    #[test]
    fn directives_and_macro_uses_need_the_preprocessor() {
        let lines = UnitLines::new(UNIT, "/w/a.cu", "/w");
        let new = SRC.replace("return x;", "return N;");
        assert_eq!(patch(UNIT, &lines, "/w/a.cu", SRC, &new, &macros()), Err(NotPatchable::MacroUse("N".into())));
        let new = SRC.replace("  return x;", "#define M 1\n  return x;");
        assert_eq!(patch(UNIT, &lines, "/w/a.cu", SRC, &new, &macros()), Err(NotPatchable::Directive(3)));
        assert_eq!(patch(UNIT, &lines, "/w/a.cu", SRC, SRC, &FxHashSet::default()), Err(NotPatchable::NoMacroSet));
        // A line the unit does not hold as written (a macro expanded there).
        let unit = UNIT.replace("int x = 1;", "int x = 128;");
        let lines = UnitLines::new(&unit, "/w/a.cu", "/w");
        let new = SRC.replace("int x = 1;", "int x = 2;");
        assert_eq!(patch(&unit, &lines, "/w/a.cu", SRC, &new, &macros()), Err(NotPatchable::NotCopied(1)));
    }
}
