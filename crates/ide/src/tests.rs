//! Fixture tests: a small preprocessed unit (gcc line markers name the
//! files), `$0` marks the cursor; the files' texts are read back from the
//! unit, so positions are those of the marked file.

use std::fmt::Write;
use std::sync::Arc;

use expect_test::{Expect, expect};

use cufront_base_db::SourceDatabase;

use crate::lines::UnitLines;
use crate::{AnalysisHost, Change, FilePosition, LineCol, UnitChange};

const MAIN: &str = "/w/main.cu";

/// The host for `fixture` and the cursor's position.
fn fixture(fixture: &str) -> (AnalysisHost, Option<FilePosition>) {
    fixture_with(fixture, false)
}

fn fixture_with(fixture: &str, relaxed_constexpr: bool) -> (AnalysisHost, Option<FilePosition>) {
    let mut text = fixture.to_string();
    if !text.starts_with('#') {
        text = format!("# 1 \"{MAIN}\"\n{text}");
    }
    let cursor = text.find("$0");
    text = text.replace("$0", "");
    let lines = UnitLines::new(&text, MAIN, "/w");
    // Each file's text is what the unit holds of it.
    let mut files: Vec<Vec<String>> = vec![Vec::new(); lines.files.len()];
    for (i, l) in lines.lines.iter().enumerate() {
        if l.marker {
            continue;
        }
        let (s, e) = lines.line_range(&text, i);
        let f = &mut files[l.file as usize];
        if f.len() <= l.line as usize {
            f.resize(l.line as usize + 1, String::new());
        }
        f[l.line as usize] = text[s as usize..e as usize].to_string();
    }
    let pos = cursor.map(|c| {
        let i = lines.line_at(c as u32);
        let l = lines.lines[i];
        FilePosition {
            file: lines.files[l.file as usize].clone(),
            pos: LineCol { line: l.line, col: c as u32 - l.start },
        }
    });
    let mut change = Change::default();
    for (name, f) in lines.files.iter().zip(files) {
        change.files.push((name.clone(), Arc::from(f.join("\n"))));
    }
    change.units.push(UnitChange {
        main: MAIN.into(),
        text: Arc::from(text),
        lang: cufront_base_db::LangOptions {
            standard: cufront_base_db::LangStandard::Cxx17,
            lazy_bodies: true,
            ..Default::default()
        },
        // As an editor without flags for the file, but `--extended-lambda`
        // (annotated lambdas keep their own spaces in these fixtures).
        checks: cufront_check::Options { relaxed_constexpr, extended_lambda: true, ..Default::default() },
        shown: Default::default(),
        macros: None,
        messages: Arc::from(""),
        system_dirs: Vec::new(),
        device: None,
    });
    let mut host = AnalysisHost::new();
    host.apply_change(change);
    (host, pos)
}

fn check_hover(f: &str, expect: Expect) {
    let (host, pos) = fixture(f);
    let h = host.analysis().hover(&pos.unwrap()).unwrap();
    let got = match h {
        Some(h) => format!("{}:{}-{}\n{}", h.range.start.line, h.range.start.col, h.range.end.col, h.markdown),
        None => "no hover".into(),
    };
    expect.assert_eq(&got);
}

fn check_goto(f: &str, expect: Expect) {
    let (host, pos) = fixture(f);
    let got = host.analysis().goto_definition(&pos.unwrap()).unwrap();
    let mut s = String::new();
    for n in got {
        let _ = writeln!(
            s,
            "{} {:?} {}:{}:{} [{}]",
            n.name, n.kind, n.focus_range.file, n.focus_range.start.line, n.focus_range.start.col, n.container
        );
    }
    expect.assert_eq(&s);
}

const KERNELS: &str = r#"# 1 "/w/main.cu"
# 1 "/w/k.cuh" 1
namespace ns {
struct __attribute__((aligned(8))) S { int a; double b; char c; };
__attribute__((global)) void kern(S *p, int n);
__attribute__((device)) int twice(int x) { return 2 * x; }
__attribute__((host)) __attribute__((device)) int both(int x) { return x; }
}
# 2 "/w/main.cu" 2
__attribute__((device)) __attribute__((constant)) int table[4];
__attribute__((managed)) int counter;
constexpr int sq(int x) { return x * x; }
namespace ns {
__attribute__((global)) void kern(S *p, int n) { int i = twice(n); p[i].a = i + table[0]; }
}
void host(ns::S *p) {
  ns::kern(p, sq(2));
  auto l = [](int y) { return y + 1; };
  counter = l(3);
}
"#;

fn at(f: &str, needle: &str) -> String {
    // The cursor on the first character of `needle`'s occurrence marked by `|` inside it.
    let (before, after) = needle.split_once('|').unwrap();
    let joined = format!("{before}{after}");
    let at = f.find(&joined).unwrap_or_else(|| panic!("{joined} not in fixture")) + before.len();
    format!("{}$0{}", &f[..at], &f[at..])
}

#[test]
fn hover_kernel_definition() {
    check_hover(
        &at(KERNELS, "void |kern(S *p, int n) {"),
        expect![[r#"
            5:29-33
            ```cuda
            __global__ void kern(S *p, int n)
            ```

            kernel (`__global__`) in `ns`

            Mangled: `_ZN2ns4kernEPNS_1SEi`"#]],
    );
}

#[test]
fn hover_call_on_a_qualified_name() {
    check_hover(
        &at(KERNELS, "ns::|kern(p, sq(2))"),
        expect![[r#"
            8:6-10
            ```cuda
            __global__ void kern(S *p, int n)
            ```

            kernel (`__global__`) in `ns`

            Mangled: `_ZN2ns4kernEPNS_1SEi`"#]],
    );
}

#[test]
fn hover_device_function_from_kernel_body() {
    check_hover(
        &at(KERNELS, "int i = |twice(n)"),
        expect![[r#"
            5:57-62
            ```cuda
            __device__ int twice(int x)
            ```

            device function (`__device__`) in `ns`

            Mangled: `_ZN2ns5twiceEi`"#]],
    );
}

#[test]
fn hover_constexpr_is_host_unless_relaxed() {
    let f = at(KERNELS, "ns::kern(p, |sq(2))");
    check_hover(
        &f,
        expect![[r#"
            8:14-16
            ```cuda
            constexpr int sq(int x)
            ```

            host function (implicitly: unannotated `constexpr`, no `--expt-relaxed-constexpr`)

            Mangled: `_Z2sqi`"#]],
    );
    let (host, pos) = fixture_with(&f, true);
    let h = host.analysis().hover(&pos.unwrap()).unwrap().unwrap();
    assert!(
        h.markdown.contains("host and device function (implicitly: `constexpr` with `--expt-relaxed-constexpr`)"),
        "{}",
        h.markdown
    );
}

#[test]
fn hover_variables_show_memory_space() {
    check_hover(
        &at(KERNELS, "i + |table[0]"),
        expect![[r#"
            5:80-85
            ```cuda
            __device__ __constant__ int table[4]
            ```

            variable in constant memory (`__constant__`)

            Mangled: `_ZL5table`

            Type: `int[4]`"#]],
    );
    check_hover(
        &at(KERNELS, "  |counter = l(3);"),
        expect![[r#"
            10:2-9
            ```cuda
            __managed__ int counter
            ```

            variable in managed memory (`__managed__`)

            Mangled: `_ZL7counter`

            Type: `int`"#]],
    );
}

#[test]
fn hover_class_shows_layout() {
    check_hover(
        &at(KERNELS, "void host(ns::|S *p)"),
        expect![[r#"
            7:14-15
            ```cuda
            struct __attribute__((aligned(8))) S
            ```

            class in `ns`

            Layout (bytes):
            ```text
            ns::S: size 24 align 8
              0: a int
              8: b double
              16: c char
            ```"#]],
    );
}

#[test]
fn hover_lambda_and_local() {
    check_hover(
        &at(KERNELS, "auto l = |[](int y)"),
        expect![[r#"
            9:11-13
            lambda

            implicitly as its enclosing function `host`: host function (implicitly: no execution space annotation)"#]],
    );
    check_hover(
        &at(KERNELS, "counter = |l(3)"),
        expect![[r#"
            10:12-13
            ```cuda
            auto l = [](int y) { return y + 1; };
            ```

            implicitly as its enclosing function `host`: host function (implicitly: no execution space annotation)

            Type: `{lambda #9}`"#]],
    );
}

#[test]
fn goto_definition_into_header_and_locals() {
    check_goto(
        &at(KERNELS, "int i = |twice(n)"),
        expect![[r#"
            twice Some(Function) /w/k.cuh:3:28 [ns]
        "#]],
    );
    // From the declaration in the header to the definition in the .cu file.
    check_goto(
        &at(KERNELS, "void |kern(S *p, int n);"),
        expect![[r#"
            kern Some(Function) /w/main.cu:5:29 [ns]
        "#]],
    );
    check_goto(
        &at(KERNELS, "p[|i].a"),
        expect![[r#"
            i None /w/main.cu:5:53 []
        "#]],
    );
    check_goto(
        &at(KERNELS, "int i = twice(|n)"),
        expect![[r#"
            n None /w/main.cu:5:44 []
        "#]],
    );
}

#[test]
fn references_of_a_kernel() {
    let (host, pos) = fixture(&at(KERNELS, "ns::|kern(p, sq(2))"));
    let refs = host.analysis().references(&pos.unwrap()).unwrap();
    let got: Vec<String> = refs.iter().map(|r| format!("{}:{}:{}", r.file, r.start.line, r.start.col)).collect();
    expect![[r#"
        [
            "/w/k.cuh:2:29",
            "/w/main.cu:5:29",
            "/w/main.cu:8:6",
        ]
    "#]]
    .assert_debug_eq(&got);
}

#[test]
fn document_symbols_nest() {
    let (host, _) = fixture(KERNELS);
    let syms = host.analysis().document_symbols(MAIN).unwrap();
    let mut s = String::new();
    fn render(s: &mut String, n: &crate::StructureNode, depth: usize) {
        let _ = writeln!(
            s,
            "{}{} {:?} {}:{} `{}`",
            "  ".repeat(depth),
            n.name,
            n.kind,
            n.selection.start.line,
            n.selection.start.col,
            n.detail
        );
        for c in &n.children {
            render(s, c, depth + 1);
        }
    }
    for n in &syms {
        render(&mut s, n, 0);
    }
    expect![[r#"
        table Variable 1:54 `__device__ __constant__ int table[4]`
        counter Variable 2:29 `__managed__ int counter`
        sq Function 3:14 `constexpr int sq(int x)`
        ns Namespace 4:10 `namespace ns`
          kern Function 5:29 `__global__ void kern(S *p, int n)`
        host Function 7:5 `void host(ns::S *p)`
    "#]]
    .assert_eq(&s);
}

#[test]
fn semantic_tokens_tell_spaces_apart() {
    let (host, _) = fixture(KERNELS);
    let toks = host.analysis().semantic_tokens(MAIN).unwrap();
    let src = host.file_text(MAIN).unwrap();
    let lines: Vec<&str> = src.split('\n').collect();
    let mut s = String::new();
    for t in toks {
        let line = lines[t.start.line as usize];
        let text = &line[t.start.col as usize..(t.start.col + t.len) as usize];
        let mods: Vec<&str> = crate::TokenModifier::ALL.iter().filter(|m| t.has(**m)).map(|m| m.name()).collect();
        let _ = writeln!(s, "{}:{} {text} {:?} {}", t.start.line, t.start.col, t.kind, mods.join(","));
    }
    expect![[r#"
        1:54 table Variable declaration,definition,constantMemory
        2:29 counter Variable declaration,definition,managedMemory
        3:14 sq Function declaration,definition,host
        3:21 x Parameter declaration,definition
        3:33 x Parameter 
        3:37 x Parameter 
        4:10 ns Namespace declaration,definition
        5:29 kern Function declaration,definition,kernel
        5:34 S Struct 
        5:37 p Parameter declaration,definition
        5:44 n Parameter declaration,definition
        5:53 i Variable declaration,definition
        5:57 twice Function device
        5:63 n Parameter 
        5:67 p Parameter 
        5:69 i Variable 
        5:72 a Property 
        5:76 i Variable 
        5:80 table Variable constantMemory
        7:5 host Function declaration,definition,host
        7:10 ns Namespace 
        7:14 S Struct 
        7:17 p Parameter declaration,definition
        8:2 ns Namespace 
        8:6 kern Function kernel
        8:11 p Parameter 
        8:14 sq Function host
        9:7 l Variable declaration,definition
        9:18 y Parameter declaration,definition
        9:30 y Parameter 
        10:2 counter Variable managedMemory
        10:12 l Variable 
    "#]]
    .assert_eq(&s);
}

#[test]
fn syntax_errors_with_edg_numbers_at_file_positions() {
    let f = "# 1 \"/w/main.cu\"\n# 1 \"/w/h.cuh\" 1\nint ok;\n# 2 \"/w/main.cu\" 2\n__attribute__((global)) void k(int n) {\n  int x = n\n}\n";
    let (host, _) = fixture(f);
    let diags = host.analysis().diagnostics(MAIN).unwrap();
    let mut s = String::new();
    for d in &diags {
        let _ = writeln!(s, "{}:{} {:?} {:?} {}", d.range.start.line, d.range.start.col, d.severity, d.code, d.message);
        for r in &d.related {
            let _ = writeln!(s, "  note {}:{} {}", r.range.start.line, r.range.start.col, r.message);
        }
    }
    expect![[r#"
        3:0 Error Some(65) expected a ";"
    "#]]
    .assert_eq(&s);
    assert!(host.analysis().diagnostics("/w/h.cuh").unwrap().is_empty());
}

#[test]
fn semantic_diagnostics_of_the_host_pass() {
    let f = "__attribute__((device)) int d(int x) { return x; }\n__attribute__((device)) int dv;\nvoid h() {\n  d(1);\n  int y = dv;\n}\n";
    let (host, _) = fixture(f);
    let diags = host.analysis().diagnostics(MAIN).unwrap();
    let mut s = String::new();
    for d in &diags {
        let _ = writeln!(s, "{}:{} {:?} {:?} {}", d.range.start.line, d.range.start.col, d.severity, d.code, d.message);
    }
    expect![[r#"
        3:2 Error None calling a __device__ function("d(int)") from a __host__ function("h") is not allowed
        4:10 Warning Some(20091) a __device__ variable "dv" cannot be directly read in a host function
    "#]]
    .assert_eq(&s);
}

#[test]
fn notes_are_related_information() {
    let f = "int n = 3;\nint arr[n];\n";
    let (host, _) = fixture(f);
    let diags = host.analysis().diagnostics(MAIN).unwrap();
    let mut s = String::new();
    for d in &diags {
        let _ = writeln!(s, "{}:{} {:?} {}", d.range.start.line, d.range.start.col, d.severity, d.message);
        for r in &d.related {
            let _ = writeln!(s, "  {}:{} {}", r.range.start.line, r.range.start.col, r.message);
        }
    }
    expect![[r#"
        1:8 Error expression must have a constant value
          1:8 the value of variable "n" (declared at line 1) cannot be used as a constant
    "#]]
    .assert_eq(&s);
}

/// A unit with a device view: `host` and `device` are the two
/// preprocessings of the same files (the files' texts are the host's).
fn fixture_views(host: &str, device: crate::DeviceChange) -> AnalysisHost {
    let (mut h, _) = fixture(host);
    let mut change = Change::default();
    let text = h.unit_text(MAIN).unwrap();
    change.units.push(UnitChange {
        main: MAIN.into(),
        text,
        lang: cufront_base_db::LangOptions {
            standard: cufront_base_db::LangStandard::Cxx17,
            lazy_bodies: true,
            ..Default::default()
        },
        checks: cufront_check::Options { extended_lambda: true, ..Default::default() },
        shown: Default::default(),
        macros: Some(Arc::new(["__CUDA_ARCH__".to_string()].into_iter().collect())),
        messages: Arc::from(""),
        system_dirs: Vec::new(),
        device: Some(device),
    });
    h.apply_change(change);
    h
}

fn diagnostics_text(host: &AnalysisHost, file: &str) -> String {
    let mut s = String::new();
    for d in &host.analysis().diagnostics(file).unwrap() {
        let _ = writeln!(s, "{}:{} {:?} {:?} {}", d.range.start.line, d.range.start.col, d.severity, d.code, d.message);
    }
    s
}

/// `void h() {}` called from a device function, an unused local in a
/// kernel, and a declaration only the device preprocessing keeps.
const BOTH_VIEWS: &str = "# 1 \"/w/main.cu\"\nvoid h() {}\n__attribute__((device)) void d() { h(); }\n\
                          __attribute__((global)) void k(int n) { int unused_local; d(); }\n\n\n\n\n";

fn device_text(extra: &str) -> String {
    BOTH_VIEWS.replacen("\n\n\n\n\n", &format!("\n\n{extra}\n\n\n"), 1)
}

#[test]
fn diagnostics_of_both_passes_in_nvcc_order() {
    // The host pass finds nothing; cicc's front end finds the unused local
    // (177) and, in its late phase, the call of a host function.
    let host = fixture_views(
        BOTH_VIEWS,
        crate::DeviceChange::Unit { text: Arc::from(device_text("")), macros: None, messages: Arc::from("") },
    );
    expect![[r#"
        2:44 Warning Some(177) variable "unused_local" was declared but never referenced
        1:35 Error None calling a __host__ function("h()") from a __device__ function("d") is not allowed
        1:35 Error None identifier "h" is undefined in device code
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
    // A syntax error only the device preprocessing sees (under `__CUDA_ARCH__`)
    // is the device pass's; its late phase then does not run.
    let device = device_text("int dev_only = 1");
    let host = fixture_views(
        BOTH_VIEWS,
        crate::DeviceChange::Unit { text: Arc::from(device), macros: None, messages: Arc::from("") },
    );
    expect![[r#"
        2:44 Warning Some(177) variable "unused_local" was declared but never referenced
        2:63 Error Some(65) expected a ";"
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
}

#[test]
fn an_error_of_the_host_pass_stops_before_the_device_pass() {
    // nvcc stops after cudafe++ fails: no finding of cicc's front end.
    let f = BOTH_VIEWS.replacen("void h() {}", "void h() { int x = }", 1);
    let device = f.clone();
    let host =
        fixture_views(&f, crate::DeviceChange::Unit { text: Arc::from(device), macros: None, messages: Arc::from("") });
    expect![[r#"
        0:19 Error Some(29) expected an expression
        0:19 Error Some(65) expected a ";"
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
}

#[test]
fn a_failed_device_preprocessing_is_reported_after_a_clean_host_pass() {
    let out = "/w/main.cu:5:2: error: #error device only\n    5 | #error device only\n      |  ^~~~~";
    let host = fixture_views(BOTH_VIEWS, crate::DeviceChange::Failed(out.into()));
    expect![[r#"
        4:1 Error None #error device only
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
}

#[test]
fn the_preprocessors_warnings_are_shown_and_need_it_again_after_an_edit() {
    // gcc's warning in the device preprocessing (a `#warning` under
    // `__CUDA_ARCH__`), shown with the device pass's diagnostics.
    let warned = "/w/main.cu:5:2: warning: #warning device only\n    5 | #warning device only\n      |  ^~~~~~~";
    let device = crate::DeviceChange::Unit {
        text: Arc::from(device_text("")),
        macros: Some(Arc::new(["__CUDA_ARCH__".to_string()].into_iter().collect())),
        messages: Arc::from(warned),
    };
    let host = fixture_views(BOTH_VIEWS, device);
    expect![[r#"
        4:1 Warning None #warning device only
        2:44 Warning Some(177) variable "unused_local" was declared but never referenced
        1:35 Error None calling a __host__ function("h()") from a __device__ function("d") is not allowed
        1:35 Error None identifier "h" is undefined in device code
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
    // Whether the warning still holds after an edit, and on which line,
    // only the preprocessor can tell.
    let old = host.file_text(MAIN).unwrap();
    let new = old.replacen("int unused_local;", "int unused_local; int other;", 1);
    assert_eq!(
        host.patch_file(MAIN, Arc::from(new.as_str())).err(),
        Some(crate::patch::NotPatchable::PreprocessorMessages)
    );
}

#[test]
fn an_error_at_the_end_of_source_is_on_the_files_last_line() {
    // EDG's "At end of source": past the last token, whatever blank lines follow.
    let (host, _) = fixture("# 1 \"/w/main.cu\"\nint a;\nint x = 1\n\n\n");
    expect![[r#"
        1:8 Error Some(65) expected a ";"
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
}

#[test]
fn an_edit_in_a_body_patches_both_views() {
    let macros = Some(Arc::new(["__CUDA_ARCH__".to_string()].into_iter().collect()));
    let mut host = fixture_views(
        BOTH_VIEWS,
        crate::DeviceChange::Unit { text: Arc::from(device_text("")), macros, messages: Arc::from("") },
    );
    let old = host.file_text(MAIN).unwrap();
    let new = old.replacen("int unused_local;", "int unused_local; int other;", 1);
    let change = host.patch_file(MAIN, Arc::from(new.as_str())).expect("patched in place");
    host.apply_change(change);
    let unit = host.unit(MAIN).unwrap();
    let Some(crate::DeviceUnit::Unit { tu, .. }) = &unit.device else { panic!("a device view") };
    let db = host.raw_database();
    assert!(tu.text(db).contains("int unused_local; int other;"));
    // Both views reparse the edited body only (`base_db::edit_text`).
    for tu in [unit.tu, *tu] {
        let prev = tu.previous(db).clone().expect("the text before the edit");
        assert!(prev.parse.reparse(&prev.text, tu.text(db)).is_some());
    }
    expect![[r#"
        2:44 Warning Some(177) variable "unused_local" was declared but never referenced
        2:62 Warning Some(177) variable "other" was declared but never referenced
        1:35 Error None calling a __host__ function("h()") from a __device__ function("d") is not allowed
        1:35 Error None identifier "h" is undefined in device code
    "#]]
    .assert_eq(&diagnostics_text(&host, MAIN));
}

#[test]
fn workspace_symbols_find_by_substring() {
    let (host, _) = fixture(KERNELS);
    let got = host.analysis().workspace_symbols("kern", 10).unwrap();
    let names: Vec<String> =
        got.iter().map(|n| format!("{} {}:{}", n.name, n.focus_range.file, n.focus_range.start.line)).collect();
    expect![[r#"
        [
            "kern /w/k.cuh:2",
            "kern /w/main.cu:5",
        ]
    "#]]
    .assert_debug_eq(&names);
}

#[test]
fn a_change_cancels_and_updates() {
    let (mut host, _) = fixture(KERNELS);
    // A reader computing on a snapshot is cancelled by the change: it
    // sees `Cancelled` and drops its snapshot, so the writer goes on.
    let before = host.analysis();
    let reader = std::thread::spawn(move || {
        let mut rounds = 0u32;
        loop {
            rounds += 1;
            if before.references(&FilePosition { file: MAIN.into(), pos: LineCol { line: 5, col: 29 } }).is_err() {
                return rounds;
            }
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
    let text = host.unit_text(MAIN).unwrap().replace("return x * x;", "return x * x");
    host.apply_change(Change {
        units: vec![UnitChange {
            main: MAIN.into(),
            text: Arc::from(text),
            lang: cufront_base_db::LangOptions {
                standard: cufront_base_db::LangStandard::Cxx17,
                lazy_bodies: true,
                ..Default::default()
            },
            checks: cufront_check::Options { extended_lambda: true, ..Default::default() },
            shown: Default::default(),
            macros: None,
            messages: Arc::from(""),
            system_dirs: Vec::new(),
            device: None,
        }],
        ..Change::default()
    });
    assert!(reader.join().unwrap() >= 1);
    let diags = host.analysis().diagnostics(MAIN).unwrap();
    // The syntax error of the edit, then the fixture's kernel called
    // without a launch configuration (a semantic error of the host pass).
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["expected a \";\"", "a __global__ function call must be configured"], "{diags:?}");
}

fn check_completion(f: &str, expect: Expect) {
    let (host, pos) = fixture(f);
    let items = host.analysis().completions(&pos.unwrap()).unwrap();
    let mut s = String::new();
    for i in items {
        let _ = writeln!(s, "{} {:?} `{}`", i.label, i.kind, i.detail);
    }
    expect.assert_eq(&s);
}

const SPACES: &str = r#"# 1 "/w/main.cu"
struct Vec3 { float x; float y; float z; __attribute__((device)) float norm() const; };
__attribute__((device)) float dev_len(Vec3 v);
float host_len(Vec3 v);
__attribute__((host)) __attribute__((device)) float hd_len(Vec3 v);
__attribute__((global)) void kern(Vec3 *p) {
  Vec3 local = p[0];
  float d = $0
}
void host(Vec3 *p) {
  float h = 0;
}
"#;

#[test]
fn completion_respects_the_execution_space() {
    // In a kernel: the locals, and no host-only function.
    let f = SPACES.replace("float d = $0", "float d = d$0");
    check_completion(
        &f,
        expect![[r#"
            d None `float d = d`
            dev_len Some(Function) `__device__ float dev_len(Vec3 v)`
        "#]],
    );
    // In host code: no device-only function (the kernel's `$0` removed first).
    let f = SPACES.replacen("$0", "", 1).replace("  float h = 0;", "  float h = ho$0;");
    check_completion(
        &f,
        expect![[r#"
            host Some(Function) `void host(Vec3 *p)`
            host_len Some(Function) `float host_len(Vec3 v)`
        "#]],
    );
    check_completion(
        &SPACES.replace("float d = $0", "float d = h$0"),
        expect![[r#"
            hd_len Some(Function) `__host__ __device__ float hd_len(Vec3 v)`
        "#]],
    );
    check_completion(
        &SPACES.replace("float d = $0", "float d = l$0"),
        expect![[r#"
            local None `Vec3 local = p[0];`
        "#]],
    );
}

#[test]
fn completion_of_members() {
    check_completion(
        &SPACES.replace("float d = $0", "float d = local.$0"),
        expect![[r#"
            x Some(Field) `float x`
            y Some(Field) `float y`
            z Some(Field) `float z`
            norm Some(Function) `__device__ float norm() const`
        "#]],
    );
    check_completion(
        &SPACES.replace("float d = $0", "float d = p->$0"),
        expect![[r#"
            x Some(Field) `float x`
            y Some(Field) `float y`
            z Some(Field) `float z`
            norm Some(Function) `__device__ float norm() const`
        "#]],
    );
}

#[test]
fn signature_help_in_calls_and_launches() {
    let check = |f: &str, expect: Expect| {
        let (host, pos) = fixture(f);
        let h = host.analysis().signature_help(&pos.unwrap()).unwrap();
        let got = match h {
            Some(h) => format!("{} {:?}", h.active_parameter, h.signatures),
            None => "none".into(),
        };
        expect.assert_eq(&got);
    };
    check(
        &SPACES.replace("float d = $0", "float d = dev_len(local$0);"),
        expect![[r#"0 [("__device__ float dev_len(Vec3 v)", ["Vec3 v"])]"#]],
    );
    check(
        &SPACES.replace("  float h = 0;", "  kern<<<1, $0>>>(p);").replace("float d = $0", "float d = 0;"),
        expect![[
            r#"1 [("kern<<<dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0>>>", ["dim3 gridDim", "dim3 blockDim", "size_t sharedMem = 0", "cudaStream_t stream = 0"])]"#
        ]],
    );
    check(
        &SPACES.replace("  float h = 0;", "  kern<<<1, 1>>>($0p);").replace("float d = $0", "float d = 0;"),
        expect![[r#"0 [("__global__ void kern(Vec3 *p)", ["Vec3 *p"])]"#]],
    );
}

#[test]
fn hover_picks_the_overload_inference_selects() {
    let f = r#"# 1 "/w/main.cu"
int pick(int x) { return x; }
__attribute__((device)) float pick(float x) { return x; }
__attribute__((device)) float use_it() { return pick(1.0f); }
"#;
    check_hover(
        &at(f, "return |pick(1.0f)"),
        expect![[r#"
            2:48-52
            ```cuda
            __device__ float pick(float x)
            ```

            device function (`__device__`)

            Mangled: `_Z4pickf`"#]],
    );
}

#[test]
fn hover_kernel_template_lists_instantiations() {
    let f = r#"# 1 "/w/main.cu"
template <typename T> __attribute__((global)) void fill(T *p, T v) { p[0] = v; }
void run(float *f, int *i) {
  fill<float><<<1, 1>>>(f, 1.0f);
  fill<<<1, 1>>>(i, 2);
}
"#;
    check_hover(
        &at(f, "void |fill(T"),
        expect![[r#"
        0:51-55
        ```cuda
        __global__ void fill(T *p, T v)
        ```

        kernel (`__global__`)

        Instantiations:
        - `fill<float>` `_Z4fillIfEvPT_S0_`
        - `fill<int>` `_Z4fillIiEvPT_S0_`"#]],
    );
}

#[test]
fn inlay_hints_show_deduced_kernel_arguments() {
    let f = r#"# 1 "/w/main.cu"
template <typename T> __attribute__((global)) void fill(T *p, T v) { p[0] = v; }
void run(float *f, int *i) {
  fill<float><<<1, 1>>>(f, 1.0f);
  fill<<<1, 1>>>(i, 2);
}
"#;
    let (host, _) = fixture(f);
    let hints = host.analysis().inlay_hints(MAIN).unwrap();
    expect![[r#"
        [
            InlayHint {
                pos: LineCol {
                    line: 3,
                    col: 6,
                },
                label: "<int>",
            },
        ]
    "#]]
    .assert_debug_eq(&hints);
}

/// A unit `main` that includes `/w/h.h` (`HEADER_H`), then has `own`.
fn unit_over_header(main: &str, own: &str) -> UnitChange {
    UnitChange {
        main: main.into(),
        text: Arc::from(format!("# 1 \"{main}\"\n# 1 \"/w/h.h\" 1\n{HEADER_H}# 2 \"{main}\" 2\n{own}")),
        lang: cufront_base_db::LangOptions {
            standard: cufront_base_db::LangStandard::Cxx17,
            lazy_bodies: true,
            ..Default::default()
        },
        checks: Default::default(),
        shown: Default::default(),
        macros: None,
        messages: Arc::from(""),
        system_dirs: Vec::new(),
        device: None,
    }
}

const HEADER_H: &str = "struct Vec3 { float x; float y; float z; };\n\
__attribute__((device)) inline float len(Vec3 v) { return v.x + v.y + v.z; }\n";

#[test]
fn units_over_the_same_header_share_its_trees() {
    let mut host = AnalysisHost::new();
    let a = "__attribute__((global)) void ka(Vec3 *p) { p[0].x = len(p[0]); }\n";
    let b = "void hb(Vec3 v) { len(v); }\n";
    host.apply_change(Change {
        units: vec![unit_over_header("/w/a.cu", a), unit_over_header("/w/b.cu", b)],
        ..Change::default()
    });
    let analysis = host.analysis();
    assert_eq!(diagnostics_text(&host, "/w/a.cu"), "");
    // Each unit's own diagnostics, computed on the shared trees.
    let diags = analysis.diagnostics("/w/b.cu").unwrap();
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["calling a __device__ function(\"len(    ::Vec3)\") from a __host__ function(\"hb\") is not allowed"]
    );
    let db = host.raw_database();
    let trees = |main: &str| {
        let tu = host.unit(main).unwrap().tu;
        cufront_hir::item_ids(db, tu).iter().map(|&i| cufront_hir::item_tree_of(db, i)).collect::<Vec<_>>()
    };
    let (ta, tb) = (trees("/w/a.cu"), trees("/w/b.cu"));
    assert_eq!((ta.len(), tb.len()), (3, 3));
    // The header's struct and function: one lowered tree each for both units.
    assert!(Arc::ptr_eq(&ta[0], &tb[0]) && Arc::ptr_eq(&ta[1], &tb[1]));
    assert!(!Arc::ptr_eq(&ta[2], &tb[2]));
    let pool = db.green_pool().unwrap();
    assert_eq!(pool.stats(), cufront_base_db::PoolStats { entries: 4, owners: 2, derived: 4 });
    // Closing a unit releases what only it used.
    drop(analysis);
    host.apply_change(Change { removed_units: vec!["/w/a.cu".into()], ..Change::default() });
    assert_eq!(host.raw_database().green_pool().unwrap().stats().entries, 3);
    let hover = host.analysis().hover(&FilePosition { file: "/w/b.cu".into(), pos: LineCol { line: 1, col: 19 } });
    let markdown = hover.unwrap().expect("a hover on `len`").markdown;
    assert!(markdown.contains("float len(Vec3 v)") && markdown.contains("__device__"), "{markdown}");
}
