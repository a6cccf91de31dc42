//! Where the time of an edit goes: loads FILE.cu as a unit (nvcc's host
//! preprocessing), then edits a line inside a function body N times and
//! times each stage (patch, apply, parse, unit lines, item split,
//! diagnostics, hover).
//!
//! `cargo run --release -p cufront-ide --example edit_profile -- FILE.cu 'needle line' [N]`

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use cufront_ide::workspace::FileFlags;
use cufront_ide::{AnalysisHost, FilePosition, LineCol};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = std::fs::canonicalize(&args[0]).expect("FILE.cu");
    let needle = &args[1];
    let n: usize = args.get(2).map_or(10, |v| v.parse().unwrap());
    let tk = cufront_toolkit::find_or_fetch(&cufront_toolkit::Locate::default()).expect("a toolkit");
    let work = std::env::temp_dir().join(format!("cufront-edit-profile-{}", std::process::id()));
    let pre = cufront_ide::preprocess::Preprocessor::new(tk, work.clone());
    let flags = FileFlags::default_for(&file);
    let t = Instant::now();
    let change = cufront_ide::preprocess::load_unit(&pre, &file, &flags, None, &|_| false).expect("preprocessed");
    let main = file.to_string_lossy().into_owned();
    println!("preprocess: {:?}, {} lines", t.elapsed(), change.units[0].text.lines().count());
    let mut host = AnalysisHost::new();
    let t = Instant::now();
    host.apply_change(change);
    let d = host.analysis().diagnostics(&main).unwrap();
    println!("first diagnostics: {:?} ({} diagnostics)", t.elapsed(), d.len());
    let mut text = host.file_text(&main).unwrap().to_string();
    let line = text.lines().position(|l| l.contains(needle.as_str())).expect("the needle") as u32;
    for k in 0..n {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.insert(line as usize + 1 + k, format!("  int edit{k} = {k};"));
        text = lines.join("\n") + "\n";
        let t0 = Instant::now();
        let change = host.patch_file(&main, Arc::from(text.as_str())).expect("patchable");
        let t1 = Instant::now();
        host.apply_change(change);
        let t2 = Instant::now();
        let db = host.raw_database();
        let tu = host.unit(&main).unwrap().tu;
        let _ = cufront_base_db::parse(db, tu);
        let t3 = Instant::now();
        let _ = cufront_ide::lines::unit_lines(db, tu);
        let t4 = Instant::now();
        let _ = cufront_hir::item_ids(db, tu);
        let t5 = Instant::now();
        let _ = host.analysis().diagnostics(&main).unwrap();
        let t6 = Instant::now();
        let pos = FilePosition { file: main.clone(), pos: LineCol { line: line + 1, col: 7 } };
        let h = host.analysis().hover(&pos).unwrap();
        let t7 = Instant::now();
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        println!(
            "edit {k}: patch {:.0} apply {:.0} parse {:.0} lines {:.0} items {:.0} diags {:.0} hover {:.0} ms{}",
            ms(t0, t1),
            ms(t1, t2),
            ms(t2, t3),
            ms(t3, t4),
            ms(t4, t5),
            ms(t5, t6),
            ms(t6, t7),
            if h.is_some() { "" } else { " (no hover)" }
        );
    }
    let _ = std::fs::remove_dir_all(Path::new(&work));
}
