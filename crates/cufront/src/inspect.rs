//! `cufront inspect layout FILE.ii [TYPE]`: the layouts cufront computes
//! (spec 50 §7), for checking against compilers. Format: `docs/inspect.md`.

use std::process::ExitCode;
use std::sync::Arc;

use cufront_base_db::{new_options, new_translation_unit, LangOptions, LangStandard, RootDatabase};

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
}

pub fn run(args: InspectArgs) -> ExitCode {
    match args.what {
        What::Layout { file, r#type, cxx20, all } => layout(&file, r#type.as_deref(), cxx20, all),
    }
}

fn layout(file: &std::path::Path, ty: Option<&str>, cxx20: bool, all: bool) -> ExitCode {
    let text = match std::fs::read(file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("cufront: cannot read {}: {e}", file.display());
            return ExitCode::from(4);
        }
    };
    let db = RootDatabase::new();
    let standard = if cxx20 { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    let opts = new_options(&db, LangOptions { standard, ..LangOptions::default() });
    let tu = new_translation_unit(&db, file.display().to_string(), Arc::from(text), opts);
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
    ExitCode::SUCCESS
}
