//! Diagnostics of a file: what the front end reports for the unit that
//! sees it, at the file's positions.
//!
//! Syntax errors carry the EDG number of their message (the catalog's
//! reverse lookup by text, as the cudafe++ mode numbers them), and
//! `expected a "}"` carries EDG's note 3196 pointing at the brace it was to
//! close. Errors of a header are reported on the header.
//!
//! Semantic diagnostics are those of the cudafe++ mode's host pass
//! (`cufront_check::host_pass`, the same queries), worded as nvcc prints
//! them; `--extended-lambda` is assumed (an annotated lambda keeps its own
//! space), which only ever silences findings.

use cufront_diagnostics::{DiagId, catalog};

use crate::{Ctx, FileRange};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// A note attached to a diagnostic, elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: FileRange,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub range: FileRange,
    pub severity: Severity,
    /// EDG's display number (`65`, `20091`), when the message has one.
    pub code: Option<u32>,
    pub message: String,
    pub related: Vec<Related>,
}

/// EDG's note after `expected a "}"`.
const MATCHING_LBRACE: DiagId = DiagId(3196);

pub(crate) fn diagnostics(cx: &Ctx<'_>) -> Vec<Diagnostic> {
    let parse = cx.parse();
    let mut out = Vec::new();
    let mut root = None;
    for e in parse.errors() {
        let at: u32 = e.range.start().into();
        if !cx.in_file(at) {
            continue;
        }
        let mut related = Vec::new();
        if e.msg == "expected a \"}\"" {
            let root = root.get_or_insert_with(|| parse.syntax_node());
            if let Some(open) = cufront_syntax::matching::brace_to_match(root, e.range.start()) {
                related.push(Related {
                    range: cx.file_range(open),
                    message: catalog::template(MATCHING_LBRACE).to_string(),
                });
            }
        }
        let mut range = cx.file_range(e.range);
        if range.end == range.start {
            // An empty range still shows: one column.
            range.end.col += 1;
        }
        out.push(Diagnostic {
            range,
            severity: match e.severity {
                cufront_syntax::SyntaxSeverity::Warning => Severity::Warning,
                _ => Severity::Error,
            },
            code: catalog::by_text(&e.msg).map(DiagId::display),
            message: e.msg.clone(),
            related,
        });
    }
    let opts = cufront_check::Options { relaxed_constexpr: cx.unit.relaxed_constexpr, extended_lambda: true };
    let mut erred = !out.is_empty();
    for f in cufront_check::host_pass(cx.db, cx.unit.tu, opts) {
        if !cx.in_file(f.at) {
            continue;
        }
        let args = match &f.args_once_erred {
            Some(once) if erred => once,
            _ => &f.args,
        };
        let error = f.severity >= cufront_diagnostics::severity::Severity::Error;
        erred |= error;
        let mut range = cx.file_range(cufront_syntax::TextRange::empty(f.at.into()));
        range.end.col += 1;
        out.push(Diagnostic {
            range,
            severity: if error { Severity::Error } else { Severity::Warning },
            code: (!error).then(|| f.id.display()),
            message: cufront_diagnostics::message::render_plain(catalog::template(f.id), args, None),
            related: Vec::new(),
        });
    }
    out
}
