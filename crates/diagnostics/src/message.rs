//! Template expansion (spec 60 §9.2): `%sq2`, `%nd`, `%t1`, `%p`, `%%`, `%[label]`.
//!
//! Expansion yields styled spans rather than a string because the text
//! renderer colours quoted fill-ins and the ` (declared at …)` tails.
//! A missing fill-in renders as nothing (never a panic); [`check_args`] finds
//! such mismatches in tests, which is where cudafe++'s internal errors belong.

use crate::diagnostic::{Arg, Entity, Pos};

/// Colour category of a piece of text (spec 60 §2.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    /// `"…"` from `%sq`, `%n`, `%t`, `%T`.
    Quote,
    /// The ` (declared at line N)` tail of `%nd`.
    Range1,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub style: Style,
    pub text: String,
}

/// Spans of an expanded message; adjacent plain text is merged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans(pub Vec<Span>);

impl Spans {
    fn push(&mut self, style: Style, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(last) = self.0.last_mut()
            && last.style == style
            && style == Style::Plain
        {
            last.text.push_str(text);
            return;
        }
        self.0.push(Span { style, text: text.to_owned() });
    }
    fn quoted(&mut self, text: &str) {
        self.0.push(Span { style: Style::Quote, text: format!("\"{text}\"") });
    }
    pub fn plain_text(&self) -> String {
        self.0.iter().map(|s| s.text.as_str()).collect()
    }
}

/// A parsed `%` specifier.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Label(&'a str),
    Fill { kind: u8, options: &'a str, index: usize },
}

fn pieces(template: &str) -> Vec<Piece<'_>> {
    let bytes = template.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        if start < i {
            out.push(Piece::Text(&template[start..i]));
        }
        match bytes.get(i + 1) {
            Some(b'%') => {
                out.push(Piece::Text("%"));
                i += 2;
            }
            Some(b'[') => {
                let close = template[i + 2..].find(']').map_or(bytes.len(), |p| i + 2 + p);
                out.push(Piece::Label(&template[i + 2..close]));
                i = (close + 1).min(bytes.len());
            }
            Some(&k) if k.is_ascii_alphabetic() => {
                let opt_start = i + 2;
                let mut j = opt_start;
                while j < bytes.len() && bytes[j].is_ascii_alphabetic() {
                    j += 1;
                }
                let options = &template[opt_start..j];
                let mut index = 1;
                if j < bytes.len() && bytes[j].is_ascii_digit() {
                    index = ((bytes[j] - b'0') as usize).max(1);
                    j += 1;
                }
                out.push(Piece::Fill { kind: k, options, index });
                i = j;
            }
            // A lone `%` at the end or before punctuation is literal text.
            _ => {
                out.push(Piece::Text("%"));
                i += 1;
            }
        }
        start = i;
    }
    if start < bytes.len() {
        out.push(Piece::Text(&template[start..]));
    }
    out
}

fn serves(kind: u8, arg: &Arg) -> bool {
    matches!(
        (kind, arg),
        (b's', Arg::Str(_))
            | (b'd', Arg::Int(_))
            | (b'u', Arg::UInt(_))
            | (b't', Arg::Type { .. })
            | (b'T', Arg::TemplateArgs(_))
            | (b'n', Arg::Entity(_))
            | (b'p', Arg::Pos(_))
            | (b'r', Arg::TemplateParam(_))
    )
}

fn nth_arg(args: &[Arg], kind: u8, index: usize) -> Option<&Arg> {
    args.iter().filter(|a| serves(kind, a)).nth(index - 1)
}

/// Expands `template` with `args`. `primary_file` is the file of the
/// diagnostic's location: positions in the same file omit ` of FILE`.
pub fn expand(template: &str, args: &[Arg], primary_file: Option<&str>) -> Spans {
    let mut out = Spans::default();
    for piece in pieces(template) {
        match piece {
            Piece::Text(t) => out.push(Style::Plain, t),
            // C++/CLI mode words; CUDA never runs in that mode, print the label.
            Piece::Label(l) => out.push(Style::Plain, l),
            Piece::Fill { kind, options, index } => {
                let Some(arg) = nth_arg(args, kind, index) else {
                    continue;
                };
                fill(&mut out, arg, options, primary_file);
            }
        }
    }
    out
}

/// [`expand`] without styles.
pub fn render_plain(template: &str, args: &[Arg], primary_file: Option<&str>) -> String {
    expand(template, args, primary_file).plain_text()
}

fn fill(out: &mut Spans, arg: &Arg, options: &str, primary_file: Option<&str>) {
    match arg {
        Arg::Str(s) if options.contains('q') => out.quoted(s),
        Arg::Str(s) => out.push(Style::Plain, s),
        Arg::Int(v) => out.push(Style::Plain, &v.to_string()),
        Arg::UInt(v) => out.push(Style::Plain, &v.to_string()),
        Arg::Type { spelling, aka } => {
            out.quoted(spelling);
            if let Some(aka) = aka.as_deref().filter(|a| a != spelling) {
                out.push(Style::Plain, " (aka ");
                out.quoted(aka);
                out.push(Style::Plain, ")");
            }
        }
        Arg::TemplateArgs(list) => out.quoted(&format!("<{list}>")),
        Arg::TemplateParam(name) => out.push(Style::Plain, name),
        Arg::Pos(pos) => out.push(Style::Plain, &position_text(pos, primary_file)),
        Arg::Entity(e) => entity(out, e, options, primary_file),
    }
}

/// `at line 5`, `at line 74 of /path/file.h` (entries 1458, 1459).
pub fn position_text(pos: &Pos, primary_file: Option<&str>) -> String {
    match pos {
        Pos::At { file, line } if Some(file.as_str()) == primary_file => format!("at line {line}"),
        Pos::At { file, line } => format!("at line {line} of {file}"),
        Pos::EndOfSource => "(at end of source)".to_owned(),
    }
}

fn entity(out: &mut Spans, e: &Entity, options: &str, primary_file: Option<&str>) {
    let has = |c: char| options.contains(c);
    // `a` implies the original-name form (no kind word), like `o`.
    let bare = has('o') || has('a');
    if !bare && let Some(kind) = e.kind {
        out.push(Style::Plain, kind.word());
        out.push(Style::Plain, " ");
    }
    let name = if has('t') {
        e.with_template_args.as_ref()
    } else if has('f') {
        e.full.as_ref()
    } else if has('p') {
        e.with_params.as_ref()
    } else {
        None
    };
    out.quoted(name.unwrap_or(&e.name));
    if has('a')
        && let Some((count, list)) = &e.based_on
    {
        let word = if *count == 1 { "argument" } else { "arguments" };
        out.push(Style::Plain, &format!(" based on template {word} {list}"));
    }
    if has('d')
        && let Some(pos) = &e.declared_at
    {
        let tail = match pos {
            Pos::EndOfSource => " (declared (at end of source))".to_owned(),
            _ => format!(" (declared {})", position_text(pos, primary_file)),
        };
        out.push(Style::Range1, &tail);
    }
    if has('T')
        && let Some(tu) = &e.translation_unit
    {
        out.push(Style::Plain, &format!(" (from translation unit {tu})"));
    }
}

/// Checks that `args` fit `template`: every specifier finds a fill-in of its
/// kind and every fill-in is used. Returns a description of the first problem.
pub fn check_args(template: &str, args: &[Arg]) -> Result<(), String> {
    let mut used = vec![false; args.len()];
    for piece in pieces(template) {
        let Piece::Fill { kind, index, .. } = piece else {
            continue;
        };
        let found = args.iter().enumerate().filter(|(_, a)| serves(kind, a)).nth(index - 1);
        match found {
            Some((i, _)) => used[i] = true,
            None => return Err(format!("no fill-in for %{}{index}", kind as char)),
        }
    }
    match used.iter().position(|u| !u) {
        Some(i) => Err(format!("fill-in {i} ({:?}) is not used", args[i])),
        None => Ok(()),
    }
}
