//! Which queries the cudafe++ mode's semantic work runs again after an edit,
//! snapshotted exactly with their counts (rust-analyzer's `incremental.rs`
//! style): a test fails when a query starts to re-run, runs twice, or stops
//! being cached. The work is what the back end asks of the database: the
//! module id's key (`emit::key`, named by `hir`), the host file's member
//! aliases and every function's execution space and `constexpr`
//! (`emit::host`, asked of `hir::exec_space` through `hir::locate`; only
//! `item_ranges`, which reads offsets, runs again after an edit). The host
//! file is a query over per-item plans (`emit::host::queries`): an edit
//! inside a body plans that item again and merges.

use std::sync::{Arc, Mutex};

use cufront_base_db::{EventSink, LangOptions, RootDatabase, new_options, new_translation_unit};
use cufront_emit::Sema;
use cufront_emit::host::{HostOptions, host_file};
use expect_test::{Expect, expect};

/// A unit as nvcc's preprocessor writes it: a system header segment (flag
/// 3), then the user file with a class whose default constructor runs code
/// (the key), a host function, a kernel and a member alias.
fn unit(system_ws: &str, host_body: &str, kernel_body: &str) -> String {
    format!(
        "# 1 \"x.cu\"\n# 1 \"/usr/include/sys.h\" 1 3\n\
         namespace sys {{ template <class T> struct box {{ T v; }}; typedef unsigned long size_t;{system_ws} }}\n\
         # 2 \"x.cu\" 2\n\
         struct Registry {{ Registry(); int n; }};\n\
         Registry registry;\n\
         namespace app {{ struct Holder {{ using box = sys::box<int>; }}; }}\n\
         int host_fn(int x) {{ {host_body} }}\n\
         __attribute__((global)) void kernel(int *p) {{ {kernel_body} }}\n"
    )
}

fn opts() -> HostOptions {
    HostOptions {
        gnu_version: Some(120200),
        static_host_stub: true,
        extended_lambda: false,
        cxx17: true,
        device_hidden_visibility: true,
        device_c: false,
        debug_mode: false,
        stub_file_name: "x.cudafe1.stub.c".into(),
        module_id: "_0_4_x_cu_k".into(),
        all_bodies: false,
    }
}

/// The back end's semantic work: the key and the host file.
fn back_end(db: &RootDatabase, tu: cufront_base_db::TranslationUnit) -> String {
    let parse = cufront_base_db::parse(db, tu);
    let map = cufront_base_db::source_map(db, tu);
    let root = parse.syntax_node();
    let sema = Sema::new(db, tu);
    let key = cufront_emit::key::module_key(&root, map, false, sema);
    let host = host_file(db, tu, &opts());
    assert!(host.unsupported.is_empty(), "{:?}", host.unsupported);
    format!("{key:?}")
}

/// The executed queries since the last call, by name with their counts, in
/// order of first execution.
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

fn check_edit(before: String, after: String, cold: Expect, warm: Expect) {
    let log: EventSink = Arc::new(Mutex::new(Vec::new()));
    let mut db = RootDatabase::with_execution_log(log.clone());
    let lang = new_options(&db, LangOptions { lazy_bodies: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "x.ii".into(), Arc::from(before.as_str()), lang);
    let key = back_end(&db, tu);
    assert_eq!(key, "Some(Ok(\"registry\"))");
    cold.assert_eq(&executed(&log));
    // As the daemon sets a new text under the same options.
    cufront_base_db::edit_text(&mut db, tu, Arc::from(after.as_str()));
    assert_eq!(back_end(&db, tu), key, "the edit changes no key");
    warm.assert_eq(&executed(&log));
}

#[test]
fn edit_inside_a_host_function_body() {
    check_edit(
        unit("", "return x;", "p[0] = 1;"),
        unit("", "int y = x * 2; return y;", "p[0] = 1;"),
        expect![[r#"
            parse × 1
            parse_options × 1
            source_map × 1
            top_level_items × 1
            item_ranges × 1
            item_key × 2
            item_source × 6
            item_decls × 3
            item_offsets × 3
            item_lowered × 6
            item_tree_of × 6
            def_map × 1
            item_ids × 1
            item_local_classes × 6
            canonical_uses × 1
            host_file_of × 1
            item_needed_bodies × 6
            unit_needs × 1
            item_needs × 6
            item_plan × 6
            unit_refs × 1
            item_refs × 6
            marked_names × 1
            merged_attrs × 1
            redecl_shape × 1
            friend_decls × 1
        "#]],
        expect![[r#"
            parse × 1
            source_map × 1
            top_level_items × 1
            item_ranges × 1
            item_source × 6
            item_ids × 1
            item_lowered × 1
            item_local_classes × 1
            host_file_of × 1
            item_needed_bodies × 1
            unit_needs × 1
            item_needs × 1
            unit_refs × 1
            item_refs × 1
            item_plan × 1
        "#]],
    );
}

#[test]
fn edit_inside_a_kernel_body() {
    check_edit(
        unit("", "return x;", "p[0] = 1;"),
        unit("", "return x;", "p[0] = 1; p[1] = 2;"),
        expect![[r#"
            parse × 1
            parse_options × 1
            source_map × 1
            top_level_items × 1
            item_ranges × 1
            item_key × 2
            item_source × 6
            item_decls × 3
            item_offsets × 3
            item_lowered × 6
            item_tree_of × 6
            def_map × 1
            item_ids × 1
            item_local_classes × 6
            canonical_uses × 1
            host_file_of × 1
            item_needed_bodies × 6
            unit_needs × 1
            item_needs × 6
            item_plan × 6
            unit_refs × 1
            item_refs × 6
            marked_names × 1
            merged_attrs × 1
            redecl_shape × 1
            friend_decls × 1
        "#]],
        expect![[r#"
            parse × 1
            source_map × 1
            top_level_items × 1
            item_ranges × 1
            item_source × 6
            item_ids × 1
            item_lowered × 1
            item_local_classes × 1
            host_file_of × 1
            unit_needs × 1
            item_needs × 1
            item_needed_bodies × 1
            unit_refs × 1
            item_refs × 1
            item_plan × 1
        "#]],
    );
}

#[test]
fn whitespace_in_a_system_header_segment() {
    check_edit(
        unit("", "return x;", "p[0] = 1;"),
        unit("   ", "return x;", "p[0] = 1;"),
        expect![[r#"
            parse × 1
            parse_options × 1
            source_map × 1
            top_level_items × 1
            item_ranges × 1
            item_key × 2
            item_source × 6
            item_decls × 3
            item_offsets × 3
            item_lowered × 6
            item_tree_of × 6
            def_map × 1
            item_ids × 1
            item_local_classes × 6
            canonical_uses × 1
            host_file_of × 1
            item_needed_bodies × 6
            unit_needs × 1
            item_needs × 6
            item_plan × 6
            unit_refs × 1
            item_refs × 6
            marked_names × 1
            merged_attrs × 1
            redecl_shape × 1
            friend_decls × 1
        "#]],
        expect![[r#"
            parse × 1
            source_map × 1
            top_level_items × 1
            item_ranges × 1
            item_source × 6
            item_ids × 1
            item_lowered × 1
            item_local_classes × 1
            host_file_of × 1
            item_needed_bodies × 1
            unit_needs × 1
            item_needs × 1
            item_plan × 1
            unit_refs × 1
            item_refs × 1
        "#]],
    );
}
