//! cufront-syntax: the lossless C++/CUDA syntax of a preprocessed translation unit.
//!
//! Input is what nvcc hands cudafe++ (a `.cpp4.ii`): gcc line markers, `#pragma`
//! lines, CUDA keywords already expanded to `__attribute__((...))`.
//!
//! Parsing is two passes. The declaration pass parses everything but
//! function bodies, which it keeps as `LAZY_BODY` token ranges, recording the
//! scope each was written in; then (unless `ParseOptions::lazy_bodies`) each
//! body is parsed with the name table re-entered at that scope, so a member
//! function body sees its complete class, and the body trees replace the
//! `LAZY_BODY` nodes in one bottom-up rebuild. `Parse::parse_body` parses one
//! lazy body on demand, exactly as the full parse would. `ast` is the typed
//! view of the tree.
//!
//! Invariants:
//! - Parsing never fails: every input yields a tree and a list of errors.
//! - The tree is lossless: its text is the input, byte for byte.
//! - Nesting is bounded (`MAX_NESTING` for the parser's recursion,
//!   `MAX_TREE_DEPTH` for trees): no input overflows the stack, in the parser
//!   or in anything that walks or drops a tree.
//! - No I/O, no salsa, no CUDA semantics here.

pub mod ast;
mod grammar;
pub mod lexer;
pub mod names;
mod parser;
pub mod source_map;
mod syntax_kind;
#[cfg(test)]
mod tests;

pub use crate::lexer::{LexOptions, Lexed};
pub use crate::names::{NameKind, Names, ScopeId};
pub use crate::parser::{ParseOptions, SyntaxError, MAX_NESTING, MAX_TREE_DEPTH};
pub use crate::syntax_kind::SyntaxKind;
pub use rowan::{GreenNode, TextRange, TextSize};

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

#[derive(Debug, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CppLanguage {}

impl rowan::Language for CppLanguage {
    type Kind = SyntaxKind;
    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from(raw.0)
    }
    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind.into())
    }
}

pub type SyntaxNode = rowan::SyntaxNode<CppLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<CppLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<CppLanguage>;

/// A parsed translation unit (or a parsed lazy body).
///
/// It keeps the name table of the declaration pass and the scope of every
/// body left lazy, behind an `Arc`, so that `parse_body` can parse a
/// `LAZY_BODY` on demand exactly as the full parse would have.
#[derive(Clone)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<SyntaxError>,
    bodies: Arc<BodyContext>,
}

/// What parsing a lazy body later needs.
struct BodyContext {
    opts: ParseOptions,
    /// Locked only while a body is parsed; every parse rewinds it to the
    /// state the declaration pass left.
    names: Mutex<Names>,
    /// Start offset of each `LAZY_BODY` in the tree → its scope, nesting depth and tree depth.
    lazy: FxHashMap<TextSize, (ScopeId, u32, u32)>,
}

impl std::fmt::Debug for Parse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parse").field("green", &self.green).field("errors", &self.errors).finish_non_exhaustive()
    }
}

/// Two parses are equal when their trees and errors are (the name tables follow from them).
impl PartialEq for Parse {
    fn eq(&self, other: &Parse) -> bool {
        self.green == other.green && self.errors == other.errors
    }
}
impl Eq for Parse {}

impl Parse {
    pub fn green(&self) -> &GreenNode {
        &self.green
    }
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// Runs `f` on the name table the declaration pass built.
    pub fn with_names<R>(&self, f: impl FnOnce(&Names) -> R) -> R {
        let names = self.bodies.names.lock().unwrap_or_else(|e| e.into_inner());
        f(&names)
    }

    /// Parses one `LAZY_BODY` of this tree (a node of `self.syntax_node()`)
    /// in the scope it was written in. The result's root is a `FUNCTION_BODY`
    /// whose text is the body's, with offsets (tree and errors) relative to
    /// the body's start; bodies nested in it (members of local classes) are
    /// parsed too. `None` if `body` is not a lazy body of this parse.
    pub fn parse_body(&self, body: &SyntaxNode) -> Option<Parse> {
        if body.kind() != SyntaxKind::LAZY_BODY {
            return None;
        }
        let &(scope, depth, tree_depth) = self.bodies.lazy.get(&body.text_range().start())?;
        let text = body.text().to_string();
        let opts = self.bodies.opts;
        let lexed = lexer::lex(&text, opts.lex);
        let mut names = self.bodies.names.lock().unwrap_or_else(|e| e.into_inner());
        let rec = parser::LazyBodyRec { raw_start: 0, raw_end: lexed.len() as u32, scope, depth, tree_depth };
        let work = parse_bodies(&text, &lexed, opts, &mut names, vec![rec]);
        drop(names);
        let (mut parsed, mut errors) = build_bodies(&text, &lexed, work);
        errors.extend(lex_errors(&lexed));
        errors.sort_by_key(|e| e.range.start());
        let green = parsed.pop().map(|(_, g)| g)?;
        let bodies = Arc::new(BodyContext {
            opts,
            names: Mutex::new(Names::new()),
            lazy: FxHashMap::default(),
        });
        Some(Parse { green, errors, bodies })
    }
}

/// Parses a whole translation unit: the declaration pass, then (unless
/// `opts.lazy_bodies`) every function body in the scope it was written in.
pub fn parse(text: &str, opts: ParseOptions) -> Parse {
    let lexed = lexer::lex(text, opts.lex);
    parse_lexed(text, &lexed, opts, Names::new())
}

/// Parses a translation unit that is already lexed, starting from the name
/// table `names` (which the result keeps, see `Parse::with_names`).
pub fn parse_lexed(text: &str, lexed: &Lexed, opts: ParseOptions, mut names: Names) -> Parse {
    let input = parser::Input::new(text, lexed);
    let mut p = parser::Parser::new(&input, &mut names, opts);
    grammar::source_file(&mut p);
    let (events, mut recs) = p.finish_with_bodies();
    let mut lazy = FxHashMap::default();
    let (mut green, mut errors);
    if opts.lazy_bodies {
        let depths;
        (green, errors, depths) = parser::build_tree(&input, 0..lexed.len(), events, 0);
        set_tree_depths(&mut recs, &depths);
        lazy.extend(
            recs.iter().map(|r| (TextSize::from(lexed.start(r.raw_start as usize)), (r.scope, r.depth, r.tree_depth))),
        );
    } else {
        // The declaration pass's tree is built on a second thread while the
        // bodies are parsed (the grammar needs only the name table).
        let (decl_tree, mut work) = std::thread::scope(|s| {
            let builder = s.spawn(|| parser::build_tree(&input, 0..lexed.len(), events, 0));
            let work = parse_bodies(text, lexed, opts, &mut names, recs);
            (builder.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), work)
        });
        let depths;
        (green, errors, depths) = decl_tree;
        let by_start: FxHashMap<u32, u32> = depths.iter().copied().collect();
        for w in work.iter_mut().filter(|w| w.parent.is_none()) {
            w.rec.tree_depth = by_start.get(&w.rec.raw_start).copied().unwrap_or(0);
        }
        let (parsed, body_errors) = build_bodies(text, lexed, work);
        green = splice(&green, TextSize::from(0), &parsed);
        errors.extend(body_errors);
    }
    errors.extend(lex_errors(lexed));
    errors.sort_by_key(|e| e.range.start());
    Parse { green, errors, bodies: Arc::new(BodyContext { opts, names: Mutex::new(names), lazy }) }
}

fn lex_errors(lexed: &Lexed) -> impl Iterator<Item = SyntaxError> + '_ {
    lexed.errors.iter().map(|e| {
        let at = TextSize::from(lexed.start(e.token));
        SyntaxError { range: TextRange::new(at, TextSize::from(lexed.range(e.token).end as u32)), msg: e.msg.clone() }
    })
}

/// A lazy body on its way to a tree: its grammar events first, then its tree.
struct BodyWork {
    rec: parser::LazyBodyRec,
    parent: Option<usize>,
    events: Vec<parser::Event>,
    green: Option<GreenNode>,
    children: Vec<(TextSize, GreenNode)>,
}

/// Runs the grammar over the lazy bodies `recs` and the bodies nested in
/// them, with the name table re-entered at each one's scope. Returns the
/// work list (children after their parents) for `build_bodies`.
///
/// The table is rewound after each body of `recs` and its nested bodies
/// (which are recorded in scopes that the body's parse creates), so every
/// body of `recs` sees the table the declaration pass left. A worklist, not
/// recursion: local classes in bodies in local classes … cost no stack.
fn parse_bodies(
    text: &str,
    lexed: &Lexed,
    opts: ParseOptions,
    names: &mut Names,
    recs: Vec<parser::LazyBodyRec>,
) -> Vec<BodyWork> {
    let mut work: Vec<BodyWork> = Vec::with_capacity(recs.len());
    let mut levels: Vec<u32> = Vec::with_capacity(recs.len());
    for rec in recs {
        let journal = names.journal_len();
        let saved = names.current_scope();
        let mut i = work.len();
        work.push(BodyWork { rec, parent: None, events: Vec::new(), green: None, children: Vec::new() });
        levels.push(1);
        while i < work.len() {
            let rec = work[i].rec;
            let input = parser::Input::from_range(text, lexed, rec.raw_start as usize..rec.raw_end as usize);
            names.enter_scope(rec.scope);
            let mut p = parser::Parser::new(&input, names, opts);
            p.set_depth(rec.depth);
            p.body_level = levels[i];
            grammar::body(&mut p);
            let (events, nested) = p.finish_with_bodies();
            work[i].events = events;
            for rec in nested {
                work.push(BodyWork { rec, parent: Some(i), events: Vec::new(), green: None, children: Vec::new() });
                levels.push(levels[i] + 1);
            }
            i += 1;
        }
        // Body-local names go away: the next body sees the declaration pass's table.
        names.rewind(journal);
        names.enter_scope(saved);
    }
    work
}

/// Builds the trees of `parse_bodies`' work list (each at the depth its
/// `LAZY_BODY` has, which `rec.tree_depth` holds for the top-level ones) and
/// splices nested bodies into their parents. Returns each top-level body as
/// a `FUNCTION_BODY` tree keyed by its start offset, sorted, and the errors.
fn build_bodies(text: &str, lexed: &Lexed, mut work: Vec<BodyWork>) -> (Vec<(TextSize, GreenNode)>, Vec<SyntaxError>) {
    let mut errors = Vec::new();
    // Parents come before their children: building in order gives each child its depth.
    for i in 0..work.len() {
        let rec = work[i].rec;
        let range = rec.raw_start as usize..rec.raw_end as usize;
        let input = parser::Input::from_range(text, lexed, range.clone());
        let events = std::mem::take(&mut work[i].events);
        let (green, errs, depths) = parser::build_tree(&input, range, events, rec.tree_depth as usize);
        errors.extend(errs);
        work[i].green = Some(green);
        if !depths.is_empty() {
            let by_start: FxHashMap<u32, u32> = depths.iter().copied().collect();
            for child in work[i + 1..].iter_mut().filter(|w| w.parent == Some(i)) {
                if let Some(&d) = by_start.get(&child.rec.raw_start) {
                    child.rec.tree_depth = d;
                }
            }
        }
    }
    // Splice bottom-up, from the end.
    let mut top = Vec::new();
    for i in (0..work.len()).rev() {
        let mut green = work[i].green.take().expect("every body was built");
        let mut children = std::mem::take(&mut work[i].children);
        let start = TextSize::from(lexed.start(work[i].rec.raw_start as usize));
        if !children.is_empty() {
            children.sort_by_key(|(o, _)| *o);
            green = splice(&green, start, &children);
        }
        match work[i].parent {
            Some(parent) => work[parent].children.push((start, green)),
            None => top.push((start, green)),
        }
    }
    top.sort_by_key(|(o, _)| *o);
    (top, errors)
}

/// Copies each `LAZY_BODY`'s depth in its tree into its record (a body whose
/// node was flattened by the depth cap keeps depth 0 and is never spliced).
fn set_tree_depths(recs: &mut [parser::LazyBodyRec], depths: &[(u32, u32)]) {
    let by_start: FxHashMap<u32, u32> = depths.iter().copied().collect();
    for rec in recs {
        if let Some(&d) = by_start.get(&rec.raw_start) {
            rec.tree_depth = d;
        }
    }
}

/// Replaces the `LAZY_BODY` nodes that start at the offsets in `repls`
/// (sorted) with the given trees, rebuilding only the nodes on the paths to
/// them: one pass, linear in the size of those nodes.
fn splice(node: &rowan::GreenNodeData, start: TextSize, repls: &[(TextSize, GreenNode)]) -> GreenNode {
    if repls.is_empty() {
        return node.to_owned();
    }
    if node.kind() == SyntaxKind::LAZY_BODY.into() && repls[0].0 == start {
        return repls[0].1.clone();
    }
    let mut rest = repls;
    let mut offset = start;
    let mut children = Vec::with_capacity(node.children().len());
    for child in node.children() {
        let end = offset + child.text_len();
        match child {
            rowan::NodeOrToken::Node(n) => {
                let k = rest.partition_point(|(o, _)| *o < end);
                let (mine, tail) = rest.split_at(k);
                rest = tail;
                let n = if mine.is_empty() {
                    n.to_owned()
                } else {
                    stacker::maybe_grow(64 * 1024, 1024 * 1024, || splice(n, offset, mine))
                };
                children.push(rowan::NodeOrToken::Node(n));
            }
            rowan::NodeOrToken::Token(t) => children.push(rowan::NodeOrToken::Token(t.to_owned())),
        }
        offset = end;
    }
    GreenNode::new(node.kind(), children)
}

/// Debug form of a tree: one line per node/token with its range.
pub fn debug_tree(node: &SyntaxNode) -> String {
    let mut out = String::new();
    debug_tree_to(node, &mut out).expect("writing to a String cannot fail");
    out
}

/// `debug_tree` into any writer. Iterative: trees of any depth are fine.
pub fn debug_tree_to(node: &SyntaxNode, out: &mut impl std::fmt::Write) -> std::fmt::Result {
    let mut indent = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(el) => {
                for _ in 0..indent {
                    out.write_str("  ")?;
                }
                match &el {
                    rowan::NodeOrToken::Node(n) => writeln!(out, "{:?}@{:?}", n.kind(), n.text_range())?,
                    rowan::NodeOrToken::Token(t) => writeln!(out, "{:?}@{:?} {:?}", t.kind(), t.text_range(), t.text())?,
                }
                indent += 1;
            }
            rowan::WalkEvent::Leave(_) => indent -= 1,
        }
    }
    Ok(())
}
