//! Differential test of the module id's key (spec 30 §4.2) against the real
//! cudafe++: small hand-written units, generated here, run through the real
//! cudafe++ and `cufront cudafe++` with the same options
//! (`--gen_module_id_file`); the id files must be equal.
//!
//! The units cover where an entity counts as being in a system header: at
//! its declarator-id's last component, not at the start of its declaration.
//! gcc's preprocessor splits a definition that way when its first tokens
//! come from a macro defined outside the system header (CCCL's
//! `_CCCL_HOST_DEVICE` expands through `crt/host_defines.h`), which is how
//! thrust's `cuda/custom_temporary_allocation.cu` met it:
//! `thrust::cuda_cub::malloc(size_t)` in `memory.inl` is not the key, `main`
//! is.

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::toolkit;

/// A scratch folder for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-module-id-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The id file `exe` writes for `dir/NAME.ii` (`exe` is the real cudafe++,
/// or cufront with `cudafe++` as its first argument).
fn id_of(exe: &Path, pre: &[&str], dir: &Path, name: &str, side: &str) -> String {
    let id = format!("{name}.{side}.id");
    let out = Command::new(exe)
        .args(pre)
        .args(["--c++17", "--gnu_version=120200", "--orig_src_file_name", "t.cu", "--orig_src_path_name"])
        .args(["/src/t.cu", "--m64", "--parse_templates", "--gen_c_file_name"])
        .arg(format!("{name}.{side}.cpp"))
        .args(["--stub_file_name", &format!("{name}.{side}.stub.c"), "--gen_module_id_file", "--module_id_file_name"])
        .arg(&id)
        .arg(format!("{name}.ii"))
        .current_dir(dir)
        .output()
        .expect("run");
    assert!(out.status.success(), "{side} on {name}: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(dir.join(id)).unwrap()
}

/// `# 1 "sys.h" 1 3` then the lines of `sys` (a line `@user` switches to a
/// non-system line of the same file, `@sys` back), then `main` in `t.cu`.
fn unit(before: &str, sys: &str) -> String {
    let mut out = format!("# 1 \"t.cu\"\n{before}\n# 1 \"sys.h\" 1 3\n");
    for line in sys.lines() {
        match line {
            "@user" => out.push_str("# 5 \"sys.h\"\n"),
            "@sys" => out.push_str("# 5 \"sys.h\" 3\n"),
            l => {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    out.push_str("# 2 \"t.cu\" 2\nint main() { return 0; }\n");
    out
}

#[test]
fn system_header_entities_are_placed_at_their_names() {
    let cases: &[(&str, &str, &str)] = &[
        // CCCL's shape: the attributes on a user line, the rest in the header.
        ("attrs", "", "@user\n__attribute__((host)) __attribute__((device))\n@sys\nint f(int n) { return n; }"),
        ("type_user", "", "@user\nint\n@sys\nf(int n) { return n; }"),
        ("name_user", "", "int\n@user\nf(int n)\n@sys\n{ return n; }"),
        ("body_user", "", "int f(int n)\n@user\n{ return n; }"),
        ("var_type_user", "", "@user\nint\n@sys\nv = 1;"),
        ("var_name_user", "", "int\n@user\nv = 1;"),
        ("ptr_user", "", "@user\nint *\n@sys\np = 0;"),
        ("qualifier_sys", "namespace N { int f(int); }", "int N::\n@user\nf(int n) { return n; }"),
        ("qualifier_user", "namespace N { int f(int); }", "@user\nint N::\n@sys\nf(int n) { return n; }"),
        ("operator_user", "struct S {};", "@user\nint operator\n@sys\n+(S, S) { return 0; }"),
        ("operator_sys", "struct S {};", "int operator\n@user\n+(S, S) { return 0; }"),
        ("second_declarator", "", "int a = 1,\n@user\nb = 2;"),
    ];
    let dir = scratch("system");
    let real = toolkit().cudafe();
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_cufront"));
    let mut diffs = Vec::new();
    for (name, before, sys) in cases {
        let text = unit(before, sys);
        std::fs::write(dir.join(format!("{name}.ii")), &text).unwrap();
        let want = id_of(&real, &[], &dir, name, "real");
        let got = id_of(&ours, &["cudafe++"], &dir, name, "ours");
        if want != got {
            diffs.push(format!("{name}: cudafe++ {want}, cufront {got}\n{text}"));
        }
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
