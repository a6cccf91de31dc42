//! `cufront inspect static-asserts FILE.ii`: every `static_assert` of the
//! unit in a context cufront evaluates (namespace scope, non-template
//! classes and functions, the class and function template instances the
//! unit requires), one per line: `FILE:LINE CONTEXT OUTCOME`, where OUTCOME
//! is `true`, `false`, `discarded` (in a discarded `if constexpr`
//! substatement of a function template instance: not instantiated) or
//! `not-evaluated: REASON` (spec 50 §6). `--all` also
//! lists the templated ones no instance reaches (`dependent`).

use std::process::ExitCode;

use cufront_base_db::{RootDatabase, TranslationUnit};
use cufront_hir::static_asserts::{self, Context, Outcome};

pub fn run(db: &RootDatabase, tu: TranslationUnit, all: bool) -> ExitCode {
    let map = cufront_base_db::source_map(db, tu);
    let mut asserts = static_asserts::unit_asserts(db, tu).to_vec();
    asserts.extend(static_asserts::instance_asserts(db, tu).iter().cloned());
    let mut out = String::new();
    let mut falses = 0;
    for a in &asserts {
        let ctx = match &a.context {
            Context::Namespace(_) => "namespace".to_string(),
            Context::Class(_) => "class".to_string(),
            Context::Instance(i) => format!("instance {}", cufront_hir::templates::inst_name(db, *i)),
            Context::Function(..) => "function".to_string(),
            Context::FnInstance(fi) if std::env::var_os("CUFRONT_ASSERT_ENV").is_some() => {
                format!("function-instance {:?}", cufront_hir::instances::instance_env(db, *fi).map(|e| e.names))
            }
            Context::FnInstance(_) => "function-instance".to_string(),
            Context::Template => "template".to_string(),
            Context::Unknown => "unknown".to_string(),
        };
        let outcome = match static_asserts::evaluate(db, tu, a) {
            Outcome::True => "true".to_string(),
            Outcome::False => {
                falses += 1;
                "false".to_string()
            }
            Outcome::Dependent if !all => continue,
            Outcome::Dependent => "dependent".to_string(),
            Outcome::Discarded => "discarded".to_string(),
            Outcome::NotEvaluated(e) => format!("not-evaluated: {e}"),
        };
        let l = map.location(a.offset);
        out.push_str(&format!("{}:{} {ctx} {outcome}\n", map.file_name(l.file), l.line));
    }
    print!("{out}");
    if falses > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
