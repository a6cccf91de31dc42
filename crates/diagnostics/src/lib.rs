//! cufront-diagnostics: cudafe++'s diagnostics as data — the message catalog,
//! numbering, severities, suppression by options and pragmas, and the
//! renderers (EDG text, SARIF, rich). Spec: `spec/60-diagnostics.md`,
//! `spec/10-pipeline-and-cli.md` §5.
//!
//! It knows nothing about where diagnostics come from: callers hand it plain
//! [`Diagnostic`] values (number, emission severity, fill-ins, location with
//! the source line already extracted) and the TU's pragma records.
//!
//! Invariants:
//! - Texts are the interface: templates come byte-exact from the embedded
//!   catalog (`catalog.tsv`, a copy of `spec/diagnostics-catalog.tsv`), and
//!   the text renderer reproduces cudafe++ 13.0's layout byte for byte,
//!   colours and `--wrap_diagnostics` included (checked against the binary:
//!   unit tests hold its observed output, `tests/oracle.rs` runs it).
//! - [`DiagId`] is the raw table index; display numbers exist only at the
//!   edges (parsing user input, printing).
//! - Nothing here panics on any input (bad fill-ins render as nothing;
//!   [`check_args`] catches them in tests) and nothing does I/O except
//!   writing to the `Write` the engine was given.
//! - SARIF output is valid JSON (cudafe++'s comma defects are not copied).
//!
//! # Using it (the driver's view)
//!
//! ```
//! use cufront_diagnostics::*;
//!
//! // 1. Options, in command-line order.
//! let mut opts = EngineOptions::default();
//! opts.text.display_error_number = true;
//! let ids = parse_diag_list("940,device_var_read_in_host").unwrap(); // Err → command-line error
//! opts.overrides.apply(Action::Suppress, &ids);
//! opts.source_name = Some("x.cu".into());
//!
//! // 2. Pragmas of the TU: (byte offset of the `#pragma` line, parsed pragma).
//! let (pragma, problems) = parse_pragma("#pragma nv_diag_warning 177").unwrap();
//! assert!(problems.is_empty()); // else: emit each as a warning at that column
//! let mut engine = DiagnosticEngine::new(opts, Vec::new());
//! engine.set_pragmas(PragmaTimeline::new(vec![(0, pragma)]));
//!
//! // 3. Diagnostics, in source order. Parser texts map to numbers by text.
//! let id = catalog::by_text("expected a \";\"").unwrap();
//! let d = Diagnostic::new(id, Severity::HardError)
//!     .at(Location::new("x.cu", 3, 7).with_source_line("int x = 1 int y;").with_offset(40));
//! if engine.emit(&d) == Flow::Stop { /* stop compiling */ }
//!
//! // 4. Trailer and exit status.
//! let (outcome, bytes) = engine.finish();
//! assert_eq!(outcome.exit_code, 2);
//! assert!(String::from_utf8(bytes).unwrap().ends_with("1 error detected in the compilation of \"x.cu\".\n"));
//! ```
//!
//! Pragmas: [`scan_pragmas`] finds them in the TU text and returns the
//! timeline plus the pragma syntax warnings (1222, 1223, 1224, 253, 3184,
//! 3185) as `(offset, number)`; emit those as `Severity::Warning`.
//!
//! Order: emit diagnostics in source order, as cudafe++ does (`once` counts
//! earlier emissions, the error limit stops at the N-th). A diagnostic that
//! cudafe++ reports after reading the whole file (e.g. 177 "declared but
//! never referenced") sets `Diagnostic::deferred`, so every `nv_diag_once`
//! of the file applies to it.
//!
//! Command-line errors: `Diagnostic::command_line_error(id, args)` (e.g.
//! `DiagListError::id()` with `Arg::Str(err.item())`), emitted like any other;
//! the engine prints `Command-line error: …`, the "this compilation" trailer
//! and `Compilation terminated.`, exit status 4. An internal error gives
//! exit status 134: cudafe++ calls `abort()`; the caller decides whether to.
//! Set `EngineOptions::cwd` for SARIF (its URIs are absolute).
//!
//! Modules: `catalog` (the table), `number` (ids, `--diag_*` lists),
//! `severity`, `control` (overrides, pragmas), `diagnostic` (the data),
//! `message` (fill-in expansion), `render::{text, sarif, rich, palette}`,
//! `engine` (the sink).
//!
//! Deliberate departures from cudafe++: SARIF is valid JSON (commas, escaped
//! control characters, no `Error limit reached.` inside it); internal errors
//! do not abort. Unverified guesses: `%[label]` prints the label, `%na`
//! prints ` based on template argument(s) <list>`, `%p` at end of source
//! prints `(at end of source)`.

pub mod catalog;
pub mod control;
pub mod diagnostic;
pub mod engine;
pub mod message;
pub mod number;
pub mod render;
pub mod severity;
#[cfg(test)]
mod tests;

pub use crate::control::{
    Action, DiagPragma, Level, Overrides, PragmaLevel, PragmaProblem, PragmaTimeline, ShownFlags, parse_pragma,
    scan_pragmas,
};
pub use crate::diagnostic::{
    Arg, ContextEntry, ContextKind, Diagnostic, Entity, EntityKind, Location, LocationKind, Message, Pos,
};
pub use crate::engine::{
    DiagnosticEngine, EngineOptions, Flow, HINT_REMARK, Outcome, OutputMode, render_text, trailer,
};
pub use crate::message::check_args;
pub use crate::number::{
    CUDA_DISPLAY_OFFSET, DiagId, DiagListError, FIRST_CUDA_INDEX, TABLE_SIZE, parse_diag_item, parse_diag_list,
};
pub use crate::render::palette::Palette;
pub use crate::render::text::{Shown, TextOptions};
pub use crate::severity::Severity;
