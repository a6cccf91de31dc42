//! `cufront device`'s command line: errors as cicc reports them (status 1,
//! a catastrophic error on stderr, no output written), back-end options
//! ignored, `-o` never written; `cufront inspect device`.

use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-device-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn device(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cufront")).arg("device").args(args).current_dir(dir).output().unwrap()
}

const UNIT: &str = "# 1 \"a.cu\"\n__attribute__((global)) void k(int *p) { }\n";

#[test]
fn unreadable_input_is_a_catastrophic_error() {
    let dir = scratch("input");
    let out = device(&dir, &["--stub_file_name", "s.c", "--gen_device_file_name", "g.gpu", "nope.ii", "-o", "x.ptx"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("Catastrophic error: cannot open source file \"nope.ii\"\n"), "{err}");
    assert!(err.ends_with("Compilation terminated.\n"), "{err}");
    assert!(!dir.join("s.c").exists() && !dir.join("g.gpu").exists() && !dir.join("x.ptx").exists());
}

#[test]
fn unreadable_module_id_file_is_a_catastrophic_error() {
    let dir = scratch("mid");
    std::fs::write(dir.join("a.ii"), UNIT).unwrap();
    let out = device(&dir, &["--module_id_file_name", "nope.id", "--stub_file_name", "s.c", "a.ii"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open module id file \"nope.id\""));
    assert!(!dir.join("s.c").exists());
}

#[test]
fn back_end_options_are_ignored_and_no_ptx_is_written() {
    let dir = scratch("ok");
    std::fs::write(dir.join("a.ii"), UNIT).unwrap();
    std::fs::write(dir.join("a.module_id"), "_0_4_a_cu_k").unwrap();
    let out = device(
        &dir,
        &[
            "--c++17",
            "-arch",
            "compute_90",
            "-m64",
            "-ftz=0",
            "-prec_div=1",
            "--include_file_name",
            "a.fatbin.c",
            "-tused",
            "--module_id_file_name",
            "a.module_id",
            "--stub_file_name",
            "a.stub.c",
            "--gen_device_file_name",
            "a.gpu",
            "a.ii",
            "-o",
            "a.ptx",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stub = std::fs::read_to_string(dir.join("a.stub.c")).unwrap();
    assert!(stub.contains("#include \"a.fatbin.c\"\n"), "{stub}");
    assert!(stub.contains("__cudaRegisterEntry(__T0, ((void ( *)(int *))k), _Z1kPi, (-1));"), "{stub}");
    assert_eq!(std::fs::read_to_string(dir.join("a.gpu")).unwrap().lines().nth(1), Some("kernel _Z1kPi (a kernel)"));
    assert!(!dir.join("a.ptx").exists());
    let inspect =
        Command::new(env!("CARGO_BIN_EXE_cufront")).args(["inspect", "device"]).arg(dir.join("a.ii")).output().unwrap();
    assert!(inspect.status.success());
    assert!(String::from_utf8_lossy(&inspect.stdout).contains("kernel _Z1kPi (a kernel)\n"));
}

#[test]
fn a_missing_option_value_is_an_error() {
    let dir = scratch("value");
    let out = device(&dir, &["a.ii", "--stub_file_name"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`--stub_file_name` needs a value"));
}

#[test]
fn the_device_il_is_written_in_both_forms() {
    let dir = scratch("il");
    std::fs::write(dir.join("a.ii"), UNIT).unwrap();
    let out = device(&dir, &["--device_il", "a.il", "--device_il_binary", "a.ilb", "a.ii", "-o", "a.ptx"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(dir.join("a.il")).unwrap();
    assert_eq!(text, "; cufront device IL v1\nkernel _Z1kPi($0 p: int*) -> void\n  {\n  }\n");
    let module = cufront_device::il_binary::decode(&std::fs::read(dir.join("a.ilb")).unwrap()).unwrap();
    assert_eq!(module.to_string(), text);
    let inspect = Command::new(env!("CARGO_BIN_EXE_cufront"))
        .args(["inspect", "device", "--il"])
        .arg(dir.join("a.ii"))
        .output()
        .unwrap();
    assert!(inspect.status.success());
    assert_eq!(String::from_utf8_lossy(&inspect.stdout), text);
    // An unwritable IL file is a catastrophic error, as cicc reports one.
    let out = device(&dir, &["--stub_file_name", "s.c", "--device_il", "no/such/dir/a.il", "a.ii"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open output file \"no/such/dir/a.il\""));
}
