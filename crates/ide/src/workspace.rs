//! The workspace model: which nvcc flags each file is compiled with.
//!
//! `compile_commands.json` (CMake's, Bear's…) lists entries with a
//! `directory`, a `file` and either `command` (one shell string) or
//! `arguments` (a list). Entries whose compiler is `nvcc` (any path ending
//! in `nvcc`) give a file its flags: the preprocessor's (`-D`, `-U`, `-I`,
//! `-isystem`, `-include`, …), the standard, the architecture and the CUDA
//! language flags (`--extended-lambda`, `--expt-relaxed-constexpr`, …);
//! outputs, inputs and what only the later steps read (`-o`, `-c`, `-M*`,
//! `-Xptxas`…) are dropped. Other compilers' entries are ignored: their
//! files are not CUDA.
//!
//! A file without an entry gets [`FileFlags::default_for`]: nvcc's own
//! defaults with `-std=c++17` and `-arch=sm_90` (what `cufront check`
//! uses), run in the file's directory. A header gets the flags of a unit
//! that includes it (the analysis host's `owner` map).

use std::path::{Path, PathBuf};

use cufront_toolkit::{CompileOptions, Std};
use rustc_hash::FxHashMap;

/// How one file is compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFlags {
    /// Where nvcc runs (relative paths in flags are relative to it).
    pub directory: PathBuf,
    pub options: CompileOptions,
    /// From an entry of `compile_commands.json` (else the default).
    pub from_database: bool,
}

impl FileFlags {
    /// The documented default for a file without an entry.
    pub fn default_for(file: &Path) -> FileFlags {
        FileFlags {
            directory: file.parent().map(Path::to_path_buf).unwrap_or_default(),
            options: CompileOptions::new(Std::Cxx17),
            from_database: false,
        }
    }
}

/// Why `compile_commands.json` could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkspaceError {
    Io(String),
    Json(String),
    /// An entry lacks a field or has one of the wrong type.
    Entry {
        index: usize,
        what: String,
    },
}

impl std::fmt::Display for WorkspaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkspaceError::Io(m) => write!(f, "{m}"),
            WorkspaceError::Json(m) => write!(f, "compile_commands.json: {m}"),
            WorkspaceError::Entry { index, what } => {
                write!(f, "compile_commands.json entry {index}: {what}")
            }
        }
    }
}

/// The flags of the files a compilation database lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileDb {
    files: FxHashMap<PathBuf, FileFlags>,
}

impl CompileDb {
    pub fn load(path: &Path) -> Result<CompileDb, WorkspaceError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| WorkspaceError::Io(format!("cannot read {}: {e}", path.display())))?;
        CompileDb::parse(&text)
    }

    pub fn parse(text: &str) -> Result<CompileDb, WorkspaceError> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| WorkspaceError::Json(e.to_string()))?;
        let entries = v.as_array().ok_or_else(|| WorkspaceError::Json("not an array".into()))?;
        let mut db = CompileDb::default();
        for (index, e) in entries.iter().enumerate() {
            let field = |name: &str| e.get(name).and_then(|x| x.as_str());
            let err = |what: &str| WorkspaceError::Entry { index, what: what.into() };
            let directory = PathBuf::from(field("directory").ok_or_else(|| err("no `directory`"))?);
            let file = field("file").ok_or_else(|| err("no `file`"))?;
            let argv: Vec<String> = match (e.get("arguments"), field("command")) {
                (Some(args), _) => args
                    .as_array()
                    .ok_or_else(|| err("`arguments` is not a list"))?
                    .iter()
                    .map(|a| a.as_str().map(str::to_string).ok_or_else(|| err("an argument is not a string")))
                    .collect::<Result<_, _>>()?,
                (None, Some(cmd)) => cufront_toolkit::pipeline::split_words(cmd, &[]),
                (None, None) => return Err(err("neither `arguments` nor `command`")),
            };
            let Some(program) = argv.first() else {
                continue;
            };
            if !program.ends_with("nvcc") {
                continue;
            }
            let path = absolute(&directory, Path::new(file));
            let options = nvcc_options(&argv[1..], &path);
            db.files.insert(path, FileFlags { directory, options, from_database: true });
        }
        Ok(db)
    }

    /// The flags of `file` (absolute): its entry, else the default.
    pub fn flags_for(&self, file: &Path) -> FileFlags {
        self.files.get(file).cloned().unwrap_or_else(|| FileFlags::default_for(file))
    }

    pub fn files(&self) -> impl Iterator<Item = &PathBuf> {
        self.files.keys()
    }
}

fn absolute(dir: &Path, p: &Path) -> PathBuf {
    let joined = if p.is_absolute() { p.to_path_buf() } else { dir.join(p) };
    PathBuf::from(crate::lines::normalize(&joined.to_string_lossy(), ""))
}

/// The options of an nvcc command line that shape the host preprocessing
/// and the front end; the source file itself is left out.
pub fn nvcc_options(args: &[String], source: &Path) -> CompileOptions {
    let mut opts = CompileOptions::new(Std::Cxx17);
    // Flags that take the next argument and are not ours to keep.
    const DROP_WITH_VALUE: &[&str] = &[
        "-o",
        "--output-file",
        "-MF",
        "-MT",
        "-MQ",
        "-Xptxas",
        "-Xnvlink",
        "-Xfatbin",
        "--ptxas-options",
        "--linker-options",
        "-ccbin",
        "--compiler-bindir",
        "-odir",
        "--output-directory",
        "-x",
        "--x",
    ];
    const DROP: &[&str] = &["-c", "--compile", "-MD", "-MMD", "-MP", "-M", "-E", "-dlink", "-G", "-g", "-lineinfo"];
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        // `-dc` is `-rdc=true -c`: separate compilation defines
        // `__CUDACC_RDC__` and changes what the front ends check.
        if a == "-dc" || a == "--device-c" {
            opts.flags.push("-rdc=true".into());
            continue;
        }
        if DROP.contains(&a.as_str())
            || a.starts_with("-O")
            || a.starts_with("--generate-code")
            || a.starts_with("-gencode")
        {
            if (a == "--generate-code" || a == "-gencode") && i < args.len() {
                i += 1;
            }
            continue;
        }
        if DROP_WITH_VALUE.contains(&a.as_str()) {
            i += 1;
            continue;
        }
        if let Some(s) = a.strip_prefix("-std=").or_else(|| a.strip_prefix("--std=")) {
            if let Some(std) = Std::parse(s) {
                opts.std = std;
            }
            continue;
        }
        if a == "-std" || a == "--std" {
            if let Some(std) = args.get(i).and_then(|s| Std::parse(s)) {
                opts.std = std;
            }
            i += 1;
            continue;
        }
        if let Some(arch) = a.strip_prefix("-arch=").or_else(|| a.strip_prefix("--gpu-architecture=")) {
            opts.arch = arch.to_string();
            continue;
        }
        if a == "-arch" || a == "--gpu-architecture" {
            if let Some(arch) = args.get(i) {
                opts.arch = arch.clone();
            }
            i += 1;
            continue;
        }
        if Path::new(a) == source || a.ends_with(".cu") && !a.starts_with('-') {
            continue;
        }
        // Flags with a separate value keep it.
        if matches!(
            a.as_str(),
            "-I" | "-D" | "-U" | "-isystem" | "-include" | "-Xcompiler" | "--compiler-options" | "-iquote"
        ) {
            opts.flags.push(a.clone());
            if let Some(v) = args.get(i) {
                opts.flags.push(v.clone());
            }
            i += 1;
            continue;
        }
        opts.flags.push(a.clone());
    }
    opts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_with_command_or_arguments() {
        let json = r#"[
          {"directory": "/w/build", "file": "../src/a.cu",
           "command": "/usr/local/cuda/bin/nvcc -DN=4 -I/w/inc -std=c++20 -arch=sm_80 --extended-lambda -O2 -c ../src/a.cu -o a.o"},
          {"directory": "/w", "file": "b.cu",
           "arguments": ["nvcc", "-isystem", "/opt/x", "--expt-relaxed-constexpr", "-c", "b.cu", "-o", "b.o"]},
          {"directory": "/w", "file": "c.cpp", "arguments": ["g++", "-c", "c.cpp"]}
        ]"#;
        let db = CompileDb::parse(json).unwrap();
        let a = db.flags_for(Path::new("/w/src/a.cu"));
        assert!(a.from_database);
        assert_eq!(a.options.std, Std::Cxx20);
        assert_eq!(a.options.arch, "sm_80");
        assert_eq!(a.options.flags, ["-DN=4", "-I/w/inc", "--extended-lambda"]);
        let b = db.flags_for(Path::new("/w/b.cu"));
        assert_eq!(b.options.flags, ["-isystem", "/opt/x", "--expt-relaxed-constexpr"]);
        let c = db.flags_for(Path::new("/w/c.cpp"));
        assert!(!c.from_database);
        assert_eq!(c.options, CompileOptions::new(Std::Cxx17));
        assert_eq!(c.directory, PathBuf::from("/w"));
    }

    #[test]
    fn bad_databases_are_errors() {
        assert!(matches!(CompileDb::parse("{"), Err(WorkspaceError::Json(_))));
        assert_eq!(
            CompileDb::parse(r#"[{"directory": "/w"}]"#),
            Err(WorkspaceError::Entry { index: 0, what: "no `file`".into() })
        );
    }
}
