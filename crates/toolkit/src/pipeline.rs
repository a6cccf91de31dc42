//! nvcc's pipeline, read off `nvcc --dryrun`, and its steps run one by one.
//!
//! `--dryrun` prints each command nvcc would run as `#$ ` lines, first the
//! variables it sets (`PATH=...`, `CICC_PATH=...`) then the commands, in shell
//! syntax. We parse those lines and run the steps ourselves with the same
//! variables and working directory, so a step's output is exactly nvcc's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::{Error, Toolkit, io_err};

/// A C++ standard, as `-std=` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Std {
    Cxx11,
    Cxx14,
    Cxx17,
    Cxx20,
}

impl Std {
    /// `c++17`.
    pub fn as_str(self) -> &'static str {
        match self {
            Std::Cxx11 => "c++11",
            Std::Cxx14 => "c++14",
            Std::Cxx17 => "c++17",
            Std::Cxx20 => "c++20",
        }
    }
    pub fn parse(s: &str) -> Option<Std> {
        Some(match s {
            "c++11" => Std::Cxx11,
            "c++14" => Std::Cxx14,
            "c++17" => Std::Cxx17,
            "c++20" => Std::Cxx20,
            _ => return None,
        })
    }
    /// Whether C++20 keywords (`concept`, `requires`, ...) are keywords.
    pub fn is_cxx20(self) -> bool {
        self >= Std::Cxx20
    }
}

/// What nvcc is asked to do, beside the source file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    pub std: Std,
    /// `-arch=`; `sm_90` by default.
    pub arch: String,
    /// Further nvcc flags (`--extended-lambda`, `-DNAME`, `-I...`).
    pub flags: Vec<String>,
}

impl CompileOptions {
    pub fn new(std: Std) -> CompileOptions {
        CompileOptions { std, arch: "sm_90".into(), flags: Vec::new() }
    }
    /// nvcc's arguments for these options (no source, no output).
    pub fn nvcc_args(&self) -> Vec<String> {
        let mut args = vec![format!("-std={}", self.std.as_str()), format!("-arch={}", self.arch)];
        args.extend(self.flags.iter().cloned());
        args
    }
}

/// What one step of the pipeline does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// Host compiler `-E` without `__CUDA_ARCH__`: writes `x.cpp4.ii`.
    HostPreprocess,
    /// `cudafe++` on `x.cpp4.ii`: writes `x.cudafe1.cpp` and `x.module_id`.
    Cudafe,
    /// Host compiler `-E -D__CUDA_ARCH__=...`: writes `x.cpp1.ii`.
    DevicePreprocess,
    /// `cicc`: writes the PTX, the stub file and `x.cudafe1.gpu`.
    Cicc,
    Ptxas,
    Fatbinary,
    /// Host compiler `-c` on `x.cudafe1.cpp`.
    HostCompile,
    Other,
}

/// One command of the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub kind: StepKind,
    /// Program (resolved to a full path when found on nvcc's `PATH`) and
    /// arguments, variables already expanded.
    pub argv: Vec<String>,
}

/// nvcc's plan for one compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    /// Variables nvcc sets before running the steps, in order.
    pub env: Vec<(String, String)>,
    pub steps: Vec<Step>,
    /// Working directory of the nvcc run (paths in `argv` are relative to it).
    pub cwd: PathBuf,
    /// `--keep-dir`: where intermediate files go.
    pub keep_dir: PathBuf,
    /// Source file name without `.cu`: intermediate files are `stem.cpp4.ii`...
    pub stem: String,
}

impl Pipeline {
    /// The first step of `kind`.
    pub fn step(&self, kind: StepKind) -> Option<&Step> {
        self.steps.iter().find(|s| s.kind == kind)
    }

    /// An intermediate file: `intermediate("cpp4.ii")` is `keep_dir/stem.cpp4.ii`.
    pub fn intermediate(&self, suffix: &str) -> PathBuf {
        self.keep_dir.join(format!("{}.{suffix}", self.stem))
    }

    /// A `Command` for `step` with nvcc's variables and working directory.
    pub fn command(&self, step: &Step) -> Command {
        let mut cmd = Command::new(&step.argv[0]);
        cmd.args(&step.argv[1..]).current_dir(&self.cwd).stdin(Stdio::null());
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Runs the first step of `kind` and returns its output whatever its
    /// exit status (a step's failure is data to the caller: nvcc forwards
    /// its stderr); an error only when the step is missing or cannot start.
    pub fn output(&self, kind: StepKind) -> Result<Output, Error> {
        let step = self.step(kind).ok_or_else(|| Error::Tool(format!("nvcc's pipeline has no {kind:?} step")))?;
        self.command(step).output().map_err(|e| Error::Tool(format!("cannot run {}: {e}", step.argv[0])))
    }

    /// Runs the first step of `kind`; an error (with the command and its
    /// stderr) when it is missing or fails.
    pub fn run(&self, kind: StepKind) -> Result<Output, Error> {
        let step = self.step(kind).ok_or_else(|| Error::Tool(format!("nvcc's pipeline has no {kind:?} step")))?;
        let out = self.command(step).output().map_err(|e| Error::Tool(format!("cannot run {}: {e}", step.argv[0])))?;
        if !out.status.success() {
            return Err(Error::Tool(format!(
                "{} failed ({}):\n{}",
                step.argv.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim_end()
            )));
        }
        Ok(out)
    }
}

impl Toolkit {
    /// nvcc's pipeline for compiling `source` to an object with `opts`,
    /// keeping intermediates in `keep_dir` (created if missing). Runs only
    /// `nvcc --dryrun`, in the current directory.
    pub fn dryrun(&self, source: &Path, opts: &CompileOptions, keep_dir: &Path) -> Result<Pipeline, Error> {
        let cwd = std::env::current_dir().map_err(|e| Error::Io(format!("no current directory: {e}")))?;
        self.dryrun_args(&cwd, source, &opts.nvcc_args(), keep_dir)
    }

    /// nvcc's pipeline for `nvcc ARGS -c SOURCE` run in `cwd`, with the
    /// user's own arguments as typed (no `-std`/`-arch` added, so nvcc's
    /// defaults stay nvcc's), intermediates kept in `keep_dir`. `source` is
    /// passed as given: relative to `cwd`, it is the name diagnostics use.
    pub fn dryrun_args(&self, cwd: &Path, source: &Path, args: &[String], keep_dir: &Path) -> Result<Pipeline, Error> {
        let keep_dir = &cwd.join(keep_dir);
        std::fs::create_dir_all(keep_dir).map_err(|e| io_err("cannot create", keep_dir, e))?;
        let stem = source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .ok_or_else(|| Error::Tool(format!("{} has no file name", source.display())))?;
        let object = keep_dir.join(format!("{stem}.o"));
        let out = Command::new(self.nvcc())
            .args(args)
            .arg("--keep")
            .arg("--keep-dir")
            .arg(keep_dir)
            .arg("-c")
            .arg(source)
            .arg("-o")
            .arg(&object)
            .arg("--dryrun")
            .current_dir(cwd)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Error::Tool(format!("cannot run {}: {e}", self.nvcc().display())))?;
        let text = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            return Err(Error::Tool(format!("nvcc --dryrun failed ({}):\n{}", out.status, text.trim_end())));
        }
        let (env, commands) = parse_dryrun(&text);
        let search_path = env.iter().rev().find(|(k, _)| k == "PATH").map(|(_, v)| OsString::from(v));
        let steps = commands
            .into_iter()
            .map(|mut argv| {
                if let Some(full) = resolve_program(&argv[0], search_path.as_deref()) {
                    argv[0] = full.to_string_lossy().into_owned();
                }
                Step { kind: classify(&argv), argv }
            })
            .collect();
        Ok(Pipeline { env, steps, cwd: cwd.to_path_buf(), keep_dir: keep_dir.to_path_buf(), stem })
    }

    /// Preprocesses `source` for the host exactly as nvcc does before running
    /// cudafe++, and returns the path of the result (`keep_dir/stem.cpp4.ii`).
    pub fn preprocess_host(&self, source: &Path, opts: &CompileOptions, keep_dir: &Path) -> Result<PathBuf, Error> {
        let pipeline = self.dryrun(source, opts, keep_dir)?;
        pipeline.run(StepKind::HostPreprocess)?;
        let ii = pipeline.intermediate("cpp4.ii");
        if !ii.is_file() {
            return Err(Error::Tool(format!("host preprocessing did not write {}", ii.display())));
        }
        Ok(ii)
    }

    /// Preprocesses `source` for the device exactly as nvcc does before
    /// running cicc (`__CUDA_ARCH__` defined), and returns the path of the
    /// result (`keep_dir/stem.cpp1.ii`).
    pub fn preprocess_device(&self, source: &Path, opts: &CompileOptions, keep_dir: &Path) -> Result<PathBuf, Error> {
        let pipeline = self.dryrun(source, opts, keep_dir)?;
        pipeline.run(StepKind::DevicePreprocess)?;
        let ii = pipeline.intermediate("cpp1.ii");
        if !ii.is_file() {
            return Err(Error::Tool(format!("device preprocessing did not write {}", ii.display())));
        }
        Ok(ii)
    }

    /// Compiles `source` to an object with the real nvcc (the whole pipeline);
    /// an error carrying nvcc's diagnostics when it fails.
    pub fn compile(&self, source: &Path, opts: &CompileOptions, object: &Path) -> Result<(), Error> {
        let out = Command::new(self.nvcc())
            .args(opts.nvcc_args())
            .arg("-c")
            .arg(source)
            .arg("-o")
            .arg(object)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| Error::Tool(format!("cannot run {}: {e}", self.nvcc().display())))?;
        if !out.status.success() {
            return Err(Error::Tool(format!(
                "nvcc {} -c {} failed ({}):\n{}",
                opts.nvcc_args().join(" "),
                source.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim_end()
            )));
        }
        Ok(())
    }
}

/// Splits `--dryrun` output into variable assignments and commands.
pub fn parse_dryrun(text: &str) -> (Vec<(String, String)>, Vec<Vec<String>>) {
    let mut env: Vec<(String, String)> = Vec::new();
    let mut commands = Vec::new();
    for line in text.lines() {
        let Some(body) = line.strip_prefix("#$ ") else { continue };
        if let Some((name, value)) = assignment(body) {
            let words = split_words(value, &env);
            env.push((name.to_string(), words.join(" ")));
            continue;
        }
        let argv = split_words(body, &env);
        if !argv.is_empty() {
            commands.push(argv);
        }
    }
    (env, commands)
}

/// `NAME=value` where NAME is a shell variable name.
fn assignment(body: &str) -> Option<(&str, &str)> {
    let (name, value) = body.split_once('=')?;
    let is_name = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    is_name.then_some((name, value))
}

/// Shell word splitting with quotes, backslashes and `$NAME` / `${NAME}`
/// expansion from `env` (the subset of sh that nvcc prints).
pub fn split_words(s: &str, env: &[(String, String)]) -> Vec<String> {
    let lookup = |name: &str| env.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default();
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => cur.push(chars.next().unwrap()),
                        '$' => cur.push_str(&expand(&mut chars, &lookup)),
                        _ => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            '$' => {
                in_word = true;
                cur.push_str(&expand(&mut chars, &lookup));
            }
            _ => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// After a `$`: the value of `NAME` or `{NAME}`; a lone `$` stays itself.
fn expand(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, lookup: &dyn Fn(&str) -> String) -> String {
    let braced = chars.peek() == Some(&'{');
    if braced {
        chars.next();
    }
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_alphanumeric() || c == '_' {
            name.push(c);
            chars.next();
        } else {
            break;
        }
    }
    if braced && chars.peek() == Some(&'}') {
        chars.next();
    }
    if name.is_empty() { "$".to_string() } else { lookup(&name) }
}

fn classify(argv: &[String]) -> StepKind {
    let program = Path::new(&argv[0]).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let has = |flag: &str| argv.iter().any(|a| a == flag);
    match program.as_str() {
        "cudafe++" => StepKind::Cudafe,
        "cicc" => StepKind::Cicc,
        "ptxas" => StepKind::Ptxas,
        "fatbinary" => StepKind::Fatbinary,
        _ if has("-E") => {
            if argv.iter().any(|a| a.starts_with("-D__CUDA_ARCH__=")) {
                StepKind::DevicePreprocess
            } else {
                StepKind::HostPreprocess
            }
        }
        _ if has("-c") => StepKind::HostCompile,
        _ => StepKind::Other,
    }
}

/// `program` as found on `path` (nvcc's `PATH`), unless it already has a slash.
fn resolve_program(program: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    if program.contains('/') {
        return None;
    }
    std::env::split_paths(path?).map(|d| d.join(program)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRYRUN: &str = r#"#$ _NVVM_BRANCH_=nvvm
#$ _SPACE_= 
#$ _HERE_=/tk/bin
#$ TOP=/tk/bin/..
#$ CICC_PATH=/tk/bin/../nvvm/bin
#$ PATH=/tk/bin/../nvvm/bin:/tk/bin:/usr/bin
#$ INCLUDES="-I/tk/bin/..//include"  
#$ gcc -std=c++17 -D__CUDA_ARCH_LIST__=900 -E -x c++ -D__CUDACC__  "-I/tk/bin/..//include"   "-isystem" "/tk/bin/..//include/cccl" -include "cuda_runtime.h" -m64 "a b.cu" -o "/k/a b.cpp4.ii" 
#$ cudafe++ --c++17 --orig_src_file_name "a b.cu" --gen_c_file_name "/k/a b.cudafe1.cpp" "/k/a b.cpp4.ii" 
#$ gcc -std=c++17 -D__CUDA_ARCH__=900 -E -x c++ "a b.cu" -o "/k/a b.cpp1.ii" 
#$ "$CICC_PATH/cicc" --c++17 -arch compute_90 "/k/a b.cpp1.ii" -o "/k/a b.ptx"
#$ ptxas -arch=sm_90 -m64  "/k/a b.ptx"  -o "/k/a b.sm_90.cubin" 
#$ gcc -std=c++17 -c -x c++ -Wno-psabi '/k/a b.cudafe1.cpp' -o "/k/a b.o" 
"#;

    #[test]
    fn dryrun_lines_split_into_env_and_commands() {
        let (env, cmds) = parse_dryrun(DRYRUN);
        assert_eq!(env.iter().find(|(k, _)| k == "_SPACE_").unwrap().1, "");
        assert_eq!(env.iter().find(|(k, _)| k == "INCLUDES").unwrap().1, "-I/tk/bin/..//include");
        assert_eq!(env.iter().find(|(k, _)| k == "PATH").unwrap().1, "/tk/bin/../nvvm/bin:/tk/bin:/usr/bin");
        let kinds: Vec<StepKind> = cmds.iter().map(|c| classify(c)).collect();
        assert_eq!(
            kinds,
            [
                StepKind::HostPreprocess,
                StepKind::Cudafe,
                StepKind::DevicePreprocess,
                StepKind::Cicc,
                StepKind::Ptxas,
                StepKind::HostCompile
            ]
        );
        assert_eq!(cmds[3][0], "/tk/bin/../nvvm/bin/cicc");
        assert_eq!(cmds[0][cmds[0].len() - 3], "a b.cu");
        assert_eq!(cmds[0].last().unwrap(), "/k/a b.cpp4.ii");
        assert_eq!(cmds[5][6], "/k/a b.cudafe1.cpp");
    }

    #[test]
    fn shell_words() {
        let env = vec![("X".to_string(), "ex".to_string())];
        assert_eq!(
            split_words(r#"a\ b "c\"d" 'e$X' $X ${X}y "$X/z" $ "#, &env),
            ["a b", "c\"d", "e$X", "ex", "exy", "ex/z", "$"]
        );
        assert_eq!(split_words("  ", &env), Vec::<String>::new());
        assert_eq!(split_words(r#""""#, &env), [""]);
    }

    #[test]
    fn std_names_round_trip() {
        for s in [Std::Cxx11, Std::Cxx14, Std::Cxx17, Std::Cxx20] {
            assert_eq!(Std::parse(s.as_str()), Some(s));
        }
        assert_eq!(Std::parse("c++23"), None);
        assert!(Std::Cxx20.is_cxx20() && !Std::Cxx17.is_cxx20());
    }
}
