//! The field check's CI subset (`tests/field/run.sh`, README there): real
//! CUDA code this project did not write, built by the real nvcc and by nvcc
//! with this binary as its cudafe++, whole-program, device code as PTX only
//! (`--quick`: the host side, what is compared, is unchanged). One unit of
//! ggml's CUDA backend (llama.cpp's, from the `llama-cpp-python` sdist),
//! one CuTe tutorial and CUTLASS's Hopper example 48 (the `nvidia-cutlass`
//! wheel). The sources come from
//! PyPI by package name at pinned versions (`--strict`: a package that
//! cannot be fetched fails the test) and are cached with the real builds
//! under `~/.cache/cufront/field` (`CUFRONT_FIELD_CACHE`), so a warm run
//! builds only cufront's side. The full run stays a script.

use std::process::Command;

use cufront_tests::{toolkit, workspace_root};

/// The units, as `run.sh` names them (package, path under its sources).
/// CUTLASS's example 48 is the sm90 collective-builder path (automatic
/// schedule and stage count, CuTe's compile-time arithmetic): its module
/// id is keyed on a global whose type only that path computes.
const UNITS: &[(&str, &str)] = &[
    ("llama-cpp-python", "concat.cu"),
    ("nvidia-cutlass", "cute/tutorial/tiled_copy.cu"),
    ("nvidia-cutlass", "48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm.cu"),
];

#[test]
fn field_subset_builds_like_the_real_nvcc() {
    // The script asks the binary for the toolkit: make sure it is there.
    toolkit();
    let only = format!("/({})$", UNITS.iter().map(|(_, f)| f.replace('.', "\\.")).collect::<Vec<_>>().join("|"));
    let packages = format!("^({})$", UNITS.iter().map(|(p, _)| *p).collect::<Vec<_>>().join("|"));
    let out = Command::new("bash")
        .arg(workspace_root().join("tests/field/run.sh"))
        .args(["--quick", "--strict", "--mode", "whole", "-j", "2", "--packages", &packages, "--only", &only])
        .env("CUFRONT", env!("CARGO_BIN_EXE_cufront"))
        .output()
        .expect("run tests/field/run.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "run.sh failed ({}):\n{stdout}\n{stderr}", out.status);
    // Rows: package file mode real parse ours symbols= id=.
    let mut failures = Vec::new();
    for (pkg, file) in UNITS {
        let row = stdout
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|w| w.len() == 8 && w[0] == *pkg && w[1] == *file && w[2] == "whole");
        match row {
            None => failures.push(format!("{pkg} {file}: no row")),
            Some(w) => {
                let (real, parse, ours, syms, id) = (w[3], w[4], w[5], w[6], w[7]);
                if real != "ok" || parse != "yes" || ours != "ok" || syms != "yes" || !matches!(id, "yes" | "fallback")
                {
                    failures.push(format!(
                        "{pkg} {file}: real {real}, parse {parse}, ours {ours}, symbols {syms}, id {id}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n\n{stdout}\nlogs under ~/.cache/cufront/field/work/<package>/<file>/whole/{{real,ours}}/log",
        failures.join("\n")
    );
}
