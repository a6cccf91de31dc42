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
