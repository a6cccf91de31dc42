//! EDG text output, byte for byte (spec 60 §2), checked against cudafe++ 13.0:
//!
//! ```text
//! n1.cc(4): error: more than one instance of overloaded function "f" matches the argument list:
//!             function "f(int)" (declared at line 1)          <- continuation, 12 spaces
//!   void g() { f(1L); }                                        <- source line, 2 spaces
//!              ^                                               <- caret (tabs copied)
//! n1.cc(3): note #3326-D: …                                    <- notes, no blank line before
//!           detected during instantiation of … at line 5      <- context (after the notes), 10 spaces
//!                                                              <- one empty line
//! ```
//!
//! Brief mode drops only the source/caret lines and the empty line (the
//! binary still prints continuation, context and note lines there).

use crate::diagnostic::{ContextEntry, ContextKind, Diagnostic, LocationKind, Message};
use crate::message::{Span, Spans, Style, expand};
use crate::number::DiagId;
use crate::render::palette::{Category, Palette};
use crate::severity::Severity;

/// Text-mode switches (from `--display_error_number`, `--brief_diagnostics`,
/// `--wrap_diagnostics`, `--context_limit`, colour detection).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextOptions {
    pub display_error_number: bool,
    pub brief: bool,
    pub wrap: bool,
    /// 0 = unlimited.
    pub context_limit: u32,
    /// `Some` when colours are on.
    pub palette: Option<Palette>,
}

impl Default for TextOptions {
    fn default() -> TextOptions {
        TextOptions { display_error_number: false, brief: false, wrap: false, context_limit: 10, palette: None }
    }
}

/// Width of wrapped lines (`--wrap_diagnostics`), EDG's terminal width.
pub const WRAP_WIDTH: usize = 79;
/// Extra indentation of the lines a wrapped line continues on.
const WRAP_INDENT: usize = 10;

/// How one diagnostic is shown after options and pragmas were applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Severity after overrides; decides whether the number is shown.
    pub severity: Severity,
    /// `--promote_warnings`: a warning labelled `error` (keeps its number).
    pub promoted: bool,
}

/// Appends the full text of `diag` (with its trailing empty line unless brief).
pub fn render(diag: &Diagnostic, shown: Shown, opts: &TextOptions, out: &mut String) {
    let colors = if shown.severity == Severity::CommandLineError { None } else { opts.palette.as_ref() };
    let w = Writer { opts, colors };
    w.primary(diag, shown, out);
    if !opts.brief {
        out.push('\n');
    }
}

struct Writer<'a> {
    opts: &'a TextOptions,
    colors: Option<&'a Palette>,
}

impl Writer<'_> {
    fn esc(&self, cat: Category, text: &str, out: &mut String) {
        match self.colors.and_then(|p| p.get(cat)) {
            Some(code) => {
                out.push_str("\x1b[");
                out.push_str(code);
                out.push('m');
                out.push_str(text);
                out.push_str("\x1b[0m");
            }
            None => out.push_str(text),
        }
    }

    /// Primary line, continuation, source + caret, context, notes.
    fn primary(&self, diag: &Diagnostic, shown: Shown, out: &mut String) {
        let label = if shown.promoted { Severity::Error } else { shown.severity };
        let sev_cat = severity_category(label);
        let mut head = String::new();
        let show_number = self.opts.display_error_number && shown.severity <= Severity::Warning;
        let number = format!(" #{}-D", diag.id.display());
        match &diag.location {
            None => {
                // cudafe++ writes an empty span of the same colour first.
                self.esc(sev_cat, "", &mut head);
                self.esc(sev_cat, label.capitalised_word(), &mut head);
            }
            Some(loc) => {
                match loc.kind {
                    LocationKind::Normal => {
                        self.esc(Category::Locus, "", &mut head);
                        self.esc(Category::Locus, &format!("{}({})", loc.file, loc.line), &mut head);
                    }
                    LocationKind::EndOfSource => head.push_str("At end of source"),
                    LocationKind::Stdin => head.push_str(&format!("Line {}", loc.line)),
                }
                head.push_str(": ");
                self.esc(sev_cat, label.word(), &mut head);
                if show_number {
                    head.push_str(&number);
                }
            }
        }
        head.push_str(": ");
        let file = diag.location.as_ref().map(|l| l.file.as_str());
        let message = expand(crate::catalog::template(diag.id), &diag.args, file);
        self.line(&head, visible_len(&head, self.colors.is_some()), &message, 0, out);

        for cont in &diag.continuation {
            let spans = match cont {
                Message::Template { id, args } => expand(crate::catalog::template(*id), args, file),
                Message::Text(t) => Spans(vec![Span { style: Style::Plain, text: t.clone() }]),
            };
            self.line(&" ".repeat(12), 12, &spans, 12, out);
        }

        if !self.opts.brief
            && let Some(loc) = &diag.location
            && loc.kind != LocationKind::EndOfSource
            && let Some(src) = &loc.source_line
        {
            out.push_str("  ");
            out.push_str(src);
            out.push('\n');
            if loc.column > 0 {
                out.push_str("  ");
                out.push_str(&caret_indent(src, loc.column));
                out.push_str("^\n");
            }
        }

        // EDG prints the instantiation context after the notes (checked:
        // `no instance of overloaded function` and `no operator` in an
        // instance, their 3326/3328 notes, then `detected during`).
        for note in &diag.notes {
            self.primary(note, Shown { severity: note.severity, promoted: false }, out);
        }

        self.context(&diag.context, file, out);
    }

    fn context(&self, entries: &[ContextEntry], file: Option<&str>, out: &mut String) {
        match entries {
            [] => {}
            [one] => {
                let spans = expand(context_template(one.kind, true), &context_args(one), file);
                self.line(&" ".repeat(10), 10, &spans, 10, out);
            }
            _ => {
                self.line(&" ".repeat(10), 10, &plain("detected during:"), 10, out);
                let limit = self.opts.context_limit as usize;
                let half = (limit / 2).max(1);
                let elide = limit > 0 && entries.len() > limit && entries.len() > 2 * half;
                for (i, e) in entries.iter().enumerate() {
                    if elide && i >= half && i < entries.len() - half {
                        if i == half {
                            let hidden = entries.len() - 2 * half;
                            let text = format!("[ {hidden} instantiation contexts not shown ]");
                            self.line(&" ".repeat(12), 12, &plain(&text), 12, out);
                        }
                        continue;
                    }
                    let spans = expand(context_template(e.kind, false), &context_args(e), file);
                    self.line(&" ".repeat(12), 12, &spans, 12, out);
                }
            }
        }
    }

    /// Writes `head` + `spans` + newline; with `--wrap_diagnostics`, breaks
    /// at spaces so no line exceeds 79 characters, continuing `indent + 10`
    /// spaces in (words too long for a fresh line are cut at the width).
    fn line(&self, head: &str, head_len: usize, spans: &Spans, indent: usize, out: &mut String) {
        out.push_str(head);
        if !self.opts.wrap {
            for s in &spans.0 {
                self.span(s.style, &s.text, out);
            }
            out.push('\n');
            return;
        }
        // cudafe++ wraps text that holds colour escapes: a closing escape
        // stays at the end of its line; an opening escape before a word that
        // moves to the next line goes after the newline; and a break inside a
        // coloured run resets the colour for the indentation and reopens it:
        // `\n` [escapes at the break] [`ESC[0m` indent `ESC[..m` | indent].
        let cont_indent = indent + WRAP_INDENT;
        let mut col = head_len;
        // Whether the current line holds only indentation so far.
        let mut fresh = head.bytes().all(|b| b == b' ');
        let mut current: Option<&str> = None;
        // Spaces and opening escapes seen since the last word, in order.
        let mut pending: Vec<Option<&str>> = Vec::new();
        let newline = |out: &mut String, current: Option<&str>| match current {
            Some(code) => {
                out.push_str("\x1b[0m");
                out.push_str(&" ".repeat(cont_indent));
                out.push_str("\x1b[");
                out.push_str(code);
                out.push('m');
            }
            None => out.push_str(&" ".repeat(cont_indent)),
        };
        for s in &spans.0 {
            let code = match s.style {
                Style::Plain => None,
                Style::Quote => self.colors.and_then(|p| p.get(Category::Quote)),
                Style::Range1 => self.colors.and_then(|p| p.get(Category::Range1)),
            };
            if let Some(code) = code {
                pending.push(Some(code));
            }
            for (k, word) in s.text.split(' ').enumerate() {
                if k > 0 {
                    pending.push(None);
                }
                if word.is_empty() {
                    continue;
                }
                let len = word.chars().count();
                let spaces = pending.iter().filter(|p| p.is_none()).count();
                let opens = pending.iter().rev().find_map(|p| *p);
                if let Some(code) = opens {
                    current = Some(code);
                }
                if !fresh && col + spaces + len > WRAP_WIDTH {
                    out.push('\n');
                    for code in pending.drain(..).flatten() {
                        out.push_str("\x1b[");
                        out.push_str(code);
                        out.push('m');
                    }
                    newline(out, current);
                    col = cont_indent;
                    fresh = true;
                } else {
                    for p in pending.drain(..) {
                        match p {
                            None => out.push(' '),
                            Some(code) => {
                                out.push_str("\x1b[");
                                out.push_str(code);
                                out.push('m');
                            }
                        }
                    }
                    col += spaces;
                }
                let mut rest = word;
                loop {
                    let room = WRAP_WIDTH.saturating_sub(col).max(1);
                    let n = rest.chars().count();
                    if n <= room || !fresh {
                        out.push_str(rest);
                        col += n;
                        break;
                    }
                    let cut = rest.char_indices().nth(room).map_or(rest.len(), |(i, _)| i);
                    out.push_str(&rest[..cut]);
                    out.push('\n');
                    newline(out, current);
                    col = cont_indent;
                    rest = &rest[cut..];
                }
                fresh = false;
            }
            if code.is_some() {
                // Close at once: the reset belongs to the end of this line.
                for p in pending.drain(..) {
                    match p {
                        None => out.push(' '),
                        Some(code) => {
                            out.push_str("\x1b[");
                            out.push_str(code);
                            out.push('m');
                        }
                    }
                }
                out.push_str("\x1b[0m");
                current = None;
            }
        }
        for p in pending.drain(..) {
            if p.is_none() {
                out.push(' ');
            }
        }
        out.push('\n');
    }

    fn span(&self, style: Style, text: &str, out: &mut String) {
        match style {
            Style::Plain => out.push_str(text),
            Style::Quote => self.esc(Category::Quote, text, out),
            Style::Range1 => self.esc(Category::Range1, text, out),
        }
    }
}

fn plain(text: &str) -> Spans {
    Spans(vec![Span { style: Style::Plain, text: text.to_owned() }])
}

fn severity_category(s: Severity) -> Category {
    match s {
        Severity::Note | Severity::Remark => Category::Note,
        Severity::Warning | Severity::CommandLineWarning => Category::Warning,
        _ => Category::Error,
    }
}

/// Length of `head` on screen (escape sequences take no room).
fn visible_len(head: &str, has_escapes: bool) -> usize {
    if !has_escapes {
        return head.chars().count();
    }
    let mut n = 0;
    let mut in_esc = false;
    for c in head.chars() {
        match (in_esc, c) {
            (false, '\x1b') => in_esc = true,
            (false, _) => n += 1,
            (true, 'm') => in_esc = false,
            (true, _) => {}
        }
    }
    n
}

/// Spaces up to `column` (1-based, code points), copying the tabs of `src`
/// so the caret lines up in a terminal.
pub fn caret_indent(src: &str, column: u32) -> String {
    let want = column.saturating_sub(1) as usize;
    let mut s: String = src.chars().take(want).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    let have = src.chars().count().min(want);
    s.extend(std::iter::repeat_n(' ', want - have));
    s
}

/// Templates 454/455 (list form) and 683–687 (single-line form).
fn context_template(kind: ContextKind, single: bool) -> &'static str {
    let index = match (kind, single) {
        (ContextKind::Instantiation, false) => 454,
        (ContextKind::ImplicitGeneration, false) => 455,
        (ContextKind::Instantiation, true) => 683,
        (ContextKind::ImplicitGeneration, true) => 684,
        (ContextKind::InstantiationBasedOn, _) => 685,
        (ContextKind::TemplateArgumentList, _) => 686,
        (ContextKind::ImplicitDefinition, _) => 687,
    };
    let template = crate::catalog::template(DiagId(index));
    // The list form of 685–687 drops the single-line form's "detected during ".
    if single { template } else { template.strip_prefix("detected during ").unwrap_or(template) }
}

fn context_args(e: &ContextEntry) -> Vec<crate::diagnostic::Arg> {
    vec![crate::diagnostic::Arg::Entity(e.entity.clone()), crate::diagnostic::Arg::Pos(e.at.clone())]
}
