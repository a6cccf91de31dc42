//! The back end of a cudafe++ run: the module id and the host file
//! (spec 10 §7, spec 30 §2–§4), written only when the front end found no
//! error. The host file is written first, then the module id file (if the
//! latter fails, the host file stays, as with cudafe++).

use std::path::{Path, PathBuf};

use cufront_diagnostics::{Arg, DiagId, Diagnostic, Severity};
use cufront_emit::host::{self, HostOptions};
use cufront_emit::module_id::{self, IdInputs};
use cufront_syntax::source_map::SourceMap;
use cufront_syntax::{SyntaxNode, TextRange};

use super::cmdline::{Config, HostKind};
use super::context::Context;
use super::output::write_atomically;

/// Message 1696 `cannot open %s file %sq2`.
const CANNOT_OPEN: DiagId = DiagId(1696);

/// What the back end has to report.
pub enum Outcome {
    Written,
    /// Constructs the host output cannot translate yet: errors at these places.
    Unsupported(Vec<(TextRange, String)>),
    /// An output could not be written (a catastrophic error).
    Failed(Diagnostic),
}

/// The module id of this compilation (spec 30 §4.1).
pub fn module_id(
    cfg: &Config,
    ctx: &Context,
    root: &SyntaxNode,
    map: &SourceMap,
    host_path: Option<&Path>,
    sema: cufront_emit::key::Sema<'_>,
) -> String {
    if let (Some(file), false) = (&cfg.module_id_file_name, cfg.gen_module_id_file) {
        // File mode: the raw contents, a trailing newline included.
        if let Ok(bytes) = std::fs::read(ctx.path(file)) {
            return String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    let file_name = cfg.orig_src_file_name.clone().unwrap_or_else(|| cfg.input.clone());
    let key = cufront_emit::key::module_key(root, map, cfg.emit.device_c, sema);
    match key {
        Some(Ok(key)) => module_id::module_id(&IdInputs {
            path_name: cfg.orig_src_path_name.as_deref(),
            file_name: &file_name,
            key: &key,
            extra: None,
            pid: None,
        }),
        // No eligible entity (or one cufront cannot mangle yet): cudafe++'s
        // fallback, from the source file's modification time (the file
        // `--orig_src_file_name` names, relative to the working directory,
        // else the input), the directory and the process; the time of the
        // host file when the source cannot be read (spec 30 §4.1).
        _ => {
            let now = std::fs::metadata(ctx.path(&file_name))
                .ok()
                .and_then(|m| m.modified().ok())
                .or_else(|| host_path.and_then(|p| std::fs::metadata(ctx.path(p)).ok()?.modified().ok()))
                .unwrap_or_else(std::time::SystemTime::now)
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let cwd = ctx.current_dir().map(|p| p.display().to_string()).unwrap_or_default();
            module_id::module_id(&IdInputs {
                path_name: cfg.orig_src_path_name.as_deref(),
                file_name: &file_name,
                key: &module_id::ctime(now),
                extra: Some(&cwd),
                pid: Some(ctx.pid()),
            })
        }
    }
}

/// Where the host file goes: `--gen_c_file_name`, else `<input stem>.int.c`
/// in the current directory; `None` = stdout (input from stdin).
pub fn host_path(cfg: &Config) -> Option<PathBuf> {
    if cfg.input == "-" {
        return None;
    }
    if let Some(p) = &cfg.gen_c_file_name {
        return Some(PathBuf::from(p));
    }
    let base = Path::new(&cfg.input).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = match base.rfind('.') {
        Some(i) if i > 0 => base[..i].to_string(),
        _ => base,
    };
    Some(PathBuf::from(format!("{stem}.int.c")))
}

/// Computes and writes the outputs.
pub fn run(cfg: &Config, ctx: &Context, root: &SyntaxNode, map: &SourceMap, sema: cufront_emit::Sema<'_>) -> Outcome {
    let out_path = host_path(cfg);
    let id = module_id(cfg, ctx, root, map, None, sema);
    let opts = HostOptions {
        gnu_version: match cfg.host_kind {
            HostKind::Gnu => Some(cfg.gnu_version),
            _ => None,
        },
        static_host_stub: cfg.emit.static_host_stub,
        extended_lambda: cfg.emit.extended_lambda,
        cxx17: cfg.standard >= cufront_base_db::LangStandard::Cxx17,
        device_hidden_visibility: cfg.emit.device_hidden_visibility,
        device_c: cfg.emit.device_c,
        debug_mode: cfg.emit.debug_mode,
        stub_file_name: cfg.stub_file_name.clone().unwrap_or_default(),
        module_id: id.clone(),
        all_bodies: ctx.var_os("CUFRONT_ALL_BODIES").is_some(),
    };
    let host = host::host_file(sema.db, sema.tu, &opts);
    if !host.unsupported.is_empty() {
        return Outcome::Unsupported(host.unsupported.clone());
    }
    if ctx.client_gone() {
        return Outcome::Failed(client_gone());
    }
    match &out_path {
        Some(p) => {
            if write_atomically(&ctx.path(p), host.text.as_bytes()).is_err() {
                return Outcome::Failed(cannot_open("generated C++", p));
            }
        }
        None => {
            use std::io::Write;
            let mut so = std::io::stdout().lock();
            let _ = so.write_all(host.text.as_bytes()).and_then(|_| so.flush());
        }
    }
    if ctx.client_gone() {
        return Outcome::Failed(client_gone());
    }
    if cfg.gen_module_id_file
        && let Some(f) = &cfg.module_id_file_name
        && write_atomically(&ctx.path(f), id.as_bytes()).is_err()
    {
        return Outcome::Failed(cannot_open("module id", Path::new(f)));
    }
    Outcome::Written
}

/// A daemon's run whose client went away: nothing is written (nobody reads
/// this diagnostic; the process it was for has ended).
fn client_gone() -> Diagnostic {
    Diagnostic::new(DiagId(1538), Severity::Catastrophic)
        .with_arg(Arg::Str("cufront: the client went away; no output written".into()))
}

fn cannot_open(what: &str, path: &Path) -> Diagnostic {
    Diagnostic::new(CANNOT_OPEN, Severity::Catastrophic)
        .with_args(vec![Arg::Str(what.into()), Arg::Str(path.display().to_string())])
}
