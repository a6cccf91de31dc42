//! Truncation robustness on a real translation unit: every prefix of a
//! corpus program's host `.ii`, cut at ~200 evenly spaced points (wherever
//! they fall: inside a comment, a string, a class, a body, a line marker),
//! parses without panicking and re-prints byte for byte.

use cufront_syntax::{LexOptions, ParseOptions, SyntaxKind};
use cufront_tests::{Std, corpus, host_ii, par_map};

const CUTS: usize = 200;
/// Every this many cuts, the prefix is also parsed with all bodies (the
/// declaration pass alone is checked at every cut: it is where truncation
/// leaves classes, namespaces and bodies open).
const FULL_EVERY: usize = 10;

#[test]
fn every_prefix_parses_and_round_trips() {
    // The smallest C++17 program that uses the CUDA runtime: a real TU,
    // cheap enough to parse 200 times.
    let program = corpus().into_iter().find(|p| p.name == "vector_add.cu").expect("vector_add.cu is in the corpus");
    let ii = host_ii(&program, Std::Cxx17);
    let text = std::fs::read_to_string(&ii).unwrap_or_else(|e| panic!("cannot read {}: {e}", ii.display()));
    assert!(text.len() > 100_000, "{} is unexpectedly small", ii.display());

    let cuts: Vec<(usize, usize)> = (1..=CUTS)
        .map(|i| {
            let mut at = text.len() * i / CUTS;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            (i, at)
        })
        .collect();
    let results = par_map(&cuts, |&(i, at)| {
        let prefix = &text[..at];
        let mut kinds = vec![true];
        if i % FULL_EVERY == 0 {
            kinds.push(false);
        }
        for lazy_bodies in kinds {
            let opts = ParseOptions { lex: LexOptions { cxx20: false, digit_separators: true }, lazy_bodies };
            let parse = cufront_syntax::parse(prefix, opts);
            let root = parse.syntax_node();
            assert!(
                root.text() == prefix,
                "cut at byte {at} (lazy: {lazy_bodies}): the tree does not re-print the prefix"
            );
            assert_eq!(root.kind(), SyntaxKind::SOURCE_FILE);
        }
    });
    let failures: Vec<String> = results
        .iter()
        .zip(&cuts)
        .filter_map(|(r, (_, at))| r.as_ref().err().map(|e| format!("cut at byte {at}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{} of {CUTS} cuts failed:\n{}", failures.len(), failures.join("\n"));
}

/// The semantic model on deep and wide inputs (issue 22): every query
/// `cufront inspect` asks finishes on a test thread's stack (2 MiB), in
/// bounded time: a declarator of 100,000 operators (was a stack overflow
/// in the item tree's derived `Clone`), 10,000 classes deriving each from
/// the one before, and a lattice of repeated non-virtual diamonds with a
/// virtual base at the bottom (the virtual-base walk was exponential in
/// its depth).
#[test]
fn semantic_model_survives_deep_inputs() {
    use std::sync::Arc;

    use cufront_base_db::{LangOptions, RootDatabase, new_options, new_translation_unit};

    fn everything(text: String) -> usize {
        let db = RootDatabase::new();
        let opts = new_options(&db, LangOptions::default());
        let tu = new_translation_unit(&db, "deep.ii".into(), Arc::from(text), opts);
        let mut answers = 0;
        for (e, _) in cufront_hir::symbols::entities(&db, tu) {
            answers += usize::from(cufront_hir::symbols::entity_info(&db, e).is_some());
        }
        let map = cufront_hir::def_map(&db, tu);
        for &c in &map.classes {
            answers += cufront_hir::layout::render(&db, c).len().min(1);
        }
        let asserts = cufront_hir::static_asserts::unit_asserts(&db, tu).to_vec();
        for a in &asserts {
            let _ = cufront_hir::static_asserts::evaluate(&db, tu, a);
        }
        std::mem::forget(db);
        answers
    }

    // A member of its own type with a braced default initializer: the
    // initializer's aggregate initialization looked into the initializer
    // again, without end (found by the `semantic` fuzz target; the
    // reproducer is in crates/syntax/fuzz/regressions/).
    everything("struct P { int x; P q = {}; };\nP p = {1};\nvoid f() { P r = {1}; }\n".to_string());

    const N: usize = 100_000;
    let pointers = format!("int {} p;\nint {} q;\n", "*".repeat(N), "&".repeat(N));
    assert!(everything(pointers) >= 1);
    let arrays = format!("int a{};\nstatic_assert({}1, \"\");\n", "[1]".repeat(N), "!!".repeat(N / 2));
    everything(arrays);

    let chain: String = std::iter::once("struct A0 { int x; };\n".to_string())
        .chain((1..10_000).map(|i| format!("struct A{i} : A{} {{ int x; }};\n", i - 1)))
        .collect();
    let start = std::time::Instant::now();
    assert!(everything(chain) >= 10_000);
    assert!(start.elapsed() < std::time::Duration::from_secs(120), "base chain: {:?}", start.elapsed());

    // D{i} derives from L{i} and R{i}, both from D{i-1}: 2^30 paths to the
    // virtual base V, 92 classes.
    let mut lattice = String::from("struct V { virtual void f(); int v; };\nstruct D0 : virtual V { int d; };\n");
    for i in 1..=30 {
        lattice.push_str(&format!(
            "struct L{i} : D{p} {{ int l; }};\nstruct R{i} : D{p} {{ int r; }};\nstruct D{i} : L{i}, R{i} {{ int d; }};\n",
            p = i - 1
        ));
    }
    let start = std::time::Instant::now();
    everything(lattice);
    assert!(start.elapsed() < std::time::Duration::from_secs(60), "diamond lattice: {:?}", start.elapsed());
}
