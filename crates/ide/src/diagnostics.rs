//! Diagnostics of a file: what the front end reports for the unit that
//! sees it, at the file's positions.
//!
//! Syntax errors carry the EDG number of their message (the catalog's
//! reverse lookup by text, as the cudafe++ mode numbers them), and
//! `expected a "}"` carries EDG's note 3196 pointing at the brace it was to
//! close. Errors of a header are reported on the header.
//!
//! Semantic diagnostics are those of the cudafe++ mode's passes, worded as
//! nvcc prints them, with the options the file's nvcc flags give the
//! checks (`cufront_check::Options::from_front_end_args` over the cudafe++
//! command line nvcc builds for the file).
//!
//! The two passes are composed as nvcc runs them (`cufront check`): the
//! host pass (cudafe++: syntax errors and `cufront_check::host_pass` on the
//! host preprocessing) first; only when it found no error anywhere in the
//! unit, the device pass (cicc's front end: syntax errors and
//! `cufront_check::device_pass` on the device preprocessing, its late
//! findings only when that unit has no error either), or the device
//! preprocessing's own failure. A diagnostic both passes report (a
//! warning in a header parsed twice) is shown once.

use cufront_diagnostics::{Arg, DiagId, catalog};

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

/// `device` gives the device view (read only when the host pass found no error).
pub(crate) fn diagnostics<'a>(cx: &Ctx<'a>, device: impl FnOnce() -> Option<DeviceView<'a>>) -> Vec<Diagnostic> {
    let opts = cx.unit.checks;
    // The preprocessor's warnings come first, as nvcc runs it first.
    let mut out = tool_diagnostics(&cx.file, cx.preprocessor_messages());
    let host = cufront_check::host_pass(cx.db, cx.tu, opts);
    let (host, erred) = pass_diagnostics(cx, &host);
    out.extend(host);
    if erred {
        // nvcc stops after cudafe++'s failure: cicc never runs.
        return out;
    }
    match device() {
        None => {}
        Some(DeviceView::Failed(messages)) => {
            out.extend(preprocessor_diagnostics(&cx.file, cx.file == cx.unit_main(), messages));
        }
        Some(DeviceView::Unit(dcx)) => {
            let found = cufront_check::device_pass(dcx.db, dcx.tu, opts);
            let mut device = tool_diagnostics(&dcx.file, dcx.preprocessor_messages());
            device.extend(pass_diagnostics(&dcx, &found).0);
            for d in device {
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// How the device pass sees the file (`Analysis::diagnostics` makes it).
pub(crate) enum DeviceView<'a> {
    Unit(Ctx<'a>),
    Failed(&'a str),
}

/// The diagnostics of one pass on the context's unit that are in its file,
/// in the pass's order, and whether the pass found an error anywhere in the
/// unit (what stops nvcc). Each is shown as the front end would show it:
/// the unit's `#pragma nv_diag_*` and the flags (`Unit::shown`) may drop
/// it or change its severity (`DiagnosticEngine::resolve`), warnings may be
/// promoted, and nothing after the error limit is shown.
fn pass_diagnostics(cx: &Ctx<'_>, found: &[cufront_check::Found]) -> (Vec<Diagnostic>, bool) {
    use cufront_diagnostics::severity::Severity as Edg;
    let parse = cx.parse();
    let flags = &cx.unit.shown;
    let pragmas = unit_pragmas(cx.db, cx.tu);
    let (pragmas, pragma_problems) = &*pragmas;
    let mut engine = cufront_diagnostics::DiagnosticEngine::new(flags.engine_options(), std::io::sink());
    engine.set_pragmas(pragmas.clone());
    let map = cufront_base_db::source_map(cx.db, cx.tu);
    // The severity `id` (`severity` by default) is shown with at `at`.
    let shown = |id: Option<DiagId>, severity: Edg, at: u32| -> Option<Edg> {
        let Some(id) = id else { return Some(severity) };
        let location = cufront_diagnostics::Location {
            system_header: map.flags_at(at).system,
            ..cufront_diagnostics::Location::new("", 0, 0).with_offset(at)
        };
        engine.resolve_counted(&cufront_diagnostics::Diagnostic::new(id, severity).at(location))
    };
    // Each diagnostic at its place in the pass's order, as the cudafe++ mode
    // sorts them (late findings after everything else).
    enum What<'p> {
        Syntax(&'p cufront_syntax::SyntaxError),
        Sema(&'p cufront_check::Found),
        /// A pragma's own problem (`invalid error number`).
        Pragma(DiagId),
    }
    let mut all: Vec<(u32, u32, What<'_>)> = Vec::new();
    all.extend(found.iter().map(|f| (if f.late { u32::MAX } else { f.order }, f.at, What::Sema(f))));
    all.extend(
        parse.errors().iter().map(|e| (u32::from(e.range.start()), u32::from(e.range.start()), What::Syntax(e))),
    );
    all.extend(pragma_problems.iter().map(|&(at, id)| (at, at, What::Pragma(id))));
    all.sort_by_key(|(order, _, _)| *order);
    // Where a diagnostic at `range` shows in the context's file, if it does;
    // an empty range still shows: one column.
    let eos = cx.end_of_source();
    let place = |range: cufront_syntax::TextRange| -> Option<FileRange> {
        if u32::from(range.start()) >= eos {
            return cx.end_of_file();
        }
        if !cx.in_file(range.start().into()) {
            return None;
        }
        let mut r = cx.file_range(range);
        if r.end == r.start {
            r.end.col += 1;
        }
        Some(r)
    };
    let mut out = Vec::new();
    let mut root = None;
    let mut errors = 0;
    let mut late_phase = None;
    for (_, at, what) in all {
        let erred = errors > 0;
        // The first error past the limit ends the pass (EDG's catastrophic
        // "error limit reached").
        if errors >= flags.error_limit {
            break;
        }
        match what {
            What::Syntax(e) => {
                // As the cudafe++ mode reports them.
                let default = match e.severity {
                    cufront_syntax::SyntaxSeverity::Error => Edg::HardError,
                    cufront_syntax::SyntaxSeverity::Discretionary => Edg::Error,
                    cufront_syntax::SyntaxSeverity::Warning => Edg::Warning,
                };
                let code = catalog::by_text(&e.msg);
                let Some(severity) = shown(code, default, at) else { continue };
                errors += u32::from(severity >= Edg::Error);
                let Some(range) = place(e.range) else { continue };
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
                out.push(Diagnostic {
                    range,
                    severity: if severity >= Edg::Error { Severity::Error } else { Severity::Warning },
                    code: code.map(DiagId::display),
                    message: e.msg.clone(),
                    related,
                });
            }
            What::Pragma(id) => {
                let Some(severity) = shown(Some(id), Edg::Warning, at) else { continue };
                let error = severity >= Edg::Error;
                errors += u32::from(error);
                let Some(range) = place(cufront_syntax::TextRange::empty(at.into())) else { continue };
                out.push(Diagnostic {
                    range,
                    severity: if error { Severity::Error } else { Severity::Warning },
                    code: (!error).then(|| id.display()),
                    message: catalog::template(id).to_string(),
                    related: Vec::new(),
                });
            }
            What::Sema(f) => {
                // cicc's late phase runs only on a unit without errors.
                if f.late && !*late_phase.get_or_insert(!erred) {
                    continue;
                }
                let args = match &f.args_once_erred {
                    Some(once) if erred => once,
                    _ => &f.args,
                };
                // A note (`the value of variable "n" … cannot be used as a
                // constant`) is the finding before it's related information.
                if f.severity == Edg::Note {
                    if cx.in_file(f.at)
                        && let Some(last) = out.last_mut()
                    {
                        let mut range = cx.file_range(cufront_syntax::TextRange::empty(f.at.into()));
                        range.end.col += 1;
                        let message = cufront_diagnostics::message::render_plain(
                            catalog::template(f.id),
                            args,
                            Some(&presumed_file(cx, f.at)),
                        );
                        last.related.push(Related { range, message });
                    }
                    continue;
                }
                let Some(severity) = shown(Some(f.id), f.severity, f.at) else { continue };
                let error = severity >= Edg::Error;
                errors += u32::from(error);
                let Some(range) = place(cufront_syntax::TextRange::empty(f.at.into())) else { continue };
                let file = presumed_file(cx, f.at);
                let mut message =
                    cufront_diagnostics::message::render_plain(catalog::template(f.id), args, Some(&file));
                // Lines under the message (`argument types are: (double)`).
                for line in &f.continuation {
                    if let cufront_diagnostics::Message::Template { id, args } = line {
                        message.push('\n');
                        message.push_str(&cufront_diagnostics::message::render_plain(
                            catalog::template(*id),
                            args,
                            Some(&file),
                        ));
                    }
                }
                // The instantiations that led here, one line each (EDG's
                // single-line form: `detected during instantiation of …`).
                for c in &f.context {
                    let args = [Arg::Entity(c.entity.clone()), Arg::Pos(c.at.clone())];
                    message.push('\n');
                    message.push_str(&cufront_diagnostics::message::render_plain(
                        catalog::template(INSTANTIATION_CONTEXT),
                        &args,
                        Some(&file),
                    ));
                }
                out.push(Diagnostic {
                    range,
                    severity: if error { Severity::Error } else { Severity::Warning },
                    code: (!error).then(|| f.id.display()),
                    message,
                    related: Vec::new(),
                });
            }
        }
    }
    (out, errors > 0)
}

/// The unit's `#pragma nv_diag_*` timeline and the pragmas' own problems:
/// scanned once per text, not per request.
#[salsa::tracked(returns(clone))]
fn unit_pragmas(
    db: &dyn cufront_base_db::SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
) -> std::sync::Arc<(cufront_diagnostics::PragmaTimeline, Vec<(u32, DiagId)>)> {
    std::sync::Arc::new(cufront_diagnostics::scan_pragmas(tu.text(db)))
}

/// `detected during instantiation of %nt %p`.
const INSTANTIATION_CONTEXT: DiagId = DiagId(683);

/// The presumed file of an offset (what `%p` and `%nd` positions in the
/// same file leave out).
fn presumed_file(cx: &Ctx<'_>, at: u32) -> String {
    let map = cufront_base_db::source_map(cx.db, cx.tu);
    map.file_name(map.location(at).file).to_string()
}

/// The errors and warnings in `file` of a preprocessor's output (the
/// compiler's `FILE:LINE:COL: error|warning:` lines).
fn tool_diagnostics(file: &str, output: &str) -> Vec<Diagnostic> {
    crate::preprocess::tool_messages(output)
        .into_iter()
        .filter(|m| crate::lines::normalize(&m.file, "") == file)
        .map(|m| {
            let start = crate::LineCol { line: m.line.saturating_sub(1), col: m.col.saturating_sub(1) };
            let end = crate::LineCol { line: start.line, col: start.col + 1 };
            Diagnostic {
                range: FileRange { file: file.to_string(), start, end },
                severity: m.severity,
                code: None,
                message: m.text,
                related: Vec::new(),
            }
        })
        .collect()
}

/// A failed preprocessing's errors and warnings in `file`; an error at the
/// start of the unit's own file when none has a position there.
pub(crate) fn preprocessor_diagnostics(file: &str, is_main: bool, output: &str) -> Vec<Diagnostic> {
    let mut out = tool_diagnostics(file, output);
    if !out.iter().any(|d| d.severity == Severity::Error) && is_main {
        let start = crate::LineCol::default();
        out.push(Diagnostic {
            range: FileRange { file: file.to_string(), start, end: crate::LineCol { line: 0, col: 1 } },
            severity: Severity::Error,
            code: None,
            message: format!("device preprocessing failed: {}", output.lines().next().unwrap_or_default()),
            related: Vec::new(),
        });
    }
    out
}
