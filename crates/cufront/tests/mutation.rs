//! The bounded mutation run (issue 22): mutants of three corpus units, made
//! from fixed seeds by a structure-aware mutator (it deletes, duplicates,
//! swaps and truncates lines, deletes, inserts and replaces tokens, corrupts
//! line markers, inserts NUL bytes and deep nesting, flips bytes), each run
//! through `cufront cudafe++` under a memory limit. A run must end with a
//! status (no panic, no signal), within 10 times the unmutated unit's time,
//! and a failed run must leave no output file.
//!
//! `CUFRONT_MUTANTS` sets the number of mutants per unit (default 300: 900
//! runs, about three minutes on two cores with the debug build); the long
//! campaign (`crates/syntax/fuzz/campaign.sh`) runs it with many more.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cufront_syntax::{LexOptions, SyntaxKind};
use cufront_tests::{Std, corpus, host_ii, limited, par_map};

const UNITS: &[&str] = &["vector_add.cu", "templates_traits.cu", "reduction.cu"];
const MEMORY_LIMIT_KIB: u64 = 4 << 20;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens inserted by the mutator: openers and closers, keywords that start
/// constructs, literals of every kind, CUDA words.
const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ">>",
    ";",
    ",",
    "::",
    "...",
    "template",
    "typename",
    "class",
    "struct",
    "enum",
    "namespace",
    "using",
    "typedef",
    "operator",
    "decltype",
    "sizeof",
    "static_assert",
    "constexpr",
    "__global__",
    "__device__",
    "__host__",
    "<<<",
    ">>>",
    "[](int x) { return x; }",
    "0x1p3",
    "'c'",
    "\"s\"",
    "R\"é(x)é\"",
    "R\"(raw)\"",
    "1'000",
    "#",
    "\n# 7 \"m.cu\"\n",
    "\n# 0x1 \"m.cu\"\n",
    "\n#pragma nv_diag_suppress 177\n",
    "@",
    "\\",
    "\u{0}",
    "\u{feff}",
    "\r",
    "\"unterminated\n",
    "'",
    "auto",
    "requires",
    "concept",
    "co_await",
];

/// Byte offsets where tokens start (the mutator edits at token boundaries).
fn token_starts(text: &str) -> Vec<usize> {
    let lexed = cufront_syntax::lexer::lex(text, LexOptions::default());
    (0..lexed.len())
        .filter(|&i| !lexed.kind(i).is_trivia() || lexed.kind(i) == SyntaxKind::LINE_MARKER)
        .map(|i| lexed.start(i) as usize)
        .collect()
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).filter(|&i| i < text.len()).collect()
}

fn line_at(text: &str, start: usize) -> std::ops::Range<usize> {
    start..text[start..].find('\n').map_or(text.len(), |i| start + i + 1)
}

/// Offsets near the end are favoured: the user's code is there, and its
/// bodies are the ones the cudafe++ mode parses.
fn pick(rng: &mut XorShift, positions: &[usize]) -> usize {
    let n = positions.len();
    let i = if rng.below(2) == 0 { n - 1 - rng.below(n / 20 + 1) } else { rng.below(n) };
    positions[i.min(n - 1)]
}

fn mutate(text: &str, tokens: &[usize], lines: &[usize], rng: &mut XorShift) -> (String, &'static str) {
    let mut s = text.to_string();
    let tok_end = |at: usize| tokens.iter().find(|&&t| t > at).copied().unwrap_or(text.len());
    let what = match rng.below(12) {
        0 => {
            let r = line_at(text, pick(rng, lines));
            s.replace_range(r, "");
            "delete line"
        }
        1 => {
            let r = line_at(text, pick(rng, lines));
            let line = text[r.clone()].to_string();
            s.insert_str(r.start, &line);
            "duplicate line"
        }
        2 => {
            let (a, b) = (line_at(text, pick(rng, lines)), line_at(text, pick(rng, lines)));
            let (a, b) = if a.start <= b.start { (a, b) } else { (b, a) };
            if a.end <= b.start {
                s = format!(
                    "{}{}{}{}{}",
                    &text[..a.start],
                    &text[b.clone()],
                    &text[a.end..b.start],
                    &text[a],
                    &text[b.end..]
                );
            }
            "swap lines"
        }
        3 => {
            let at = pick(rng, tokens);
            s.replace_range(at..tok_end(at), "");
            "delete token"
        }
        4 => {
            let at = pick(rng, tokens);
            s.insert_str(at, &format!("{} ", FRAGMENTS[rng.below(FRAGMENTS.len())]));
            "insert token"
        }
        5 => {
            let (at, from) = (pick(rng, tokens), tokens[rng.below(tokens.len())]);
            let other = text[from..tok_end(from)].to_string();
            s.replace_range(at..tok_end(at), &other);
            "replace token"
        }
        6 => {
            let mut at = pick(rng, tokens);
            at = at.min(s.len());
            s.truncate(at);
            "truncate"
        }
        7 => {
            // Corrupt a line marker: its number, its quote or its flags.
            let markers: Vec<usize> = lines.iter().copied().filter(|&l| text[l..].starts_with("# ")).collect();
            if let Some(&l) = markers.get(rng.below(markers.len())) {
                let r = line_at(text, l);
                let bad = [
                    "# +5 \"a.cu\"\n",
                    "# 18446744073709551616 \"a.cu\"\n",
                    "# 5 \"unterminated\n",
                    "# 1e5 x\n",
                    "# 21 <built-in> 2\n",
                ];
                s.replace_range(r, bad[rng.below(bad.len())]);
            }
            "corrupt line marker"
        }
        8 => {
            let at = pick(rng, tokens);
            s.insert_str(at, &"\0".repeat(1 + rng.below(64)));
            "insert NUL"
        }
        9 => {
            let at = pick(rng, tokens);
            let n = 1 + rng.below(3000);
            let (open, close) = [("(", ")"), ("{", "}"), ("a<", ">"), ("1 ? ", " : 0"), ("*", "")][rng.below(5)];
            s.insert_str(at, &format!("{}1{}", open.repeat(n), close.repeat(if rng.below(2) == 0 { n } else { 0 })));
            "deep nesting"
        }
        10 => {
            let mut b = s.into_bytes();
            for _ in 0..1 + rng.below(8) {
                let at = pick(rng, tokens).min(b.len() - 1);
                b[at] ^= 1 << rng.below(8);
            }
            s = String::from_utf8_lossy(&b).into_owned();
            "flip bits"
        }
        _ => {
            let at = pick(rng, tokens);
            s.insert(at, '\r');
            s = s.replacen('\n', "\r", 1 + rng.below(4));
            "carriage returns"
        }
    };
    (s, what)
}

/// Runs `cufront cudafe++` on `dir/in.ii`: (status, time, files created),
/// the files removed.
fn run(dir: &Path, limit: Duration) -> (Option<i32>, Duration, Vec<String>) {
    let args = [
        "cudafe++",
        "--stub_file_name",
        "s.c",
        "--gen_c_file_name",
        "o.cpp",
        "--module_id_file_name",
        "m.id",
        "--gen_module_id_file",
        "in.ii",
    ];
    let limits = limited::Limits { memory_kib: MEMORY_LIMIT_KIB, time: limit };
    let o = limited::run(Path::new(env!("CARGO_BIN_EXE_cufront")), dir, &args, limits);
    for f in &o.created {
        let _ = std::fs::remove_file(dir.join(f));
    }
    (o.code, o.elapsed, o.created)
}

#[test]
fn mutants_of_corpus_units_are_survived() {
    let per_unit: usize = std::env::var("CUFRONT_MUTANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let programs = corpus();
    let mut failures = Vec::new();
    let mut total = 0;
    let mut outcomes = std::collections::BTreeMap::<Option<i32>, usize>::new();
    for (u, name) in UNITS.iter().enumerate() {
        let program = programs.iter().find(|p| p.name == *name).unwrap_or_else(|| panic!("{name} is in the corpus"));
        let text = std::fs::read_to_string(host_ii(program, Std::Cxx17)).unwrap();
        let (tokens, lines) = (token_starts(&text), line_starts(&text));
        // The unmutated unit's time bounds the mutants' (10x, with a floor:
        // the base is timed alone, the mutants in parallel with each other
        // and, in CI, with the other test binaries).
        let base_dir = work_dir(&format!("{u}-base"));
        std::fs::write(base_dir.join("in.ii"), &text).unwrap();
        let (code, base, _) = run(&base_dir, Duration::from_secs(300));
        assert_eq!(code, Some(0), "{name} unmutated");
        let limit = (base * 10).max(Duration::from_secs(10));
        let _ = std::fs::remove_dir_all(&base_dir);
        let seeds: Vec<u64> = (0..per_unit as u64).map(|i| 0x9e37_79b9_7f4a_7c15 ^ ((u as u64) << 32 | i)).collect();
        let results = par_map(&seeds, |&seed| {
            let mut rng = XorShift(seed | 1);
            let (mutant, what) = mutate(&text, &tokens, &lines, &mut rng);
            let dir = work_dir(&format!("{u}-{seed:x}"));
            std::fs::write(dir.join("in.ii"), mutant).unwrap();
            let (code, elapsed, created) = run(&dir, limit);
            let _ = std::fs::remove_dir_all(&dir);
            let problem = match code {
                None => Some(format!("killed (time limit {limit:?} or signal) after {elapsed:?}")),
                Some(101) => Some("panicked".to_string()),
                Some(c) if !matches!(c, 0 | 2 | 4) => Some(format!("exit status {c}")),
                Some(c) if c != 0 && !created.is_empty() => Some(format!("failed ({c}) but created {created:?}")),
                _ => None,
            };
            (code, problem.map(|p| format!("{name} seed {seed:#x} ({what}): {p}")))
        });
        for r in results {
            total += 1;
            match r {
                Ok((code, problem)) => {
                    *outcomes.entry(code).or_default() += 1;
                    failures.extend(problem);
                }
                Err(panic) => failures.push(format!("{name}: harness panic {panic}")),
            }
        }
    }
    eprintln!("{total} mutants, exit statuses {outcomes:?}");
    assert!(failures.is_empty(), "{} of {total} mutants failed:\n{}", failures.len(), failures.join("\n"));
}

fn work_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-mutant-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
