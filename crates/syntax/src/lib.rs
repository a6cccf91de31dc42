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
//! view of the tree. With lazy bodies, a large unit's tree is built on a
//! second thread while the grammar runs, from the events of each finished
//! namespace-level declaration (`parser::build_streamed`).
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
pub mod green;
pub mod lexer;
pub mod literal;
pub mod matching;
pub mod names;
mod numbers;
mod parser;
mod reparse;
pub mod source_map;
mod syntax_kind;
#[cfg(test)]
mod tests;

pub use crate::lexer::{LexOptions, Lexed};
pub use crate::names::{NameKind, Names, ScopeId};
pub use crate::numbers::user_suffix;
pub use crate::parser::{MAX_NESTING, MAX_TREE_DEPTH, ParseOptions, SyntaxError, SyntaxSeverity};
pub use crate::syntax_kind::SyntaxKind;
pub use rowan::{GreenNode, GreenToken, TextRange, TextSize};

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
    /// state the declaration pass left (so a reparse of an edited body,
    /// which leaves the declaration pass's result as is, shares it).
    names: Arc<Mutex<Names>>,
    /// Start offset of each `LAZY_BODY` in the tree → what parsing it needs.
    lazy: FxHashMap<TextSize, LazyBody>,
}

/// A `LAZY_BODY` of a declaration pass, as `parse_body` needs it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct LazyBody {
    /// The scope it was written in.
    scope: ScopeId,
    /// It sees the declarations made before this time (`LazyBodyRec::horizon`).
    horizon: names::Time,
    /// Nesting depth at the body.
    depth: u32,
    /// Depth of its node in the tree.
    tree_depth: u32,
    len: TextSize,
}

impl std::fmt::Debug for Parse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parse").field("green", &self.green).field("errors", &self.errors).finish_non_exhaustive()
    }
}

/// Two parses are equal when their trees and errors are (the name tables follow from them).
impl PartialEq for Parse {
    fn eq(&self, other: &Parse) -> bool {
        green_eq(&self.green, &other.green) && self.errors == other.errors
    }
}

/// `a == b` for green trees, without walking the subtrees they share: after
/// a reparse (`Parse::reparse`) all but one path of the tree is shared, and
/// comparing the old and the new tree (salsa does it for every query whose
/// value holds a tree) costs that path, not the unit.
pub fn green_eq(a: &rowan::GreenNodeData, b: &rowan::GreenNodeData) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    if a.kind() != b.kind() || a.text_len() != b.text_len() || a.children().len() != b.children().len() {
        return false;
    }
    a.children().zip(b.children()).all(|pair| match pair {
        (rowan::NodeOrToken::Node(x), rowan::NodeOrToken::Node(y)) => green_eq(x, y),
        (rowan::NodeOrToken::Token(x), rowan::NodeOrToken::Token(y)) => x == y,
        _ => false,
    })
}
impl Eq for Parse {}

impl Parse {
    pub fn green(&self) -> &GreenNode {
        &self.green
    }
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    /// This parse with its tree replaced by `green`, an equal tree held in
    /// other allocations (the tree shared across units by `base_db`'s pool).
    pub fn with_equal_green(&self, green: GreenNode) -> Parse {
        debug_assert!(green_eq(&self.green, &green));
        Parse { green, errors: self.errors.clone(), bodies: self.bodies.clone() }
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
        let (green, mut errors, lexed) = self.parse_body_parts(body)?;
        errors = lex_errors(&lexed).chain(errors).collect();
        errors.sort_by_key(|e| e.range.start());
        let bodies = Arc::new(BodyContext {
            opts: self.bodies.opts,
            names: Arc::new(Mutex::new(Names::new())),
            lazy: FxHashMap::default(),
        });
        Some(Parse { green, errors, bodies })
    }

    /// The tree and the parser's errors (offsets relative to the body) of
    /// one lazy body, and its tokens.
    fn parse_body_parts(&self, body: &SyntaxNode) -> Option<(GreenNode, Vec<SyntaxError>, Lexed)> {
        if body.kind() != SyntaxKind::LAZY_BODY {
            return None;
        }
        let lazy = *self.bodies.lazy.get(&body.text_range().start())?;
        Some(parse_lazy(&self.bodies.opts, &self.bodies.names, lazy, &body.text().to_string()))
    }

    /// What parsing the lazy body that starts at `start` needs besides its
    /// text and the unit's [`BodyParser`]; `None` if no lazy body starts there.
    pub fn lazy_body_context(&self, start: TextSize) -> Option<LazyBodyContext> {
        self.bodies.lazy.get(&start).map(|&b| LazyBodyContext(b))
    }

    /// The unit's body parser: its options and the declaration pass's name
    /// table (shared by the parses an edit inside a body gives).
    pub fn body_parser(&self) -> BodyParser {
        BodyParser { opts: self.bodies.opts, names: self.bodies.names.clone() }
    }
}

/// One lazy body parsed as the full parse would have (`Parse::parse_body`):
/// its tree, the parser's errors (relative to the body) and its tokens.
fn parse_lazy(
    opts: &ParseOptions,
    names: &Mutex<Names>,
    body: LazyBody,
    text: &str,
) -> (GreenNode, Vec<SyntaxError>, Lexed) {
    let LazyBody { scope, horizon, depth, tree_depth, .. } = body;
    let lexed = lexer::lex(text, opts.lex);
    let sig = parser::SigTokens::new(&lexed);
    let input = parser::Input::new(text, &lexed, &sig);
    let mut names = names.lock().unwrap_or_else(|e| e.into_inner());
    let rec = parser::LazyBodyRec { raw_start: 0, raw_end: lexed.len() as u32, scope, horizon, depth, tree_depth };
    let mut parsed = Vec::new();
    parse_bodies(input, &mut names, vec![rec], &mut |rec, events| parsed.push((rec, events)));
    drop(names);
    let mut parsed = parsed.into_iter();
    let mut builder = parser::TreeBuilder::new(text, &lexed);
    // `parse_bodies` yields the body it is given first.
    if let Some((_, events)) = parsed.next() {
        let mut source = BodySource::new(input, parsed);
        builder.build(input, 0..lexed.len(), events, tree_depth as usize, &mut |start| source.take(start));
    }
    let (green, errors, _) = builder.finish();
    (green, errors, lexed)
}

/// Where a lazy body was written, as parsing it needs: plain data, equal
/// for the same body before and after an edit elsewhere in the unit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LazyBodyContext(LazyBody);

impl std::fmt::Debug for LazyBodyContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyBodyContext").field("depth", &self.0.depth).finish_non_exhaustive()
    }
}

/// Parses the lazy bodies of one unit outside its `Parse` (a client that
/// keeps per-item results: the host printer's queries). Two parsers are
/// equal when they share the declaration pass's name table, as the parses
/// before and after an edit inside a body do.
#[derive(Clone)]
pub struct BodyParser {
    opts: ParseOptions,
    names: Arc<Mutex<Names>>,
}

impl PartialEq for BodyParser {
    fn eq(&self, other: &BodyParser) -> bool {
        self.opts == other.opts && Arc::ptr_eq(&self.names, &other.names)
    }
}
impl Eq for BodyParser {}

impl std::fmt::Debug for BodyParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyParser").field("names", &Arc::as_ptr(&self.names)).finish_non_exhaustive()
    }
}

impl BodyParser {
    /// The tree of the lazy body `text` written where `cx` says (a
    /// `FUNCTION_BODY`, offsets relative to the body), as `Parse::parse_body`
    /// gives it; its syntax errors are not kept.
    pub fn parse(&self, cx: LazyBodyContext, text: &str) -> GreenNode {
        parse_lazy(&self.opts, &self.names, cx.0, text).0
    }
}

/// The green tree of `node` with the `LAZY_BODY` nodes at `replacements`
/// (ranges in `node`'s offsets; sorted by start, not overlapping) replaced
/// by their parsed trees.
pub fn splice_bodies(node: &SyntaxNode, replacements: &[(TextRange, GreenNode)]) -> GreenNode {
    splice(node, replacements)
}

impl Parse {
    /// The options this unit was parsed with (a caller that scans the
    /// tokens of a lazy body lexes its text with `self.options().lex`).
    pub fn options(&self) -> ParseOptions {
        self.bodies.opts
    }

    /// The ranges of the bodies this parse left lazy, in no particular order
    /// (bodies nested in them not included: they are parsed with them).
    pub fn lazy_body_ranges(&self) -> impl Iterator<Item = TextRange> + '_ {
        self.bodies.lazy.iter().map(|(&start, body)| TextRange::at(start, body.len))
    }

    /// This parse with the lazy bodies at `ranges` parsed in place (each as
    /// `parse_body` parses it, errors included): for the bodies it parses,
    /// the tree and the errors are those of a full parse. Ranges that are
    /// not a lazy body of this tree are ignored; the other bodies stay lazy.
    pub fn with_bodies_parsed(&self, ranges: &[TextRange]) -> Parse {
        let root = self.syntax_node();
        let mut ranges = ranges.to_vec();
        ranges.sort_by_key(|r| (r.start(), std::cmp::Reverse(r.end())));
        ranges.dedup();
        let mut errors = self.errors.clone();
        let mut parsed = Vec::with_capacity(ranges.len());
        for r in ranges {
            let Some(body) = lazy_body_at(&root, r) else { continue };
            let Some((green, body_errors, _)) = self.parse_body_parts(&body) else { continue };
            // The unit's lexer errors are already in `errors`.
            errors.extend(body_errors.into_iter().map(|e| SyntaxError { range: e.range + r.start(), ..e }));
            parsed.push((r, green));
        }
        if parsed.is_empty() {
            return self.clone();
        }
        errors.sort_by_key(|e| e.range.start());
        let green = splice(&root, &parsed);
        Parse { green, errors, bodies: self.bodies.clone() }
    }
}

/// The `LAZY_BODY` node whose range is `range`, if any.
fn lazy_body_at(root: &SyntaxNode, range: TextRange) -> Option<SyntaxNode> {
    let mut node = root.clone();
    loop {
        if node.kind() == SyntaxKind::LAZY_BODY && node.text_range() == range {
            return Some(node);
        }
        if !node.text_range().contains_range(range) {
            return None;
        }
        node = node.child_or_token_at_range(range)?.into_node()?;
    }
}

/// The green tree of `node` with each `LAZY_BODY` at a range of
/// `replacements` (sorted by start, not overlapping, all inside `node`)
/// replaced by its tree. Only the nodes on the way to a replaced body are rebuilt.
fn splice(node: &SyntaxNode, replacements: &[(TextRange, GreenNode)]) -> GreenNode {
    let green = node.green().into_owned();
    let mut children: Vec<rowan::NodeOrToken<GreenNode, GreenToken>> = green
        .children()
        .map(|c| match c {
            rowan::NodeOrToken::Node(n) => rowan::NodeOrToken::Node(n.to_owned()),
            rowan::NodeOrToken::Token(t) => rowan::NodeOrToken::Token(t.to_owned()),
        })
        .collect();
    let mut i = 0;
    while i < replacements.len() {
        let (range, body) = &replacements[i];
        let Some(child) = node.child_or_token_at_range(*range).and_then(|c| c.into_node()) else {
            i += 1;
            continue;
        };
        let child_range = child.text_range();
        let n = replacements[i..].iter().take_while(|(r, _)| child_range.contains_range(*r)).count();
        let new = if child.kind() == SyntaxKind::LAZY_BODY && child_range == *range {
            body.clone()
        } else {
            splice(&child, &replacements[i..i + n])
        };
        children[child.index()] = rowan::NodeOrToken::Node(new);
        i += n;
    }
    GreenNode::new(green.kind(), children)
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
    let sig = parser::SigTokens::new(lexed);
    let input = parser::Input::new(text, lexed, &sig);
    if opts.lazy_bodies && input.len() >= STREAM_MIN_TOKENS {
        return parse_lazy_streamed(text, lexed, input, opts, names, parser::STREAM_CHUNK);
    }
    let mut p = parser::Parser::new(input, &mut names);
    grammar::source_file(&mut p);
    let (events, recs) = p.finish_with_bodies();
    let mut lazy = FxHashMap::default();
    let (green, mut errors);
    if opts.lazy_bodies {
        let depths;
        (green, errors, depths) = parser::build_split(text, lexed, input, events);
        lazy = lazy_map(lexed, &recs, &depths);
    } else {
        (green, errors) = build_full(input, events, recs, &mut names);
    }
    errors = lex_errors(lexed).chain(errors).collect();
    errors.sort_by_key(|e| e.range.start());
    names.shrink_to_fit();
    Parse { green, errors, bodies: Arc::new(BodyContext { opts, names: Arc::new(Mutex::new(names)), lazy }) }
}

/// At least this many significant tokens: a declaration pass's tree is
/// built on a second thread while the grammar runs (`parser::build_streamed`).
const STREAM_MIN_TOKENS: usize = 100_000;

/// How many streamed builds fell back to building after the grammar.
#[cfg(test)]
static STREAM_FALLBACKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `parse` with lazy bodies and the tree streamed in chunks of `chunk`
/// events, whatever the size of `text`, and whether it fell back to a build
/// after the grammar.
#[cfg(test)]
pub(crate) fn parse_streamed(text: &str, opts: ParseOptions, chunk: usize) -> (Parse, bool) {
    use std::sync::atomic::Ordering;
    let lexed = lexer::lex(text, opts.lex);
    let sig = parser::SigTokens::new(&lexed);
    let input = parser::Input::new(text, &lexed, &sig);
    let before = STREAM_FALLBACKS.load(Ordering::Relaxed);
    let parse =
        parse_lazy_streamed(text, &lexed, input, ParseOptions { lazy_bodies: true, ..opts }, Names::new(), chunk);
    (parse, STREAM_FALLBACKS.load(Ordering::Relaxed) != before)
}

/// `parse_lexed` with lazy bodies, the tree built while the grammar runs.
fn parse_lazy_streamed(
    text: &str,
    lexed: &Lexed,
    input: parser::Input<'_>,
    opts: ParseOptions,
    mut names: Names,
    chunk: usize,
) -> Parse {
    let (tree, events, recs) = std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        let build = s.spawn(move || parser::build_streamed(text, lexed, input, rx));
        let mut p = parser::Parser::new(input, &mut names);
        p.stream_to(tx, chunk);
        grammar::source_file(&mut p);
        let intact = p.end_stream();
        let (events, recs) = p.finish_with_bodies();
        let tree = build.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (tree.filter(|_| intact), events, recs)
    });
    // A sent event changed (the grammar rewound or rewrapped past a
    // declaration it had called final): build the tree now.
    let (green, mut errors, depths) = tree.unwrap_or_else(|| {
        #[cfg(test)]
        STREAM_FALLBACKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        parser::build_split(text, lexed, input, events)
    });
    let lazy = lazy_map(lexed, &recs, &depths);
    errors = lex_errors(lexed).chain(errors).collect();
    errors.sort_by_key(|e| e.range.start());
    names.shrink_to_fit();
    Parse { green, errors, bodies: Arc::new(BodyContext { opts, names: Arc::new(Mutex::new(names)), lazy }) }
}

/// `BodyContext::lazy` of a declaration pass's lazy bodies `recs`, given
/// the first raw token and tree depth of each `LAZY_BODY` node.
fn lazy_map(lexed: &Lexed, recs: &[parser::LazyBodyRec], depths: &[(u32, u32)]) -> FxHashMap<TextSize, LazyBody> {
    // A body whose node was flattened by the depth cap has no node and
    // is never looked up; its entry is harmless.
    let by_start: FxHashMap<u32, u32> = depths.iter().copied().collect();
    recs.iter()
        .map(|r| {
            let tree_depth = by_start.get(&r.raw_start).copied().unwrap_or(0);
            let start = lexed.start(r.raw_start as usize);
            let len = lexed.range(r.raw_end as usize - 1).end as u32 - start;
            let body =
                LazyBody { scope: r.scope, horizon: r.horizon, depth: r.depth, tree_depth, len: TextSize::from(len) };
            (TextSize::from(start), body)
        })
        .collect()
}

fn lex_errors(lexed: &Lexed) -> impl Iterator<Item = SyntaxError> + '_ {
    lexed.errors.iter().map(|e| {
        let range = match e.offset {
            Some(at) => TextRange::empty(TextSize::from(at)),
            None => {
                TextRange::new(TextSize::from(lexed.start(e.token)), TextSize::from(lexed.range(e.token).end as u32))
            }
        };
        SyntaxError { range, msg: e.msg.clone(), severity: e.severity }
    })
}

/// Runs the grammar over the lazy bodies `recs` and the bodies nested in
/// them, with the name table re-entered at each one's scope, and hands each
/// parsed body to `sink` (a body before the bodies nested in it).
///
/// The table is rewound after each body of `recs` and its nested bodies
/// (which are recorded in scopes that the body's parse creates), so every
/// body of `recs` sees the table the declaration pass left, less what was
/// declared after its horizon: the times from the horizon to the end of the
/// pass are hidden (`Names::set_hidden`). A body nested in it (a member of a
/// local class) also hides what its enclosing body declared after its own
/// horizon. A worklist, not recursion: local classes in bodies in local
/// classes … cost no stack.
fn parse_bodies(
    input: parser::Input<'_>,
    names: &mut Names,
    recs: Vec<parser::LazyBodyRec>,
    sink: &mut dyn FnMut(parser::LazyBodyRec, parser::Events),
) {
    // The bodies of one element of `recs`, with their level of body nesting.
    let mut group: Vec<(parser::LazyBodyRec, u32)> = Vec::new();
    for rec in recs {
        let journal = names.journal_len();
        let pass_end = names.now();
        let saved = names.current_scope();
        group.clear();
        group.push((rec, 1));
        let mut i = 0;
        while let Some(&(rec, level)) = group.get(i) {
            let body = input.sub(rec.raw_start as usize..rec.raw_end as usize);
            // Levels beyond 2 are parsed in place (`MAX_LAZY_BODY_LEVEL`):
            // a body hides at most its own window and the outermost one's.
            let mut hidden = vec![(group[0].0.horizon, pass_end)];
            if level > 1 {
                hidden.push((rec.horizon, names.now()));
            }
            names.set_hidden(hidden);
            names.enter_scope(rec.scope);
            let mut p = parser::Parser::new(body, names);
            p.set_depth(rec.depth);
            p.body_level = level;
            grammar::body(&mut p);
            let (events, nested) = p.finish_with_bodies();
            sink(rec, events);
            group.extend(nested.into_iter().map(|rec| (rec, level + 1)));
            i += 1;
        }
        // Body-local names go away: the next body sees the declaration pass's table.
        names.rewind(journal);
        names.set_hidden(Vec::new());
        names.enter_scope(saved);
    }
}

/// What `TreeBuilder::build` asks for at each `LAZY_BODY`: the parsed body
/// that starts at that raw token, from the bodies `parse_bodies` gives, in
/// its order (those not asked for yet wait in `pending`).
struct BodySource<'t, I> {
    input: parser::Input<'t>,
    parsed: I,
    pending: FxHashMap<u32, (parser::LazyBodyRec, parser::Events)>,
}

impl<'t, I: Iterator<Item = (parser::LazyBodyRec, parser::Events)>> BodySource<'t, I> {
    fn new(input: parser::Input<'t>, parsed: I) -> Self {
        BodySource { input, parsed, pending: FxHashMap::default() }
    }

    fn take(&mut self, raw_start: u32) -> Option<parser::BodyEvents<'t>> {
        let (rec, events) = match self.pending.remove(&raw_start) {
            Some(body) => body,
            None => loop {
                let (rec, events) = self.parsed.next()?;
                if rec.raw_start == raw_start {
                    break (rec, events);
                }
                self.pending.insert(rec.raw_start, (rec, events));
            },
        };
        let raw_range = rec.raw_start as usize..rec.raw_end as usize;
        Some(parser::BodyEvents { input: self.input.sub(raw_range.clone()), raw_range, events })
    }
}

/// Below this many tokens a full parse builds its tree on the parsing thread.
const PARALLEL_BUILD_MIN_TOKENS: usize = 200_000;

/// The tree of a full parse: the declaration pass's `events` with each body
/// of `recs` (parsed here) in place of its `LAZY_BODY`. On large inputs the
/// tree is built on a second thread while the bodies are parsed (the
/// grammar needs only the name table, the builder only the events).
fn build_full(
    input: parser::Input<'_>,
    events: parser::Events,
    recs: Vec<parser::LazyBodyRec>,
    names: &mut Names,
) -> (GreenNode, Vec<SyntaxError>) {
    let range = 0..input.lexed.len();
    let mut builder = parser::TreeBuilder::new(input.text, input.lexed);
    if input.lexed.len() < PARALLEL_BUILD_MIN_TOKENS {
        let mut parsed = Vec::new();
        parse_bodies(input, names, recs, &mut |rec, events| parsed.push((rec, events)));
        let mut source = BodySource::new(input, parsed.into_iter());
        builder.build(input, range, events, 0, &mut |start| source.take(start));
        let (green, errors, _) = builder.finish();
        return (green, errors);
    }
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        let build = s.spawn(move || {
            let mut source = BodySource::new(input, rx.into_iter());
            builder.build(input, range, events, 0, &mut |start| source.take(start));
            builder.finish()
        });
        // A closed channel means the builder panicked: `join` reports it.
        parse_bodies(input, names, recs, &mut |rec, events| drop(tx.send((rec, events))));
        drop(tx);
        let (green, errors, _) = build.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (green, errors)
    })
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
                    rowan::NodeOrToken::Token(t) => {
                        writeln!(out, "{:?}@{:?} {:?}", t.kind(), t.text_range(), t.text())?
                    }
                }
                indent += 1;
            }
            rowan::WalkEvent::Leave(_) => indent -= 1,
        }
    }
    Ok(())
}
