//! Prints what type-ids written as text denote in a unit (canonical form,
//! or the error value's reason): a probe for member typedefs, alias
//! templates and specialization selection on real headers.
//!
//!     cargo run --release -p cufront-hir --example type_probe -- FILE.ii 'std::vector<int>::iterator' …

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: type_probe FILE.ii TYPE…");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("read");
    let db = cufront_base_db::RootDatabase::new();
    let std = if path.contains("c++20") {
        cufront_base_db::LangStandard::Cxx20
    } else {
        cufront_base_db::LangStandard::Cxx17
    };
    let opts = cufront_base_db::new_options(&db, cufront_base_db::LangOptions { standard: std, ..Default::default() });
    let tu = cufront_base_db::new_translation_unit(&db, path.clone(), std::sync::Arc::from(text.as_str()), opts);
    for t in args {
        match cufront_hir::type_named_or_error(&db, tu, &t) {
            Some(ty) => {
                let c = cufront_hir::ty::canonical(&db, ty);
                let m =
                    cufront_hir::symbols::mangle_ty(&db, &cufront_hir::def_map(&db, tu), c).map(|_| "ok".to_string());
                println!("{t}\n  = {}\n  mangles: {:?}", cufront_hir::ty::display(&db, c), m);
            }
            None => println!("{t}\n  (not read as a type)"),
        }
    }
}
