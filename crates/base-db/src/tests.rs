//! Incrementality: which queries re-execute after which input change.

use std::sync::{Arc, Mutex};

use super::*;

/// Query names executed since the last call (ids stripped), in order.
fn take(log: &EventSink) -> Vec<String> {
    let mut log = log.lock().unwrap();
    std::mem::take(&mut *log).into_iter().map(|k| k.split('(').next().unwrap_or("").to_string()).collect()
}

fn setup() -> (RootDatabase, EventSink, TranslationUnit, TranslationUnit, Options) {
    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let db = RootDatabase::with_execution_log(log.clone());
    let opts = new_options(&db, LangOptions { standard: LangStandard::Cxx17, ..LangOptions::default() });
    let a = new_translation_unit(&db, "a.ii".into(), "int concept = 1;\n".into(), opts);
    let other_opts = new_options(&db, LangOptions::default());
    let b = new_translation_unit(&db, "b.ii".into(), "int b;\n".into(), other_opts);
    (db, log, a, b, opts)
}

#[test]
fn first_parse_executes_parse_and_parse_options() {
    let (db, log, a, _, _) = setup();
    assert!(parse(&db, a).errors().is_empty());
    assert_eq!(take(&log), ["parse", "parse_options"]);
    parse(&db, a);
    assert_eq!(take(&log), Vec::<String>::new(), "a second read is memoized");
}

#[test]
fn changing_parse_relevant_options_reparses() {
    let (mut db, log, a, _, opts) = setup();
    assert!(parse(&db, a).errors().is_empty());
    take(&log);
    // `concept` becomes a keyword in C++20: the same text now has errors.
    opts.set_lang(&mut db)
        .with_durability(Durability::HIGH)
        .to(LangOptions { standard: LangStandard::Cxx20, ..LangOptions::default() });
    assert!(!parse(&db, a).errors().is_empty());
    assert_eq!(take(&log), ["parse_options", "parse"]);
}

#[test]
fn options_change_that_keeps_parse_options_cuts_off() {
    let (mut db, log, a, _, opts) = setup();
    parse(&db, a);
    take(&log);
    opts.set_lang(&mut db).with_durability(Durability::HIGH).to(LangOptions {
        standard: LangStandard::Cxx17,
        host: HostCompiler::Gnu(120200),
        ..LangOptions::default()
    });
    parse(&db, a);
    assert_eq!(take(&log), ["parse_options"], "parse is not re-run: its options did not change");
}

#[test]
fn unrelated_input_change_does_not_reparse() {
    let (mut db, log, a, b, _) = setup();
    parse(&db, a);
    parse(&db, b);
    take(&log);
    b.set_text(&mut db).to("int b2;\n".into());
    parse(&db, a);
    assert_eq!(take(&log), Vec::<String>::new());
    parse(&db, b);
    assert_eq!(take(&log), ["parse"]);
    // Renaming a unit does not change its tree either.
    a.set_name(&mut db).to("renamed.ii".into());
    parse(&db, a);
    assert_eq!(take(&log), Vec::<String>::new());
    assert_eq!(source_map(&db, a).file_name(cufront_syntax::source_map::FileId(0)), "renamed.ii");
    assert_eq!(take(&log), ["source_map"]);
}

#[test]
fn editing_text_reparses_only_that_unit() {
    let (mut db, log, a, b, _) = setup();
    parse(&db, a);
    parse(&db, b);
    take(&log);
    a.set_text(&mut db).to("int x = ;\n".into());
    let errors: Vec<_> = parse(&db, a).errors().iter().map(|e| e.msg.clone()).collect();
    assert_eq!(errors, ["expected an expression"]);
    parse(&db, b);
    assert_eq!(take(&log), ["parse"]);
}

#[test]
fn an_edit_inside_a_lazy_body_reparses_from_the_previous_parse() {
    let mut db = RootDatabase::new();
    let lang = LangOptions { standard: LangStandard::Cxx17, lazy_bodies: true, ..LangOptions::default() };
    let opts = new_options(&db, lang);
    let text = "int f(int a) {\n  return a;\n}\nint g() { return 1; }\n";
    let tu = new_translation_unit(&db, "a.ii".into(), text.into(), opts);
    let _ = parse(&db, tu);
    // Inside `f`'s body (reparsed), then across it (parsed in full): both
    // give the full parse's result.
    for (new, reparsed) in
        [("int f(int a) {\n  a += 1\n  return a;\n}\nint g() { return 1; }\n", true), ("int f(int a) }\n", false)]
    {
        edit_text(&mut db, tu, new.into());
        let prev = tu.previous(&db).clone().expect("kept");
        assert_eq!(prev.parse.reparse(&prev.text, new).is_some(), reparsed, "{new:?}");
        let full = cufront_syntax::parse(new, parse_options(&db, opts));
        assert_eq!(parse(&db, tu), &full, "{new:?}");
    }
}

/// Addresses of the root's child nodes (which allocation holds each item).
fn item_addrs(p: &cufront_syntax::Parse) -> Vec<usize> {
    p.green().children().filter_map(|c| c.into_node()).map(|n| n as *const _ as usize).collect()
}

const HEADER: &str = "# 1 \"h.h\"\nnamespace n { struct S { int a; }; inline int f() { return 1; } }\ntemplate <class T> T g(T t) { return t; }\n";

#[test]
fn pooled_units_share_the_trees_of_equal_items() {
    let db = RootDatabase::with_green_pool();
    let opts = new_options(&db, LangOptions::default());
    let a_text = format!("{HEADER}# 1 \"a.cu\"\nint a() {{ return 1; }}\n");
    let b_text = format!("{HEADER}# 1 \"b.cu\"\nint b() {{ return 2; }}\n");
    let a = new_translation_unit(&db, "a.ii".into(), a_text.as_str().into(), opts);
    let b = new_translation_unit(&db, "b.ii".into(), b_text.as_str().into(), opts);
    let (pa, pb) = (parse(&db, a), parse(&db, b));
    // The trees are those of a parse without the pool.
    let plain = |t: &str| cufront_syntax::parse(t, parse_options(&db, opts));
    assert_eq!(*pa, plain(&a_text));
    assert_eq!(*pb, plain(&b_text));
    assert_eq!(pa.syntax_node().to_string(), a_text);
    // The header's two items are one allocation each; the units' own items are not shared.
    let (xa, xb) = (item_addrs(pa), item_addrs(pb));
    assert_eq!(xa.len(), 3);
    assert_eq!(xa[..2], xb[..2]);
    assert_ne!(xa[2], xb[2]);
    assert_eq!(db.green_pool().unwrap().stats(), PoolStats { entries: 4, owners: 2, derived: 0 });
}

#[test]
fn released_units_leave_the_pool() {
    let db = RootDatabase::with_green_pool();
    let opts = new_options(&db, LangOptions::default());
    let a = new_translation_unit(&db, "a.ii".into(), format!("{HEADER}int a;\n").into(), opts);
    let b = new_translation_unit(&db, "b.ii".into(), format!("{HEADER}int b;\n").into(), opts);
    parse(&db, a);
    parse(&db, b);
    let pool = db.green_pool().unwrap();
    assert_eq!(pool.stats().entries, 4);
    release_trees(&db, a);
    // `b` still uses the header's items.
    assert_eq!(pool.stats(), PoolStats { entries: 3, owners: 1, derived: 0 });
    release_trees(&db, b);
    assert_eq!(pool.stats(), PoolStats { entries: 0, owners: 0, derived: 0 });
}

#[test]
fn a_new_full_parse_replaces_its_units_items_in_the_pool() {
    let mut db = RootDatabase::with_green_pool();
    let opts = new_options(&db, LangOptions::default());
    let a = new_translation_unit(&db, "a.ii".into(), format!("{HEADER}int a;\n").into(), opts);
    parse(&db, a);
    // Not an edit in a body: parsed in full, and `int a;` leaves the pool.
    a.set_text(&mut db).to(format!("{HEADER}int c;\nint d;\n").into());
    parse(&db, a);
    assert_eq!(db.green_pool().unwrap().stats(), PoolStats { entries: 4, owners: 1, derived: 0 });
}

#[test]
fn derived_values_are_kept_for_pooled_trees_only() {
    let db = RootDatabase::with_green_pool();
    let opts = new_options(&db, LangOptions::default());
    let a = new_translation_unit(&db, "a.ii".into(), format!("{HEADER}int a;\n").into(), opts);
    let b = new_translation_unit(&db, "b.ii".into(), format!("{HEADER}int b;\n").into(), opts);
    let pool = db.green_pool().unwrap();
    let first_item = |tu| parse(&db, tu).green().children().find_map(|c| c.into_node()).unwrap().to_owned();
    let computed = std::cell::Cell::new(0);
    let compute = || -> Derived {
        computed.set(computed.get() + 1);
        Arc::new(computed.get())
    };
    let va = pool.derived(&first_item(a), 7, compute);
    let vb = pool.derived(&first_item(b), 7, compute);
    assert!(Arc::ptr_eq(&va, &vb), "computed once for both units");
    assert_eq!(computed.get(), 1);
    // Another key is another value.
    pool.derived(&first_item(b), 8, compute);
    assert_eq!(computed.get(), 2);
    // A tree the pool does not hold: computed, not kept.
    let loose = cufront_syntax::parse("int z;\n", parse_options(&db, opts)).green().clone();
    let loose_item = loose.children().find_map(|c| c.into_node()).unwrap().to_owned();
    pool.derived(&loose_item, 7, compute);
    pool.derived(&loose_item, 7, compute);
    assert_eq!(computed.get(), 4);
    assert_eq!(pool.stats().derived, 2);
}

#[test]
fn databases_without_a_pool_parse_as_before() {
    let (db, _, a, _, _) = setup();
    assert!(db.green_pool().is_none());
    assert_eq!(parse(&db, a).syntax_node().to_string(), "int concept = 1;\n");
}

#[test]
fn databases_that_share_a_pool_keep_their_units_apart() {
    let pool = Arc::new(GreenPool::new());
    let (db1, db2) = (RootDatabase::sharing(pool.clone()), RootDatabase::sharing(pool.clone()));
    let unit = |db: &RootDatabase, own: &str| {
        let opts = new_options(db, LangOptions::default());
        new_translation_unit(db, "u.ii".into(), format!("{HEADER}{own}").into(), opts)
    };
    // The first unit of each database: the same salsa id in both.
    let (a, b) = (unit(&db1, "int a;\n"), unit(&db2, "int b;\n"));
    assert_eq!(item_addrs(parse(&db1, a))[..2], item_addrs(parse(&db2, b))[..2]);
    assert_eq!(pool.stats(), PoolStats { entries: 4, owners: 2, derived: 0 });
    release_trees(&db1, a);
    assert_eq!(pool.stats(), PoolStats { entries: 3, owners: 1, derived: 0 });
}
