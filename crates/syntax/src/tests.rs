//! Snapshot tests over `test_data/parser/{ok,err}/*.cpp` (rust-analyzer style).
//!
//! Each `NNN_name.cpp` is parsed (C++20 keywords when the name contains
//! `cxx20`) and `debug_tree` plus the errors are compared with the sibling
//! `NNN_name.rast`; `UPDATE_EXPECT=1 cargo test -p cufront-syntax` blesses.
//! `ok/` files must parse without errors, `err/` files with at least one, and
//! every file must round-trip byte for byte, with lazy bodies and without.
//! `PARSER_TEST_FILTER=3` restricts the run to files whose name contains
//! `3` (so that blessing touches only those).

use std::fs;
use std::path::{Path, PathBuf};

use crate::{LexOptions, ParseOptions, debug_tree, parse};

mod robustness;

pub(crate) fn opts_for(name: &str, lazy_bodies: bool) -> ParseOptions {
    ParseOptions { lex: LexOptions { cxx20: name.contains("cxx20"), ..LexOptions::default() }, lazy_bodies }
}

/// `debug_tree` followed by one `error START..END: MSG` line per error.
pub(crate) fn snapshot(text: &str, opts: ParseOptions) -> (String, usize) {
    let parse = parse(text, opts);
    let root = parse.syntax_node();
    assert_eq!(root.text().to_string(), text, "the tree is not lossless");
    let mut out = debug_tree(&root);
    for e in parse.errors() {
        out.push_str(&format!("error {:?}: {}\n", e.range, e.msg));
    }
    (out, parse.errors().len())
}

fn test_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/parser").join(dir);
    let mut files: Vec<PathBuf> = match fs::read_dir(&dir) {
        Ok(rd) => {
            rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "cpp")).collect()
        }
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

fn run_dir(dir: &str, expect_errors: bool) {
    let files = test_files(dir);
    assert!(!files.is_empty(), "no test files in test_data/parser/{dir}");
    let filter = std::env::var("PARSER_TEST_FILTER").unwrap_or_default();
    let files: Vec<PathBuf> =
        files.into_iter().filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().contains(&filter))).collect();
    let mut failures = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).unwrap();
        let (actual, n_errors) = snapshot(&text, opts_for(&name, false));
        // The lazy-bodies (declarations only) parse must be lossless too.
        let lazy = parse(&text, opts_for(&name, true));
        assert_eq!(lazy.syntax_node().text().to_string(), text, "{name}: the lazy tree is not lossless");
        // So must the tree built while the grammar runs, and be the same.
        for chunk in [1, 7] {
            let (streamed, fell_back) = crate::parse_streamed(&text, opts_for(&name, true), chunk);
            assert!(streamed == lazy, "{name}: the streamed lazy parse (chunks of {chunk}) differs");
            // Between two declarations of a namespace nothing is rewound (errors aside).
            assert!(expect_errors || !fell_back, "{name}: the streamed build gave up (chunks of {chunk})");
            let ranges = |p: &crate::Parse| {
                let mut r: Vec<_> = p.lazy_body_ranges().collect();
                r.sort_by_key(|r| r.start());
                r
            };
            assert_eq!(ranges(&streamed), ranges(&lazy), "{name}: lazy bodies, chunks of {chunk}");
        }
        if expect_errors && n_errors == 0 {
            failures.push(format!("{name}: expected at least one syntax error, got none"));
        }
        if !expect_errors && n_errors != 0 {
            let first = actual.lines().find(|l| l.starts_with("error ")).unwrap_or("");
            failures.push(format!("{name}: expected no syntax errors, got {n_errors} (first: {first})"));
        }
        // Compare each file even if an earlier one failed, so that UPDATE_EXPECT blesses all.
        let rast = path.with_extension("rast");
        let r = std::panic::catch_unwind(|| expect_test::expect_file![rast].assert_eq(&actual));
        if r.is_err() {
            failures.push(format!("{name}: snapshot mismatch (UPDATE_EXPECT=1 to bless)"));
        }
    }
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn parser_ok() {
    run_dir("ok", false);
}

#[test]
fn parser_err() {
    run_dir("err", true);
}
