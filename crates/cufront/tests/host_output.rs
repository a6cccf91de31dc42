//! The drop-in test of the host output: programs compiled by the real nvcc
//! and by nvcc through `cufront toolkit overlay` (cufront as cudafe++) must
//! both succeed, give host objects with the same symbols (`nm`: name and
//! type) and the same module id.
//!
//! Corpus programs that pass are listed in `PASSING` (a regression fails the
//! test); known gaps in `KNOWN`, with a note on stderr when one starts to
//! pass (move it to `PASSING`).

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::{Program, corpus, par_map, toolkit};

/// Corpus programs that pass: a regression here fails the test.
const PASSING: &[&str] = &[
    "atomics_warp.cu",
    "bitonic_sort.cu",
    "cccl_pipeline.cu",
    "classes_ops.cu",
    "convolution2d.cu",
    "coop_groups.cu",
    "cub_block.cu",
    "cub_device.cu",
    "cxx20_concepts.cu",
    "cxx20_device.cu",
    "cxx20_ranges.cu",
    "device_vars.cu",
    "histogram.cu",
    "host_stl.cu",
    "jacobi_solver.cu",
    "job_scheduler.cu",
    "lambdas.cu",
    "libcudacxx.cu",
    "mandelbrot.cu",
    "matmul_tiled.cu",
    "monte_carlo.cu",
    "nbody.cu",
    "reduction.cu",
    "scan.cu",
    "softmax_layernorm.cu",
    "spmv_csr.cu",
    "stencil3d.cu",
    "streams_graphs.cu",
    "templates_traits.cu",
    "textures.cu",
    "thrust_basics.cu",
    "thrust_zip.cu",
    "transpose.cu",
    "variadic.cu",
    "vector_add.cu",
];

/// Corpus programs that do not pass yet, with the reason. Programs in neither
/// list (new ones) are reported on stderr without failing the test.
const KNOWN: &[(&str, &str)] = &[];

fn overlay() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("cufront-overlay-{}", std::process::id()));
        let out = Command::new(env!("CARGO_BIN_EXE_cufront"))
            .args(["toolkit", "overlay"])
            .arg(&dir)
            .arg("--cuda-path")
            .arg(toolkit().root())
            .output()
            .expect("run cufront toolkit overlay");
        assert!(
            out.status.success(),
            "overlay: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

/// What one nvcc build gives.
struct Build {
    /// `nm` of the host object: "name type", sorted.
    syms: Vec<String>,
    /// The module id file.
    id: String,
    /// The host-reference array entries (`--device-c`), in order.
    host_refs: Vec<String>,
    /// The linked program's exit status, stdout and stderr, when asked for.
    run: Option<(Option<i32>, String, String)>,
}

/// Compiles `source` with `nvcc` keeping intermediates in `dir` (and links
/// and runs the program when `link`); nvcc's stderr when a step fails.
fn compile(
    nvcc: &Path,
    source: &Path,
    std: &str,
    flags: &[String],
    dir: &Path,
    link: bool,
) -> Result<Build, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
    let obj = dir.join(format!("{stem}.o"));
    let out = Command::new(nvcc)
        .arg(format!("-std={std}"))
        .arg("-arch=sm_90")
        .args(flags)
        .arg("--keep")
        .arg("--keep-dir")
        .arg(dir)
        .arg("-c")
        .arg(source)
        .arg("-o")
        .arg(&obj)
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let nm = Command::new("nm")
        .arg(&obj)
        .output()
        .map_err(|e| e.to_string())?;
    let mut syms: Vec<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            format!("{} {}", w[w.len() - 1], w[w.len() - 2])
        })
        .collect();
    syms.sort();
    let id = std::fs::read_to_string(dir.join(format!("{stem}.module_id")))
        .map_err(|e| e.to_string())?;
    let host = std::fs::read_to_string(dir.join(format!("{stem}.cudafe1.cpp")))
        .map_err(|e| e.to_string())?;
    let host_refs = host
        .rsplit_once("#undef _NV_ANON_NAMESPACE\n")
        .map(|(_, arrays)| {
            arrays
                .lines()
                .filter(|l| l.starts_with("/* ") || l.contains("hostRef"))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let run = if link {
        Some(link_and_run(nvcc, &obj, flags, dir)?)
    } else {
        None
    };
    Ok(Build {
        syms,
        id,
        host_refs,
        run,
    })
}

/// Links the object into a program (nvcc adds the device link for `-rdc`)
/// and runs it. Without a GPU the host part runs up to its first CUDA call.
fn link_and_run(
    nvcc: &Path,
    obj: &Path,
    flags: &[String],
    dir: &Path,
) -> Result<(Option<i32>, String, String), String> {
    let exe = dir.join("prog");
    let out = Command::new(nvcc)
        .arg("-arch=sm_90")
        .args(flags.iter().filter(|f| f.starts_with("-rdc") || *f == "-G"))
        .arg(obj)
        .arg("-o")
        .arg(&exe)
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("link: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let run = Command::new("timeout")
        .arg("30")
        .arg(&exe)
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    Ok((
        run.status.code(),
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    ))
}

/// Programs whose `--device-c` host-reference arrays are not compared (their
/// symbols, id, device link and run still are), with the reason.
const ARRAYS_DIFFER: &[(&str, &str)] = &[];

/// The id's key is cudafe++'s time/process fallback (`…_<crc>_<pid>`): it
/// differs from run to run.
fn is_fallback_id(id: &str) -> bool {
    let mut parts = id.trim_end().rsplit('_');
    let pid = parts.next().unwrap_or("");
    let crc = parts.next().unwrap_or("");
    !pid.is_empty()
        && pid.bytes().all(|b| b.is_ascii_digit())
        && crc.len() == 8
        && crc.bytes().all(|b| b.is_ascii_hexdigit())
}

/// How a program is built and what is compared.
#[derive(Clone, Copy)]
struct Mode {
    flags: &'static [&'static str],
    /// Link both objects and compare what the programs do.
    link: bool,
}

const WHOLE: Mode = Mode {
    flags: &[],
    link: false,
};
const RDC: Mode = Mode {
    flags: &["-rdc=true"],
    link: true,
};
const DEBUG: Mode = Mode {
    flags: &["-G"],
    link: false,
};

/// Real vs overlay for one source: `Ok(())` when equal, else what differs.
fn compare(
    source: &Path,
    std: &str,
    flags: &[String],
    mode: Mode,
    work: &Path,
) -> Result<(), String> {
    let flags: Vec<String> = flags
        .iter()
        .cloned()
        .chain(mode.flags.iter().map(|f| f.to_string()))
        .collect();
    let real = compile(
        &toolkit().nvcc(),
        source,
        std,
        &flags,
        &work.join("real"),
        mode.link,
    )
    .map_err(|e| format!("the real nvcc failed: {e}"))?;
    let ours = compile(
        &overlay().join("bin/nvcc"),
        source,
        std,
        &flags,
        &work.join("ours"),
        mode.link,
    )
    .map_err(|e| {
        format!(
            "nvcc through the overlay failed: {}",
            e.lines().take(5).collect::<Vec<_>>().join("\n")
        )
    })?;
    // The fallback id cannot repeat; both sides must have used it, and the
    // symbols that embed it are compared with it masked.
    let masked = |b: &Build| -> Build {
        let id = b.id.trim_end();
        let mask = |v: &[String]| v.iter().map(|s| s.replace(id, "<id>")).collect();
        Build {
            syms: mask(&b.syms),
            id: String::new(),
            host_refs: mask(&b.host_refs),
            run: b.run.clone(),
        }
    };
    let (real, ours) = if is_fallback_id(&real.id) {
        if !is_fallback_id(&ours.id) {
            return Err(format!(
                "module id {:?}: the real one is the fallback {:?}",
                ours.id, real.id
            ));
        }
        (masked(&real), masked(&ours))
    } else {
        if real.id != ours.id {
            return Err(format!("module id {:?} != real {:?}", ours.id, real.id));
        }
        (real, ours)
    };
    let (real_syms, our_syms) = (&real.syms, &ours.syms);
    if real_syms != our_syms {
        let only_real: Vec<&String> = real_syms
            .iter()
            .filter(|s| !our_syms.contains(s))
            .take(5)
            .collect();
        let only_ours: Vec<&String> = our_syms
            .iter()
            .filter(|s| !real_syms.contains(s))
            .take(5)
            .collect();
        return Err(format!(
            "symbols differ: only real {only_real:?}, only ours {only_ours:?}"
        ));
    }
    let name = source.file_name().unwrap_or_default().to_string_lossy();
    if real.host_refs != ours.host_refs && !ARRAYS_DIFFER.iter().any(|(n, _)| *n == name) {
        return Err(format!(
            "host-reference arrays differ:\nreal {:?}\nours {:?}",
            real.host_refs, ours.host_refs
        ));
    }
    if real.run != ours.run {
        return Err(format!(
            "the linked programs behave differently:\nreal {:?}\nours {:?}",
            real.run, ours.run
        ));
    }
    Ok(())
}

/// Small programs, one per host-output rule.
const FOCUSED: &[(&str, &str)] = &[
    (
        "kernel.cu",
        "__global__ void k(int *p, float f) { p[0] = (int)f; }\nint main() { k<<<1, 2>>>(0, 1.0f); }\n",
    ),
    (
        "tmpl_kernel.cu",
        "template <typename T, int N> __global__ void kt(T *p, T v) { p[N] = v; }\n\
         template <typename... Ts> __global__ void kv(Ts... ts) {}\n\
         int main() { kt<float, 3><<<1, 1, 0, 0>>>(0, 2.0f); kv<<<1, 1>>>(1, 2.0); kv<<<1, 1>>>(); }\n",
    ),
    (
        "device_fn.cu",
        "__device__ int dfunc(int a, float b) { return a + (int)b; }\n\
         static __device__ int dstatic(int x) { return x; }\n\
         struct W { __device__ W(int x) : v(x) {} __device__ int get() const; int v; };\n\
         __device__ int W::get() const { return v; }\n\
         __host__ __device__ int hd(int x) { return x + 1; }\n\
         __device__ constexpr int dce(int x) { return x; }\n\
         __global__ void k(int *p) { W w(1); p[0] = dfunc(1, 2.0f) + dstatic(1) + w.get() + hd(2) + dce(3); }\n\
         int main() { return hd(1); }\n",
    ),
    (
        "device_vars.cu",
        "__device__ int d_int;\n__constant__ double c_dbl = 3.0;\n__device__ const int d_const = 7;\n\
         static __device__ int d_static;\nnamespace nsA { __device__ float d_ns[4]; }\n\
         __global__ void k(int *p) { p[0] = d_int + (int)c_dbl + d_const + d_static + (int)nsA::d_ns[0]; }\n\
         int main() { int h = 0; cudaMemcpyToSymbol(d_int, &h, sizeof h); }\n",
    ),
    (
        "managed.cu",
        "namespace N { __managed__ double md; }\n__managed__ int m_int = 5;\n__managed__ float marr[4][8];\n\
         struct P { int a; };\n__managed__ P mp;\nstatic __managed__ int *mptr;\n\
         int f(int m_int) { return m_int; }\n\
         int main() { m_int = 3; N::md = 2.0; float *q = &marr[1][2]; decltype((mp)) r = mp;\n\
         return mp.a + r.a + (int)*q + (int)sizeof marr + (mptr ? 1 : 0); }\n",
    ),
    (
        "noinline.cu",
        "#include <memory>\n__device__ __noinline__ float lookup(float x) { return x; }\n\
         __global__ void k(float *p) { p[0] = lookup(p[1]); }\n\
         int main() { auto s = std::make_shared<int>(1); k<<<1, 1>>>(0); return *s; }\n",
    ),
    (
        "host_refs.cu",
        "__global__ void zz_kernel() {}\n__global__ void unused_kernel() {}\nstatic __global__ void k_static() {}\n\
         extern \"C\" __global__ void kc() {}\n\
         namespace nsA { __global__ void k_ns() {} __device__ int d_ns; }\n\
         namespace { __constant__ int c_anon; }\n\
         template <class T> __global__ void k_t(T) {}\n\
         __device__ int d_ext; static __device__ int d_int_static;\n__managed__ int m;\n\
         __device__ int only_device; __device__ void df() { only_device = 1; }\n\
         int f(int *a, int *b, int c, int d, int e) { return (a == b) + c + d + e; }\n\
         int main() { zz_kernel<<<1, 1>>>(); k_static<<<1, 1>>>(); kc<<<1, 1>>>(); nsA::k_ns<<<1, 1>>>();\n\
         k_t<<<1, 1>>>(1); k_t<int><<<1, 1>>>(1); return f(&d_ext, &nsA::d_ns, c_anon, d_int_static, m); }\n",
    ),
    (
        "friends_and_specializations.cu",
        "struct S { int a; friend __device__ int f(S s) { return s.a; }\n\
         friend __host__ __device__ bool operator==(S x, S y) { return x.a == y.a; }\n\
         template <class T> friend __device__ T g(S s, T t) { return t; } };\n\
         template <class T> __global__ void kt(T *p) { *p = T(); }\n\
         template <> __global__ void kt<float>(float *p) { *p = 1.0f; }\n\
         template <class T> __device__ T dt(T x);\ntemplate <> __device__ int dt<int>(int x) { return x; }\n\
         __global__ void k(S s, int *o) { *o = f(s) + g(s, 1) + dt(1); }\n\
         int main() { S a{1}, b{2}; float *fp = 0; kt<<<1, 1>>>(fp); kt<<<1, 1>>>((int *)0); return a == b; }\n",
    ),
    (
        "anon_ns.cu",
        "namespace { __global__ void ka(int x) {} __device__ int av; struct Loc { int a; }; }\n\
         namespace outer { namespace { __global__ void kb() {} } }\n\
         int key = 1;\nint main() { ka<<<1, 1>>>(av); outer::kb<<<1, 1>>>(); }\n",
    ),
    (
        "linkage.cu",
        "extern \"C\" __global__ void kc(int *p) {}\nstatic __global__ void ks(int *p) {}\n\
         namespace n1 { namespace n2 { struct D { int a; }; __global__ void kn(D d, const D *pd) {} } }\n\
         int main() { kc<<<1, 1>>>(0); ks<<<1, 1>>>(0); n1::n2::kn<<<1, 1>>>(n1::n2::D{}, 0); }\n",
    ),
    (
        "math.cu",
        "#include <cmath>\n#include <cstdio>\n__global__ void k(float *p) { p[0] = sqrtf(p[0]) + std::abs(p[1]); }\n\
         struct S { S(); int m() const; };\nS::S() {}\nint S::m() const { return 1; }\n\
         int main() { printf(\"%f\\n\", std::sqrt(2.0)); }\n",
    ),
];

/// Runs `programs` (name, source, standard, flags) in `mode`; the failures.
fn run_all(
    programs: &[(String, PathBuf, String, Vec<String>)],
    mode: Mode,
    tag: &str,
) -> Vec<(String, Result<(), String>)> {
    let work = std::env::temp_dir().join(format!("cufront-host-{tag}-{}", std::process::id()));
    let results = par_map(programs, |(name, path, std, flags)| {
        compare(
            path,
            std,
            flags,
            mode,
            &work.join(name.trim_end_matches(".cu")),
        )
    });
    let _ = std::fs::remove_dir_all(&work);
    programs
        .iter()
        .zip(results)
        .map(|((n, ..), r)| (n.clone(), r.unwrap_or_else(|p| Err(format!("panic {p}")))))
        .collect()
}

fn focused(mode: Mode, tag: &str) {
    let dir = std::env::temp_dir().join(format!("cufront-host-src-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let programs: Vec<(String, PathBuf, String, Vec<String>)> = FOCUSED
        .iter()
        .map(|(name, text)| {
            let src = dir.join(name);
            std::fs::write(&src, text).unwrap();
            (name.to_string(), src, "c++17".to_string(), Vec::new())
        })
        .collect();
    let failures: Vec<String> = run_all(&programs, mode, tag)
        .into_iter()
        .filter_map(|(n, r)| r.err().map(|e| format!("{n}: {e}")))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn focused_programs_match_the_real_build() {
    focused(WHOLE, "focused");
}

/// `-rdc=true`: also the host-reference arrays, the device link and what
/// the linked programs do.
#[test]
fn focused_programs_match_the_real_build_with_rdc() {
    focused(RDC, "focused-rdc");
}

/// Corpus programs in `mode`: those in `PASSING` must pass; `KNOWN` ones
/// that start passing and programs in neither list are notes on stderr.
fn corpus_in(mode: Mode, tag: &str, subset: Option<&[&str]>) {
    let programs: Vec<(String, PathBuf, String, Vec<String>)> = corpus()
        .into_iter()
        .filter(|p: &Program| subset.is_none_or(|s| s.contains(&p.name.as_str())))
        .map(|p| {
            (
                p.name.clone(),
                p.path.clone(),
                p.stds[0].as_str().to_string(),
                p.flags.clone(),
            )
        })
        .collect();
    if let Some(s) = subset {
        assert_eq!(
            programs.len(),
            s.len(),
            "a subset program is missing from the corpus"
        );
    }
    let mut problems = Vec::new();
    for (name, r) in run_all(&programs, mode, tag) {
        let known = KNOWN.iter().find(|(n, _)| *n == name);
        let passing = PASSING.contains(&name.as_str());
        match (r, known) {
            // Fixed elsewhere (e.g. by a parser change): a note, not a failure.
            (Ok(()), Some((_, why))) => {
                eprintln!("{name} ({tag}) now passes: move it from KNOWN ({why}) to PASSING")
            }
            (Ok(()), None) if !passing => {
                eprintln!("{name} ({tag}): passes (new program: add it to PASSING)")
            }
            (Ok(()), None) => {}
            (Err(_), Some(_)) => {}
            (Err(e), None) if passing => problems.push(format!("{name} ({tag}): {e}")),
            (Err(e), None) => eprintln!("{name} ({tag}): does not pass (new program): {e}"),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn corpus_matches_the_real_build() {
    corpus_in(WHOLE, "corpus", None);
}

/// The whole corpus through cicc three times is too slow for one test run;
/// the `-rdc` and `-G` builds use a representative subset (CCCL-heavy
/// programs included).
const RDC_SUBSET: &[&str] = &[
    "atomics_warp.cu",
    "classes_ops.cu",
    "coop_groups.cu",
    "cub_block.cu",
    "cub_device.cu",
    "cxx20_ranges.cu",
    "device_vars.cu",
    "host_stl.cu",
    "job_scheduler.cu",
    "streams_graphs.cu",
    "templates_traits.cu",
    "variadic.cu",
];

const DEBUG_SUBSET: &[&str] = &[
    "classes_ops.cu",
    "cub_block.cu",
    "device_vars.cu",
    "reduction.cu",
    "templates_traits.cu",
];

#[test]
fn corpus_subset_matches_the_real_build_with_rdc() {
    corpus_in(RDC, "corpus-rdc", Some(RDC_SUBSET));
}

#[test]
fn corpus_subset_matches_the_real_build_with_debug() {
    corpus_in(DEBUG, "corpus-g", Some(DEBUG_SUBSET));
}
