//! The cudafe++ command-line grammar (spec 10 §3), byte-compatible in what it
//! accepts, what it rejects and the words it rejects with.
//!
//! EDG's order of checks is observable, so it is kept:
//! 1. options are processed left to right until the first word that is not
//!    an option; an error stops at once (e.g. `--c --c++17 --bogus` reports
//!    the mode conflict). `--version` / `--dump_command_options` print when
//!    they are processed; `--Version` prints and exits 1 at once.
//! 2. dialect checks that need all options (`-b` with C++11, `--no_bool` …),
//!    reported before the source name is known ("in this compilation");
//! 3. the positional words: none → missing source (unless a version/dump
//!    option was given: exit 0), more than one → too many arguments;
//! 4. `-o` / `--output` is rejected (now with the source name known).

use cufront_base_db::{HostCompiler, LangStandard};
use cufront_diagnostics::{Action, DiagId, parse_diag_list};

use super::flags::{self, FLAGS, FlagId, Lookup};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostKind {
    Gnu,
    Clang,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputMode {
    Text,
    Sarif,
}

/// Everything the run needs from the command line.
#[derive(Clone, Debug)]
pub struct Config {
    /// The positional input as typed (`-` = stdin).
    pub input: String,
    pub standard: LangStandard,
    /// `--g++`/`--gcc` (the default), `--clang`, or neither (`--no_g++`).
    pub host_kind: HostKind,
    pub gnu_version: u32,
    pub clang_version: u32,
    pub digit_separators: Option<bool>,
    pub gen_c_file_name: Option<String>,
    pub stub_file_name: Option<String>,
    pub module_id_file_name: Option<String>,
    pub gen_module_id_file: bool,
    pub orig_src_file_name: Option<String>,
    pub orig_src_path_name: Option<String>,
    pub no_code_gen: bool,
    pub timing: bool,
    /// `--relaxed_constexpr` (nvcc's `--expt-relaxed-constexpr`): constexpr
    /// functions may be called across execution spaces.
    pub relaxed_constexpr: bool,
    pub diag: DiagOptions,
    /// Options that shape the host file (read by the emit back end).
    pub emit: EmitFlags,
    /// Which of nvcc's two front-end passes this run is: always `Host` on
    /// the cudafe++ command line; `cufront check` also runs `Device`.
    pub pass: Pass,
}

/// nvcc runs an EDG front end twice: cudafe++ on the host preprocessing
/// and cicc on the device preprocessing (`__CUDA_ARCH__` defined). Both
/// report the ordinary C++ diagnostics; each reports its own CUDA rules
/// (spec 61), so a check that belongs to one pass reads this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// cudafe++'s pass (the host `.cpp4.ii`).
    Host,
    /// cicc's front-end pass (the device `.cpp1.ii`); it writes no file.
    Device,
}

/// The options that change the host file (spec 30 §1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmitFlags {
    pub static_host_stub: bool,
    pub extended_lambda: bool,
    pub device_hidden_visibility: bool,
    pub device_c: bool,
    pub debug_mode: bool,
}

#[derive(Clone, Debug)]
pub struct DiagOptions {
    pub no_warnings: bool,
    pub promote_warnings: bool,
    pub remarks: bool,
    pub display_error_number: bool,
    pub brief: bool,
    pub wrap: bool,
    pub colors: Option<bool>,
    pub error_limit: u64,
    pub context_limit: u64,
    pub output_mode: OutputMode,
    pub error_output: Option<String>,
    /// `--diag_*` in command-line order (later entries win).
    pub controls: Vec<(Action, Vec<DiagId>)>,
}

impl Default for DiagOptions {
    fn default() -> Self {
        DiagOptions {
            no_warnings: false,
            promote_warnings: false,
            remarks: false,
            display_error_number: false,
            brief: false,
            wrap: false,
            colors: None,
            error_limit: 100,
            context_limit: 10,
            output_mode: OutputMode::Text,
            error_output: None,
            controls: Vec::new(),
        }
    }
}

/// Text that options print while they are processed, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Early {
    Stderr(String),
    Stdout(String),
}

/// A command-line error: its message number and `%s` fill-in, its
/// continuation lines, and whether the source name was known by then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmdError {
    pub id: DiagId,
    pub arg: Option<String>,
    pub continuation: Vec<String>,
    /// The name the trailer uses (`--orig_src_file_name` or the input), or
    /// `None` for "in this compilation".
    pub name: Option<String>,
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Run(Box<Config>),
    /// Nothing to compile (`--version` without a source): exit with this code.
    Exit(u8),
    Error(CmdError),
}

pub struct Parsed {
    pub early: Vec<Early>,
    pub outcome: Outcome,
}

pub const VERSION_BANNER: &str = "cudafe: NVIDIA (R) Cuda Language Front End\n\
Portions Copyright (c) 2005, 2024-2025 NVIDIA Corporation\n\
Portions Copyright (c) 1988-2018, 2024 Edison Design Group Inc.\n\
Based on Edison Design Group C/C++ Front End, version 6.6 (Aug 20 2025 13:59:03)\n\
Cuda compilation tools, release 13.0, V13.0.88\n";

pub const VERSION_BANNER_LONG: &str = "cudafe: NVIDIA (R) Cuda Language Front End\n\
Portions Copyright (c) 2005-2025 NVIDIA Corporation\n\
Portions Copyright (c) 1988-2016 Edison Design Group Inc.\n\
Based on Edison Design Group C/C++ Front End, version 6.6 (Aug 20 2025 13:59:03)\n\
Cuda compilation tools, release 13.0, V13.0.88\n";

/// Option state beyond `Config` that only the checks need.
#[derive(Default)]
struct State {
    c_mode: bool,
    cxx_mode: bool,
    old_c: bool,
    long_lifetime_temps: bool,
    no_bool: bool,
    svr4: bool,
    c_only: Vec<&'static str>,
    output: bool,
    print_only: bool,
}

fn err0(id: u16) -> CmdError {
    CmdError { id: DiagId(id), arg: None, continuation: Vec::new(), name: None }
}

fn err1(id: u16, arg: impl Into<String>) -> CmdError {
    CmdError { arg: Some(arg.into()), ..err0(id) }
}

/// Parses `args` (without argv[0]).
pub fn parse(args: &[String]) -> Parsed {
    let mut early = Vec::new();
    let outcome = match parse_inner(args, &mut early) {
        Ok(o) => o,
        Err(e) => Outcome::Error(e),
    };
    Parsed { early, outcome }
}

fn parse_inner(args: &[String], early: &mut Vec<Early>) -> Result<Outcome, CmdError> {
    let mut cfg = Config {
        input: String::new(),
        standard: LangStandard::Cxx14,
        host_kind: HostKind::Gnu,
        gnu_version: 80100,
        clang_version: 90100,
        digit_separators: None,
        gen_c_file_name: None,
        stub_file_name: None,
        module_id_file_name: None,
        gen_module_id_file: false,
        orig_src_file_name: None,
        orig_src_path_name: None,
        no_code_gen: false,
        timing: false,
        relaxed_constexpr: false,
        diag: DiagOptions::default(),
        emit: EmitFlags::default(),
        pass: Pass::Host,
    };
    let mut st = State::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            // Ends the options: every later word is positional.
            i += 1;
            break;
        }
        if let Some(body) = arg.strip_prefix("--") {
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let id = match flags::lookup_long(name) {
                Lookup::Found(id) => id,
                Lookup::Unknown => return Err(err1(571, arg)),
                Lookup::Ambiguous(ids) => {
                    return Err(CmdError {
                        continuation: ids.iter().map(|&id| format!("--{}", FLAGS[id].name)).collect(),
                        ..err1(923, body)
                    });
                }
            };
            let value = match (FLAGS[id].takes_value, value) {
                (false, Some(_)) | (true, Some("")) => return Err(err1(571, arg)),
                (false, None) => None,
                (true, Some(v)) => Some(v.to_string()),
                (true, None) => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => Some(v.clone()),
                        None => return Err(err1(2666, format!("--{name}"))),
                    }
                }
            };
            if apply(id, value, arg, &mut cfg, &mut st, early)? {
                return Ok(Outcome::Exit(1));
            }
            i += 1;
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            // A group of one-letter options (`-wr`); a letter that takes a
            // value takes the rest of the word or, if none, the next word.
            let bytes = arg.as_bytes();
            let mut j = 1;
            while j < bytes.len() {
                let Some(id) = flags::by_short(bytes[j]) else {
                    return Err(err1(571, arg));
                };
                let value = if FLAGS[id].takes_value {
                    let rest = &arg[j + 1..];
                    j = bytes.len();
                    if !rest.is_empty() {
                        Some(rest.to_string())
                    } else {
                        i += 1;
                        match args.get(i) {
                            Some(v) => Some(v.clone()),
                            None => return Err(err1(571, arg)),
                        }
                    }
                } else {
                    j += 1;
                    None
                };
                if apply(id, value, arg, &mut cfg, &mut st, early)? {
                    return Ok(Outcome::Exit(1));
                }
            }
            i += 1;
            continue;
        }
        break;
    }
    let positionals = &args[i.min(args.len())..];

    dialect_checks(&st, &cfg)?;

    let Some(input) = positionals.first() else {
        if st.print_only {
            return Ok(Outcome::Exit(0));
        }
        return Err(err0(593));
    };
    cfg.input = input.clone();
    // Stdin has no name: "in this compilation".
    let name = cfg.orig_src_file_name.clone().or_else(|| (input != "-").then(|| input.clone()));
    if positionals.len() > 1 {
        return Err(CmdError { name, ..err0(595) });
    }
    if st.output {
        return Err(CmdError { name, ..err0(596) });
    }
    Ok(Outcome::Run(Box::new(cfg)))
}

/// Checks that need every option (EDG's dialect resolution), in its order.
fn dialect_checks(st: &State, cfg: &Config) -> Result<(), CmdError> {
    let cxx = cfg.standard.is_cxx();
    if st.long_lifetime_temps && cxx && cfg.standard >= LangStandard::Cxx11 {
        return Err(err0(1908));
    }
    if st.no_bool {
        if !cxx {
            return Err(err0(699));
        }
        if cfg.standard >= LangStandard::Cxx14 {
            return Err(err0(2682));
        }
    }
    if st.svr4 {
        return Err(err0(if st.old_c { 675 } else { 1027 }));
    }
    if cxx {
        for (name, id) in [("extended_designators", 958), ("compound_literals", 974), ("c23_typeof", 3300)] {
            if st.c_only.contains(&name) {
                return Err(err0(id));
            }
        }
        if st.c_only.contains(&"gcc89_inlining") {
            return Err(err0(1852));
        }
        if st.c_only.contains(&"func_prototype_tags") {
            return Err(err0(2359));
        }
    }
    Ok(())
}

/// `invalid number: v` unless `v` is a decimal number that fits 64 bits.
fn number(v: &str) -> Result<u64, CmdError> {
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err1(574, v));
    }
    v.parse().map_err(|_| err1(574, v))
}

/// Applies one option. Returns `true` when the process must exit with 1 now
/// (`--Version`).
fn apply(
    id: FlagId,
    value: Option<String>,
    arg: &str,
    cfg: &mut Config,
    st: &mut State,
    early: &mut Vec<Early>,
) -> Result<bool, CmdError> {
    let name = FLAGS[id].name;
    let v = value.unwrap_or_default();
    // Language-mode options conflict as soon as both kinds were seen.
    let mode = |st: &mut State, c: bool| -> Result<(), CmdError> {
        if c {
            st.c_mode = true
        } else {
            st.cxx_mode = true
        }
        if st.c_mode && st.cxx_mode { Err(err0(1027)) } else { Ok(()) }
    };
    match name {
        "c++" => mode(st, false)?,
        "c++03" | "no_c++11" | "no_c++0x" => {
            mode(st, false)?;
            cfg.standard = LangStandard::Cxx03;
        }
        "c++11" | "c++0x" => {
            mode(st, false)?;
            cfg.standard = LangStandard::Cxx11;
        }
        "c++14" => {
            mode(st, false)?;
            cfg.standard = LangStandard::Cxx14;
        }
        "c++17" => {
            mode(st, false)?;
            cfg.standard = LangStandard::Cxx17;
        }
        "c++20" => {
            mode(st, false)?;
            cfg.standard = LangStandard::Cxx20;
        }
        "c++23" => {
            mode(st, false)?;
            cfg.standard = LangStandard::Cxx23;
        }
        "g++" => {
            mode(st, false)?;
            cfg.host_kind = HostKind::Gnu;
        }
        "cfront_2.1" | "cfront_3.0" => {
            mode(st, false)?;
            st.long_lifetime_temps = true;
        }
        "long_lifetime_temps" => st.long_lifetime_temps = true,
        "short_lifetime_temps" => st.long_lifetime_temps = false,
        "c" | "c17" | "c18" => {
            mode(st, true)?;
            cfg.standard = LangStandard::C17;
        }
        "old_c" => {
            mode(st, true)?;
            st.old_c = true;
            cfg.standard = LangStandard::C89;
        }
        "c89" | "no_c99" => {
            mode(st, true)?;
            cfg.standard = LangStandard::C89;
        }
        "c99" => {
            mode(st, true)?;
            cfg.standard = LangStandard::C99;
        }
        "c11" => {
            mode(st, true)?;
            cfg.standard = LangStandard::C11;
        }
        "c23" => {
            mode(st, true)?;
            cfg.standard = LangStandard::C23;
        }
        "gcc" => {
            mode(st, true)?;
            if !cfg.standard.is_cxx() || st.c_mode {
                cfg.standard = LangStandard::C17;
            }
            cfg.host_kind = HostKind::Gnu;
        }
        "no_gcc" | "no_g++" => cfg.host_kind = HostKind::None,
        "clang" => cfg.host_kind = HostKind::Clang,
        "no_clang" => cfg.host_kind = HostKind::Gnu,
        "gnu_version" => {
            let n = number(&v)?;
            if !(30200..=999_999).contains(&n) {
                return Err(err1(1358, v));
            }
            cfg.gnu_version = n as u32;
        }
        "clang_version" => {
            let n = number(&v)?;
            if n > 999_999 {
                return Err(err1(3301, v));
            }
            cfg.clang_version = n as u32;
        }
        "svr4" => st.svr4 = true,
        "no_svr4" => st.svr4 = false,
        "no_bool" => st.no_bool = true,
        "bool" => st.no_bool = false,
        "extended_designators" | "no_extended_designators" => st.c_only.push("extended_designators"),
        "compound_literals" | "no_compound_literals" => st.c_only.push("compound_literals"),
        "c23_typeof" | "no_c23_typeof" => st.c_only.push("c23_typeof"),
        "gcc89_inlining" => st.c_only.push("gcc89_inlining"),
        "func_prototype_tags" | "no_func_prototype_tags" => st.c_only.push("func_prototype_tags"),
        // Registered in the table but switched off in this build of EDG.
        "embedded_c" | "no_embedded_c" => return Err(err1(571, arg)),
        "digit_separators" => cfg.digit_separators = Some(true),
        "no_digit_separators" => cfg.digit_separators = Some(false),

        "version" => {
            early.push(Early::Stderr(VERSION_BANNER.to_string()));
            st.print_only = true;
        }
        "Version" => {
            early.push(Early::Stderr(VERSION_BANNER_LONG.to_string()));
            return Ok(true);
        }
        "dump_command_options" => {
            let mut s = String::new();
            for f in FLAGS {
                s.push_str("--");
                s.push_str(f.name);
                s.push(' ');
            }
            early.push(Early::Stdout(s));
            st.print_only = true;
        }
        "dump_configuration" => st.print_only = true,
        "output" => st.output = true,
        "target" => return Err(err1(2664, v)),

        "gen_c_file_name" => cfg.gen_c_file_name = Some(v),
        "stub_file_name" => cfg.stub_file_name = Some(v),
        "module_id_file_name" => cfg.module_id_file_name = Some(v),
        "gen_module_id_file" => cfg.gen_module_id_file = true,
        "orig_src_file_name" => cfg.orig_src_file_name = Some(v),
        "orig_src_path_name" => cfg.orig_src_path_name = Some(v),
        "no_code_gen" => cfg.no_code_gen = true,
        "timing" => cfg.timing = true,
        "relaxed_constexpr" => cfg.relaxed_constexpr = true,
        "static-host-stub" => cfg.emit.static_host_stub = true,
        "extended-lambda" => cfg.emit.extended_lambda = true,
        "device-hidden-visibility" => cfg.emit.device_hidden_visibility = true,
        "device-c" => cfg.emit.device_c = true,
        "debug_mode" => cfg.emit.debug_mode = true,

        "no_warnings" => cfg.diag.no_warnings = true,
        "promote_warnings" => cfg.diag.promote_warnings = true,
        "remarks" => cfg.diag.remarks = true,
        "display_error_number" => cfg.diag.display_error_number = true,
        "no_display_error_number" => cfg.diag.display_error_number = false,
        "brief_diagnostics" => cfg.diag.brief = true,
        "no_brief_diagnostics" => cfg.diag.brief = false,
        "wrap_diagnostics" => cfg.diag.wrap = true,
        "no_wrap_diagnostics" => cfg.diag.wrap = false,
        "colors" => cfg.diag.colors = Some(true),
        "no_colors" => cfg.diag.colors = Some(false),
        "error_output" => cfg.diag.error_output = Some(v),
        "error_limit" => {
            let n = number(&v)?;
            if n == 0 {
                return Err(err1(578, v));
            }
            cfg.diag.error_limit = n;
        }
        "context_limit" => cfg.diag.context_limit = number(&v)?,
        "output_mode" => {
            cfg.diag.output_mode = match v.as_str() {
                "text" => OutputMode::Text,
                "sarif" => OutputMode::Sarif,
                _ => return Err(err1(3299, v)),
            }
        }
        "diag_suppress" | "diag_remark" | "diag_warning" | "diag_error" | "diag_once" => {
            let action = Action::from_word(&name["diag_".len()..]).unwrap_or(Action::Suppress);
            let ids = parse_diag_list(&v).map_err(|e| err1(e.id().0, e.item()))?;
            cfg.diag.controls.push((action, ids));
        }

        // Values that are validated although cufront does not use them.
        "instantiate" if !matches!(v.as_str(), "none" | "all" | "used" | "local") => {
            return Err(err1(576, v));
        }
        "unicode_source_kind" if !matches!(v.as_str(), "UTF-8" | "UTF-16" | "UTF-16LE" | "UTF-16BE") => {
            return Err(err1(1672, v));
        }
        "set_flag" | "clear_flag" => return Err(err1(1157, v)),
        "pack_alignment" => {
            let n = number(&v)?;
            if !n.is_power_of_two() || n > 1 << 31 {
                return Err(err0(660));
            }
        }
        "modify-stack-limit"
        | "time_limit"
        | "pending_instantiations"
        | "max_depth_constexpr_call"
        | "max_cost_constexpr_call"
        | "pgi_version"
        | "icc_version"
        | "msvc_target_version" => {
            number(&v)?;
        }
        "pch_dir" if !std::path::Path::new(&v).is_dir() => {
            return Err(err1(680, v));
        }
        "edg_base_dir" if !std::path::Path::new(&v).is_dir() => {
            return Err(err1(1334, v));
        }
        "ms_header_unit" | "ms_header_unit_quote" | "ms_header_unit_angle" if !v.contains('=') => {
            return Err(err1(3143, v));
        }
        // Every other option is accepted without effect (docs/cudafe-flags.md).
        _ => {}
    }
    Ok(false)
}

impl Config {
    /// The host compiler mode with its version.
    pub fn host(&self) -> HostCompiler {
        match self.host_kind {
            HostKind::Gnu => HostCompiler::Gnu(self.gnu_version),
            HostKind::Clang => HostCompiler::Clang(self.clang_version),
            HostKind::None => HostCompiler::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_words(s: &str) -> Parsed {
        parse(&s.split_whitespace().map(str::to_string).collect::<Vec<_>>())
    }

    /// `(message number, fill-in, trailer name)` of a rejected command line.
    fn error(s: &str) -> (u16, Option<String>, Option<String>) {
        match parse_words(s).outcome {
            Outcome::Error(e) => (e.id.0, e.arg, e.name),
            other => panic!("{s}: accepted: {other:?}"),
        }
    }

    fn config(s: &str) -> Config {
        match parse_words(s).outcome {
            Outcome::Run(c) => *c,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn values_may_start_with_a_dash() {
        assert_eq!(
            error("--modify-stack-limit --stub_file_name s.c x.ii"),
            (574, Some("--stub_file_name".into()), None)
        );
        assert_eq!(config("--gen_c_file_name -x x.ii").gen_c_file_name.as_deref(), Some("-x"));
    }

    #[test]
    fn short_groups_and_attached_values() {
        let c = config("-we5 x.ii");
        assert!(c.diag.no_warnings);
        assert_eq!(c.diag.error_limit, 5);
        assert_eq!(error("-wZ x.ii").1.as_deref(), Some("-wZ"));
        assert_eq!(error("-e").0, 571);
    }

    #[test]
    fn ambiguity_lists_candidates_in_table_order() {
        match parse_words("--diag_=940 x.ii").outcome {
            Outcome::Error(e) => {
                assert_eq!((e.id.0, e.arg.as_deref()), (923, Some("diag_=940")));
                assert_eq!(
                    e.continuation,
                    ["--diag_suppress", "--diag_remark", "--diag_warning", "--diag_error", "--diag_once"]
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn order_of_checks() {
        // Mode conflicts stop at once, before a later bad option.
        assert_eq!(error("--c --c++17 --bogus x.ii").0, 1027);
        // Dialect checks come before the positional words, without a name.
        assert_eq!(error("-b x.ii x.ii"), (1908, None, None));
        // Then too many arguments and -o, with the name.
        assert_eq!(error("-o y x.ii x.ii"), (595, None, Some("x.ii".into())));
        assert_eq!(error("--orig_src_file_name a.cu -o y x.ii"), (596, None, Some("a.cu".into())));
        assert_eq!(error("ok.ii --bogus").0, 595);
        assert_eq!(error("- x.ii").2, None, "stdin has no name");
    }

    #[test]
    fn last_occurrence_wins_and_version_exits() {
        let c = config("--c++20 --c++11 --gen_c_file_name a --gen_c_file_name b x.ii");
        assert_eq!(c.standard, LangStandard::Cxx11);
        assert_eq!(c.gen_c_file_name.as_deref(), Some("b"));
        let p = parse_words("--version");
        assert!(matches!(p.outcome, Outcome::Exit(0)));
        assert_eq!(p.early, [Early::Stderr(VERSION_BANNER.into())]);
        assert!(matches!(parse_words("-V --bogus").outcome, Outcome::Exit(1)));
        assert_eq!(error("").0, 593);
    }

    #[test]
    fn value_checks() {
        assert_eq!(error("--gnu_version=30199 x.ii").0, 1358);
        assert_eq!(config("--gnu_version=120200 x.ii").host(), HostCompiler::Gnu(120200));
        assert_eq!(config("--clang --clang_version=170000 x.ii").host(), HostCompiler::Clang(170000));
        assert_eq!(error("--diag_suppress=1,bogus x.ii").1.as_deref(), Some("bogus"));
        assert_eq!(error("--error_limit=0 x.ii").0, 578);
        assert_eq!(error("--timing=1 x.ii").0, 571);
        assert_eq!(error("--error_limit= x.ii").0, 571);
    }
}
