//! Every corpus program, as each standard it declares, preprocessed by the
//! real toolkit exactly as nvcc does, must parse with zero syntax errors and
//! re-print byte for byte.

use cufront_syntax::{LexOptions, ParseOptions, source_map::SourceMap};
use cufront_tests::{Program, Std, corpus, host_ii, par_map};

/// Errors shown per failing case.
const SHOWN: usize = 10;

struct Outcome {
    case: String,
    errors: Vec<String>,
    error_count: usize,
    round_trip: Result<(), String>,
}

fn check(program: &Program, std: Std) -> Outcome {
    let ii = host_ii(program, std);
    let bytes = std::fs::read(&ii).unwrap_or_else(|e| panic!("cannot read {}: {e}", ii.display()));
    let text = String::from_utf8(bytes).unwrap_or_else(|e| panic!("{} is not UTF-8: {e}", ii.display()));
    let opts = ParseOptions { lex: LexOptions { cxx20: std.is_cxx20(), digit_separators: true }, ..Default::default() };
    let parse = cufront_syntax::parse(&text, opts);

    let map = SourceMap::new(&text, &ii.display().to_string());
    let errors = parse
        .errors()
        .iter()
        .take(SHOWN)
        .map(|e| {
            let loc = map.location(e.range.start().into());
            format!("{}:{}:{}: {}", map.file_name(loc.file), loc.line, loc.col, e.msg)
        })
        .collect();
    let printed = parse.syntax_node().to_string();
    let round_trip = if printed == text {
        Ok(())
    } else {
        let at = printed.bytes().zip(text.bytes()).take_while(|(a, b)| a == b).count();
        let loc = map.location(at as u32);
        Err(format!(
            "re-printed tree differs from the input at byte {at} ({}:{}:{}); {} vs {} bytes",
            map.file_name(loc.file),
            loc.line,
            loc.col,
            printed.len(),
            text.len()
        ))
    };
    // Declarations only, then every body parsed in place: the same tree
    // (what the cudafe++ mode relies on when it parses only some bodies).
    let lazy = cufront_syntax::parse(&text, ParseOptions { lazy_bodies: true, ..opts });
    let ranges: Vec<_> = lazy.lazy_body_ranges().collect();
    let round_trip = round_trip.and_then(|()| {
        let spliced = lazy.with_bodies_parsed(&ranges);
        if spliced.green() == parse.green() && spliced.errors().len() == parse.errors().len() {
            Ok(())
        } else {
            Err("the lazy parse with every body parsed in place differs from the full parse".to_string())
        }
    });
    Outcome {
        case: format!("{} ({})", program.name, std.as_str()),
        errors,
        error_count: parse.errors().len(),
        round_trip,
    }
}

#[test]
fn corpus_parses_without_errors_and_round_trips() {
    let cases: Vec<(Program, Std)> =
        corpus().into_iter().flat_map(|p| p.stds.clone().into_iter().map(move |s| (p.clone(), s))).collect();
    assert!(!cases.is_empty(), "the corpus is empty");
    let outcomes = par_map(&cases, |(p, std)| check(p, *std));

    let mut report = String::new();
    let mut failed = 0;
    for ((program, std), outcome) in cases.iter().zip(outcomes) {
        match outcome {
            Err(panic) => {
                failed += 1;
                report.push_str(&format!("\n{} ({}): {panic}\n", program.name, std.as_str()));
            }
            Ok(o) if o.error_count > 0 || o.round_trip.is_err() => {
                failed += 1;
                report.push_str(&format!("\n{}: {} syntax errors\n", o.case, o.error_count));
                for e in &o.errors {
                    report.push_str(&format!("    {e}\n"));
                }
                if let Err(e) = &o.round_trip {
                    report.push_str(&format!("    {e}\n"));
                }
            }
            Ok(_) => {}
        }
    }
    assert!(failed == 0, "{failed} of {} corpus cases failed:\n{report}", cases.len());
}
