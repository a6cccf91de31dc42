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
            if let Some((line, file, flags)) = parse_marker(&text[line_start..end]) {
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

    /// Flags of the line marker that governs `offset` (e.g. "system header").
    pub fn flags_at(&self, offset: u32) -> MarkerFlags {
        match self.segments.binary_search_by(|s| s.start.cmp(&offset)) {
            Ok(i) => self.segments[i].flags,
            Err(i) => self.segments[i - 1].flags,
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
    }
}
