//! `cufront device ARGS`: cicc's front end, on exactly the command line
//! nvcc gives cicc (`nvcc --dryrun`). Reads the device preprocessing
//! (`x.cpp1.ii`) and the module id file cudafe++ wrote, and writes the stub
//! file (`--stub_file_name`) and cufront's device listing
//! (`--gen_device_file_name`, format in `docs/device.md`). Back-end
//! options are accepted and ignored; `-o` (the PTX) is never written, nor
//! is `--gen_c_file_name` (cicc's C file of host entities device code
//! names: not modelled).
//!
//! Errors follow cicc: a catastrophic error on stderr
//! (`Catastrophic error: cannot open source file "x"`, then the count line
//! and `Compilation terminated.`), exit status 1, and no output file
//! written; outputs are written whole or not at all.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use cufront_base_db::{LangOptions, LangStandard, RootDatabase, new_options, new_translation_unit};
use cufront_device::{cmdline, il_binary, il_lower, keep, listing, stub};

use crate::cudafe::output::write_atomically;

/// A catastrophic error as cicc prints it, and its exit status.
fn catastrophic(input: &str, at: Option<&str>, message: &str) -> ExitCode {
    let head = match at {
        Some(file) => format!("{file}: catastrophic error: {message}"),
        None => format!("Catastrophic error: {message}"),
    };
    eprintln!("{head}\n\n1 catastrophic error detected in the compilation of \"{input}\".\nCompilation terminated.");
    ExitCode::from(1)
}

pub fn run(args: &[String]) -> ExitCode {
    let cfg = match cmdline::parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cufront device: {e}");
            return ExitCode::from(1);
        }
    };
    let input = cfg.input.display().to_string();
    let text = match std::fs::read(&cfg.input) {
        Ok(b) if std::fs::metadata(&cfg.input).is_ok_and(|m| m.is_file()) => {
            String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
        _ => return catastrophic(&input, None, &format!("cannot open source file \"{input}\"")),
    };
    let module_id = match &cfg.module_id_file {
        Some(f) => match std::fs::read_to_string(f) {
            Ok(id) => Some(id),
            Err(_) => {
                return catastrophic(&input, Some(&input), &format!("cannot open module id file \"{}\"", f.display()));
            }
        },
        None => None,
    };
    let db = RootDatabase::new();
    let standard = if cfg.cxx20 { LangStandard::Cxx20 } else { LangStandard::Cxx17 };
    let opts = new_options(&db, LangOptions { standard, device_view: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, input.clone(), Arc::from(text), opts);
    let mid = module_id.as_deref().map(str::trim_end).unwrap_or("").to_string();
    let mut outputs: Vec<(&Path, Vec<u8>)> = Vec::new();
    if let Some(p) = &cfg.stub_file {
        let sopts = stub::StubOptions {
            stub_path: p.display().to_string(),
            include_file: cfg.include_file.clone(),
            module_id: module_id.clone(),
            device_c: cfg.device_c,
        };
        match stub::stub_file(&db, tu, &sopts) {
            Ok(text) => outputs.push((p, text.into_bytes())),
            Err(why) => {
                eprintln!("cufront device: {input}: the stub file cannot be written: {why}");
                std::mem::forget(db);
                return ExitCode::from(2);
            }
        }
    }
    let kopts =
        keep::KeepOptions { module_id: mid.clone(), device_c: cfg.device_c, relaxed_constexpr: cfg.relaxed_constexpr };
    if let Some(p) = &cfg.device_file {
        outputs.push((p, listing::listing(&db, tu, &kopts).into_bytes()));
    }
    if cfg.device_il.is_some() || cfg.device_il_binary.is_some() {
        let module = il_lower::device_il(&db, tu, &kopts);
        if let Some(p) = &cfg.device_il {
            outputs.push((p, module.to_string().into_bytes()));
        }
        if let Some(p) = &cfg.device_il_binary {
            outputs.push((p, il_binary::encode(&module)));
        }
    }
    // The database is dropped by the process's exit (see `inspect::leak`).
    std::mem::forget(db);
    for (path, text) in outputs {
        if write_atomically(path, &text).is_err() {
            return catastrophic(&input, None, &format!("cannot open output file \"{}\"", path.display()));
        }
    }
    ExitCode::SUCCESS
}
