//! Which queries the device view runs again after an edit, snapshotted
//! exactly with their counts (as `crates/emit/tests/incremental.rs`): a
//! test fails when a query starts to re-run, runs twice or stops being
//! cached. The device view's entity set is the needed-closure of the whole
//! unit, host code included (spec 40 §4.1), so an edit inside any body
//! re-infers that body and asks again what it requires
//! (`registry::body_refs`); while that is unchanged, the unit-wide queries
//! of the device view (`kernels`, `device_vars`, `device_closure`) do not
//! re-run. Declarations are ordered by their place in their item
//! (`registry::positions`), which an edit inside a body does not move.
//! Still re-run on every edit, in `hir`: `required_entities` after a host
//! body edit (it reads every body's inference; its result is equal).

use std::sync::{Arc, Mutex};

use cufront_base_db::{
    EventSink, LangOptions, RootDatabase, Setter, TranslationUnit, new_options, new_translation_unit,
};
use cufront_device::{keep, stub};
use expect_test::{Expect, expect};

fn unit(host_body: &str, kernel_body: &str) -> String {
    format!(
        "# 1 \"x.cu\"\n\
         __attribute__((device)) int twice(int x) {{ return 2 * x; }}\n\
         __attribute__((device)) int dv;\n\
         int host_fn(int x) {{ {host_body} }}\n\
         __attribute__((global)) void kernel(int *p) {{ {kernel_body} }}\n"
    )
}

/// The device view's work: the kept set and the stub.
fn device_view(db: &RootDatabase, tu: TranslationUnit) -> String {
    let kept = keep::kept(db, tu, &keep::KeepOptions { module_id: "_0_4_x_cu_k".into(), ..Default::default() });
    let opts = stub::StubOptions { stub_path: "x.stub.c".into(), ..Default::default() };
    stub::stub_file(db, tu, &opts).unwrap();
    kept.iter().map(|k| format!("{} {}\n", k.kind, k.name)).collect()
}

fn executed(log: &EventSink) -> String {
    let names: Vec<String> = std::mem::take(&mut *log.lock().unwrap())
        .into_iter()
        .map(|k| k.split('(').next().unwrap_or("").to_string())
        .collect();
    let mut counts: Vec<(String, usize)> = Vec::new();
    for n in names {
        match counts.iter_mut().find(|(m, _)| *m == n) {
            Some((_, c)) => *c += 1,
            None => counts.push((n, 1)),
        }
    }
    counts.into_iter().map(|(n, c)| format!("{n} × {c}\n")).collect()
}

/// A database that logs executed queries, holding `text` as a unit.
fn logged(text: &str) -> (RootDatabase, EventSink, TranslationUnit) {
    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let db = RootDatabase::with_execution_log(log.clone());
    let lang = new_options(&db, LangOptions { lazy_bodies: true, device_view: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "x.ii".into(), Arc::from(text), lang);
    (db, log, tu)
}

fn check_edit(before: String, after: String, kept: Expect, warm: Expect) {
    let (mut db, log, tu) = logged(&before);
    let first = device_view(&db, tu);
    kept.assert_eq(&first);
    executed(&log);
    tu.set_text(&mut db).to(Arc::from(after.as_str()));
    assert_eq!(device_view(&db, tu), first, "the edit changes nothing kept");
    warm.assert_eq(&executed(&log));
}

#[test]
fn edit_inside_a_host_function_body() {
    check_edit(
        unit("return x;", "p[0] = twice(1);"),
        unit("int y = x * 2; return y;", "p[0] = twice(1);"),
        expect![[r#"
            kernel _Z6kernelPi
            variable dv
            function _Z5twicei
        "#]],
        expect![[r#"
            parse × 1
            top_level_items × 1
            item_ids × 1
            item_source × 4
            item_lowered × 1
            item_local_classes × 1
            fn_body × 3
            infer × 1
            required_entities × 1
            item_ranges × 1
            positions × 1
            body_refs × 1
            folded_calls × 1
            source_map × 1
        "#]],
    );
}

#[test]
fn edit_inside_a_kernel_body() {
    check_edit(
        unit("return x;", "p[0] = twice(1);"),
        unit("return x;", "p[0] = twice(1); p[1] = 2;"),
        expect![[r#"
            kernel _Z6kernelPi
            variable dv
            function _Z5twicei
        "#]],
        expect![[r#"
            parse × 1
            top_level_items × 1
            item_ids × 1
            item_source × 4
            item_lowered × 1
            item_local_classes × 1
            fn_body × 3
            item_ranges × 1
            positions × 1
            infer × 1
            body_refs × 1
            folded_calls × 1
            kept_with × 1
            source_map × 1
        "#]],
    );
}

/// The cut-offs above hold only while what a body requires is unchanged:
/// an edit that makes a kernel call another device function re-runs the
/// closure, and the kept set trades one function for the other (`static`
/// functions are no roots: only what is called is kept).
#[test]
fn edit_that_changes_what_a_kernel_calls() {
    let text = |call: &str| {
        format!(
            "# 1 \"x.cu\"\n\
             static __attribute__((device)) int once(int x) {{ return x; }}\n\
             static __attribute__((device)) int twice(int x) {{ return 2 * x; }}\n\
             __attribute__((global)) void kernel(int *p) {{ p[0] = {call}(1); }}\n"
        )
    };
    let (mut db, log, tu) = logged(&text("twice"));
    expect![[r#"
        kernel _Z6kernelPi
        function _ZN20_INTERNAL_0_4_x_cu_k5twiceEi
    "#]]
    .assert_eq(&device_view(&db, tu));
    executed(&log);
    tu.set_text(&mut db).to(Arc::from(text("once").as_str()));
    expect![[r#"
        kernel _Z6kernelPi
        function _ZN20_INTERNAL_0_4_x_cu_k4onceEi
    "#]]
    .assert_eq(&device_view(&db, tu));
    expect![[r#"
        parse × 1
        top_level_items × 1
        item_ids × 1
        item_source × 3
        item_lowered × 1
        item_local_classes × 1
        fn_body × 3
        item_ranges × 1
        positions × 1
        infer × 1
        body_refs × 1
        folded_calls × 1
        kernels × 1
        device_closure × 1
        kept_with × 1
        merged_attrs × 1
        redecl_shape × 1
        source_map × 1
    "#]]
    .assert_eq(&executed(&log));
}

/// The device IL is assembled from one query per kept function: after an
/// edit inside the kernel's body only the kernel is lowered again. The
/// kept set is recomputed (it reads the kernel's locals, for block-scope
/// `__shared__` variables) from memoized queries and is equal, so the
/// names and the device function's IL are reused.
#[test]
fn device_il_after_a_kernel_body_edit() {
    let (mut db, log, tu) = logged(&unit("return x;", "p[0] = twice(1);"));
    let opts = keep::KeepOptions { module_id: "_0_4_x_cu_k".into(), ..Default::default() };
    let first = cufront_device::il_lower::device_il(&db, tu, &opts);
    executed(&log);
    tu.set_text(&mut db).to(Arc::from(unit("return x;", "p[0] = twice(1); p[1] = 2;").as_str()));
    let second = cufront_device::il_lower::device_il(&db, tu, &opts);
    assert_eq!(first.funcs.iter().find(|f| f.name == "_Z5twicei"), second.funcs.iter().find(|f| f.name == "_Z5twicei"));
    assert_ne!(first, second);
    expect![[r#"
        parse × 1
        top_level_items × 1
        item_ids × 1
        item_source × 4
        item_lowered × 1
        item_local_classes × 1
        fn_body × 3
        item_ranges × 1
        positions × 1
        infer × 1
        body_refs × 1
        folded_calls × 1
        kept_with × 1
        func_il × 1
    "#]]
    .assert_eq(&executed(&log));
}
