//! Incrementality on a real translation unit (issue 5): after an edit
//! inside one function body of a corpus program's host `.ii`, the semantic
//! queries of every other entity — layout, mangled names, the scope graph
//! and lookup — must not re-run. The edit adds a statement to `main`'s body
//! (new lines too, so every later offset moves).
//!
//! What may re-run: `parse`, the split into top-level items and their
//! sources (each reads the whole tree); the item tree and function offsets
//! of the one edited item (they come out equal, which cuts off everything
//! downstream); the edited function's own body and inference, once each;
//! and the unit's instantiation closure (`required_entities`: it reads
//! every emitted body's `required`, and comes out equal).

use std::sync::{Arc, Mutex};

use cufront_base_db::{EventSink, LangOptions, LangStandard, RootDatabase, Setter, new_options, new_translation_unit};
use cufront_tests::{Std, corpus, host_ii};

/// Everything the host output and `inspect` ask of the semantic model:
/// layouts of the unit's classes and the specializations they need, the
/// linkage names of its functions and variables, and lookups by name.
fn warm(db: &RootDatabase, tu: cufront_base_db::TranslationUnit) -> String {
    let mut out = String::new();
    let map = cufront_hir::def_map(db, tu);
    for &c in &map.classes {
        if let Ok(l) = cufront_hir::layout::layout(db, c) {
            out.push_str(&format!("{} {}\n", l.size, l.align));
        }
    }
    for t in cufront_hir::templates::needed_specializations(db, tu) {
        if let Ok(l) = cufront_hir::layout::ty_layout(db, t) {
            out.push_str(&format!("{} {}\n", l.size, l.align));
        }
    }
    for (_, name) in cufront_hir::symbols::entities(db, tu) {
        out.push_str(&format!("{name:?}\n"));
    }
    for name in ["meta::scalar_of", "std::pair<int, double>", "float4"] {
        let found = cufront_hir::find_class(db, tu, name).map(|c| cufront_hir::layout::render(db, c));
        out.push_str(&format!("{name}: {found:?}\n"));
    }
    out
}

fn take(log: &EventSink) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

fn query_name(key: &str) -> &str {
    key.split('(').next().unwrap_or(key)
}

#[test]
fn a_body_edit_in_a_corpus_unit_reruns_no_other_entitys_queries() {
    let program =
        corpus().into_iter().find(|p| p.name == "templates_traits.cu").expect("templates_traits.cu in the corpus");
    let path = host_ii(&program, Std::Cxx17);
    let before = std::fs::read_to_string(&path).expect("read the host .ii");

    // Inside `main`'s body, after its opening brace.
    let main = before.rfind("\nint main()").expect("main in the unit");
    let brace = main + before[main..].find('{').expect("main's body");
    let mut after = before.clone();
    after.insert_str(brace + 1, "\n    int cufront_edit = 41;\n    cufront_edit += 1;\n");

    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let mut db = RootDatabase::with_execution_log(log.clone());
    let opts = new_options(&db, LangOptions { standard: LangStandard::Cxx17, ..LangOptions::default() });
    let tu = new_translation_unit(&db, path.display().to_string(), Arc::from(before.as_str()), opts);
    let first = warm(&db, tu);
    let ran = take(&log);
    for q in ["layout_uses", "mangled_name", "def_map", "item_tree_of"] {
        assert!(ran.iter().any(|k| query_name(k) == q), "the first run executes `{q}`");
    }
    assert!(first.lines().count() > 100, "the unit has classes and entities:\n{first}");

    tu.set_text(&mut db).to(Arc::from(after.as_str()));
    let second = warm(&db, tu);
    let ran = take(&log);
    assert_eq!(first, second, "a body edit changes no layout, name or lookup result");

    let mut per_query: std::collections::BTreeMap<&str, usize> = Default::default();
    for k in &ran {
        *per_query.entry(query_name(k)).or_default() += 1;
    }
    eprintln!("re-ran after the edit: {per_query:?}");
    // `unit_local_classes`: the unit's local classes (`item_local_classes`
    // of the edited item re-runs), equal after the edit.
    let whole_unit = ["parse", "top_level_items", "item_ids", "item_source", "required_entities", "unit_local_classes"];
    // `item_text`: the edited item's text, which the interpreter reads when
    // `infer` evaluates a block-scope constant of the edited body.
    // `item_lowered`: the one lowering of the edited item that its tree and
    // its declaration offsets (`item_offsets`) share.
    let edited_item_only = [
        "item_lowered",
        "item_tree_of",
        "item_offsets",
        "item_fn_offsets",
        "fn_body",
        "infer",
        "item_text",
        "item_local_classes",
    ];
    for (q, n) in &per_query {
        if whole_unit.contains(q) {
            continue;
        }
        assert!(
            edited_item_only.contains(q) && *n <= 1,
            "`{q}` re-ran {n} time(s) after an edit inside main's body; only the edited item's tree and body queries may: {ran:?}"
        );
    }
    assert!(per_query.contains_key("parse"), "the edit was seen: {ran:?}");
}
