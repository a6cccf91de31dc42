//! Maps offsets in a preprocessed file back to the original file, line and
//! column, following gcc line markers (`# 12 "a.cu" 2`) and `#line`.

use rustc_hash::FxHashMap;

/// Flags of a gcc line marker (1: entering an include, 2: returning, 3: system header, 4: extern "C").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MarkerFlags {
    pub enter: bool,
    pub leave: bool,
    pub system: bool,
    pub extern_c: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    /// Offset of the first byte of the line after the marker.
    start: u32,
    file: FileId,
    /// Line number (1-based) of the line starting at `start`.
    line: u32,
    flags: MarkerFlags,
}

/// Original position of an offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: FileId,
    /// 1-based.
    pub line: u32,
    /// 1-based, in bytes.
    pub col: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    files: Vec<String>,
    segments: Vec<Segment>,
    /// Offsets of every line start in the preprocessed text.
    line_starts: Vec<u32>,
}

impl SourceMap {
    /// Scans `text` for line markers. `primary` names the text itself, used
    /// before the first marker.
    pub fn new(text: &str, primary: &str) -> SourceMap {
        let mut map = SourceMap::default();
        let mut file_ids: FxHashMap<String, FileId> = FxHashMap::default();
        let primary = map.intern(&mut file_ids, primary);
        map.segments.push(Segment { start: 0, file: primary, line: 1, flags: MarkerFlags::default() });
        let bytes = text.as_bytes();
        let mut line_start = 0usize;
        while line_start <= bytes.len() {
            map.line_starts.push(line_start as u32);
            let end = memchr::memchr(b'\n', &bytes[line_start..]).map_or(bytes.len(), |i| line_start + i);
            let mut line_text = &text[line_start..end];
            if line_start == 0 {
                line_text = line_text.strip_prefix('\u{feff}').unwrap_or(line_text);
            }
            // A marker EDG rejects (`check_directive`) changes nothing.
            if let Some((line, file, flags)) = parse_marker(line_text).filter(|_| check_directive(line_text).is_empty())
            {
                let file = match file {
                    Some(f) => map.intern(&mut file_ids, &f),
                    None => map.segments.last().unwrap().file,
                };
                map.segments.push(Segment { start: (end + 1).min(bytes.len()) as u32, file, line, flags });
            }
            if end >= bytes.len() {
                break;
            }
            line_start = end + 1;
        }
        map
    }

    /// The map of `new`, the text `old` (whose map this is) after an edit,
    /// when the edit leaves every line marker as it was: the lines the
    /// edit touches are scanned again and later offsets shifted, so a
    /// keystroke in a function body costs its lines, not the unit's.
    /// `None` when a changed line is, or was, a directive (or is the first
    /// line, which may hold a byte-order mark): then [`SourceMap::new`].
    pub fn edited(&self, old: &str, new: &str) -> Option<SourceMap> {
        if self.line_starts.last().is_none_or(|&l| l as usize > old.len()) {
            return None;
        }
        let (start, old_end, new_end) = crate::reparse::changed_range(old, new)?;
        // Whole lines: from the start of the first changed line to the end
        // of the last (its newline excluded).
        let first = self.line_starts.partition_point(|&l| l as usize <= start) - 1;
        let from = self.line_starts[first] as usize;
        if from == 0 {
            return None;
        }
        let line_end =
            |text: &str, at: usize| memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i);
        let (old_to, new_to) = (line_end(old, old_end), line_end(new, new_end));
        // Any line that starts with `#` after blanks may be a directive.
        let directive = |region: &str| region.split('\n').any(|l| l.trim_start_matches([' ', '\t']).starts_with('#'));
        if directive(&old[from..old_to]) || directive(&new[from..new_to]) {
            return None;
        }
        let delta = new.len() as i64 - old.len() as i64;
        let shift = |l: u32| (l as i64 + delta) as u32;
        // Line starts after the region: those of the old text past its end.
        let after = self.line_starts.partition_point(|&l| l as usize <= old_to);
        let mut line_starts = Vec::with_capacity(self.line_starts.len() + 16);
        line_starts.extend_from_slice(&self.line_starts[..=first]);
        line_starts.extend(memchr::memchr_iter(b'\n', &new.as_bytes()[from..new_to]).map(|i| (from + i + 1) as u32));
        line_starts.extend(self.line_starts[after..].iter().map(|&l| shift(l)));
        // No segment starts inside the region (a segment starts on the line
        // after a marker, and the region holds none).
        let segments = self
            .segments
            .iter()
            .map(|s| if s.start as usize > from { Segment { start: shift(s.start), ..s.clone() } } else { s.clone() })
            .collect();
        Some(SourceMap { files: self.files.clone(), segments, line_starts })
    }

    fn intern(&mut self, ids: &mut FxHashMap<String, FileId>, name: &str) -> FileId {
        *ids.entry(name.to_string()).or_insert_with(|| {
            self.files.push(name.to_string());
            FileId(self.files.len() as u32 - 1)
        })
    }

    pub fn file_name(&self, id: FileId) -> &str {
        &self.files[id.0 as usize]
    }

    /// Original location of `offset`.
    pub fn location(&self, offset: u32) -> Location {
        let seg = match self.segments.binary_search_by(|s| s.start.cmp(&offset)) {
            Ok(i) => &self.segments[i],
            Err(i) => &self.segments[i - 1],
        };
        let line_idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let seg_line_idx = match self.line_starts.binary_search(&seg.start) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        Location {
            file: seg.file,
            line: seg.line + (line_idx - seg_line_idx) as u32,
            col: offset - self.line_starts[line_idx] + 1,
        }
    }

    /// The offset where the physical line holding `offset` starts.
    pub fn line_start(&self, offset: u32) -> u32 {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => self.line_starts[i],
            Err(i) => self.line_starts[i - 1],
        }
    }

    /// Every file the markers name, with its id.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &str)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f.as_str()))
    }

    /// The file that `offset` is in.
    pub fn file_at(&self, offset: u32) -> FileId {
        match self.segments.binary_search_by(|s| s.start.cmp(&offset)) {
            Ok(i) => self.segments[i].file,
            Err(i) => self.segments[i - 1].file,
        }
    }

    /// The toolkit's headers, by file id: the files under the directory of
    /// the `cuda_runtime.h` that nvcc includes first into every unit (nvcc
    /// names its include directory with `-I`, so the markers do not flag
    /// them as system headers).
    pub fn toolkit_files(&self) -> Vec<bool> {
        let Some(dir) = self.files().find_map(|(_, f)| f.strip_suffix("cuda_runtime.h").filter(|d| d.ends_with('/')))
        else {
            return Vec::new();
        };
        self.files().map(|(_, f)| f.starts_with(dir)).collect()
    }

    /// Whether `offset` is in code the user wrote: neither a system header
    /// nor one of the toolkit's headers.
    pub fn is_user_code(&self, offset: u32, toolkit: &[bool]) -> bool {
        !(self.flags_at(offset).system || toolkit.get(self.file_at(offset).0 as usize).is_some_and(|&t| t))
    }

    /// Flags of the line marker that governs `offset` (e.g. "system header").
    pub fn flags_at(&self, offset: u32) -> MarkerFlags {
        self.segments[self.segment_index(offset)].flags
    }

    /// Whether every offset of `start..end` is in a system header.
    pub fn all_system(&self, start: u32, end: u32) -> bool {
        let first = self.segment_index(start);
        let last = self.segments.partition_point(|s| s.start < end).max(first + 1);
        self.segments[first..last].iter().all(|s| s.flags.system)
    }

    /// The parts of `start..end` that are in system headers, relative to
    /// `start` (sorted, not overlapping).
    pub fn system_spans(&self, start: u32, end: u32) -> Vec<(u32, u32)> {
        let first = self.segment_index(start);
        let last = self.segments.partition_point(|s| s.start < end).max(first + 1);
        let mut out: Vec<(u32, u32)> = Vec::new();
        for (i, s) in self.segments.iter().enumerate().take(last).skip(first) {
            if !s.flags.system {
                continue;
            }
            let from = s.start.max(start) - start;
            let to = self.segments.get(i + 1).map_or(end, |n| n.start.min(end)) - start;
            match out.last_mut() {
                Some(prev) if prev.1 == from => prev.1 = to,
                _ => out.push((from, to)),
            }
        }
        out
    }

    fn segment_index(&self, offset: u32) -> usize {
        match self.segments.binary_search_by(|s| s.start.cmp(&offset)) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }
}

/// A problem EDG reports in a directive line of preprocessed text (the line
/// markers and `#line` of a `.ii`, an unknown directive name): where in the
/// line (a byte offset) and EDG's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DirectiveError {
    pub offset: usize,
    pub msg: &'static str,
}

/// The directive names EDG knows (a preprocessed unit holds few of them).
const DIRECTIVES: &[&str] = &[
    "define",
    "undef",
    "include",
    "include_next",
    "import",
    "if",
    "ifdef",
    "ifndef",
    "elif",
    "elifdef",
    "elifndef",
    "else",
    "endif",
    "line",
    "error",
    "warning",
    "pragma",
    "ident",
    "sccs",
    "assert",
    "unassert",
];

/// Checks a directive line (`line` starts with `#`, without its newline) as
/// EDG does (docs/malformed-input.md): a line marker's number is a run of
/// decimal digits up to 4294967295 (`#line` also rejects 0), followed by
/// nothing or by a string literal without a suffix, then (after `#` only)
/// by decimal flags; an unknown directive name is an error. Other
/// directives are not looked into. A CR is whitespace (a file with CR-only
/// line endings is one line).
pub fn check_directive(line: &str) -> Vec<DirectiveError> {
    const UNRECOGNIZED: &str = "unrecognized preprocessing directive";
    const EXPECTED_LINE: &str = "expected a line number";
    const INVALID_LINE: &str = "invalid line number";
    const EXPECTED_FILE: &str = "expected a file name";
    const EXTRA: &str = "extra text after expected end of preprocessing directive";
    let b = line.as_bytes();
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c | 0);
    let skip = |mut i: usize| {
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        i
    };
    // The end of the directive: the end of the line, or a comment.
    let at_end = |i: usize| i >= b.len() || b[i..].starts_with(b"//") || b[i..].starts_with(b"/*");
    let err = |offset: usize, msg: &'static str| DirectiveError { offset, msg };
    let mut out = Vec::new();
    let mut i = skip(1);
    if at_end(i) {
        return out; // the null directive
    }
    let hash_form = b[i].is_ascii_digit();
    if !hash_form {
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
            i += 1;
        }
        let name = &line[start..i];
        if name != "line" {
            if !DIRECTIVES.contains(&name) {
                out.push(err(start, UNRECOGNIZED));
            }
            return out;
        }
        i = skip(i);
        if at_end(i) || !b[i].is_ascii_digit() {
            out.push(err(i, EXPECTED_LINE));
            return out;
        }
    }
    let start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let number = line[start..i].parse::<u64>().unwrap_or(u64::MAX);
    if number > u32::MAX as u64 || (!hash_form && number == 0) {
        out.push(err(start, INVALID_LINE));
    }
    i = skip(i);
    if at_end(i) {
        return out;
    }
    // The file name: a plain string literal, closed on this line.
    let name_start = i;
    let mut closed = false;
    if b[i] == b'"' {
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => {
                    i += 1;
                    closed = true;
                    break;
                }
                _ => i += 1,
            }
        }
    }
    let suffixed = closed && i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80);
    if !closed || suffixed {
        out.push(err(name_start, EXPECTED_FILE));
        return out;
    }
    loop {
        i = skip(i);
        if at_end(i) {
            return out;
        }
        if !(hash_form && b[i].is_ascii_digit()) {
            out.push(err(i, EXTRA));
            return out;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
}

/// `# 12 "file" 1 3` or `#line 12 "file"` → (12, Some(file), flags).
pub fn parse_marker(line: &str) -> Option<(u32, Option<String>, MarkerFlags)> {
    let rest = line.strip_prefix('#')?.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("line").map_or(rest, |r| r.trim_start_matches([' ', '\t']));
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let line_no: u32 = rest[..digits].parse().ok()?;
    let mut rest = rest[digits..].trim_start_matches([' ', '\t']);
    let mut file = None;
    if rest.starts_with('"') {
        let mut name = String::new();
        let mut chars = rest[1..].char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        name.push(e);
                    }
                }
                '"' => {
                    end = Some(i + 2);
                    break;
                }
                c => name.push(c),
            }
        }
        rest = &rest[end?..];
        // EDG keeps the name as a C string: a NUL ends it.
        if let Some(nul) = name.find('\0') {
            name.truncate(nul);
        }
        file = Some(name);
    }
    let mut flags = MarkerFlags::default();
    for f in rest.split_ascii_whitespace() {
        match f {
            "1" => flags.enter = true,
            "2" => flags.leave = true,
            "3" => flags.system = true,
            "4" => flags.extern_c = true,
            _ => {}
        }
    }
    Some((line_no, file, flags))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_errors_are_edg_s() {
        let check = |line: &str| -> Vec<(usize, &str)> {
            check_directive(line).into_iter().map(|e| (e.offset, e.msg)).collect()
        };
        for ok in [
            "#",
            "# 1 \"a.cu\"",
            "# 5 \"a.cu\" 1 3 4",
            "# 5 \"a.cu\" 9",
            "# 5",
            "# 0 \"a.cu\"",
            "#line 4294967295 \"a.cu\"",
            "#  5 \"a.cu\" // c",
            "# 5\"a.cu\"",
            "# 5 \"a\\\"b.cu\"",
            "#pragma once",
            "#ident \"x\"",
        ] {
            assert_eq!(check(ok), [], "{ok:?}");
        }
        assert_eq!(check("# +5 \"a.cu\""), [(2, "unrecognized preprocessing directive")]);
        assert_eq!(check("#foo"), [(1, "unrecognized preprocessing directive")]);
        assert_eq!(check("# 0x10 \"a.cu\""), [(3, "expected a file name")]);
        assert_eq!(check("# 1e5 \"a.cu\""), [(3, "expected a file name")]);
        assert_eq!(check("# 18446744073709551616 \"a.cu\""), [(2, "invalid line number")]);
        assert_eq!(check("# 4294967296 \"a.cu\""), [(2, "invalid line number")]);
        assert_eq!(check("# 5 \"unterminated"), [(4, "expected a file name")]);
        assert_eq!(check("# 21 <built-in> 2"), [(5, "expected a file name")]);
        assert_eq!(check("# 5 \"a.cu\"x"), [(4, "expected a file name")]);
        assert_eq!(check("# 5 L\"a.cu\""), [(4, "expected a file name")]);
        assert_eq!(check("# 5 \"a.cu\" 1x"), [(12, "extra text after expected end of preprocessing directive")]);
        assert_eq!(check("#line 5 \"a.cu\" 3"), [(15, "extra text after expected end of preprocessing directive")]);
        assert_eq!(check("#line"), [(5, "expected a line number")]);
        assert_eq!(check("#line 0"), [(6, "invalid line number")]);
        assert_eq!(check("#line 0x10"), [(6, "invalid line number"), (7, "expected a file name")]);
        assert_eq!(
            check("# 1 \"a.cu\"\rint x;\rint y;\r"),
            [(11, "extra text after expected end of preprocessing directive")]
        );
    }

    #[test]
    fn an_edit_between_markers_patches_the_map() {
        let old = "int a;\n# 5 \"x.h\" 1 3\nint b;\nvoid f() {\n  g();\n}\n# 2 \"m.cu\" 2\nint d;\n";
        let map = SourceMap::new(old, "m.ii");
        let edits = [
            ("  g();", "  g();\n  h();\n"),
            ("  g();\n", ""),
            ("void f() {\n  g();\n}", "void f() { }"),
            ("int d;\n", "int d; int e;\n\n"),
            ("int d;\n", "int d;"),
            ("int b;", "int b = 1;"),
        ];
        for (from, to) in edits {
            let new = old.replacen(from, to, 1);
            let patched = map.edited(old, &new).unwrap_or_else(|| panic!("{from:?} -> {to:?} falls back"));
            assert_eq!(patched, SourceMap::new(&new, "m.ii"), "{from:?} -> {to:?}");
        }
        // Edits that touch a directive (or could add one), or the first line, rescan.
        for (from, to) in [("# 2 \"m.cu\" 2", "# 3 \"m.cu\" 2"), ("  g();", "# 9 \"y.h\""), ("int a;", "int a2;")] {
            assert_eq!(map.edited(old, &old.replacen(from, to, 1)), None, "{from:?} -> {to:?}");
        }
    }

    #[test]
    fn maps_lines_through_markers() {
        let text = "int a;\n# 5 \"x.h\" 1 3\nint b;\n\nint c;\n# 2 \"m.cu\" 2\nint d;\n";
        let map = SourceMap::new(text, "m.ii");
        let at = |needle: &str| {
            let loc = map.location(text.find(needle).unwrap() as u32);
            (map.file_name(loc.file).to_string(), loc.line, loc.col)
        };
        assert_eq!(at("int a"), ("m.ii".into(), 1, 1));
        assert_eq!(at("b;"), ("x.h".into(), 5, 5));
        assert_eq!(at("int c"), ("x.h".into(), 7, 1));
        assert_eq!(at("int d"), ("m.cu".into(), 2, 1));
        assert!(map.flags_at(text.find("int b").unwrap() as u32).system);
        let span = |a: &str, b: &str| (text.find(a).unwrap() as u32, (text.find(b).unwrap() + b.len()) as u32);
        let system = |(a, b)| map.all_system(a, b);
        assert!(system(span("int b", "int c;")));
        assert!(!system(span("int a", "int b;")));
        assert!(!system(span("int c", "int d;")));
        assert!(!system(span("int d", "int d;")));
    }
}
