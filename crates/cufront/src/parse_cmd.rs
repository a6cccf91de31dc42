//! `cufront parse FILE.ii [--tree] [--errors]`: a debugging aid for the parser.

use std::process::ExitCode;

use cufront_syntax::{source_map::SourceMap, LexOptions, ParseOptions};

#[derive(clap::Args)]
pub struct ParseArgs {
    /// The preprocessed file (`.ii`).
    file: std::path::PathBuf,
    /// Print the syntax tree.
    #[arg(long)]
    tree: bool,
    /// Print each error with its original file:line:col.
    #[arg(long)]
    errors: bool,
    /// Parse as C++20 (C++20 keywords).
    #[arg(long)]
    cxx20: bool,
    /// Keep function bodies unparsed (declarations only).
    #[arg(long)]
    lazy: bool,
}

pub fn run(args: ParseArgs) -> ExitCode {
    let text = match std::fs::read(&args.file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("cufront: cannot read {}: {e}", args.file.display());
            return ExitCode::from(4);
        }
    };
    let opts = ParseOptions {
        lex: LexOptions { cxx20: args.cxx20, digit_separators: true },
        lazy_bodies: args.lazy,
    };
    let parse = cufront_syntax::parse(&text, opts);
    if args.tree {
        print!("{}", cufront_syntax::debug_tree(&parse.syntax_node()));
    }
    if args.errors {
        let map = SourceMap::new(&text, &args.file.display().to_string());
        for e in parse.errors() {
            let loc = map.location(e.range.start().into());
            println!("{}:{}:{}: {}", map.file_name(loc.file), loc.line, loc.col, e.msg);
        }
    }
    println!("{} syntax errors", parse.errors().len());
    if parse.errors().is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
