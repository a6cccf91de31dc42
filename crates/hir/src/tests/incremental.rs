//! Editing a function body re-runs `parse`, the cheap split into items and
//! the queries over that body (`fn_body`, `infer`, the instantiation
//! closure), but no item tree, scope graph, layout or `mangled_name` query.

use std::sync::{Arc, Mutex};

use cufront_base_db::{EventSink, LangOptions, RootDatabase, Setter, new_options, new_translation_unit};

fn take(log: &EventSink) -> Vec<String> {
    let mut log = log.lock().unwrap();
    std::mem::take(&mut *log).into_iter().map(|k| k.split('(').next().unwrap_or("").to_string()).collect()
}

const BEFORE: &str = "struct A { int x; char c; };\nint f() { return 1; }\nstruct B : A { char d; };\n";
const AFTER: &str = "struct A { int x; char c; };\nint f() { int y = 2; return y + 1; }\nstruct B : A { char d; };\n";

#[test]
fn editing_a_body_reruns_no_item_tree_or_layout() {
    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let mut db = RootDatabase::with_execution_log(log.clone());
    let opts = new_options(&db, LangOptions::default());
    let tu = new_translation_unit(&db, "t.ii".into(), Arc::from(BEFORE), opts);
    let b = crate::find_class(&db, tu, "B").expect("B");
    let size = crate::layout::layout(&db, b).expect("layout").size;
    assert_eq!(size, 12);
    let names1 = crate::symbols::entities(&db, tu);
    let first = take(&log);
    assert!(first.iter().any(|q| q == "layout_uses"), "{first:?}");
    assert!(first.iter().any(|q| q == "mangled_name"), "{first:?}");
    assert!(first.iter().any(|q| q == "item_tree_of"), "{first:?}");

    let ids1 = crate::item_ids(&db, tu);
    tu.set_text(&mut db).to(Arc::from(AFTER));
    let ids2 = crate::item_ids(&db, tu);
    assert_eq!(ids1, ids2, "body edits keep item ids");
    let b2 = crate::find_class(&db, tu, "B").expect("B");
    assert_eq!(b, b2, "the class keeps its id");
    assert_eq!(crate::layout::layout(&db, b2).expect("layout").size, 12);
    assert_eq!(crate::symbols::entities(&db, tu), names1, "the body edit changes no linkage name");
    let ran = take(&log);
    for q in &ran {
        assert!(
            matches!(q.as_str(), "parse" | "top_level_items" | "item_ids" | "item_source" | "item_tree_of")
                // The edited item's lowering and the offsets of its declarations.
                || matches!(q.as_str(), "item_lowered" | "item_offsets")
                // The split of the edited item's local classes (equal after the edit).
                || matches!(q.as_str(), "item_local_classes" | "unit_local_classes")
                // The edited body and the closure that reads it (`entities`
                // lists what bodies require): never a name or a layout.
                || matches!(q.as_str(), "item_fn_offsets" | "fn_body" | "fn_template_body" | "infer" | "required_entities"),
            "only parse, the item split and the edited body's queries may re-run after a body edit, ran: {ran:?}"
        );
    }
    assert!(ran.iter().any(|q| q == "parse"), "{ran:?}");
    // Only the edited function's own item tree re-runs (bodies are in the
    // tree unless parsed lazily), and it comes out equal.
    assert!(ran.iter().filter(|q| *q == "item_tree_of").count() <= 1, "{ran:?}");
    assert!(ran.iter().filter(|q| *q == "item_lowered").count() <= 1, "{ran:?}");
}

#[test]
fn editing_a_class_reruns_its_layout() {
    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let mut db = RootDatabase::with_execution_log(log.clone());
    let opts = new_options(&db, LangOptions::default());
    let tu = new_translation_unit(&db, "t.ii".into(), Arc::from(BEFORE), opts);
    let b = crate::find_class(&db, tu, "B").expect("B");
    assert_eq!(crate::layout::layout(&db, b).expect("layout").size, 12);
    take(&log);
    tu.set_text(&mut db).to(Arc::from(BEFORE.replace("char c;", "char c; char e[5];")));
    let b = crate::find_class(&db, tu, "B").expect("B");
    assert_eq!(crate::layout::layout(&db, b).expect("layout").size, 16);
    let ran = take(&log);
    assert!(ran.iter().any(|q| q == "layout_uses"), "{ran:?}");
}

const TBEFORE: &str =
    "template<class T> struct P { T a; char c; };\nint f() { return 1; }\nstruct B { P<int> p; P<double> q; };\n";
const TAFTER: &str = "template<class T> struct P { T a; char c; };\nint f() { int y = 2; return y + 1; }\nstruct B { P<int> p; P<double> q; };\n";

#[test]
fn editing_a_body_reruns_no_instantiation() {
    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let mut db = RootDatabase::with_execution_log(log.clone());
    let opts = new_options(&db, LangOptions::default());
    let tu = new_translation_unit(&db, "t.ii".into(), Arc::from(TBEFORE), opts);
    let b = crate::find_class(&db, tu, "B").expect("B");
    assert_eq!(crate::layout::layout(&db, b).expect("layout").size, 24);
    let first = take(&log);
    assert!(first.iter().any(|q| q == "select_uses") && first.iter().any(|q| q == "inst_layout_uses"), "{first:?}");
    tu.set_text(&mut db).to(Arc::from(TAFTER));
    let b = crate::find_class(&db, tu, "B").expect("B");
    assert_eq!(crate::layout::layout(&db, b).expect("layout").size, 24);
    let ran = take(&log);
    for q in &ran {
        assert!(
            matches!(
                q.as_str(),
                "parse"
                    | "top_level_items"
                    | "item_ids"
                    | "item_source"
                    | "item_lowered"
                    | "item_tree_of"
                    | "item_local_classes"
                    | "unit_local_classes"
            ),
            "no instantiation or layout may re-run after a body edit, ran: {ran:?}"
        );
    }
}
