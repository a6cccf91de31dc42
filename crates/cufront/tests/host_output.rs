//! The drop-in test of the host output. Every program is built by the real
//! nvcc and with cufront as its cudafe++, in three modes: whole program,
//! `-rdc=true` and `-G`. Both builds must succeed (or both be rejected),
//! give host objects with the same symbols (`nm`: name and type) and the
//! same module id, under `-rdc` the same host-reference arrays, and linked
//! programs that behave the same (exit status, stdout, stderr; without a GPU
//! the host part runs up to its first CUDA call).
//!
//! How cufront's side is built:
//! - Whole program, and the focused programs in every mode: nvcc through
//!   `cufront toolkit overlay` (the whole pipeline, the overlay's own paths
//!   and all).
//! - `-rdc=true` and `-G` corpus builds: a replay of the real build, because
//!   running the device steps twice (cicc, and ptxas above all, most of a
//!   CCCL build's time, and more under `-G`) would make three modes too
//!   slow for CI. The only step the overlay changes is cudafe++, and later
//!   steps read two of the files it writes: the module id (cicc, via
//!   `--module_id_file_name`) and `x.cudafe1.cpp` (the host compile; it
//!   includes the stub `x.cudafe1.stub.c` that cicc writes, which includes
//!   the fatbinary). So the replay runs nvcc's own cudafe++ command line
//!   (`nvcc --dryrun`, same flags) through the overlay's cudafe++ on the
//!   real build's `x.cpp4.ii`; when the module id file it writes is byte for
//!   byte the real one, every device step would get the same arguments and
//!   files as in the real build, so its outputs are the real build's, and
//!   only the host compile runs again, on cufront's `x.cudafe1.cpp` next to
//!   the real stub and fatbinary. The replay checks that premise on nvcc's
//!   step list (a later step that names a file cudafe++ writes must be cicc
//!   reading the module id or the host compile reading `x.cudafe1.cpp`, else
//!   the test fails), and falls back to a full overlay build where the ids
//!   cannot match: the real id is cudafe++'s time/process fallback, which
//!   no second run repeats. (A different non-fallback id is a failure
//!   either way.) The overlay's own paths are covered by the whole-program
//!   builds.
//! - A program the real nvcc rejects must be rejected through the overlay
//!   too (a full overlay build, which must fail).
//!
//! The real builds of corpus programs are cached (`cached_dir`, keyed by
//! the toolkit version, the host compiler's version, the source's path and
//! text, the standard, the flags and the mode): what is compared
//! (`build.json`), and for a replay the files it reads (`x.cpp4.ii`, the
//! stub, the fatbinary, the module id). So a warm run builds only cufront's
//! side. The focused programs live in a fresh folder each run; they are
//! built every time.
//!
//! Corpus programs that pass are listed in `PASSING` (a regression fails the
//! test); known gaps in `KNOWN`, with a note on stderr when one starts to
//! pass (move it to `PASSING`).

use std::path::{Path, PathBuf};
use std::process::Command;

use cufront_tests::{CompileOptions, Program, Std, StepKind, cache_key, cached_dir, corpus, par_map, toolkit};
use serde_json::{Value, json};

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
    "explicit_instances.cu",
    "histogram.cu",
    "host_callables.cu",
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

/// Corpus programs that do not pass yet in a mode (`Mode::name`), with the
/// reason; a `PASSING` program listed here is exempt in that mode only.
/// Programs in neither list (new ones) are reported on stderr without
/// failing the test.
const KNOWN: &[(&str, &str, &str)] = &[];

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
        assert!(out.status.success(), "overlay: {}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// What one build gives.
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

/// Compiles `source` with `nvcc` to `dir/STEM.o`, keeping intermediates in
/// `dir`; nvcc's stderr when it fails.
fn nvcc_compile(nvcc: &Path, source: &Path, std: &str, flags: &[String], dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
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
        .arg(dir.join(format!("{stem}.o")))
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(())
}

/// What the build in `dir` gave (`STEM.o`, `STEM.module_id`,
/// `STEM.cudafe1.cpp`); links the object with `nvcc` and runs the program
/// when `link`.
fn inspect(nvcc: &Path, stem: &str, flags: &[String], dir: &Path, link: bool) -> Result<Build, String> {
    let obj = dir.join(format!("{stem}.o"));
    let nm = Command::new("nm").arg(&obj).output().map_err(|e| e.to_string())?;
    if !nm.status.success() {
        return Err(format!("nm: {}", String::from_utf8_lossy(&nm.stderr)));
    }
    let mut syms: Vec<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            format!("{} {}", w[w.len() - 1], w[w.len() - 2])
        })
        .collect();
    syms.sort();
    let id = std::fs::read_to_string(dir.join(format!("{stem}.module_id"))).map_err(|e| e.to_string())?;
    let host = std::fs::read_to_string(dir.join(format!("{stem}.cudafe1.cpp"))).map_err(|e| e.to_string())?;
    let host_refs = host
        .rsplit_once("#undef _NV_ANON_NAMESPACE\n")
        .map(|(_, arrays)| {
            arrays.lines().filter(|l| l.starts_with("/* ") || l.contains("hostRef")).map(str::to_string).collect()
        })
        .unwrap_or_default();
    let run = if link { Some(link_and_run(nvcc, &obj, flags, dir)?) } else { None };
    Ok(Build { syms, id, host_refs, run })
}

/// Links the object into a program (nvcc adds the device link for `-rdc`)
/// and runs it. Without a GPU the host part runs up to its first CUDA call.
/// The time limit is generous: some host parts compute a reference result
/// first, and a loaded CI machine slows them (histogram took over 30 s at a
/// load average of 19).
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
    let run = Command::new("timeout").arg("120").arg(&exe).current_dir(dir).output().map_err(|e| e.to_string())?;
    Ok((
        run.status.code(),
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    ))
}

fn build_to_json(b: &Build) -> String {
    let run = b.run.as_ref().map(|(code, out, err)| json!({"code": code, "stdout": out, "stderr": err}));
    json!({"syms": b.syms, "id": b.id, "host_refs": b.host_refs, "run": run}).to_string()
}

fn build_from_json(text: &str) -> Result<Build, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let strings = |v: &Value| -> Vec<String> {
        v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let run =
        v["run"].as_object().map(|r| (r["code"].as_i64().map(|c| c as i32), text(&r["stdout"]), text(&r["stderr"])));
    Ok(Build { syms: strings(&v["syms"]), id: text(&v["id"]), host_refs: strings(&v["host_refs"]), run })
}

/// The host compiler nvcc runs (`gcc`), as `gcc --version` names it.
fn gcc_version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        Command::new("gcc")
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string())
            .unwrap_or_default()
    })
}

/// What the real nvcc made of a program.
enum Real {
    /// What is compared, and the folder of its kept intermediates.
    Built(Build, PathBuf),
    /// nvcc's stderr.
    Rejected(String),
}

/// The real build of `source` in `mode` (`flags` include the mode's):
/// cached when `cache` (see the module docs), else made in `work/real`.
fn real_build(
    source: &Path,
    std: &str,
    flags: &[String],
    mode: Mode,
    cache: bool,
    work: &Path,
) -> Result<Real, String> {
    let nvcc = toolkit().nvcc();
    let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
    let make = |dir: &Path| -> Result<(), String> {
        if let Err(e) = nvcc_compile(&nvcc, source, std, flags, dir) {
            // A diagnostic is a rejection, kept like a build; anything else
            // (a killed tool) is a failure, not cached.
            if !e.contains("error") {
                return Err(format!("the real nvcc failed: {e}"));
            }
            return std::fs::write(dir.join("rejected"), e).map_err(|e| e.to_string());
        }
        let build = inspect(&nvcc, &stem, flags, dir, mode.link).map_err(|e| format!("the real build failed: {e}"))?;
        // A run cut off by the time limit is not cached as the real result.
        if build.run.as_ref().is_some_and(|r| r.0 == Some(124)) {
            return Err("the real program ran past the time limit".into());
        }
        std::fs::write(dir.join("build.json"), build_to_json(&build)).map_err(|e| e.to_string())
    };
    let dir = if cache {
        let text = std::fs::read(source).map_err(|e| e.to_string())?;
        let key = cache_key(&[
            b"host-output real build v1",
            toolkit().version().as_bytes(),
            gcc_version().as_bytes(),
            source.to_string_lossy().as_bytes(),
            std.as_bytes(),
            flags.join("\0").as_bytes(),
            &[u8::from(mode.link)],
            &text,
        ]);
        cached_dir(&format!("{stem}.{}.real", mode.name), key, |dir| {
            make(dir)?;
            // Keep what is compared and what a replay reads.
            let replays = std::fs::read_to_string(dir.join("build.json"))
                .is_ok_and(|j| mode.replay && build_from_json(&j).is_ok_and(|b| !is_fallback_id(&b.id)));
            let kept = ["cpp4.ii", "cudafe1.stub.c", "fatbin.c", "module_id"];
            for entry in std::fs::read_dir(dir).map_err(|e| e.to_string())? {
                let path = entry.map_err(|e| e.to_string())?.path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let keep = name == "build.json"
                    || name == "rejected"
                    || (replays && kept.iter().any(|k| name == format!("{stem}.{k}")));
                if !keep {
                    std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                }
            }
            Ok(())
        })?
    } else {
        let dir = work.join("real");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        make(&dir)?;
        dir
    };
    if let Ok(e) = std::fs::read_to_string(dir.join("rejected")) {
        return Ok(Real::Rejected(e));
    }
    let json = std::fs::read_to_string(dir.join("build.json")).map_err(|e| e.to_string())?;
    Ok(Real::Built(build_from_json(&json)?, dir))
}

/// Whether a command-line word names `file` (`FILE`, or `--opt=FILE`).
fn names(word: &str, file: &Path) -> bool {
    let file = file.to_string_lossy();
    word == file || word.strip_suffix(&*file).is_some_and(|w| w.ends_with('='))
}

/// cufront's side of a replayed build (see the module docs): nvcc's own
/// cudafe++ step through the overlay's cudafe++, on the real build's files
/// in `real`, then the host compile, in `ours`, which ends up holding what
/// `nvcc --keep` would leave there (cufront's `STEM.o`, `STEM.module_id`
/// and `STEM.cudafe1.cpp`; the real build's other files, linked).
/// `Ok(false)` when cufront's module id is not the real one: the device
/// steps' outputs are not the ones cufront's build would get, and there is
/// no object.
fn replay(source: &Path, std: &str, flags: &[String], real: &Path, ours: &Path) -> Result<bool, String> {
    let opts = CompileOptions {
        std: Std::parse(std).ok_or_else(|| format!("unknown standard {std}"))?,
        arch: "sm_90".into(),
        flags: flags.to_vec(),
    };
    let pipeline = toolkit().dryrun(source, &opts, real).map_err(|e| e.to_string())?;
    let at =
        pipeline.steps.iter().position(|s| s.kind == StepKind::Cudafe).ok_or("nvcc's pipeline has no cudafe++ step")?;
    let cudafe = &pipeline.steps[at];
    let host_file = pipeline.intermediate("cudafe1.cpp");
    let id_file = pipeline.intermediate("module_id");
    // The premise: cudafe++ writes the host file and the module id (its
    // only file arguments in the keep folder besides its input), and of the
    // later steps only cicc reads the id and only the host compile reads
    // the host file.
    let real_prefix = format!("{}/", real.display());
    let written: Vec<&String> =
        cudafe.argv[1..cudafe.argv.len() - 1].iter().filter(|a| a.starts_with(&real_prefix)).collect();
    let expected = [host_file.to_string_lossy().into_owned(), id_file.to_string_lossy().into_owned()];
    if written.len() != 2 || !written.iter().all(|w| expected.contains(*w)) {
        return Err(format!("replay: cudafe++ writes {written:?}, expected the host file and the module id"));
    }
    let mut host_compiles = Vec::new();
    for step in &pipeline.steps[at + 1..] {
        let reads = |f: &Path| step.argv.iter().any(|a| names(a, f));
        match (reads(&id_file), reads(&host_file), step.kind) {
            (false, false, _) | (true, false, StepKind::Cicc) => {}
            (false, true, StepKind::HostCompile) => host_compiles.push(step),
            _ => {
                return Err(format!(
                    "replay: a step that reads cudafe++'s output cannot be replayed: {}",
                    step.argv.join(" ")
                ));
            }
        }
    }
    if host_compiles.len() != 1 {
        return Err(format!("replay: {} host compiles of {}", host_compiles.len(), host_file.display()));
    }
    let object = pipeline.intermediate("o");
    std::fs::create_dir_all(ours).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(real).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        // Not cudafe++'s outputs, the object, or the linked program.
        let mine = [&host_file, &id_file, &object].contains(&&path);
        if mine || path.file_name().is_some_and(|n| n == "prog") || !path.is_file() {
            continue;
        }
        let at = ours.join(path.file_name().unwrap());
        std::os::unix::fs::symlink(&path, &at).map_err(|e| format!("{}: {e}", at.display()))?;
    }
    let ours_prefix = format!("{}/", ours.display());
    let run = |argv: &[String], program: &Path| -> Result<(), String> {
        let args = argv[1..].iter().map(|a| a.replace(&real_prefix, &ours_prefix));
        let out = Command::new(program)
            .args(args)
            .envs(pipeline.env.iter().map(|(k, v)| (k, v)))
            .current_dir(ours)
            .output()
            .map_err(|e| format!("{}: {e}", program.display()))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        Ok(())
    };
    run(&cudafe.argv, &overlay().join("bin/cudafe++")).map_err(|e| format!("cufront as cudafe++ failed: {e}"))?;
    let id = |dir: &Path| std::fs::read(dir.join(id_file.file_name().unwrap()));
    if id(real).map_err(|e| e.to_string())? != id(ours).map_err(|e| e.to_string())? {
        return Ok(false);
    }
    let compile = host_compiles[0];
    run(&compile.argv, Path::new(&compile.argv[0]))
        .map_err(|e| format!("the host compile of cufront's output failed: {e}"))?;
    Ok(true)
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
    /// As `KNOWN` names it.
    name: &'static str,
    flags: &'static [&'static str],
    /// Link both objects and compare what the programs do.
    link: bool,
    /// Build cufront's side by replaying the real build (module docs).
    replay: bool,
}

const WHOLE: Mode = Mode { name: "whole", flags: &[], link: true, replay: false };
const RDC: Mode = Mode { name: "rdc", flags: &["-rdc=true"], link: true, replay: true };
const DEBUG: Mode = Mode { name: "debug", flags: &["-G"], link: true, replay: true };

/// How cufront's side of a comparison was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// nvcc through the overlay.
    Overlay,
    /// A replay of the real build.
    Replayed,
    /// The real nvcc and nvcc through the overlay both reject the program.
    BothReject,
}

/// Real vs cufront for one source: how cufront's side was built when
/// equal, else what differs.
fn compare(source: &Path, std: &str, flags: &[String], mode: Mode, cache: bool, work: &Path) -> Result<Side, String> {
    let flags: Vec<String> = flags.iter().cloned().chain(mode.flags.iter().map(|f| f.to_string())).collect();
    let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
    let ours_dir = work.join("ours");
    let overlay_nvcc = overlay().join("bin/nvcc");
    let (real, real_dir) = match real_build(source, std, &flags, mode, cache, work)? {
        Real::Built(build, dir) => (build, dir),
        Real::Rejected(real_err) => {
            let first = real_err.lines().find(|l| l.contains("error")).unwrap_or("");
            return match nvcc_compile(&overlay_nvcc, source, std, &flags, &ours_dir) {
                Err(_) => Ok(Side::BothReject),
                Ok(()) => Err(format!("the real nvcc rejects it ({first}), nvcc through the overlay accepts it")),
            };
        }
    };
    let side = if mode.replay && !is_fallback_id(&real.id) {
        if !replay(source, std, &flags, &real_dir, &ours_dir)? {
            let ours =
                std::fs::read_to_string(ours_dir.join(format!("{stem}.module_id"))).map_err(|e| e.to_string())?;
            return Err(format!("module id {ours:?} != real {:?}", real.id));
        }
        Side::Replayed
    } else {
        nvcc_compile(&overlay_nvcc, source, std, &flags, &ours_dir).map_err(|e| {
            format!("nvcc through the overlay failed: {}", e.lines().take(5).collect::<Vec<_>>().join("\n"))
        })?;
        Side::Overlay
    };
    let ours = inspect(&overlay_nvcc, &stem, &flags, &ours_dir, mode.link)
        .map_err(|e| format!("cufront's build failed: {e}"))?;
    // The fallback id cannot repeat; both sides must have used it, and the
    // symbols that embed it are compared with it masked, with the length of
    // the anonymous namespace's mangled name that holds it (the ids' PIDs
    // can differ in length).
    let masked = |b: &Build| -> Build {
        let id = b.id.trim_end();
        let anon = format!("_GLOBAL__N_{id}");
        let anon = format!("{}{anon}", anon.len());
        let mask = |v: &[String]| {
            v.iter().map(|s| mask_static_len(&s.replace(&anon, "<n>_GLOBAL__N_<id>").replace(id, "<id>"))).collect()
        };
        Build { syms: mask(&b.syms), id: String::new(), host_refs: mask(&b.host_refs), run: b.run.clone() }
    };
    let (real, ours) = if is_fallback_id(&real.id) {
        if !is_fallback_id(&ours.id) {
            return Err(format!("module id {:?}: the real one is the fallback {:?}", ours.id, real.id));
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
        let only_real: Vec<&String> = real_syms.iter().filter(|s| !our_syms.contains(s)).take(5).collect();
        let only_ours: Vec<&String> = our_syms.iter().filter(|s| !real_syms.contains(s)).take(5).collect();
        return Err(format!("symbols differ: only real {only_real:?}, only ours {only_ours:?}"));
    }
    let name = source.file_name().unwrap_or_default().to_string_lossy();
    if real.host_refs != ours.host_refs && !ARRAYS_DIFFER.iter().any(|(n, _)| *n == name) {
        return Err(format!("host-reference arrays differ:\nreal {:?}\nours {:?}", real.host_refs, ours.host_refs));
    }
    if real.run != ours.run {
        return Err(format!("the linked programs behave differently:\nreal {:?}\nours {:?}", real.run, ours.run));
    }
    Ok(side)
}

/// Small programs, one per host-output rule.
const FOCUSED: &[(&str, &str)] = &[
    (
        // Lambdas are printed without their declarator's attributes: g++
        // would inline the empty-pack call operator (CUTLASS's
        // `CUTLASS_LAMBDA_FUNC_INLINE`) and reject `[[…]]` before `noexcept`.
        "lambda_attributes.cu",
        "template <class F> auto call(F f) { return f(); }\n\
         template <class... Ts> bool all(Ts... ts) {\n\
         return [](auto&&... a) __attribute__((always_inline)) { return (true && ... && a); }(ts...); }\n\
         int a() { return call([]() __attribute__((always_inline)) { return 1; }); }\n\
         int d() { return call([] __attribute__((always_inline)) () mutable [[gnu::cold]] noexcept -> int { return 4; }); }\n\
         int e(int x) { return call([x](int y [[maybe_unused]] = 0) __attribute__((always_inline)) { return x; }); }\n\
         int main() { return a() + d() + e(1) + all(); }\n",
    ),
    (
        "device_var_templates.cu",
        "template <class T> __device__ T unit = T(1);\n\
         template <> __device__ double unit<double> = 2.0;\n\
         template <> __device__ float unit<float>;\n\
         template <class T> __constant__ T limit = T(100);\n\
         template <> __constant__ int limit<int> = 50;\n\
         template <class T> __device__ T table[] = {T(1), T(2), T(3)};\n\
         __global__ void k(double *o) { o[0] = unit<double> + unit<int> + limit<int> + limit<long> + table<int>[2]; }\n\
         int main() { k<<<1, 1>>>(0); return 0; }\n",
    ),
    ("kernel.cu", "__global__ void k(int *p, float f) { p[0] = (int)f; }\nint main() { k<<<1, 2>>>(0, 1.0f); }\n"),
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

/// Runs `programs` (name, source, standard, flags) in `mode`, their real
/// builds cached when `cache`; the results.
fn run_all(
    programs: &[(String, PathBuf, String, Vec<String>)],
    mode: Mode,
    cache: bool,
    tag: &str,
) -> Vec<(String, Result<Side, String>)> {
    let work = std::env::temp_dir().join(format!("cufront-host-{tag}-{}", std::process::id()));
    let results = par_map(programs, |(name, path, std, flags)| {
        compare(path, std, flags, mode, cache, &work.join(name.trim_end_matches(".cu")))
    });
    let _ = std::fs::remove_dir_all(&work);
    programs
        .iter()
        .zip(results)
        .map(|((n, ..), r)| (n.clone(), r.unwrap_or_else(|p| Err(format!("panic {p}")))))
        .collect()
}

/// The focused programs, through the overlay (no replay) in `mode`.
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
    let mode = Mode { replay: false, ..mode };
    let failures: Vec<String> = run_all(&programs, mode, false, tag)
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

/// Every corpus program in `mode`: those in `PASSING` must pass unless
/// `KNOWN` for `mode`; `KNOWN` ones that start passing and programs in
/// neither list are notes on stderr. `CUFRONT_HOST_PROGRAMS=a.cu,b.cu`
/// picks some programs (to look into one).
fn corpus_in(mode: Mode, tag: &str) {
    let only = std::env::var("CUFRONT_HOST_PROGRAMS").ok();
    let programs: Vec<(String, PathBuf, String, Vec<String>)> = corpus()
        .into_iter()
        .filter(|p| only.as_ref().is_none_or(|o| o.split(',').any(|n| n == p.name)))
        .map(|p: Program| (p.name.clone(), p.path.clone(), p.stds[0].as_str().to_string(), p.flags.clone()))
        .collect();
    let mut problems = Vec::new();
    let mut sides: Vec<Side> = Vec::new();
    for (name, r) in run_all(&programs, mode, true, tag) {
        let known = KNOWN.iter().find(|(n, m, _)| *n == name && *m == mode.name);
        let passing = PASSING.contains(&name.as_str());
        match (r, known) {
            // Fixed elsewhere (e.g. by a parser change): a note, not a failure.
            (Ok(_), Some((.., why))) => {
                eprintln!("{name} ({tag}) now passes: move it from KNOWN ({why}) to PASSING")
            }
            (Ok(_), None) if !passing => {
                eprintln!("{name} ({tag}): passes (new program: add it to PASSING)")
            }
            (Ok(side), None) => {
                if side == Side::BothReject {
                    eprintln!("{name} ({tag}): the real nvcc and the overlay both reject it");
                }
                sides.push(side);
            }
            (Err(e), Some(_)) => eprintln!("{name} ({tag}): known failure: {e}"),
            (Err(e), None) if passing => problems.push(format!("{name} ({tag}): {e}")),
            (Err(e), None) => eprintln!("{name} ({tag}): does not pass (new program): {e}"),
        }
    }
    let count = |s: Side| sides.iter().filter(|&&x| x == s).count();
    eprintln!(
        "{tag}: {} of {} programs pass ({} replayed, {} through the overlay, {} rejected by both)",
        sides.len(),
        programs.len(),
        count(Side::Replayed),
        count(Side::Overlay),
        count(Side::BothReject)
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn corpus_matches_the_real_build() {
    corpus_in(WHOLE, "corpus");
}

#[test]
fn corpus_matches_the_real_build_with_rdc() {
    corpus_in(RDC, "corpus-rdc");
}

#[test]
fn corpus_matches_the_real_build_with_debug() {
    corpus_in(DEBUG, "corpus-g");
}

/// `__nv_static_<n>_<id>_…` (the `.nvHR` arrays' names of internal kernels):
/// `<n>` counts the characters of the fallback id too, so it is masked with it.
fn mask_static_len(s: &str) -> String {
    const PREFIX: &str = "__nv_static_";
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(PREFIX) {
        let (head, tail) = rest.split_at(at + PREFIX.len());
        out.push_str(head);
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && tail[digits..].starts_with("_<id>") {
            out.push_str("<n>");
            rest = &tail[digits..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn static_names_with_a_fallback_id_are_masked_with_their_length() {
    assert_eq!(mask_static_len("/* __nv_static_43_<id>_*3cub6KernelE */"), "/* __nv_static_<n>_<id>_*3cub6KernelE */");
    assert_eq!(mask_static_len("__nv_static_12_abc __nv_static_"), "__nv_static_12_abc __nv_static_");
}
