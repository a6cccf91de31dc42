//! `cufront inspect layout FILE.ii [TYPE]`: the layouts cufront computes
//! (spec 50 §7), and `cufront inspect symbols FILE.ii`: the linkage names of
//! the functions and variables it knows (spec 50 §8), for checking against
//! compilers. Formats: `docs/inspect.md`.

use std::process::ExitCode;
use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, TranslationUnit, new_options, new_translation_unit};

#[derive(clap::Args)]
pub struct InspectArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Print size, alignment and member/base offsets of every complete,
    /// non-template class of the unit and of the class template
    /// specializations they need (or of TYPE, a qualified name or a
    /// template-id such as `std::pair<int, double>`).
    Layout {
        /// The preprocessed file (`.ii`).
        file: std::path::PathBuf,
        /// A qualified class name (`ns::S`, a typedef name, or a template-id).
        r#type: Option<String>,
        /// Read the unit as C++20 (C++20 keywords).
        #[arg(long)]
        cxx20: bool,
        /// Also list the classes that cannot be laid out, with the reason.
        #[arg(long)]
        all: bool,
    },
    /// Print the linkage name of every function and variable outside
    /// templates (declared or defined, headers included), one per line:
    /// `NAME KIND STATE FILE:LINE`.
    Symbols {
        /// The preprocessed file (`.ii`).
        file: std::path::PathBuf,
        /// Read the unit as C++20 (C++20 keywords).
        #[arg(long)]
        cxx20: bool,
        /// Also list the entities that get no name, with the reason.
        #[arg(long)]
        all: bool,
        /// The module id (`_5f1e…_6_x_cu_…`, as `x.module_id` holds it):
        /// anonymous namespaces become `_GLOBAL__N_<mid>`, as cudafe++'s
        /// host output names them (default: g++'s `_GLOBAL__N_1`).
        #[arg(long)]
        module_id: Option<String>,
    },
    /// Print the entities the device side keeps (`docs/device.md`): kernels,
    /// kernel template instances, device variables, each with its device
    /// name and why it is kept.
    Device {
        /// The device preprocessing (`x.cpp1.ii`).
        file: std::path::PathBuf,
        /// Read the unit as C++20 (C++20 keywords).
        #[arg(long)]
        cxx20: bool,
        /// The module id (as `x.module_id` holds it), for internal names.
        #[arg(long)]
        module_id: Option<String>,
        /// Name entities as separate compilation (`-rdc=true`) does.
        #[arg(long)]
        rdc: bool,
        /// Unannotated `constexpr` functions are `__host__ __device__`
        /// (nvcc's `--expt-relaxed-constexpr`).
        #[arg(long)]
        relaxed_constexpr: bool,
        /// Print the device IL of the kept entities (`docs/device-il.md`)
        /// instead of their list.
        #[arg(long)]
        il: bool,
    },
    /// Evaluate every `static_assert` of the unit in the contexts cufront
    /// evaluates (`inspect_asserts.rs`): `FILE:LINE CONTEXT OUTCOME`.
    StaticAsserts {
        /// The preprocessed file (`.ii`).
        file: std::path::PathBuf,
        /// Read the unit as C++20 (C++20 keywords).
        #[arg(long)]
        cxx20: bool,
        /// Also list the templated asserts no instance reaches.
        #[arg(long)]
        all: bool,
    },
    /// List where the semantic checks stay silent because the model does
    /// not understand enough (`cufront_check::uncertain`): bodies not
    /// inferred, calls not resolved, returns not decided, each as
    /// `FILE:LINE:COL: REASON`, then the count of each kind.
    Uncertain {
        /// The preprocessed file (`.ii`).
        file: std::path::PathBuf,
        /// Read the unit as C++20 (C++20 keywords).
        #[arg(long)]
        cxx20: bool,
    },
}

#[path = "inspect_asserts.rs"]
mod asserts;

pub fn run(args: InspectArgs) -> ExitCode {
    match args.what {
        What::Layout { file, r#type, cxx20, all } => layout(&file, r#type.as_deref(), cxx20, all),
        What::Symbols { file, cxx20, all, module_id } => symbols(&file, cxx20, all, module_id.as_deref()),
        What::Device { file, cxx20, module_id, rdc, relaxed_constexpr, il } => match load_view(&file, cxx20, true) {
            Ok((db, tu)) => {
                let opts = cufront_device::keep::KeepOptions {
                    module_id: module_id.unwrap_or_default(),
                    device_c: rdc,
                    relaxed_constexpr,
                };
                if il {
                    print!("{}", cufront_device::il_lower::device_il(&db, tu, &opts));
                } else {
                    print!("{}", cufront_device::listing::listing(&db, tu, &opts));
                }
                leak(db);
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        What::Uncertain { file, cxx20 } => match load(&file, cxx20) {
            Ok((db, tu)) => {
                print!("{}", uncertain(&db, tu));
                leak(db);
                ExitCode::SUCCESS
            }
            Err(code) => code,
        },
        What::StaticAsserts { file, cxx20, all } => match load(&file, cxx20) {
            Ok((db, tu)) => {
                let code = asserts::run(&db, tu, all);
                leak(db);
                code
            }
            Err(code) => code,
        },
    }
}

/// `inspect uncertain`'s text: one line per place, then the counts.
fn uncertain(db: &RootDatabase, tu: TranslationUnit) -> String {
    use cufront_check::Reason;
    let map = cufront_base_db::source_map(db, tu);
    let mut out = String::new();
    let mut counts = [0usize; 3];
    for u in cufront_check::uncertain(db, tu) {
        let loc = map.location(u.at);
        let (i, why) = match &u.reason {
            Reason::NotInferred(why) => (0, format!("body not inferred: {why}")),
            Reason::UnresolvedCall(name) => (1, format!("call not resolved: {name}")),
            Reason::UndecidedReturn => (2, "end of body reached or not: undecided".to_string()),
        };
        counts[i] += 1;
        out.push_str(&format!("{}:{}:{}: {why}\n", map.file_name(loc.file), loc.line, loc.col));
    }
    out.push_str(&format!(
        "{} bodies not inferred, {} calls not resolved, {} returns undecided\n",
        counts[0], counts[1], counts[2]
    ));
    out
}

/// Ends a command's use of its database without dropping it: the process
/// exits next and the system takes the memory back at once, while dropping
/// every memo one by one (interned types, item trees, bodies) costs a few
/// percent of a large unit's run for nothing.
fn leak(db: RootDatabase) {
    std::mem::forget(db);
}

/// A database holding `file` as its one translation unit (exit status 4 when
/// the file cannot be read, as for the other commands).
fn load(file: &std::path::Path, cxx20: bool) -> Result<(RootDatabase, TranslationUnit), ExitCode> {
    load_view(file, cxx20, false)
}

/// [`load`], as the device view (`device_view`: a `.cpp1.ii`) or the host's.
fn load_view(
    file: &std::path::Path,
    cxx20: bool,
    device_view: bool,
) -> Result<(RootDatabase, TranslationUnit), ExitCode> {
    let text = match std::fs::read(file) {
        // Valid UTF-8 (the usual case) is taken as is, not copied.
        Ok(bytes) => String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(e) => {
            eprintln!("cufront: cannot read {}: {e}", file.display());
            return Err(ExitCode::from(4));
        }
    };
    let db = RootDatabase::new();
    let standard = if cxx20 { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    let opts = new_options(&db, LangOptions { standard, device_view, ..LangOptions::default() });
    let tu = new_translation_unit(&db, file.display().to_string(), Arc::from(text), opts);
    Ok((db, tu))
}

fn symbols(file: &std::path::Path, cxx20: bool, all: bool, module_id: Option<&str>) -> ExitCode {
    use cufront_hir::symbols;
    let (db, tu) = match load(file, cxx20) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let offsets = symbols::entity_offsets(&db, tu);
    let map = cufront_base_db::source_map(&db, tu);
    // One line per name: defined if any declaration defines it, located at
    // the (first) definition, else at the first declaration.
    struct Line {
        kind: &'static str,
        defined: bool,
        at: u32,
    }
    let mut order: Vec<String> = Vec::new();
    let mut lines: std::collections::HashMap<String, Line> = std::collections::HashMap::new();
    let mut errors = Vec::new();
    for (e, name) in symbols::entities(&db, tu) {
        let Some(info) = symbols::entity_info(&db, e) else { continue };
        let at = offsets.get(&e).copied().unwrap_or(0);
        let name = match name {
            Ok(n) => symbols::with_module_id(&n, module_id.unwrap_or("")),
            Err(why) => {
                errors.push((at, why));
                continue;
            }
        };
        let defined = info.linkage.is_definition;
        match lines.get_mut(&name) {
            Some(l) => {
                if defined && !l.defined {
                    l.defined = true;
                    l.at = at;
                }
            }
            None => {
                order.push(name.clone());
                lines.insert(name, Line { kind: if info.is_fn { "function" } else { "variable" }, defined, at });
            }
        }
    }
    let mut out = String::new();
    let loc = |at: u32| {
        let l = map.location(at);
        format!("{}:{}", map.file_name(l.file), l.line)
    };
    for name in &order {
        let l = &lines[name];
        out.push_str(&format!("{name} {} {} {}\n", l.kind, if l.defined { "defined" } else { "declared" }, loc(l.at)));
    }
    if all {
        for (at, why) in errors {
            out.push_str(&format!("# no name: {why} {}\n", loc(at)));
        }
    }
    print!("{out}");
    leak(db);
    ExitCode::SUCCESS
}

fn layout(file: &std::path::Path, ty: Option<&str>, cxx20: bool, all: bool) -> ExitCode {
    let (db, tu) = match load(file, cxx20) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let mut out = String::new();
    match ty {
        Some(name) => match cufront_hir::find_class(&db, tu, name) {
            Some(c) => out.push_str(&cufront_hir::layout::render(&db, c)),
            None => match cufront_hir::type_named(&db, tu, name) {
                Some(t) => out.push_str(&cufront_hir::layout::render_ty(&db, t)),
                None => {
                    eprintln!("cufront: no class `{name}` in {}", file.display());
                    return ExitCode::from(1);
                }
            },
        },
        None => {
            let map = cufront_hir::def_map(&db, tu);
            for &c in &map.classes {
                if all || cufront_hir::layout::layout(&db, c).is_ok() {
                    out.push_str(&cufront_hir::layout::render(&db, c));
                }
            }
            // The specializations those classes need (members, bases, transitively).
            let specs = cufront_hir::templates::needed_specializations(&db, tu);
            if !specs.is_empty() {
                out.push_str("# specializations\n");
            }
            for t in specs {
                if all || cufront_hir::layout::ty_layout(&db, t).is_ok() {
                    out.push_str(&cufront_hir::layout::render_ty(&db, t));
                }
            }
        }
    }
    print!("{out}");
    leak(db);
    ExitCode::SUCCESS
}
