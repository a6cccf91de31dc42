//! Positions between a user file and the preprocessed unit.
//!
//! A unit is the `.ii` text nvcc's host preprocessing step writes: every line
//! comes from some line of some file, and gcc line markers (`# 12 "a.cu" 2`)
//! say which. [`UnitLines`] records, for each line of the unit, its file and
//! original line, and the reverse (the first unit line of each file line).
//!
//! Columns: gcc keeps a line's tokens but not its spacing (runs of blanks
//! become one space, comments a space, indentation is re-made) and replaces
//! macro uses by their expansion. A column is therefore mapped by aligning
//! the tokens of the source line with those of the unit line
//! ([`align_col`]): equal token sequences map token to token (offset inside
//! the token kept); where a macro expanded, the common prefix and suffix map
//! exactly and anything in between maps to the start of the expansion.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_syntax::source_map::parse_marker;
use rustc_hash::FxHashMap;

/// One line of the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitLine {
    /// Offset of the line's first byte in the unit.
    pub start: u32,
    /// Index into [`UnitLines::files`].
    pub file: u32,
    /// 0-based line in that file.
    pub line: u32,
    /// A line marker (belongs to no file line).
    pub marker: bool,
    /// The governing marker says "system header" (flag 3).
    pub system: bool,
}

/// The line table of a unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitLines {
    /// File names as the markers give them, made absolute against the unit's
    /// directory and normalised (`a/../b` → `b`).
    pub files: Vec<String>,
    pub lines: Vec<UnitLine>,
    file_ids: FxHashMap<String, u32>,
    /// Per file, per line: the unit line holding it (`u32::MAX`: none).
    by_file_line: Vec<Vec<u32>>,
    len: u32,
}

impl UnitLines {
    /// Scans `text`; `main` names the text before the first marker, `dir`
    /// resolves relative marker names.
    pub fn new(text: &str, main: &str, dir: &str) -> UnitLines {
        let mut out = UnitLines { len: text.len() as u32, ..UnitLines::default() };
        let mut file = out.intern(main, dir);
        // Markers name few files many times: each name is normalised once.
        let mut by_name: FxHashMap<String, u32> = FxHashMap::default();
        let mut line = 0u32;
        let mut system = false;
        let mut start = 0usize;
        let bytes = text.as_bytes();
        loop {
            let end = memchr_nl(bytes, start);
            let s = &text[start..end];
            if let Some((n, name, flags)) = s.starts_with('#').then(|| parse_marker(s)).flatten() {
                out.lines.push(UnitLine { start: start as u32, file, line, marker: true, system });
                if let Some(name) = name {
                    file = match by_name.get(&name) {
                        Some(&id) => id,
                        None => {
                            let id = out.intern(&name, dir);
                            by_name.insert(name, id);
                            id
                        }
                    };
                }
                line = n.saturating_sub(1);
                system = flags.system;
            } else {
                out.lines.push(UnitLine { start: start as u32, file, line, marker: false, system });
                let idx = out.lines.len() as u32 - 1;
                // gcc's count drifts before a marker re-syncs it (a blank line
                // may claim the number of the line after it): a line with
                // text wins over a blank one.
                let blank = s.trim().is_empty();
                if out.by_file_line.len() <= file as usize {
                    out.by_file_line.resize(file as usize + 1, Vec::new());
                }
                let slots = &mut out.by_file_line[file as usize];
                if slots.len() <= line as usize {
                    slots.resize(line as usize + 1, u32::MAX);
                }
                let slot = &mut slots[line as usize];
                if *slot == u32::MAX {
                    *slot = idx;
                } else {
                    let prev = out.lines[*slot as usize].start as usize;
                    let prev_end = memchr_nl(bytes, prev);
                    if text[prev..prev_end].trim().is_empty() && !blank {
                        *slot = idx;
                    }
                }
                line += 1;
            }
            if end >= bytes.len() {
                break;
            }
            start = end + 1;
        }
        out
    }

    fn intern(&mut self, name: &str, dir: &str) -> u32 {
        let path = normalize(name, dir);
        if let Some(&id) = self.file_ids.get(&path) {
            return id;
        }
        self.files.push(path.clone());
        let id = self.files.len() as u32 - 1;
        self.file_ids.insert(path, id);
        id
    }

    pub fn file_id(&self, path: &str) -> Option<u32> {
        self.file_ids.get(path).copied()
    }

    /// The unit line holding `offset`.
    pub fn line_at(&self, offset: u32) -> usize {
        match self.lines.binary_search_by(|l| l.start.cmp(&offset)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The unit line that holds line `line` of `file`.
    pub fn unit_line(&self, file: u32, line: u32) -> Option<usize> {
        let i = *self.by_file_line.get(file as usize)?.get(line as usize)?;
        (i != u32::MAX).then_some(i as usize)
    }

    /// The range of unit line `i` without its newline.
    pub fn line_range(&self, text: &str, i: usize) -> (u32, u32) {
        let start = self.lines[i].start;
        let end = self.lines.get(i + 1).map_or(self.len, |l| l.start.saturating_sub(1));
        let end = end.max(start).min(text.len() as u32);
        (start, end)
    }

    /// The unit lines of `file`, in order.
    pub fn lines_of(&self, file: u32) -> impl Iterator<Item = usize> + '_ {
        self.lines.iter().enumerate().filter(move |(_, l)| l.file == file && !l.marker).map(|(i, _)| i)
    }
}

fn memchr_nl(bytes: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &bytes[from..]).map_or(bytes.len(), |i| from + i)
}

/// `name` made absolute against `dir` (when relative) with `.` and `..`
/// removed lexically. Names in angle brackets (`<built-in>`) stay as they are.
pub fn normalize(name: &str, dir: &str) -> String {
    if name.starts_with('<') || name.is_empty() {
        return name.to_string();
    }
    let joined = if name.starts_with('/') || dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") };
    let mut parts: Vec<&str> = Vec::new();
    for p in joined.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let body = parts.join("/");
    if joined.starts_with('/') { format!("/{body}") } else { body }
}

/// The line table of a unit (the main file's directory resolves relative names).
#[salsa::tracked(returns(clone))]
pub fn unit_lines(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<UnitLines> {
    let main = tu.name(db);
    let dir = main.rfind('/').map_or("", |i| &main[..i]);
    Arc::new(UnitLines::new(tu.text(db), main, dir))
}

/// A token of a line for alignment: its byte range and text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tok<'a> {
    start: u32,
    end: u32,
    text: &'a str,
}

/// Splits a line into tokens: words (identifiers, numbers), string and
/// character literals, and single punctuation characters; blanks and
/// comments are skipped.
fn tokens(line: &str) -> Vec<Tok<'_>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let s = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            break;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = line[i + 2..].find("*/").map_or(b.len(), |j| i + 2 + j + 2);
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'_'
                    || b[i] >= 0x80
                    || b[i] == b'.' && b[s].is_ascii_digit())
            {
                i += 1;
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else {
            i += 1;
        }
        while !line.is_char_boundary(i) {
            i += 1;
        }
        out.push(Tok { start: s as u32, end: i as u32, text: &line[s..i] });
    }
    out
}

/// Maps column `col` (a byte offset) of line `from` to a column of line `to`,
/// where `to` is `from` as another tool printed it (see the module doc).
pub fn align_col(from: &str, to: &str, col: u32) -> u32 {
    if from == to {
        return col.min(to.len() as u32);
    }
    let a = tokens(from);
    let b = tokens(to);
    // The token at or after `col`.
    let Some(idx) = a.iter().position(|t| t.end > col) else {
        return to.len() as u32;
    };
    let inside = col.saturating_sub(a[idx].start);
    let pairs = matching(&a, &b);
    // Matched: exact. Unmatched: the start of what replaced it (the ii
    // token after the last match before it).
    let target = match pairs[idx] {
        Some(j) => Some((b[j], inside)),
        None => {
            let after = pairs[..idx].iter().rev().find_map(|m| *m).map_or(0, |j| j + 1);
            b.get(after).map(|t| (*t, 0))
        }
    };
    match target {
        Some((t, inside)) => t.start + inside.min(t.end - t.start),
        None => to.len() as u32,
    }
}

/// For each token of `a`, the token of `b` it is matched with: a longest
/// common subsequence of the texts (lines are short; long ones fall back to
/// the common prefix and suffix).
fn matching(a: &[Tok<'_>], b: &[Tok<'_>]) -> Vec<Option<usize>> {
    let mut out = vec![None; a.len()];
    if a.len() * b.len() > 1 << 16 {
        let prefix = a.iter().zip(b).take_while(|(x, y)| x.text == y.text).count();
        let suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take_while(|(x, y)| x.text == y.text)
            .count()
            .min(a.len().min(b.len()) - prefix);
        for (i, slot) in out.iter_mut().enumerate().take(prefix) {
            *slot = Some(i);
        }
        for k in 1..=suffix {
            out[a.len() - k] = Some(b.len() - k);
        }
        return out;
    }
    let (n, m) = (a.len(), b.len());
    // len[i][j]: LCS of a[i..] and b[j..].
    let mut len = vec![0u16; (n + 1) * (m + 1)];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[i * (m + 1) + j] = if a[i].text == b[j].text {
                len[(i + 1) * (m + 1) + j + 1] + 1
            } else {
                len[(i + 1) * (m + 1) + j].max(len[i * (m + 1) + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i].text == b[j].text {
            out[i] = Some(j);
            i += 1;
            j += 1;
        } else if len[(i + 1) * (m + 1) + j] >= len[i * (m + 1) + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_give_files_and_lines() {
        let text = "# 1 \"/w/a.cu\"\nint a;\n# 1 \"inc/b.h\" 1\nint b;\n# 3 \"/w/a.cu\" 2\nint c;\n";
        let l = UnitLines::new(text, "/w/a.cu", "/w");
        assert_eq!(l.files, ["/w/a.cu", "/w/inc/b.h"]);
        let c = text.find("int c").unwrap() as u32;
        let line = l.lines[l.line_at(c)];
        assert_eq!((line.file, line.line), (0, 2));
        assert_eq!(l.unit_line(1, 0), Some(3));
        assert_eq!(normalize("../x/./y.h", "/w/src"), "/w/x/y.h");
        // A marker re-syncs the count: the line with text holds the number.
        let text = "# 1 \"/w/a.cu\"\nint a;\n\n# 2 \"/w/a.cu\"\nint b;\n";
        let l = UnitLines::new(text, "/w/a.cu", "/w");
        assert_eq!(l.unit_line(0, 1), Some(4));
    }

    #[test]
    fn columns_follow_tokens() {
        // gcc collapses blanks and drops comments.
        assert_eq!(align_col("  int   x = /*c*/ y;", " int x = y;", 8), 5);
        assert_eq!(align_col("  int   x = /*c*/ y;", " int x = y;", 18), 9);
        // A macro use maps its tokens to the start of the expansion; what follows is exact.
        let src = "  return N + idx;";
        let ii = "  return 128 * 2 + idx;";
        assert_eq!(align_col(src, ii, 9), 9);
        assert_eq!(align_col(src, ii, 13), 19);
        // And back.
        assert_eq!(align_col(ii, src, 19), 13);
        // CUDA keywords are attributes in the unit; the name after them still maps exactly.
        assert_eq!(align_col("__constant__ int table[N];", "__attribute__((constant)) int table[4];", 17), 30);
        assert_eq!(align_col("__attribute__((constant)) int table[4];", "__constant__ int table[N];", 30), 17);
    }
}
