//! `cufront parse FILE.ii [--tree] [--errors] [--lazy] [--time [--repeat N]]`:
//! a debugging and measuring aid for the parser.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use cufront_syntax::{LexOptions, Names, Parse, ParseOptions, SyntaxKind, source_map::SourceMap};

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
    /// Print the time spent lexing and parsing (medians over `--repeat` runs)
    /// as one `key=value` line on stderr.
    #[arg(long)]
    time: bool,
    /// Parse this many times (with `--time`).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
}

pub fn run(args: ParseArgs) -> ExitCode {
    let text = match std::fs::read(&args.file) {
        // Valid UTF-8 (nearly always) is taken as is, without a copy.
        Ok(bytes) => String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(e) => {
            eprintln!("cufront: cannot read {}: {e}", args.file.display());
            return ExitCode::from(4);
        }
    };
    let opts = ParseOptions { lex: LexOptions { cxx20: args.cxx20, digit_separators: true }, lazy_bodies: args.lazy };
    let mut lex_times = Vec::new();
    let mut parse_times = Vec::new();
    let mut parse: Option<Parse> = None;
    for _ in 0..args.repeat.max(1) {
        // Drop the previous tree first, outside the timed region.
        drop(parse.take());
        let t0 = Instant::now();
        let lexed = cufront_syntax::lexer::lex(&text, opts.lex);
        let t1 = Instant::now();
        let p = cufront_syntax::parse_lexed(&text, &lexed, opts, Names::new());
        let t2 = Instant::now();
        lex_times.push(t1 - t0);
        parse_times.push(t2 - t1);
        parse = Some(p);
    }
    let parse = parse.expect("parsed at least once");
    if args.tree {
        print!("{}", cufront_syntax::debug_tree(&parse.syntax_node()));
    }
    if args.errors {
        let map = SourceMap::new(&text, &args.file.display().to_string());
        for e in parse.errors() {
            let loc = map.location(e.range.start().into());
            let warning = if e.severity == cufront_syntax::SyntaxSeverity::Warning { "warning: " } else { "" };
            println!("{}:{}:{}: {warning}{}", map.file_name(loc.file), loc.line, loc.col, e.msg);
        }
    }
    if args.time {
        let root = parse.syntax_node();
        let bodies = root
            .descendants()
            .filter(|n| matches!(n.kind(), SyntaxKind::LAZY_BODY | SyntaxKind::FUNCTION_BODY))
            .count();
        let (lex, parse_t) = (median(&mut lex_times), median(&mut parse_times));
        eprintln!(
            "mode={} bytes={} lines={} bodies={} runs={} lex_ms={:.1} parse_ms={:.1} total_ms={:.1}",
            if args.lazy { "lazy" } else { "full" },
            text.len(),
            text.lines().count(),
            bodies,
            lex_times.len(),
            ms(lex),
            ms(parse_t),
            ms(lex + parse_t),
        );
    }
    let errors = parse.errors().iter().filter(|e| e.severity != cufront_syntax::SyntaxSeverity::Warning).count();
    println!("{errors} syntax errors");
    if errors == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
