//! Layout parity with g++: for every corpus unit (as each standard it
//! declares), every class cufront can lay out and C++ can name, and every
//! class template specialization those classes need (members, bases,
//! transitively) plus a few named ones (`NAMED`), gets `static_assert`s of
//! its `sizeof`, `alignof` and (standard-layout classes, public
//! non-bit-field members) `__builtin_offsetof`, appended to the same `.ii`;
//! one `g++ -fsyntax-only` per unit must accept them. Classes whose
//! layout uses one of EDG's deviations from GCC (spec 50 §7.6) are left out
//! here (the hir unit tests check them). Kernel launches, which g++ cannot
//! read, are replaced by `((void)0)` in the probe copy.

use std::fmt::Write as _;
use std::process::Command;
use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, new_options, new_translation_unit};
use cufront_syntax::{SyntaxKind, TextRange};
use cufront_tests::{Program, Std, cache_dir, corpus, host_ii, par_map};

/// Classes where cufront and g++ still disagree (or g++ cannot name them
/// as cufront spells them), to be investigated: their probes are dropped.
const KNOWN: &[&str] = &[];

/// Specializations probed in every unit that declares their template (the
/// ones no class of the unit happens to need are still worth checking).
const NAMED: &[&str] = &[
    "std::pair<int, double>",
    "std::pair<char, std::pair<short, long> >",
    "std::tuple<int, double, char>",
    "std::tuple<>",
    "std::array<int, 4>",
    "std::array<char, 0>",
    "std::vector<int>",
    "std::basic_string<char>",
    "std::shared_ptr<int>",
    "std::deque<int>",
    "std::list<int>",
    "std::atomic<int>",
    "std::map<int, int>",
    "std::unique_ptr<int>",
    "std::optional<int>",
    "thrust::tuple<int, float>",
    "thrust::pair<int, char>",
    "cuda::std::array<int, 3>",
    "cuda::std::pair<int, double>",
    "cuda::std::tuple<int, double, char>",
];

/// Every unit must check at least this many classes (the C library and
/// CUDA runtime headers alone declare far more).
const MIN_CLASSES: usize = 30;

struct Outcome {
    case: String,
    checked: usize,
    specializations: usize,
    offsets: usize,
    errors: Vec<String>,
}

fn check(program: &Program, std: Std) -> Outcome {
    let case = format!("{} ({})", program.name, std.as_str());
    let ii = host_ii(program, std);
    let text = std::fs::read_to_string(&ii).unwrap_or_else(|e| panic!("cannot read {}: {e}", ii.display()));
    let db = RootDatabase::new();
    let standard = if std.is_cxx20() { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    // Layout needs no function body: parse them lazily.
    let opts = new_options(&db, LangOptions { standard, lazy_bodies: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, ii.display().to_string(), Arc::from(text.as_str()), opts);

    // g++ cannot read `k<<<g, b>>>(…)`: blank the launches out (a full parse
    // only for units that have some).
    let mut launches: Vec<TextRange> = Vec::new();
    if text.contains("<<<") {
        let full = cufront_syntax::parse(
            &text,
            cufront_syntax::ParseOptions {
                lex: cufront_syntax::LexOptions { cxx20: std.is_cxx20(), digit_separators: true },
                ..Default::default()
            },
        );
        for n in full.syntax_node().descendants().filter(|n| n.kind() == SyntaxKind::KERNEL_LAUNCH) {
            if launches.last().is_none_or(|r| !r.contains_range(n.text_range())) {
                launches.push(n.text_range());
            }
        }
    }
    let mut probe = String::with_capacity(text.len() + 4096);
    let mut at = 0usize;
    for r in &launches {
        let (s, e): (usize, usize) = (r.start().into(), r.end().into());
        probe.push_str(&text[at..s]);
        probe.push_str("((void)0)");
        // Keep the line count: later line markers stay right.
        probe.extend(std::iter::repeat_n('\n', text[s..e].matches('\n').count()));
        at = e;
    }
    probe.push_str(&text[at..]);

    probe.push_str("\n# 1 \"layout-probes\"\n");
    let mut lines: Vec<String> = Vec::new();
    let (mut checked, mut offsets) = (0, 0);
    let map = cufront_hir::def_map(&db, tu);
    for &c in &map.classes {
        let Ok(l) = cufront_hir::layout::layout(&db, c) else { continue };
        if !l.deviations.is_empty() {
            continue;
        }
        let Some(name) = cufront_hir::layout::cxx_spelling(&db, c) else { continue };
        if KNOWN.contains(&name.as_str()) {
            continue;
        }
        checked += 1;
        probe_class(&mut lines, &mut offsets, &name, &l);
    }
    // Specializations: those the classes need, then the named ones.
    let mut specs = cufront_hir::templates::needed_specializations(&db, tu);
    for n in NAMED {
        if let Some(t) = cufront_hir::type_named(&db, tu, n) {
            let t = cufront_hir::ty::canonical(&db, t);
            if !specs.contains(&t) {
                specs.push(t);
            }
        }
    }
    let mut specializations = 0;
    for t in specs {
        let Ok(l) = cufront_hir::layout::ty_layout(&db, t) else { continue };
        if !l.deviations.is_empty() {
            continue;
        }
        let Some(name) = cufront_hir::templates::cxx_type(&db, t) else { continue };
        if KNOWN.contains(&name.as_str()) {
            continue;
        }
        specializations += 1;
        probe_class(&mut lines, &mut offsets, &name, &l);
    }
    for l in &lines {
        let _ = writeln!(probe, "{l}");
    }
    let dir = cache_dir().join("layout-parity");
    std::fs::create_dir_all(&dir).expect("cache dir");
    let path = dir.join(format!("{}.{}.ii", program.name.trim_end_matches(".cu"), std.as_str()));
    std::fs::write(&path, &probe).expect("write probe");
    let out = Command::new("g++")
        .arg(format!("-std={}", std.as_str()))
        .args(["-fsyntax-only", "-w", "-fpermissive"])
        .arg(&path)
        .output()
        .expect("run g++");
    // nvcc's raw host unit is not quite g++'s dialect (cudafe++ rewrites
    // parts of the CUDA headers): only errors in the probes count; g++ still
    // checks every static_assert after an error elsewhere.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut errors: Vec<String> =
        stderr.lines().filter(|l| l.starts_with("layout-probes:") && l.contains("error")).map(str::to_string).collect();
    // Say which probe failed.
    for e in errors.iter_mut() {
        if let Some(n) =
            e.split("layout-probes:").nth(1).and_then(|r| r.split(':').next()).and_then(|n| n.parse::<usize>().ok())
            && let Some(l) = lines.get(n - 1)
        {
            e.push_str(&format!("\n        probe: {l}"));
        }
    }
    if out.status.code().is_none() {
        errors.push(format!("g++ crashed: {stderr}"));
    }
    Outcome { case, checked, specializations, offsets, errors }
}

/// The `static_assert`s for one class: size, alignment, offsets of the
/// public non-bit-field members of standard-layout classes.
fn probe_class(lines: &mut Vec<String>, offsets: &mut usize, name: &str, l: &cufront_hir::Layout) {
    // `"` cannot appear in a name; keep the message short for template-ids.
    lines.push(format!("static_assert(sizeof({name}) == {}, \"size\");", l.size));
    lines.push(format!("static_assert(alignof({name}) == {}, \"align\");", l.align));
    if l.standard_layout {
        for f in &l.fields {
            let (Some(field), None) = (&f.name, f.bit_width) else { continue };
            if f.access != cufront_hir::item_tree::Access::Public {
                continue;
            }
            *offsets += 1;
            lines.push(format!(
                "static_assert(__builtin_offsetof({name}, {field}) == {}, \"offset of {field}\");",
                f.offset_bits / 8
            ));
        }
    }
}

#[test]
fn corpus_layouts_match_gxx() {
    let cases: Vec<(Program, Std)> =
        corpus().into_iter().flat_map(|p| p.stds.clone().into_iter().map(move |s| (p.clone(), s))).collect();
    let outcomes = par_map(&cases, |(p, s)| check(p, *s));
    let mut report = String::new();
    let mut failed = 0;
    let (mut total, mut total_specs, mut total_offsets) = (0, 0, 0);
    for ((p, s), o) in cases.iter().zip(outcomes) {
        match o {
            Err(panic) => {
                failed += 1;
                let _ = writeln!(report, "{} ({}): {panic}", p.name, s.as_str());
            }
            Ok(o) => {
                eprintln!(
                    "{}: {} classes, {} specializations checked ({} offsets)",
                    o.case, o.checked, o.specializations, o.offsets
                );
                total += o.checked;
                total_specs += o.specializations;
                total_offsets += o.offsets;
                if o.checked < MIN_CLASSES {
                    failed += 1;
                    let _ = writeln!(report, "{}: only {} classes checked (minimum {MIN_CLASSES})", o.case, o.checked);
                }
                if !o.errors.is_empty() {
                    failed += 1;
                    let _ = writeln!(report, "{}: g++ rejects {} probe(s):", o.case, o.errors.len());
                    for e in o.errors.iter().take(10) {
                        let _ = writeln!(report, "    {e}");
                    }
                }
            }
        }
    }
    eprintln!(
        "layout parity: {total} classes, {total_specs} specializations, {total_offsets} offsets, {} units",
        cases.len()
    );
    assert!(failed == 0, "{failed} of {} units failed:\n{report}", cases.len());
}
