//! cicc's command line as nvcc writes it (`nvcc --dryrun`): the options
//! whose values name the front end's inputs and outputs are read; every
//! other option (the back end's: `-arch compute_90`, `-ftz=0`, `-O3`, …) is
//! accepted and ignored, taking its value when cicc's grammar gives it one.

use std::path::PathBuf;

/// What `cufront device` reads from cicc's command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CiccArgs {
    /// The device preprocessing (`x.cpp1.ii`).
    pub input: PathBuf,
    /// `--stub_file_name`: the stub file (device stubs and registration).
    pub stub_file: Option<PathBuf>,
    /// `--gen_device_file_name`: cufront's device listing (`x.cudafe1.gpu`).
    pub device_file: Option<PathBuf>,
    /// `--gen_c_file_name`: cicc's C file (`x.cudafe1.c`).
    pub c_file: Option<PathBuf>,
    /// `--include_file_name`: the fatbinary include the stub names.
    pub include_file: Option<String>,
    /// `--module_id_file_name`: cudafe++'s module id, read (never written).
    pub module_id_file: Option<PathBuf>,
    pub orig_src_file_name: Option<String>,
    pub orig_src_path_name: Option<String>,
    /// `--device-c` (`-rdc=true`): separate compilation.
    pub device_c: bool,
    /// `--relaxed_constexpr` (nvcc's `--expt-relaxed-constexpr`).
    pub relaxed_constexpr: bool,
    /// `--c++20` or later: C++20 keywords.
    pub cxx20: bool,
    /// `--device_il FILE` (cufront's own): the device IL's text form.
    pub device_il: Option<PathBuf>,
    /// `--device_il_binary FILE` (cufront's own): its binary form.
    pub device_il_binary: Option<PathBuf>,
}

/// Why a command line is not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// An option that takes a value came last.
    MissingValue(String),
    /// No input file.
    NoInput,
    /// More than one input file.
    SecondInput(String),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::MissingValue(o) => write!(f, "option `{o}` needs a value"),
            ArgError::NoInput => write!(f, "no input file"),
            ArgError::SecondInput(x) => write!(f, "a second input file `{x}`"),
        }
    }
}

/// Options of cicc that take the next word as their value and that the
/// front end does not read (the back end's, and nvcc's bookkeeping).
const IGNORED_WITH_VALUE: &[&str] = &["-arch", "-o", "-maxreg", "--nv_arch", "-lto_input", "--lto_output"];

/// Parses cicc's arguments (without the program name).
pub fn parse(args: &[String]) -> Result<CiccArgs, ArgError> {
    let mut out = CiccArgs::default();
    let mut input: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |slot: &str| it.next().cloned().ok_or_else(|| ArgError::MissingValue(slot.to_string()));
        match a.as_str() {
            "--stub_file_name" => out.stub_file = Some(value(a)?.into()),
            "--gen_device_file_name" => out.device_file = Some(value(a)?.into()),
            "--gen_c_file_name" => out.c_file = Some(value(a)?.into()),
            "--include_file_name" => out.include_file = Some(value(a)?),
            "--module_id_file_name" => out.module_id_file = Some(value(a)?.into()),
            "--orig_src_file_name" => out.orig_src_file_name = Some(value(a)?),
            "--orig_src_path_name" => out.orig_src_path_name = Some(value(a)?),
            "--device_il" => out.device_il = Some(value(a)?.into()),
            "--device_il_binary" => out.device_il_binary = Some(value(a)?.into()),
            "--device-c" => out.device_c = true,
            "--relaxed_constexpr" => out.relaxed_constexpr = true,
            "--c++20" | "--c++23" => out.cxx20 = true,
            o if IGNORED_WITH_VALUE.contains(&o) => {
                value(a)?;
            }
            o if o.starts_with('-') && o.len() > 1 => {}
            file => {
                if let Some(first) = &input {
                    let _ = first;
                    return Err(ArgError::SecondInput(file.to_string()));
                }
                input = Some(file.to_string());
            }
        }
    }
    out.input = input.ok_or(ArgError::NoInput)?.into();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn nvccs_cicc_line() {
        let a = parse(&words(
            "--c++17 --static-host-stub --device-hidden-visibility --gnu_version=120200 --display_error_number \
             --orig_src_file_name v.cu --orig_src_path_name /t/v.cu --allow_managed -arch compute_90 -m64 \
             --no-version-ident -ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1 --include_file_name v.fatbin.c -tused \
             --module_id_file_name k/v.module_id --gen_c_file_name k/v.cudafe1.c --stub_file_name k/v.cudafe1.stub.c \
             --gen_device_file_name k/v.cudafe1.gpu k/v.cpp1.ii -o k/v.ptx",
        ))
        .unwrap();
        assert_eq!(a.input, PathBuf::from("k/v.cpp1.ii"));
        assert_eq!(a.stub_file, Some("k/v.cudafe1.stub.c".into()));
        assert_eq!(a.include_file.as_deref(), Some("v.fatbin.c"));
        assert_eq!(a.module_id_file, Some("k/v.module_id".into()));
        assert!(!a.device_c && !a.cxx20 && !a.relaxed_constexpr);
        assert!(parse(&words("--relaxed_constexpr x.ii")).unwrap().relaxed_constexpr);
    }

    #[test]
    fn errors() {
        assert_eq!(parse(&words("--stub_file_name")), Err(ArgError::MissingValue("--stub_file_name".into())));
        assert_eq!(parse(&words("-arch compute_90")), Err(ArgError::NoInput));
        assert_eq!(parse(&words("a.ii b.ii")), Err(ArgError::SecondInput("b.ii".into())));
    }
}
