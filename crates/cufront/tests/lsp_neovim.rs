//! `cufront lsp` with a real editor as the client: headless neovim
//! (`editors/neovim/e2e.sh`, which installs the Debian package when it is
//! missing) opens a `.cu` file of a folder with `compile_commands.json` and
//! receives cufront's diagnostics, hover and definition.

use std::path::Path;
use std::process::Command;

const HEADER: &str = "#pragma once\n__device__ inline float twice(float x) { return 2.0f * x; }\n";
const MAIN: &str = r#"#include "util.cuh"

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * twice(x[i]) + y[i]
}

int main() {
  saxpy<<<1, 32>>>(2.0f, nullptr, nullptr, 32);
}
"#;

#[test]
fn neovim_receives_diagnostics_hover_and_definition() {
    let tk = cufront_tests::toolkit();
    let dir = std::env::temp_dir().join(format!("cufront-nvim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("util.cuh"), HEADER).unwrap();
    std::fs::write(dir.join("main.cu"), MAIN).unwrap();
    let cc = format!(
        r#"[{{"directory": "{}", "file": "main.cu", "arguments": ["nvcc", "-std=c++17", "-arch=sm_90", "-c", "main.cu", "-o", "main.o"]}}]"#,
        dir.display()
    );
    std::fs::write(dir.join("compile_commands.json"), cc).unwrap();
    let out = dir.join("out.tsv");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../editors/neovim/e2e.sh");
    let status = Command::new("bash")
        .arg(&script)
        .env("CUFRONT", env!("CARGO_BIN_EXE_cufront"))
        .env("CUDA_PATH", tk.root())
        .env("WORKSPACE", &dir)
        .env("FILE", dir.join("main.cu"))
        // `saxpy<<<` on line 9; `twice(` on line 5 (0-based 8 and 4).
        .env("HOVER_LINE", "8")
        .env("HOVER_COL", "2")
        .env("DEF_LINE", "4")
        .env("DEF_COL", "25")
        .env("OUT", &out)
        .status()
        .expect("bash runs");
    assert!(status.success(), "e2e.sh failed: {status}");
    let got = std::fs::read_to_string(&out).expect("neovim wrote its results");
    let lines: Vec<&str> = got.lines().collect();
    assert!(lines.contains(&"client\ttrue"), "{got}");
    assert!(lines.contains(&"diagnostics_received\ttrue"), "{got}");
    assert!(lines.contains(&"diagnostic\t6:1 65 expected a \";\""), "{got}");
    let hover = lines.iter().find(|l| l.starts_with("hover\t")).unwrap_or_else(|| panic!("no hover: {got}"));
    assert!(hover.contains("__global__ void saxpy(float a, const float *x, float *y, int n)"), "{hover}");
    assert!(hover.contains("kernel (`__global__`)"), "{hover}");
    let want = format!("definition\t{}:2:25", dir.join("util.cuh").display());
    assert!(lines.contains(&want.as_str()), "{got}");
    let _ = std::fs::remove_dir_all(&dir);
}
