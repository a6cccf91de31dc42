//! The toolkit against itself: our replay of nvcc's host preprocessing step
//! must give the very file `nvcc --keep` leaves behind.

use std::path::PathBuf;
use std::process::Command;

use cufront_toolkit::{CompileOptions, Locate, Std, StepKind};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-toolkit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SOURCE: &str = r#"#include <cstdio>
template <typename F> __global__ void apply(F f, int n) { int i = threadIdx.x; if (i < n) f(i); }
__device__ int counter;
int main() {
    int *d = nullptr;
    cudaMalloc(&d, 64);
    auto f = [=] __device__ (int i) { d[i] = i * 2; atomicAdd(&counter, 1); };
    apply<<<1, 16>>>(f, 16);
    std::printf("%d\n", cudaDeviceSynchronize());
}
"#;

#[test]
fn host_preprocessing_matches_nvcc_keep() {
    let tk = cufront_toolkit::find_or_fetch(&Locate { require_pinned: true, ..Locate::default() })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tk.version(), "13.0.88");
    let dir = scratch("keep");
    let src = dir.join("lam.cu");
    std::fs::write(&src, SOURCE).unwrap();
    let mut opts = CompileOptions::new(Std::Cxx17);
    opts.flags.push("--extended-lambda".into());

    let ours = tk.preprocess_host(&src, &opts, &dir.join("ours")).unwrap_or_else(|e| panic!("{e}"));

    let keep = dir.join("nvcc");
    std::fs::create_dir_all(&keep).unwrap();
    let status = Command::new(tk.nvcc())
        .args(opts.nvcc_args())
        .arg("--keep")
        .arg("--keep-dir")
        .arg(&keep)
        .arg("-c")
        .arg(&src)
        .arg("-o")
        .arg(keep.join("lam.o"))
        .status()
        .unwrap();
    assert!(status.success());
    let theirs = std::fs::read(keep.join("lam.cpp4.ii")).unwrap();
    let ours_text = std::fs::read(&ours).unwrap();
    assert!(ours_text == theirs, "host .ii differs from nvcc --keep's ({} vs {} bytes)", ours_text.len(), theirs.len());
    assert!(String::from_utf8_lossy(&ours_text).contains("__attribute__((global))"));

    // The cudafe++ step is there, with the real binary and nvcc's flags.
    let pipeline = tk.dryrun(&src, &opts, &dir.join("ours")).unwrap();
    let cudafe = pipeline.step(StepKind::Cudafe).expect("a cudafe++ step");
    assert_eq!(PathBuf::from(&cudafe.argv[0]), tk.cudafe());
    assert!(cudafe.argv.iter().any(|a| a == "--extended-lambda"));
    assert!(cudafe.argv.iter().any(|a| a == "--c++17"));
    assert_eq!(cudafe.argv.last().map(PathBuf::from), Some(pipeline.intermediate("cpp4.ii")));
    // And it runs: the real front end accepts what we preprocessed.
    pipeline.run(StepKind::Cudafe).unwrap_or_else(|e| panic!("{e}"));
    assert!(pipeline.intermediate("cudafe1.cpp").is_file());
    assert!(pipeline.intermediate("module_id").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn real_nvcc_reports_errors() {
    let tk = cufront_toolkit::find_or_fetch(&Locate { require_pinned: true, ..Locate::default() })
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch("bad");
    let src = dir.join("bad.cu");
    std::fs::write(&src, "__global__ void k() { int x = ; }\n").unwrap();
    let err = tk.compile(&src, &CompileOptions::new(Std::Cxx17), &dir.join("bad.o")).unwrap_err();
    assert!(err.to_string().contains("expected an expression"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
