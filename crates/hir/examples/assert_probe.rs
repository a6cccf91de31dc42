//! Evaluates constant expressions in a real unit, for people working on
//! the constant evaluator and constraints: each argument after the unit is
//! appended to it as `static_assert(EXPR);` (namespace scope, end of the
//! unit) and the outcome of every assert in the appended text printed
//! (with the class template instance it is evaluated in, if any).
//!
//!     cargo run --release -p cufront-hir --example assert_probe -- FILE.ii 'std::ranges::range<std::vector<int>&>'

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: assert_probe FILE.ii EXPR...");
        std::process::exit(2);
    };
    let exprs: Vec<String> = args.collect();
    let mut text = std::fs::read_to_string(&path).expect("read");
    let appended_at = text.len() as u32;
    for e in &exprs {
        text.push_str(&format!("\nstatic_assert({e});\n"));
    }
    let db = cufront_base_db::RootDatabase::new();
    let std = if path.contains("c++20") {
        cufront_base_db::LangStandard::Cxx20
    } else {
        cufront_base_db::LangStandard::Cxx17
    };
    let opts = cufront_base_db::new_options(&db, cufront_base_db::LangOptions { standard: std, ..Default::default() });
    let tu = cufront_base_db::new_translation_unit(&db, path.clone(), std::sync::Arc::from(text.as_str()), opts);
    let all = cufront_hir::static_asserts::unit_asserts(&db, tu);
    // Every assert written in the appended text, in the unit's order (an
    // argument may itself declare templates whose instances hold asserts).
    for a in all.iter().filter(|a| a.offset >= appended_at) {
        let o = match cufront_hir::static_asserts::evaluate(&db, tu, a) {
            cufront_hir::static_asserts::Outcome::True => "true".to_string(),
            cufront_hir::static_asserts::Outcome::False => "false".to_string(),
            cufront_hir::static_asserts::Outcome::Dependent => "dependent".to_string(),
            cufront_hir::static_asserts::Outcome::Discarded => "discarded".to_string(),
            cufront_hir::static_asserts::Outcome::NotEvaluated(e) => format!("not evaluated: {e}"),
        };
        let at = a.offset as usize;
        let end = text[at..].find(';').map_or(text.len(), |k| at + k);
        let ctx = match &a.context {
            cufront_hir::static_asserts::Context::Instance(i) => {
                format!(" (in {})", cufront_hir::templates::inst_name(&db, *i))
            }
            _ => String::new(),
        };
        println!("{}{ctx}: {o}", &text[at..end]);
    }
}
