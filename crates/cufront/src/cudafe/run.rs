//! One cudafe++ compilation after the command line was accepted: read the
//! input, parse it through the database, report diagnostics in input order,
//! print the trailer (and `--timing` lines), and return the exit status.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use cufront_base_db::{self as base_db, LangOptions};
use cufront_diagnostics::{
    Arg, DiagId, Diagnostic, DiagnosticEngine, EngineOptions, Flow, Message, OutputMode, Overrides, Palette,
    PragmaTimeline, Severity, TextOptions, catalog, parse_pragma,
};
use cufront_emit::host::bodies::BodyNeeds;
use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{Parse, SyntaxSeverity, TextRange};

use super::cmdline::{self, Config, Pass};
use super::context::{Context, Unit};
use super::locate::Locator;

/// Message 1696 `cannot open %s file %sq2`.
const CANNOT_OPEN: DiagId = DiagId(1696);
/// Message 1697 `cannot open %s file %sq2: %s3`.
const CANNOT_OPEN_BECAUSE: DiagId = DiagId(1697);
/// Message 1538 `%s`: carries a parser message that has no catalog entry.
const RAW_TEXT: DiagId = DiagId(1538);
/// Message 3196 `to match this "{"`: the note under a missing `}`.
const MATCHING_LBRACE: DiagId = DiagId(3196);

pub fn run(cfg: &Config, out: impl Write) -> i32 {
    run_in(cfg, &mut Context::process(), out)
}

/// [`run`] for the process `ctx` describes (this one, or a daemon client).
pub fn run_in(cfg: &Config, ctx: &mut Context, out: impl Write) -> i32 {
    let start = Clock::now();
    let stdin = cfg.input == "-";
    // The `--timing` lines go to the same stream, some before the trailer.
    let out = Shared(Rc::new(RefCell::new(out)));
    let mut engine = DiagnosticEngine::new(engine_options(cfg, stdin, ctx), out.clone());

    let text = match read_input(&cfg.input, ctx) {
        Ok(t) => t,
        Err(why) => {
            let mut args = vec![Arg::Str("source".into()), Arg::Str(cfg.input.clone())];
            let id = match why {
                ReadError::IsDirectory => {
                    args.push(Arg::Str("is a directory".into()));
                    CANNOT_OPEN_BECAUSE
                }
                ReadError::NotRegular => {
                    args.push(Arg::Str("not a regular file".into()));
                    CANNOT_OPEN_BECAUSE
                }
                ReadError::Io => CANNOT_OPEN,
            };
            let diag = Diagnostic::new(id, Severity::Catastrophic).with_args(args);
            engine.emit(&diag);
            return finish(engine, &out, cfg, &start, None);
        }
    };

    let lang = LangOptions {
        standard: cfg.standard,
        host: cfg.host(),
        digit_separators: cfg.digit_separators,
        lazy_bodies: true,
        device_view: false,
    };
    let Unit { db, tu, options, pooled } = ctx.load_unit(cfg.input.clone(), Arc::from(text.as_str()), lang);
    let map = base_db::source_map(&db, tu);
    let lazy = base_db::parse(&db, tu);
    let parse = with_needed_bodies(cfg, ctx, &text, lazy, map);

    // Diagnostic pragmas apply by position; their own problems are warnings.
    // What is found is kept small and located only when reported (a unit
    // can hold millions of problems; the error limit stops at the hundredth).
    let mut records = Vec::new();
    let mut found: Vec<(u32, Found)> = Vec::new();
    for (line_start, line) in pragma_lines(&text) {
        let trimmed = line.trim_start_matches([' ', '\t']);
        if !trimmed.starts_with('#') {
            continue;
        }
        let lead = line.len() - trimmed.len();
        if let Some((pragma, problems)) = parse_pragma(trimmed) {
            for p in problems {
                found.push(((line_start + lead + p.offset) as u32, Found::Warning(p.id)));
            }
            records.push((line_start as u32, pragma));
        }
    }
    engine.set_pragmas(PragmaTimeline::new(records));

    let root = parse.syntax_node();
    found.extend(nul_warnings(&text, &root));
    // The semantic checks of the pass (`cufront-check`): cudafe++'s on the
    // host preprocessing, cicc's front end's on the device one. Findings
    // of cicc's late phase come after everything else, in their order.
    let check_opts = cufront_check::Options {
        relaxed_constexpr: cfg.relaxed_constexpr,
        extended_lambda: cfg.emit.extended_lambda,
        whole_program: !cfg.emit.device_c,
    };
    let sema = match cfg.pass {
        Pass::Host => cufront_check::host_pass(&db, tu, check_opts),
        Pass::Device => cufront_check::device_pass(&db, tu, check_opts),
    };
    found.extend(sema.iter().enumerate().map(|(i, f)| (if f.late { u32::MAX } else { f.order }, Found::Sema(i))));
    found.extend(parse.errors().iter().enumerate().map(|(i, e)| (u32::from(e.range.start()), Found::Syntax(i))));
    // Stable: at one offset, pragma problems (found first) come first.
    found.sort_by_key(|(at, _)| *at);
    let locator = Locator::new(&text, map, stdin);
    let mut late_phase: Option<bool> = None;
    for &(at, what) in &found {
        // An error the lexer found inside a token (a byte of a raw string's
        // delimiter) is placed as EDG places it: the token's column plus a
        // byte count. Other positions count code points (a NUL in a string).
        let token = match what {
            Found::Syntax(_) => cufront_syntax::green::token_at(&root, at.into()),
            _ => None,
        };
        let loc = match token {
            Some(t) if !t.kind().is_trivia() => locator.location_in_token(at, t.text_range().start().into()),
            _ => locator.location(at),
        };
        let diag = match what {
            Found::Warning(id) => Diagnostic::new(id, Severity::Warning).at(loc),
            Found::Sema(i) => {
                let f = &sema[i];
                // A note belongs to the finding before it (attached below).
                if f.severity == Severity::Note {
                    continue;
                }
                // cicc's late phase runs only on a unit without errors.
                if f.late && !*late_phase.get_or_insert(!engine.has_errors()) {
                    continue;
                }
                let args = match &f.args_once_erred {
                    Some(once) if engine.has_errors() => once.clone(),
                    _ => f.args.clone(),
                };
                let mut diag = Diagnostic::new(f.id, f.severity).with_args(args).at(locator.location(f.at));
                for c in &f.context {
                    diag = diag.with_context(c.clone());
                }
                for line in &f.continuation {
                    diag = diag.with_continuation(line.clone());
                }
                // A message that ends in `:` introduces a list: its notes are
                // continuation lines (`object of abstract class type "A" is
                // not allowed:` and its pure virtual functions) unless the
                // finding carries its list (`more than one instance of … :`
                // and the functions it cannot choose between); other notes
                // are placed, with their source lines.
                let list = catalog::template(f.id).ends_with(':') && f.continuation.is_empty();
                for n in sema[i + 1..].iter().take_while(|n| n.severity == Severity::Note) {
                    if list {
                        let line = Message::Template { id: n.id, args: n.args.clone() };
                        diag = diag.with_continuation(line);
                        continue;
                    }
                    let note = Diagnostic::new(n.id, Severity::Note).with_args(n.args.clone());
                    diag = diag.with_note(with_source_lines(note.at(locator.location(n.at)), &locator));
                }
                diag
            }
            Found::Syntax(i) => {
                let e = &parse.errors()[i];
                let diag = match catalog::by_text(&e.msg) {
                    Some(id) => Diagnostic::new(
                        id,
                        match e.severity {
                            SyntaxSeverity::Error => Severity::HardError,
                            SyntaxSeverity::Discretionary => Severity::Error,
                            SyntaxSeverity::Warning => Severity::Warning,
                        },
                    ),
                    None => Diagnostic::new(RAW_TEXT, Severity::HardError).with_arg(Arg::Str(e.msg.clone())),
                };
                diag.at(loc)
            }
        };
        if engine.resolve(&diag).is_none() {
            continue;
        }
        // Late findings are printed without a source line or caret.
        let late = matches!(what, Found::Sema(i) if sema[i].late);
        let mut diag = if late {
            let mut d = diag;
            d.location = d.location.map(|mut l| {
                l.column = 0;
                l
            });
            d
        } else {
            with_source_lines(diag, &locator)
        };
        // `expected a "}"` points back at the brace it was to close (EDG's note 3196).
        if let Found::Syntax(i) = what
            && parse.errors()[i].msg == "expected a \"}\""
            && let Some(open) = cufront_syntax::matching::brace_to_match(&root, parse.errors()[i].range.start())
        {
            let note = Diagnostic::new(MATCHING_LBRACE, Severity::Note)
                .at(locator.with_source_line(locator.location(open.start().into())));
            diag = diag.with_note(note);
        }
        if engine.emit(&diag) == Flow::Stop {
            break;
        }
    }
    let front_end = start.elapsed();
    // The back end (host file, module id) runs when there are no errors and
    // no `--no_code_gen`; constructs it cannot translate yet are errors.
    let mut back_end = None;
    // cudafe++ writes the host file and then crashes (SIGSEGV) without a
    // stub file name; cufront reports it instead and writes nothing.
    if !engine.has_errors() && !engine.is_stopped() && !cfg.no_code_gen && cfg.stub_file_name.is_none() {
        let diag = Diagnostic::new(RAW_TEXT, Severity::HardError).with_arg(Arg::Str(
            "cufront: no --stub_file_name: the host file cannot be written (cudafe++ crashes)".into(),
        ));
        engine.emit(&diag);
    }
    if !engine.has_errors() && !engine.is_stopped() && !cfg.no_code_gen {
        let be_start = Clock::now();
        let root = parse.syntax_node();
        // The module id's key, the execution spaces and the host file's
        // member aliases come from the semantic model of the unit.
        let sema = cufront_emit::Sema::new(&db, tu);
        match super::back_end::run(cfg, ctx, &root, map, sema) {
            super::back_end::Outcome::Written => back_end = Some(be_start.elapsed()),
            super::back_end::Outcome::Unsupported(list) => {
                for (range, what) in list {
                    let at: u32 = range.start().into();
                    let diag = Diagnostic::new(RAW_TEXT, Severity::HardError)
                        .with_arg(Arg::Str(format!("cufront: {what}")))
                        .at(locator.with_source_line(locator.location(at)));
                    if engine.emit(&diag) == Flow::Stop {
                        break;
                    }
                }
            }
            super::back_end::Outcome::Failed(diag) => {
                engine.emit(&diag);
            }
        }
    }
    let status = finish(engine, &out, cfg, &start, Some((front_end, back_end)));
    ctx.finish(Unit { db, tu, options, pooled }, (parse, text));
    status
}

/// The declarations-only parse with the bodies that are needed parsed in
/// place (DESIGN decision 3): those of the user's code, whose syntax errors
/// are reported, and with `--device-c` those the module id's key looks into
/// (`BodyNeeds`: host code naming a kernel or device variable). The host
/// file parses the bodies it reads itself, per item (`emit::host::host_file`).
/// The bodies of system headers and of the toolkit's own headers are trusted
/// (the host compiler parses them again, cicc their device side). With
/// `CUFRONT_ALL_BODIES` set in the environment, every body (the reference
/// the tests compare with).
fn with_needed_bodies(cfg: &Config, ctx: &Context, text: &str, lazy: &Parse, map: &SourceMap) -> Parse {
    let all = ctx.var_os("CUFRONT_ALL_BODIES").is_some();
    let needs = (!all && !cfg.no_code_gen && cfg.emit.device_c).then(|| BodyNeeds::new(&lazy.syntax_node()));
    let toolkit = map.toolkit_files();
    let lex = lazy.options().lex;
    let ranges: Vec<TextRange> = lazy
        .lazy_body_ranges()
        .filter(|r| {
            let at = r.start().into();
            all || map.is_user_code(at, &toolkit) || needs.as_ref().is_some_and(|n| n.needs(&text[*r], lex))
        })
        .collect();
    lazy.with_bodies_parsed(&ranges)
}

/// One writer used by the engine and by the timing lines.
struct Shared<W>(Rc<RefCell<W>>);

impl<W> Clone for Shared<W> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<W: Write> Write for Shared<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

type Times = (Duration2, Option<Duration2>);

/// Ends the compilation: phase times, trailer, total time (cudafe++'s order).
/// A terminated compilation (catastrophic error, error limit) prints no times.
fn finish<W: Write>(
    engine: DiagnosticEngine<Shared<W>>,
    out: &Shared<W>,
    cfg: &Config,
    start: &Clock,
    times: Option<Times>,
) -> i32 {
    let timing = cfg.timing && engine.options().mode != OutputMode::Sarif && !engine.is_stopped();
    let mut out = out.clone();
    if timing && let Some((fe, be)) = times {
        let mut s = timing_line("Front end time", fe);
        if let Some(be) = be {
            s.push_str(&timing_line("Back end time", be));
        }
        let _ = out.write_all(s.as_bytes());
    }
    let (outcome, _) = engine.finish();
    if timing {
        let _ = out.write_all(timing_line("Total compilation time", start.elapsed()).as_bytes());
    }
    let _ = out.flush();
    outcome.exit_code
}

/// CPU and wall-clock time since a point.
struct Clock {
    wall: Instant,
    cpu: std::time::Duration,
}

#[derive(Clone, Copy)]
struct Duration2 {
    cpu: f64,
    wall: f64,
}

impl Clock {
    fn now() -> Clock {
        Clock { wall: Instant::now(), cpu: cpu_time() }
    }
    fn elapsed(&self) -> Duration2 {
        Duration2 { cpu: cpu_time().saturating_sub(self.cpu).as_secs_f64(), wall: self.wall.elapsed().as_secs_f64() }
    }
}

/// Process CPU time from `/proc/self/stat` (utime + stime, in clock ticks of
/// 1/100 s on Linux); zero where it cannot be read.
fn cpu_time() -> std::time::Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return Default::default() };
    // Fields after the command name, which is parenthesised and may hold spaces.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { return Default::default() };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = [11, 12].iter().filter_map(|&i| fields.get(i)?.parse::<u64>().ok()).sum();
    std::time::Duration::from_millis(ticks * 10)
}

fn timing_line(label: &str, d: Duration2) -> String {
    format!("{label:<30} {:>10.2} (CPU) {:>10.2} (elapsed)\n", d.cpu, d.wall)
}

fn engine_options(cfg: &Config, stdin: bool, ctx: &Context) -> EngineOptions {
    let d = &cfg.diag;
    let mut overrides = Overrides::default();
    for (action, ids) in &d.controls {
        overrides.apply(*action, ids);
    }
    let palette = Palette::detect(d.colors == Some(false), ctx.stderr_is_tty(), |k| ctx.var(k));
    EngineOptions {
        mode: match d.output_mode {
            cmdline::OutputMode::Text => OutputMode::Text,
            cmdline::OutputMode::Sarif => OutputMode::Sarif,
        },
        text: TextOptions {
            display_error_number: d.display_error_number,
            brief: d.brief,
            wrap: d.wrap,
            context_limit: d.context_limit.min(u32::MAX as u64) as u32,
            palette,
        },
        error_limit: d.error_limit.min(u32::MAX as u64) as u32,
        remarks: d.remarks,
        no_warnings: d.no_warnings,
        promote_warnings: d.promote_warnings,
        overrides,
        source_name: match &cfg.orig_src_file_name {
            Some(n) => Some(n.clone()),
            None if stdin => None,
            None => Some(cfg.input.clone()),
        },
        cwd: ctx.current_dir().map(|p| p.display().to_string()).unwrap_or_else(|_| "/".into()),
        rich_color: false,
    }
}

/// The input text; `-` is stdin. A text opening with a UTF-16 byte order
/// mark (either order) is decoded, as cudafe++ does; other bytes that are
/// not UTF-8 are replaced (the parser works on `str`). Only regular files
/// are read (cudafe++ refuses `/dev/null`, a FIFO: "not a regular file").
enum ReadError {
    IsDirectory,
    NotRegular,
    Io,
}

fn read_input(path: &str, ctx: &Context) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes).map_err(|_| ReadError::Io)?;
    } else {
        let path = ctx.path(path);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => return Err(ReadError::IsDirectory),
            Ok(m) if !m.is_file() => return Err(ReadError::NotRegular),
            _ => {}
        }
        bytes = std::fs::read(&path).map_err(|_| ReadError::Io)?;
    }
    if let Some(text) = decode_utf16(&bytes) {
        return Ok(text);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// `bytes` decoded as UTF-16 when they open with its byte order mark (the
/// mark dropped), else `None`.
fn decode_utf16(bytes: &[u8]) -> Option<String> {
    let unit: fn([u8; 2]) -> u16 = match bytes {
        [0xff, 0xfe, ..] => u16::from_le_bytes,
        [0xfe, 0xff, ..] => u16::from_be_bytes,
        _ => return None,
    };
    let units = bytes[2..].chunks(2).map(|c| unit([c[0], *c.get(1).unwrap_or(&0)]));
    Some(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect())
}

/// `(offset of line start, line without terminator)` for each physical
/// line that can be a diagnostic pragma (`parse_pragma` knows only
/// `nv_diagnostic` and `nv_diag_*`), in order: the others are not read.
fn pragma_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut last = None;
    memchr::memmem::find_iter(bytes, b"nv_diag").filter_map(move |at| {
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        if last == Some(start) {
            return None;
        }
        last = Some(start);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        Some((start, text[start..end].trim_end_matches('\r')))
    })
}

/// A problem found before reporting, located only when reported.
#[derive(Clone, Copy)]
enum Found {
    /// A warning of the front end (a diagnostic pragma's, a NUL byte's).
    Warning(DiagId),
    /// The parse's error with this index.
    Syntax(usize),
    /// The host pass's semantic diagnostic with this index (`cufront_check::host_pass`).
    Sema(usize),
}

/// Message 1192 `null (zero) character in input line ignored`.
const NUL_IGNORED: DiagId = DiagId(1192);
/// Message 1193 `null (zero) character in string or character constant`.
const NUL_IN_LITERAL: DiagId = DiagId(1193);

/// EDG's warnings for NUL bytes (the lexer takes them for whitespace): one
/// per NUL, 1193 inside a string or character literal (or a line marker's
/// file name), none inside a comment, 1192 elsewhere.
fn nul_warnings<'a>(text: &'a str, root: &'a cufront_syntax::SyntaxNode) -> impl Iterator<Item = (u32, Found)> + 'a {
    use cufront_syntax::SyntaxKind as K;
    memchr::memchr_iter(0, text.as_bytes()).filter_map(move |at| {
        let token = cufront_syntax::green::token_at(root, (at as u32).into())?;
        let id = match token.kind() {
            K::COMMENT => return None,
            K::STRING | K::CHAR => NUL_IN_LITERAL,
            // In a directive, only inside its string (a line marker's file name).
            K::LINE_MARKER | K::PP_DIRECTIVE => {
                let before = &token.text()[..at - usize::from(token.text_range().start())];
                let mut quoted = false;
                let mut bytes = before.bytes();
                while let Some(b) = bytes.next() {
                    match b {
                        b'\\' if quoted => {
                            bytes.next();
                        }
                        b'"' => quoted = !quoted,
                        _ => {}
                    }
                }
                if quoted { NUL_IN_LITERAL } else { NUL_IGNORED }
            }
            K::ERROR_TOKEN if token.text().contains(['"', '\'']) => NUL_IN_LITERAL,
            _ => NUL_IGNORED,
        };
        Some((at as u32, Found::Warning(id)))
    })
}

/// `diag` with the source line of its location.
fn with_source_lines(mut diag: Diagnostic, locator: &Locator<'_>) -> Diagnostic {
    diag.location = diag.location.map(|l| locator.with_source_line(l));
    diag
}
