//! The IDE features on every corpus program (real units: host preprocessing
//! by the pinned toolkit's nvcc, cached): no diagnostics on valid programs,
//! every kernel the file defines is a kernel token, its outline lists it, and
//! hover on it names it a kernel with a linkage name.

use std::fmt::Write;
use std::sync::Arc;

use cufront_ide::{AnalysisHost, Change, FilePosition, TokenModifier, UnitChange};
use cufront_syntax::source_map::parse_marker;

#[test]
fn corpus_programs_have_no_diagnostics_and_known_kernels() {
    let mut failures = String::new();
    let mut kernels_total = 0;
    let work = std::env::temp_dir().join(format!("cufront-ide-corpus-{}", std::process::id()));
    let pre = cufront_ide::preprocess::Preprocessor::new(cufront_tests::toolkit().clone(), work.clone());
    for program in cufront_tests::corpus() {
        let std = program.stds[0];
        let ii = cufront_tests::host_ii(&program, std);
        let text = std::fs::read_to_string(&ii).expect("the cached unit");
        // The unit names its main file as nvcc was given it.
        let main = text.lines().find_map(|l| parse_marker(l).and_then(|(_, f, _)| f)).expect("a first marker");
        let main = cufront_ide::lines::normalize(&main, &std::env::current_dir().unwrap().to_string_lossy());
        let source = std::fs::read_to_string(&program.path).expect("the program");
        let mut host = AnalysisHost::new();
        let opts = program.options(std);
        host.apply_change(Change {
            files: vec![(main.clone(), Arc::from(source.as_str()))],
            units: vec![UnitChange {
                main: main.clone(),
                text: Arc::from(text),
                lang: cufront_ide::preprocess::lang_options(&opts),
                checks: pre
                    .check_options(
                        &program.path,
                        &cufront_ide::workspace::FileFlags {
                            directory: std::env::current_dir().unwrap(),
                            options: opts.clone(),
                            from_database: true,
                        },
                    )
                    .expect("nvcc's front-end options"),
                shown: Default::default(),
                macros: None,
                messages: Arc::from(""),
                system_dirs: vec![format!("{}/", cufront_tests::toolkit().root().display())],
                device: None,
            }],
            removed_units: Vec::new(),
            devices: Vec::new(),
        });
        let a = host.analysis();
        let diags = a.diagnostics(&main).unwrap();
        for d in &diags {
            let _ = writeln!(failures, "{}:{}: {}", program.name, d.range.start.line + 1, d.message);
        }
        // The kernels the source defines (`__global__` at the start of a declaration).
        let tokens = a.semantic_tokens(&main).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        let kernel_defs: Vec<String> = tokens
            .iter()
            .filter(|t| t.has(TokenModifier::Kernel) && t.has(TokenModifier::Definition))
            .map(|t| lines[t.start.line as usize][t.start.col as usize..(t.start.col + t.len) as usize].to_string())
            .collect();
        let written = source.matches("__global__").count();
        if written > 0 && kernel_defs.is_empty() {
            let _ = writeln!(
                failures,
                "{}: `__global__` written {written} times, no kernel definition token",
                program.name
            );
        }
        kernels_total += kernel_defs.len();
        let outline = a.document_symbols(&main).unwrap();
        if outline.is_empty() {
            let _ = writeln!(failures, "{}: empty outline", program.name);
        }
        if let Some(t) = tokens.iter().find(|t| t.has(TokenModifier::Kernel) && t.has(TokenModifier::Definition)) {
            let h = a.hover(&FilePosition { file: main.clone(), pos: t.start }).unwrap();
            match h {
                Some(h) if h.markdown.contains("kernel (`__global__`)") => {}
                other => {
                    let nav = a.goto_definition(&FilePosition { file: main.clone(), pos: t.start }).unwrap();
                    let _ = writeln!(
                        failures,
                        "{}: hover on kernel `{}` at {:?}: {other:?}; goto: {nav:?}; line: {:?}",
                        program.name, kernel_defs[0], t.start, lines[t.start.line as usize]
                    );
                }
            }
        }
    }
    eprintln!("{kernels_total} kernel definitions found as kernel tokens");
    let _ = std::fs::remove_dir_all(&work);
    assert!(failures.is_empty(), "{failures}");
    assert!(kernels_total > 30);
}
