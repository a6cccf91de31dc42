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
            assert!(root.text() == prefix, "cut at byte {at} (lazy: {lazy_bodies}): the tree does not re-print the prefix");
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
