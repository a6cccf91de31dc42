//! Severity overrides from the command line and from `#pragma nv_diag_*`
//! (spec 60 §5.3–5.5).
//!
//! Command-line overrides are a map applied in argument order (last wins).
//! Pragmas are positional: a [`PragmaTimeline`] holds the `(offset, pragma)`
//! records of one translation unit and answers "which override is in force for
//! diagnostic N at offset X", honouring `push`/`pop`. `once` is not
//! positional in cudafe++ (it is a sticky per-number flag set when the pragma
//! is processed, which `pop` does not undo): see [`PragmaTimeline::once_in_force`].

use rustc_hash::{FxHashMap, FxHashSet};

use crate::number::DiagId;
use crate::severity::Severity;

/// What an option or pragma does to the numbers it lists.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Suppress,
    Remark,
    Warning,
    Error,
    /// Pragma only: back to the command-line setting, else the emission severity.
    Default,
    /// Show at most once per compilation.
    Once,
}

impl Action {
    /// The `--diag_*` option / `nv_diag_*` pragma word (`suppress`, …).
    pub fn from_word(word: &str) -> Option<Action> {
        Some(match word {
            "suppress" => Action::Suppress,
            "remark" => Action::Remark,
            "warning" => Action::Warning,
            "error" => Action::Error,
            "default" => Action::Default,
            "once" => Action::Once,
            _ => return None,
        })
    }
}

/// A severity override in force for one number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    Suppressed,
    /// Remark, warning or (discretionary) error.
    Severity(Severity),
}

fn level_of(action: Action) -> Option<Level> {
    Some(match action {
        Action::Suppress => Level::Suppressed,
        Action::Remark => Level::Severity(Severity::Remark),
        Action::Warning => Level::Severity(Severity::Warning),
        Action::Error => Level::Severity(Severity::Error),
        Action::Default | Action::Once => return None,
    })
}

/// Command-line overrides (`--diag_suppress` … `--diag_once`), applied in
/// command-line order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    levels: FxHashMap<DiagId, Level>,
    once: FxHashSet<DiagId>,
}

impl Overrides {
    pub fn apply(&mut self, action: Action, ids: &[DiagId]) {
        for &id in ids {
            match level_of(action) {
                Some(level) => {
                    self.levels.insert(id, level);
                }
                None if action == Action::Once => {
                    self.once.insert(id);
                }
                None => {
                    self.levels.remove(&id);
                }
            }
        }
    }
    pub fn level(&self, id: DiagId) -> Option<Level> {
        self.levels.get(&id).copied()
    }
    pub fn once(&self, id: DiagId) -> bool {
        self.once.contains(&id)
    }
}

/// One diagnostic-control pragma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagPragma {
    /// `#pragma nv_diag_<action> LIST`
    Set(Action, Vec<DiagId>),
    /// `#pragma nv_diagnostic push`
    Push,
    /// `#pragma nv_diagnostic pop`
    Pop,
}

/// Result of a pragma lookup.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PragmaLevel {
    Set(Level),
    /// `nv_diag_default`: use the command-line override, else the emission severity.
    Default,
}

/// The diagnostic pragmas of one translation unit, by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PragmaTimeline {
    /// Sorted by offset (stable: pragmas at one offset keep their order).
    records: Vec<(u32, DiagPragma)>,
    /// For each `Pop`, the index of the `Push` it closes (`None`: unmatched,
    /// which cudafe++ warns about (3185) and otherwise ignores).
    matching_push: Vec<Option<usize>>,
    /// Offset of the first `once` pragma per number.
    first_once: FxHashMap<DiagId, u32>,
}

impl PragmaTimeline {
    pub fn new(mut records: Vec<(u32, DiagPragma)>) -> PragmaTimeline {
        records.sort_by_key(|(offset, _)| *offset);
        let mut matching_push = vec![None; records.len()];
        let mut stack = Vec::new();
        let mut first_once = FxHashMap::default();
        for (i, (offset, pragma)) in records.iter().enumerate() {
            match pragma {
                DiagPragma::Push => stack.push(i),
                DiagPragma::Pop => matching_push[i] = stack.pop(),
                DiagPragma::Set(Action::Once, ids) => {
                    for id in ids {
                        first_once.entry(*id).or_insert(*offset);
                    }
                }
                DiagPragma::Set(..) => {}
            }
        }
        PragmaTimeline { records, matching_push, first_once }
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Offsets of `pop` pragmas that close no `push` (warning 3185 belongs there).
    pub fn unmatched_pops(&self) -> impl Iterator<Item = u32> + '_ {
        self.records
            .iter()
            .zip(&self.matching_push)
            .filter(|((_, p), m)| *p == DiagPragma::Pop && m.is_none())
            .map(|((offset, _), _)| *offset)
    }

    /// The pragma setting for `id` in force at `offset` (pragmas strictly
    /// before `offset` count). Walks back from `offset`; a `pop` jumps to just
    /// before its `push`, since the state after a pop is the state at the push.
    pub fn level_at(&self, id: DiagId, offset: u32) -> Option<PragmaLevel> {
        let mut i = self.records.partition_point(|(o, _)| *o < offset);
        while i > 0 {
            i -= 1;
            match &self.records[i].1 {
                DiagPragma::Pop => {
                    if let Some(push) = self.matching_push[i] {
                        i = push;
                    }
                }
                DiagPragma::Push => {}
                DiagPragma::Set(action, ids) => {
                    if *action == Action::Once || !ids.contains(&id) {
                        continue;
                    }
                    return Some(match level_of(*action) {
                        Some(level) => PragmaLevel::Set(level),
                        None => PragmaLevel::Default,
                    });
                }
            }
        }
        None
    }

    /// Whether an `nv_diag_once` for `id` has been processed when a diagnostic
    /// at `offset` is emitted. `None` (a diagnostic emitted after the whole
    /// file was read) sees every pragma of the file.
    pub fn once_in_force(&self, id: DiagId, offset: Option<u32>) -> bool {
        match (self.first_once.get(&id), offset) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(&at), Some(offset)) => at < offset,
        }
    }
}

/// A problem found while reading a pragma: a warning number and the byte
/// offset in the pragma line where cudafe++ puts the caret.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PragmaProblem {
    pub id: DiagId,
    pub offset: usize,
}

/// Reads one `#pragma` line. Returns `None` for pragmas that do not control
/// diagnostics (cudafe++ passes them through silently, including the old
/// `diag_suppress` and `GCC diagnostic` spellings). The problems are
/// warnings: 1222 invalid error number, 1223 invalid error tag, 1224 expected
/// an error number or error tag, 253 expected a ",", 3184 push/pop missing.
/// Items before the first syntax problem still apply, as in cudafe++.
pub fn parse_pragma(line: &str) -> Option<(DiagPragma, Vec<PragmaProblem>)> {
    let toks = pragma_tokens(line);
    let mut it = toks.iter().peekable();
    let hash = it.next()?;
    if hash.text != "#" {
        return None;
    }
    if it.next()?.text != "pragma" {
        return None;
    }
    let name = it.next()?;
    let end = line.trim_end_matches(['\n', '\r']).len();
    let mut problems = Vec::new();
    if name.text == "nv_diagnostic" {
        let pragma = match it.next() {
            Some(t) if t.text == "push" => DiagPragma::Push,
            Some(t) if t.text == "pop" => DiagPragma::Pop,
            other => {
                let offset = other.map_or(end, |t| t.start);
                problems.push(PragmaProblem { id: DiagId(3184), offset });
                // cudafe++ ignores the pragma; an empty `Set` changes nothing.
                return Some((DiagPragma::Set(Action::Default, Vec::new()), problems));
            }
        };
        return Some((pragma, problems));
    }
    let action = Action::from_word(name.text.strip_prefix("nv_diag_")?)?;
    let mut ids = Vec::new();
    let rest: Vec<&PragmaToken> = it.collect();
    let mut i = 0;
    loop {
        match rest.get(i) {
            Some(t) if t.kind == TokKind::Number => {
                match t.text.parse::<u64>().ok().and_then(DiagId::from_user_number) {
                    Some(id) => ids.push(id),
                    None => problems.push(PragmaProblem { id: DiagId(1222), offset: t.start }),
                }
                i += 1;
            }
            Some(t) if t.kind == TokKind::Ident => {
                match crate::catalog::by_tag(t.text) {
                    Some(id) => ids.push(id),
                    None => problems.push(PragmaProblem { id: DiagId(1223), offset: t.start }),
                }
                i += 1;
            }
            Some(t) => {
                problems.push(PragmaProblem { id: DiagId(1224), offset: t.start });
                i += 1;
            }
            None => {
                problems.push(PragmaProblem { id: DiagId(1224), offset: end });
                problems.push(PragmaProblem { id: DiagId(253), offset: end });
                break;
            }
        }
        match rest.get(i) {
            None => break,
            Some(t) if t.text == "," => i += 1,
            Some(t) => {
                problems.push(PragmaProblem { id: DiagId(253), offset: t.start });
                break;
            }
        }
    }
    Some((DiagPragma::Set(action, ids), problems))
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TokKind {
    Ident,
    /// All digits: a diagnostic number.
    Number,
    /// Anything else, including numbers with suffixes (`12abc`).
    Other,
}

#[derive(Debug)]
struct PragmaToken<'a> {
    kind: TokKind,
    text: &'a str,
    start: usize,
}

fn pragma_tokens(line: &str) -> Vec<PragmaToken<'_>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            TokKind::Ident
        } else if c.is_ascii_digit() {
            // A pp-number: digits, letters, `_` and `.` glue together.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            if line[start..i].bytes().all(|d| d.is_ascii_digit()) { TokKind::Number } else { TokKind::Other }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            TokKind::Other
        } else {
            // One punctuator (or one UTF-8 character).
            i += line[i..].chars().next().map_or(1, char::len_utf8);
            TokKind::Other
        };
        out.push(PragmaToken { kind, text: &line[start..i], start });
    }
    out
}

/// Finds every diagnostic pragma in a translation unit's text: the lines
/// whose first non-blank character is `#` and that [`parse_pragma`] accepts.
/// Returns the timeline (records at the offset of each line's start) and the
/// problems as `(absolute offset, warning number)` in text order, including
/// 3185 at the end of each `pop` line that closes no `push`.
///
/// Preprocessed input has no comments, so a `#` that starts a line is a
/// directive (a raw string literal spanning lines is the one exception, and
/// gcc does not put `#pragma` text at the start of such lines in practice).
pub fn scan_pragmas(text: &str) -> (PragmaTimeline, Vec<(u32, DiagId)>) {
    let mut records = Vec::new();
    let mut problems = Vec::new();
    let mut pop_ends = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let line_start = start;
        start += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start_matches([' ', '\t']);
        if !trimmed.starts_with('#') {
            continue;
        }
        let lead = body.len() - trimmed.len();
        let Some((pragma, probs)) = parse_pragma(trimmed) else {
            continue;
        };
        for p in probs {
            problems.push(((line_start + lead + p.offset) as u32, p.id));
        }
        if pragma == DiagPragma::Pop {
            pop_ends.push((line_start as u32, (line_start + body.len()) as u32));
        }
        records.push((line_start as u32, pragma));
    }
    let timeline = PragmaTimeline::new(records);
    let unmatched: FxHashSet<u32> = timeline.unmatched_pops().collect();
    for (line_start, end) in pop_ends {
        if unmatched.contains(&line_start) {
            problems.push((end, DiagId(3185)));
        }
    }
    problems.sort_by_key(|(offset, _)| *offset);
    (timeline, problems)
}

/// What a front end's command line says about which diagnostics are shown
/// and how: `--diag_suppress` … `--diag_once` (in order), `--no_warnings`
/// (`-w`), `--promote_warnings`, `--error_limit`. nvcc gives cudafe++ and
/// cicc the same ones. The cudafe++ mode parses its whole command line
/// (with its errors for bad values); a reader that only has the line nvcc
/// built (the editor, from `nvcc --dryrun`) takes these from it, and leaves
/// out what it cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownFlags {
    pub overrides: Overrides,
    pub no_warnings: bool,
    pub promote_warnings: bool,
    /// At least 1.
    pub error_limit: u32,
}

impl Default for ShownFlags {
    fn default() -> ShownFlags {
        ShownFlags { overrides: Overrides::default(), no_warnings: false, promote_warnings: false, error_limit: 100 }
    }
}

impl ShownFlags {
    /// The flags of `args`, a front end's arguments (`--name=value` or
    /// `--name value`); other options are skipped.
    pub fn from_args(args: &[String]) -> ShownFlags {
        let mut out = ShownFlags::default();
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            let (name, inline) = match arg.strip_prefix("--") {
                Some(rest) => match rest.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (rest, None),
                },
                None if arg == "-w" => ("no_warnings", None),
                None => continue,
            };
            let takes_value = matches!(
                name,
                "error_limit" | "diag_suppress" | "diag_remark" | "diag_warning" | "diag_error" | "diag_once"
            );
            let value = match (takes_value, inline) {
                (false, _) => None,
                (true, Some(v)) => Some(v),
                (true, None) => {
                    i += 1;
                    args.get(i - 1).map(String::as_str)
                }
            };
            match (name, value) {
                ("no_warnings", _) => out.no_warnings = true,
                ("promote_warnings", _) => out.promote_warnings = true,
                ("error_limit", Some(v)) => {
                    if let Ok(n) = v.parse::<u32>()
                        && n > 0
                    {
                        out.error_limit = n;
                    }
                }
                (_, Some(v)) => {
                    let action = Action::from_word(&name["diag_".len()..]);
                    if let (Some(action), Ok(ids)) = (action, crate::number::parse_diag_list(v)) {
                        out.overrides.apply(action, &ids);
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The engine options these flags give (text output, everything else
    /// as by default).
    pub fn engine_options(&self) -> crate::engine::EngineOptions {
        crate::engine::EngineOptions {
            error_limit: self.error_limit,
            no_warnings: self.no_warnings,
            promote_warnings: self.promote_warnings,
            overrides: self.overrides.clone(),
            ..Default::default()
        }
    }
}
