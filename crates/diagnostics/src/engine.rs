//! The diagnostic sink of one compilation: decides each diagnostic's fate
//! (spec 60 §5.5), renders it, counts, enforces the error limit (§6) and
//! catastrophic stops (§7), and writes the trailer with the exit status
//! (§3).

use std::io::Write;

use codespan_reporting::term::termcolor::Buffer;
use rustc_hash::FxHashSet;

use crate::control::{Level, Overrides, PragmaLevel, PragmaTimeline};
use crate::diagnostic::Diagnostic;
use crate::number::DiagId;
use crate::render::text::{Shown, TextOptions};
use crate::render::{rich, sarif, text};
use crate::severity::Severity;

/// `--output_mode` plus our own rich mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum OutputMode {
    #[default]
    Text,
    Sarif,
    /// codespan-reporting, for humans (not cudafe++-compatible).
    Rich,
}

impl OutputMode {
    /// `--output_mode` values; the error text for others is message 3299
    /// `unrecognized output mode (must be one of text, sarif): %s`.
    pub fn from_option(value: &str) -> Option<OutputMode> {
        match value {
            "text" => Some(OutputMode::Text),
            "sarif" => Some(OutputMode::Sarif),
            _ => None,
        }
    }
}

/// Everything the command line says about diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub mode: OutputMode,
    pub text: TextOptions,
    /// `--error_limit` / `-e` (≥ 1; default 100).
    pub error_limit: u32,
    /// `--remarks` / `-r`.
    pub remarks: bool,
    /// `-w` / `--no_warnings`.
    pub no_warnings: bool,
    /// `--promote_warnings` / `-W`.
    pub promote_warnings: bool,
    /// `--diag_*` in command-line order.
    pub overrides: Overrides,
    /// Name in the trailer: `--orig_src_file_name`, else the input path as
    /// typed; `None` (stdin, or no source yet) gives "this compilation".
    pub source_name: Option<String>,
    /// Directory that relative file names are resolved against (SARIF URIs).
    pub cwd: String,
    /// Colour for rich mode (text mode colours through `text.palette`).
    pub rich_color: bool,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            mode: OutputMode::Text,
            text: TextOptions::default(),
            error_limit: 100,
            remarks: false,
            no_warnings: false,
            promote_warnings: false,
            overrides: Overrides::default(),
            source_name: None,
            cwd: "/".to_owned(),
            rich_color: false,
        }
    }
}

/// Whether the caller should go on after an [`DiagnosticEngine::emit`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// A catastrophic or internal error, or the error limit: stop compiling.
    Stop,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stopped {
    ErrorLimit,
    Catastrophic,
    Internal,
}

/// How the compilation ended, for the process exit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Errors counted in the trailer (promoted warnings included).
    pub errors: u32,
    /// Catastrophic, command-line and internal errors.
    pub catastrophic: u32,
    /// Warnings printed (not promoted).
    pub warnings: u32,
    /// 0 success, 2 errors, 4 terminated (catastrophic / error limit), 134
    /// internal error (cudafe++ calls `abort()`; the caller decides whether to).
    pub exit_code: i32,
    /// Some write to the output failed.
    pub write_failed: bool,
}

/// The hint remark printed after the first warning (spec 60 §2.6).
pub const HINT_REMARK: DiagId = DiagId(3709);

/// Sink for the diagnostics of one compilation.
pub struct DiagnosticEngine<W: Write> {
    opts: EngineOptions,
    pragmas: PragmaTimeline,
    out: W,
    errors: u32,
    catastrophic: u32,
    warnings: u32,
    shown_numbers: FxHashSet<DiagId>,
    hint_given: bool,
    stopped: Option<Stopped>,
    sarif_results: usize,
    write_failed: bool,
}

impl<W: Write> DiagnosticEngine<W> {
    /// Starts a compilation's output (writes the SARIF header in SARIF mode).
    pub fn new(opts: EngineOptions, out: W) -> DiagnosticEngine<W> {
        let mut e = DiagnosticEngine {
            opts,
            pragmas: PragmaTimeline::default(),
            out,
            errors: 0,
            catastrophic: 0,
            warnings: 0,
            shown_numbers: FxHashSet::default(),
            hint_given: false,
            stopped: None,
            sarif_results: 0,
            write_failed: false,
        };
        if e.opts.mode == OutputMode::Sarif {
            e.write(sarif::HEADER.as_bytes());
        }
        e
    }

    /// Installs the translation unit's diagnostic pragmas.
    pub fn set_pragmas(&mut self, pragmas: PragmaTimeline) {
        self.pragmas = pragmas;
    }

    /// Sets the trailer name once the source is known.
    pub fn set_source_name(&mut self, name: Option<String>) {
        self.opts.source_name = name;
    }

    pub fn options(&self) -> &EngineOptions {
        &self.opts
    }

    pub fn error_count(&self) -> u32 {
        self.errors
    }

    pub fn has_errors(&self) -> bool {
        self.errors + self.catastrophic > 0
    }

    /// True after a catastrophic error or the error limit: emit nothing more.
    pub fn is_stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// The severity `diag` is shown with, or `None` if it is dropped
    /// (steps 1–2 of spec 60 §5.5; `once` and counting happen in `emit`).
    pub fn resolve(&self, diag: &Diagnostic) -> Option<Severity> {
        let loc = diag.location.as_ref();
        let s = self.overridden(diag.id, diag.severity, loc.and_then(|l| l.offset))?;
        if s == Severity::Remark && !self.opts.remarks {
            return None;
        }
        if s <= Severity::Warning && s != Severity::Note && self.opts.no_warnings {
            return None;
        }
        if loc.is_some_and(|l| l.system_header) && s < Severity::HardError {
            return None;
        }
        Some(s)
    }

    /// The severity `diag` counts with once shown: [`Self::resolve`]'s, a
    /// warning counting as an error under `--promote_warnings`.
    pub fn resolve_counted(&self, diag: &Diagnostic) -> Option<Severity> {
        let s = self.resolve(diag)?;
        Some(if self.promotes(s) { Severity::Error } else { s })
    }

    fn promotes(&self, s: Severity) -> bool {
        self.opts.promote_warnings && s == Severity::Warning
    }

    /// Step 1: the pragma in force at `offset`, else the command-line
    /// override, else `s`; `None` when suppressed. Only discretionary
    /// severities can change.
    fn overridden(&self, id: DiagId, s: Severity, offset: Option<u32>) -> Option<Severity> {
        if !s.is_discretionary() || s == Severity::Note {
            return Some(s);
        }
        let pragma = offset.and_then(|o| self.pragmas.level_at(id, o));
        let level = match pragma {
            Some(PragmaLevel::Set(level)) => Some(level),
            Some(PragmaLevel::Default) | None => self.opts.overrides.level(id),
        };
        match level {
            Some(Level::Suppressed) => None,
            Some(Level::Severity(new)) => Some(new),
            None => Some(s),
        }
    }

    /// Applies options and pragmas to `diag`, prints it if it survives, and
    /// counts it. Returns [`Flow::Stop`] when compilation must stop.
    pub fn emit(&mut self, diag: &Diagnostic) -> Flow {
        if self.stopped.is_some() {
            return Flow::Stop;
        }
        let Some(severity) = self.resolve(diag) else {
            return Flow::Continue;
        };
        let offset = if diag.deferred { None } else { diag.location.as_ref().and_then(|l| l.offset) };
        let once = self.opts.overrides.once(diag.id) || self.pragmas.once_in_force(diag.id, offset);
        let first = self.shown_numbers.insert(diag.id);
        if once && !first {
            return Flow::Continue;
        }
        let promoted = self.promotes(severity);
        let shown = Shown { severity, promoted };
        self.print(diag, shown);

        self.count(severity, promoted);

        if severity == Severity::Warning && !self.hint_given && self.opts.text.display_error_number {
            // The hint bypasses the remark filter but obeys overrides, with
            // the pragmas in force at the warning (checked with cudafe++:
            // `--diag_error=20252` prints `Error: The warnings …` and exits 2).
            self.hint_given = true;
            let offset = diag.location.as_ref().and_then(|l| l.offset);
            if let Some(hint_severity) = self.overridden(HINT_REMARK, Severity::Remark, offset) {
                let hint = Diagnostic::new(HINT_REMARK, hint_severity);
                self.print(&hint, Shown { severity: hint_severity, promoted: false });
                self.count(hint_severity, false);
            }
        }

        if severity.is_fatal() {
            self.stopped = Some(if severity == Severity::Internal { Stopped::Internal } else { Stopped::Catastrophic });
            return Flow::Stop;
        }
        if (severity.is_error() || promoted) && self.errors >= self.opts.error_limit.max(1) {
            self.stopped = Some(Stopped::ErrorLimit);
            // Printed raw inside the JSON by cudafe++; we keep SARIF valid.
            if self.opts.mode != OutputMode::Sarif {
                self.write(b"Error limit reached.\n");
            }
            return Flow::Stop;
        }
        Flow::Continue
    }

    fn count(&mut self, severity: Severity, promoted: bool) {
        if severity.is_error() || promoted {
            self.errors += 1;
        } else if severity.is_fatal() {
            self.catastrophic += 1;
        } else if matches!(severity, Severity::Warning | Severity::CommandLineWarning) {
            self.warnings += 1;
        }
    }

    fn print(&mut self, diag: &Diagnostic, shown: Shown) {
        let bytes = match self.opts.mode {
            OutputMode::Text => {
                let mut s = String::new();
                text::render(diag, shown, &self.opts.text, &mut s);
                s.into_bytes()
            }
            OutputMode::Sarif => {
                let mut s = String::new();
                if self.sarif_results > 0 {
                    s.push(',');
                }
                self.sarif_results += 1;
                sarif::result(diag, shown, &self.opts.cwd, &mut s);
                s.into_bytes()
            }
            OutputMode::Rich => {
                let mut buf = if self.opts.rich_color { Buffer::ansi() } else { Buffer::no_color() };
                if rich::render(diag, shown, &mut buf).is_err() {
                    self.write_failed = true;
                }
                buf.into_inner()
            }
        };
        self.write(&bytes);
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.out.write_all(bytes).is_err() {
            self.write_failed = true;
        }
    }

    /// Ends the compilation's output: the trailer and `Compilation
    /// terminated.`/`aborted.` in text mode, the SARIF footer in SARIF mode.
    pub fn finish(mut self) -> (Outcome, W) {
        if self.opts.mode == OutputMode::Sarif {
            self.write(sarif::FOOTER.as_bytes());
        } else if let Some(t) = trailer(self.errors, self.catastrophic, self.opts.source_name.as_deref()) {
            self.write(t.as_bytes());
            self.write(b"\n");
            match self.stopped {
                Some(Stopped::Internal) => self.write(b"Compilation aborted.\n"),
                Some(_) => self.write(b"Compilation terminated.\n"),
                None => {}
            }
        }
        if self.out.flush().is_err() {
            self.write_failed = true;
        }
        let exit_code = match self.stopped {
            Some(Stopped::Internal) => 134,
            Some(_) => 4,
            None if self.errors > 0 => 2,
            None => 0,
        };
        let outcome = Outcome {
            errors: self.errors,
            catastrophic: self.catastrophic,
            warnings: self.warnings,
            exit_code,
            write_failed: self.write_failed,
        };
        (outcome, self.out)
    }
}

/// The summary line (spec 60 §3.1), without newline; `None` when no error
/// or catastrophic error was counted.
pub fn trailer(errors: u32, catastrophic: u32, source_name: Option<&str>) -> Option<String> {
    fn count(n: u32, one: &str, many: &str) -> String {
        format!("{n} {}", if n == 1 { one } else { many })
    }
    let counts = match (errors, catastrophic) {
        (0, 0) => return None,
        (e, 0) => count(e, "error", "errors"),
        (0, c) => count(c, "catastrophic error", "catastrophic errors"),
        (e, c) => {
            format!("{} and {}", count(e, "error", "errors"), count(c, "catastrophic error", "catastrophic errors"))
        }
    };
    Some(match source_name {
        Some(name) => format!("{counts} detected in the compilation of \"{name}\"."),
        None => format!("{counts} detected in this compilation."),
    })
}

/// Renders one diagnostic as cudafe++ text (for tests, the IDE, tools).
pub fn render_text(diag: &Diagnostic, opts: &TextOptions) -> String {
    let mut s = String::new();
    text::render(diag, Shown { severity: diag.severity, promoted: false }, opts, &mut s);
    s
}
