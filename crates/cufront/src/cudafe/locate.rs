//! Where a diagnostic points: the presumed file and line (line markers),
//! the column in code points, and the physical source line shown under the
//! message.
//!
//! A unit can hold one very long line with a diagnostic every few bytes
//! (a megabyte of NUL bytes, a generated expression): the cost of one
//! location must not grow with the line. Line starts come from the source
//! map (a binary search); columns are counted on from the previous location
//! when it is earlier on the same line (diagnostics are located in input
//! order); the source line is copied only for a diagnostic that is shown.

use std::cell::Cell;

use cufront_diagnostics::{Location, LocationKind};
use cufront_syntax::source_map::SourceMap;

pub struct Locator<'a> {
    text: &'a str,
    map: &'a SourceMap,
    stdin: bool,
    /// Offsets at or past this are "At end of source" (only whitespace follows;
    /// a NUL byte is not whitespace here: its own warning points at it).
    end_of_source: usize,
    /// The last column computed: (line start, offset, column).
    last: Cell<(usize, usize, u32)>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str, map: &'a SourceMap, stdin: bool) -> Locator<'a> {
        let end_of_source = text.trim_end().len();
        Locator { text, map, stdin, end_of_source, last: Cell::new((usize::MAX, 0, 0)) }
    }

    /// The presumed location of `offset`, without its source line (what
    /// deciding a diagnostic's fate needs).
    pub fn location(&self, offset: u32) -> Location {
        self.locate(offset, None)
    }

    /// The location of `offset` inside a token that starts at `token_start`:
    /// EDG counts such a column in bytes from the token's own column (a NUL
    /// in a string after `é`, a byte of an invalid raw string delimiter).
    pub fn location_in_token(&self, offset: u32, token_start: u32) -> Location {
        self.locate(offset, Some(token_start))
    }

    fn locate(&self, offset: u32, token_start: Option<u32>) -> Location {
        let text = self.text;
        let off = (offset as usize).min(text.len());
        // Past the last token: EDG says "At end of source".
        // Its line (SARIF shows it) is that of the end of the last token.
        if off >= self.end_of_source {
            let loc = self.map.location(self.end_of_source as u32);
            let mut l = Location::new(self.map.file_name(loc.file), loc.line, 0).with_offset(offset);
            l.kind = LocationKind::EndOfSource;
            return l;
        }
        let loc = self.map.location(off as u32);
        let line_start = self.map.line_start(off as u32) as usize;
        let column = match token_start.map(|t| t as usize) {
            Some(start) if start < off && self.map.line_start(start as u32) as usize == line_start => {
                self.column(line_start, start) + (off - start) as u32
            }
            _ => self.column(line_start, off),
        };
        let mut l = Location::new(self.map.file_name(loc.file), loc.line, column).with_offset(offset);
        l.system_header = self.map.flags_at(off as u32).system;
        if self.stdin {
            l.kind = LocationKind::Stdin;
        }
        l
    }

    /// `location` with the physical source line, as shown under a message:
    /// a NUL byte shows as a space (as cudafe++ prints it).
    pub fn with_source_line(&self, loc: Location) -> Location {
        if loc.kind == LocationKind::EndOfSource {
            return loc;
        }
        let Some(offset) = loc.offset else { return loc };
        let off = (offset as usize).min(self.text.len());
        let bytes = self.text.as_bytes();
        let line_start = self.map.line_start(off as u32) as usize;
        let line_end = memchr::memchr(b'\n', &bytes[off..]).map_or(bytes.len(), |i| off + i);
        let mut line = &self.text[self.shown_from(line_start)..line_end];
        // The CRs before a LF end the line; any other CR is whitespace in a
        // line (CR-only line endings make one line), shown as a space.
        if line_end < bytes.len() {
            line = line.trim_end_matches('\r');
        }
        if memchr::memchr2(0, b'\r', line.as_bytes()).is_some() {
            loc.with_source_line(line.replace(['\0', '\r'], " "))
        } else {
            loc.with_source_line(line)
        }
    }

    /// Where a line's shown text starts: after a byte order mark opening
    /// the text (EDG skips it).
    fn shown_from(&self, line_start: usize) -> usize {
        if line_start == 0 && self.text.starts_with('\u{feff}') { 3 } else { line_start }
    }

    /// 1-based column of `off` on the line starting at `line_start`, in code
    /// points; an offset inside a multi-byte character counts that
    /// character (cudafe++ points at each byte of an invalid raw string
    /// delimiter so).
    fn column(&self, line_start: usize, off: usize) -> u32 {
        let (last_line, last_off, last_col) = self.last.get();
        let (from, base) = if last_line == line_start && last_off <= off {
            (last_off, last_col)
        } else {
            (self.shown_from(line_start).min(off), 1)
        };
        let chars = self.text.as_bytes()[from..off].iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32;
        let col = base + chars;
        self.last.set((line_start, off, col));
        col
    }
}
