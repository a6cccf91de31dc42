//! Tests: layout vectors of spec 50 §7, item tree / lookup / type lowering,
//! incrementality.

mod aggregate_init;
mod bindings;
mod body;
mod cccl;
mod closures;
mod concepts;
mod consteval;
mod constraint_vars;
mod ctad;
mod cub;
mod decltype_ret;
mod defaulted_assign;
mod dispatch;
mod exec_space;
mod folded;
mod incremental;
mod infer;
mod instances;
mod items;
mod layout_vectors;
mod local_classes;
mod nsdmi;
mod out_of_line;
mod packs;
mod return_copy;
mod stl;
mod stl_ctors;
mod stl_misc;
mod stub;
mod symbols;
mod templates;
mod thrust;
mod value_args;
mod var_init;
mod variant;

use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, TranslationUnit, new_options, new_translation_unit};

pub(crate) fn db_with(text: &str) -> (RootDatabase, TranslationUnit) {
    db_with_standard(text, LangStandard::Cxx20)
}

pub(crate) fn db_with_standard(text: &str, standard: LangStandard) -> (RootDatabase, TranslationUnit) {
    let db = RootDatabase::new();
    let opts = new_options(&db, LangOptions { standard, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "t.ii".into(), Arc::from(text), opts);
    (db, tu)
}

/// Every entity a unit lists (its own and the instantiation closure), by
/// linkage name, sorted, one per line.
pub(crate) fn entity_names(db: &RootDatabase, tu: TranslationUnit) -> String {
    let mut names: Vec<String> = crate::symbols::entities(db, tu)
        .into_iter()
        .map(|(_, n)| n.unwrap_or_else(|e| format!("error: {e}")))
        .collect();
    names.sort();
    names.dedup();
    names.join("\n") + "\n"
}

/// The instantiation closure of a unit: every entity named, in order.
pub(crate) fn closure(text: &str, want: expect_test::Expect) {
    let (db, tu) = db_with(text);
    let mut out = String::new();
    for e in crate::instances::required_entities(&db, tu).iter() {
        let name = crate::symbols::mangled_name(&db, *e).unwrap_or_else(|x| format!("<{x}>"));
        out.push_str(&name);
        out.push('\n');
    }
    want.assert_eq(&out);
}

/// The calls in the body of function `name`: each callee (mangled) and
/// the calls left unresolved.
pub(crate) fn calls(text: &str, name: &str, want: expect_test::Expect) {
    let (db, tu) = db_with(text);
    let f = body::fn_named(&db, tu, name).expect("function");
    let r = crate::infer::infer(&db, crate::infer::InferOwner::Fn(f));
    want.assert_eq(&crate::infer::render_calls(&db, &r));
}

/// The rendered layout of each named class, in order.
pub(crate) fn layouts(text: &str, names: &[&str]) -> String {
    let (db, tu) = db_with(text);
    let mut out = String::new();
    for n in names {
        match crate::find_class(&db, tu, n) {
            Some(c) => out.push_str(&crate::layout::render(&db, c)),
            None => out.push_str(&format!("{n}: not found\n")),
        }
    }
    out
}
