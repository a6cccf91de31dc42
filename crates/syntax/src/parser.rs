//! The parser machinery: a cursor over non-trivia tokens that records
//! events (start node, token, finish node, error). The grammar lives in
//! `grammar/`; `build_tree` turns the events into a rowan tree.
//!
//! C++ needs tentative parsing (declaration or expression?): a `Checkpoint`
//! captures the cursor, the events and the name table journal, and `rewind`
//! returns to it. Because nothing but events and the journal are mutated,
//! rewinding is exact.
//!
//! A declaration pass may stream its events to a tree built on another
//! thread (`Parser::stream_to`): between two namespace-level declarations
//! the grammar calls the events so far final (`publish`). That is a claim,
//! not a proof: any later change to a sent event (a rewind, `precede`,
//! `abandon`) ends the stream, and the tree is built after the grammar.

use std::cell::Cell;

use rowan::TextRange;

use crate::SyntaxKind::{self, *};
use crate::lexer::{LexOptions, Lexed};
use crate::names::{Names, ScopeId, Time};

mod tree;

pub(crate) use tree::{BodyEvents, TreeBuilder, build_split, build_streamed};

/// Nesting deeper than this is reported once and skipped as balanced tokens,
/// so that the parser and every tree walk keep a bounded stack.
pub const MAX_NESTING: u32 = 400;

/// No tree is deeper than this (a few nodes per nesting level): consumers
/// that recurse over trees (rowan's drop among them) need a bounded stack.
/// `build_tree` flattens whatever a grammar rule nests deeper.
pub const MAX_TREE_DEPTH: usize = 10 * MAX_NESTING as usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ParseOptions {
    pub lex: LexOptions,
    /// Keep function bodies as `LAZY_BODY` token ranges (parse them on demand).
    pub lazy_bodies: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub range: TextRange,
    pub msg: String,
    pub severity: SyntaxSeverity,
}

/// How EDG classes a problem the lexer or the parser finds (spec 60 §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SyntaxSeverity {
    /// A hard error: options and pragmas cannot change it (most syntax errors).
    Error,
    /// An error options and pragmas can change (`-D`): a `;` missing
    /// before the `}` of a member list (`--diag_suppress=65` silences it).
    Discretionary,
    /// A warning of the lexer (a multicharacter character literal).
    Warning,
}

/// The significant (non-trivia) tokens of a lexed text (the lexer lists
/// them), shared by the declaration pass and every body parsed after it.
pub(crate) struct SigTokens<'t> {
    /// Indices (into `Lexed`) of the non-trivia tokens.
    raw: &'t [u32],
    /// Their kinds (a copy: the grammar looks at kinds all the time).
    kinds: &'t [SyntaxKind],
    /// `follows[i]`: significant token `i` immediately follows token `i - 1` (no trivia between).
    follows: &'t [bool],
}

impl<'t> SigTokens<'t> {
    pub(crate) fn new(lexed: &'t Lexed) -> SigTokens<'t> {
        let (raw, kinds, follows) = lexed.significant();
        SigTokens { raw, kinds, follows }
    }
}

/// The significant tokens the grammar sees: all of a text's, or those of a
/// range of it (a lazy body), with their position among all tokens.
#[derive(Clone, Copy)]
pub(crate) struct Input<'t> {
    pub(crate) text: &'t str,
    pub(crate) lexed: &'t Lexed,
    /// Indices (into `lexed`) of the significant tokens.
    pub(crate) sig: &'t [u32],
    kinds: &'t [SyntaxKind],
    follows: &'t [bool],
}

impl<'t> Input<'t> {
    pub(crate) fn new(text: &'t str, lexed: &'t Lexed, sig: &SigTokens<'t>) -> Input<'t> {
        Input { text, lexed, sig: sig.raw, kinds: sig.kinds, follows: sig.follows }
    }

    /// The significant tokens among `lexed[range]` (a sub-range of `self`'s).
    pub(crate) fn sub(&self, range: std::ops::Range<usize>) -> Input<'t> {
        let lo = self.sig.partition_point(|&r| (r as usize) < range.start);
        let hi = lo + self.sig[lo..].partition_point(|&r| (r as usize) < range.end);
        Input { sig: &self.sig[lo..hi], kinds: &self.kinds[lo..hi], follows: &self.follows[lo..hi], ..*self }
    }

    pub(crate) fn len(&self) -> usize {
        self.sig.len()
    }
    pub(crate) fn kind(&self, i: usize) -> SyntaxKind {
        self.kinds.get(i).copied().unwrap_or(EOF)
    }
    pub(crate) fn text(&self, i: usize) -> &'t str {
        match self.sig.get(i) {
            Some(&raw) => self.lexed.text(self.text, raw as usize),
            None => "",
        }
    }
    /// Is significant token `i + 1` right after token `i`? (Never past the input's end.)
    pub(crate) fn is_joint(&self, i: usize) -> bool {
        i + 1 < self.follows.len() && self.follows[i + 1]
    }
}

/// What the grammar records (8 bytes: there is about one per token).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    /// `forward_parent` (an offset to a later `Start`, 0 for none) lets a
    /// node be wrapped after the fact (`CompletedMarker::precede`); `OPEN`
    /// while the node's marker is neither completed nor abandoned.
    Start {
        kind: SyntaxKind,
        forward_parent: u32,
    },
    Finish,
    /// `n_sig` significant tokens, and the trivia between them, as one token
    /// of `kind`: `>` `>` → `>>`, or a whole lazy body → `BODY_TEXT`.
    Token {
        kind: SyntaxKind,
        n_sig: u32,
    },
    /// An error at the next token; its message is `Events::msgs[msg]`.
    Error {
        msg: u32,
    },
}

/// `Event::Start::forward_parent` of a node still open (a streamed build
/// tells it from an abandoned `TOMBSTONE` by this).
pub(crate) const OPEN: u32 = u32::MAX;

/// A declaration pass hands its events to a streamed build
/// (`tree::build_streamed`) in chunks of at least this many.
pub(crate) const STREAM_CHUNK: usize = 1 << 14;

/// Events of a declaration pass that are final (see `Parser::publish`),
/// for the build on the other thread.
pub(crate) struct Chunk {
    pub(crate) events: Vec<Event>,
    /// The error messages pushed since the previous chunk.
    pub(crate) msgs: Vec<ErrorMsg>,
    /// Nodes open when their start was sent, completed since: start event
    /// index and kind.
    pub(crate) completed: Vec<(u32, SyntaxKind)>,
    /// The grammar is done: this is the last chunk.
    pub(crate) last: bool,
}

/// Where a declaration pass sends its final events.
struct Stream {
    tx: std::sync::mpsc::Sender<Chunk>,
    /// Events per chunk, at least (`STREAM_CHUNK`; tests use fewer).
    chunk: usize,
    msgs_sent: usize,
    completed: Vec<(u32, SyntaxKind)>,
}

/// A syntax error message, formatted only when the tree is built (most
/// errors of tentative parses are rewound and never shown).
#[derive(Debug, Clone)]
pub(crate) enum ErrorMsg {
    Text(std::borrow::Cow<'static, str>),
    /// `expected <describe(kind)>`
    Expected(SyntaxKind),
    /// `expected <describe(kind)>`, a discretionary error.
    ExpectedDiscretionary(SyntaxKind),
    /// A warning.
    Warning(&'static str),
}

impl ErrorMsg {
    fn into_string(self) -> String {
        match self {
            ErrorMsg::Text(t) => t.into_owned(),
            ErrorMsg::Warning(t) => t.to_string(),
            ErrorMsg::Expected(kind) | ErrorMsg::ExpectedDiscretionary(kind) => format!("expected {}", describe(kind)),
        }
    }
    fn severity(&self) -> SyntaxSeverity {
        match self {
            ErrorMsg::ExpectedDiscretionary(_) => SyntaxSeverity::Discretionary,
            ErrorMsg::Warning(_) => SyntaxSeverity::Warning,
            _ => SyntaxSeverity::Error,
        }
    }
}

/// The grammar's output for one input: events and the error messages they refer to.
#[derive(Debug, Default, Clone)]
pub(crate) struct Events {
    pub(crate) events: Vec<Event>,
    pub(crate) msgs: Vec<ErrorMsg>,
}

/// Counts of the enclosing loops and switches (`Parser::jumps`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Jumps {
    loops: u32,
    switches: u32,
}

pub struct Parser<'t> {
    pub(crate) inp: Input<'t>,
    pos: usize,
    events: Vec<Event>,
    msgs: Vec<ErrorMsg>,
    pub(crate) names: &'t mut Names,
    depth: u32,
    depth_error_reported: bool,
    /// Inside a template argument list, a top-level `>` ends the argument
    /// (it is not a greater-than). Parenthesised and bracketed
    /// sub-expressions reset it.
    pub(crate) gt_closes: bool,
    /// Inside a launch configuration (`<<<…>>>`): with `gt_closes`, only a
    /// `>>>` ends it; a lone `>` is greater-than and `>>` a shift, as EDG
    /// reads `k<<<1, 1, n > 32 ? 4 : 0>>>()`.
    launch_gt: bool,
    /// The loops and `switch`es around the cursor in the function body
    /// being parsed (a lambda's body starts afresh): where `break` and
    /// `continue` may go.
    jumps: Jumps,
    steps: Cell<u32>,
    /// For each token, the index of the bracket closing it when it opens
    /// one (`u32::MAX` otherwise), all kinds counted alike: made on first
    /// use, so that a lookahead over a bracketed group is not a scan (a scan
    /// at each of 100,000 nested groups was quadratic).
    closers: std::cell::OnceCell<Vec<u32>>,
    /// The `LAZY_BODY`s made so far (see `grammar::statements::function_body`).
    pub(crate) lazy_bodies: Vec<LazyBodyRec>,
    /// 0 in the declaration pass; 1 + the level of the body being parsed after it.
    pub(crate) body_level: u32,
    /// How many class member specifications the cursor is in (in this
    /// input: a body parsed later starts at 0).
    class_nesting: u32,
    /// Stop tokens for skipping after an error (`grammar::recovery`).
    pub(crate) recovery: crate::grammar::recovery::Recovery,
    /// How many `{` were consumed, speculations that were rewound included
    /// (never decreases): see `must_keep`.
    braces: u32,
    /// How many tokens speculations parsed and then gave back (never
    /// decreases): see `must_keep`.
    rewound: usize,
    /// Readings that failed after going through a braced group, by where
    /// they began: see `failed_before`.
    failed_readings: rustc_hash::FxHashSet<(Reading, usize)>,
    /// How many events went to `stream` (0 when not streaming): they must
    /// not change any more, but for the kinds of nodes still open.
    sent: u32,
    stream: Option<Stream>,
}

/// Tokens that the speculations of one parse may give back before an
/// erroneous one stands (`Parser::must_keep`): so many per significant token
/// of its input, plus a constant. Real code gives back far less: under 1% of
/// its tokens over whole units (the benchmark units, CUTLASS and ggml), 64%
/// in the worst single body; this parse reaches the budget only on inputs
/// whose speculations nest without end.
const REWIND_BUDGET: (usize, usize) = (8, 65_536);

/// The tentative readings a statement tries before falling back to an
/// expression (`Parser::failed_before`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Reading {
    /// A simple-declaration as an init-statement (`if (int i = 0; …)`).
    InitDecl,
    /// A declaration as a condition (`if (auto x = f())`).
    ConditionDecl,
    /// A for-range-declaration (`for (auto& x : v)`).
    RangeDecl,
}

/// A function body kept as tokens: where it is and what it needs to be parsed later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LazyBodyRec {
    /// Raw token range (indices into `Lexed`) of the body.
    pub(crate) raw_start: u32,
    pub(crate) raw_end: u32,
    /// The scope the body was written in (the function's parameter scope).
    pub(crate) scope: ScopeId,
    /// The body sees the declarations made before this time (`Names::now`):
    /// where it is written, or for a member body the end of the outermost
    /// class it is in (its complete-class context).
    pub(crate) horizon: Time,
    /// Nesting depth at the body, so that parsing it later keeps the global bound.
    pub(crate) depth: u32,
    /// Depth of the `LAZY_BODY` node in its tree (filled in after `build_tree`),
    /// so that the parsed body's tree keeps `MAX_TREE_DEPTH` once spliced.
    pub(crate) tree_depth: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint {
    pos: usize,
    events: usize,
    msgs: usize,
    names: usize,
    bodies: usize,
    braces: u32,
}

impl<'t> Parser<'t> {
    pub(crate) fn new(inp: Input<'t>, names: &'t mut Names) -> Parser<'t> {
        Parser {
            inp,
            pos: 0,
            events: Vec::with_capacity(inp.len() * 2),
            msgs: Vec::new(),
            names,
            depth: 0,
            depth_error_reported: false,
            jumps: Jumps::default(),
            gt_closes: false,
            launch_gt: false,
            steps: Cell::new(0),
            closers: std::cell::OnceCell::new(),
            lazy_bodies: Vec::new(),
            body_level: 0,
            class_nesting: 0,
            recovery: Default::default(),
            braces: 0,
            rewound: 0,
            failed_readings: Default::default(),
            sent: 0,
            stream: None,
        }
    }

    /// Sends the events to `tx` as they become final (see `publish`), in
    /// chunks of at least `chunk` events.
    pub(crate) fn stream_to(&mut self, tx: std::sync::mpsc::Sender<Chunk>, chunk: usize) {
        self.stream = Some(Stream { tx, chunk, msgs_sent: 0, completed: Vec::new() });
    }

    /// A point where the events so far are final (between two declarations
    /// of a namespace): nothing before them will be rewound, abandoned or
    /// wrapped, and the nodes still open will be completed. The grammar only
    /// claims it; every change to a sent event is checked (`stream_changed`)
    /// and ends the stream, and the tree is then built after the grammar.
    pub(crate) fn publish(&mut self) {
        if let Some(stream) = &self.stream
            && self.events.len() - self.sent as usize >= stream.chunk
        {
            self.send(false);
        }
    }

    fn send(&mut self, last: bool) {
        let Some(stream) = &mut self.stream else { return };
        let chunk = Chunk {
            events: self.events[self.sent as usize..].to_vec(),
            msgs: self.msgs[stream.msgs_sent..].to_vec(),
            completed: std::mem::take(&mut stream.completed),
            last,
        };
        stream.msgs_sent = self.msgs.len();
        self.sent = self.events.len() as u32;
        if stream.tx.send(chunk).is_err() {
            // The build is gone (it panicked: `join` reports it).
            self.stream_changed();
        }
    }

    /// Sends the rest of the events; `false` if the stream ended early (a
    /// sent event changed), or there was none.
    pub(crate) fn end_stream(&mut self) -> bool {
        if self.stream.is_none() {
            return false;
        }
        self.send(true);
        let intact = self.stream.is_some();
        self.stream = None;
        self.sent = 0;
        intact
    }

    /// A sent event changed: the streamed tree would be wrong. Ends the
    /// stream (the build sees it closed before the last chunk).
    #[cold]
    fn stream_changed(&mut self) {
        self.stream = None;
        self.sent = 0;
    }

    /// The node started at event `pos`, sent while open, is complete.
    #[cold]
    fn stream_completed(&mut self, pos: u32, kind: SyntaxKind) {
        match &mut self.stream {
            // A `LAZY_BODY` must be known at its start (its depth is recorded there).
            Some(stream) if kind != LAZY_BODY => stream.completed.push((pos, kind)),
            _ => self.stream_changed(),
        }
    }

    /// The events and the lazy bodies recorded on the way.
    pub(crate) fn finish_with_bodies(self) -> (Events, Vec<LazyBodyRec>) {
        (Events { events: self.events, msgs: self.msgs }, self.lazy_bodies)
    }

    /// Starts at nesting depth `depth` (a lazy body parsed after the fact).
    pub(crate) fn set_depth(&mut self, depth: u32) {
        self.depth = depth;
    }

    /// Records the tokens from significant position `start` to the cursor as
    /// a lazy body. They must be the last events, all tokens; they become one
    /// `BODY_TEXT` token (most of a translation unit's tokens are in bodies:
    /// the declaration pass's tree stays small).
    pub(crate) fn record_lazy_body(&mut self, start: usize) {
        if start >= self.pos {
            return;
        }
        let n_sig = (self.pos - start) as u32;
        let mut popped = 0;
        while popped < n_sig {
            match self.events.pop() {
                Some(Event::Token { n_sig, .. }) => popped += n_sig,
                other => unreachable!("a lazy body's events are tokens, found {other:?}"),
            }
        }
        debug_assert_eq!(popped, n_sig);
        if self.events.len() < self.sent as usize {
            self.stream_changed();
        }
        self.events.push(Event::Token { kind: BODY_TEXT, n_sig });
        let raw_start = self.inp.sig[start];
        let raw_end = self.inp.sig[self.pos - 1] + 1;
        let scope = self.names.current_scope();
        let horizon = self.names.now();
        self.lazy_bodies.push(LazyBodyRec { raw_start, raw_end, scope, horizon, depth: self.depth, tree_depth: 0 });
    }

    /// Runs `f` (a class's member specification) and, if the class is not
    /// nested in another one of this input, moves the horizon of every body
    /// recorded in it to the class's end: member bodies, nested classes'
    /// included, see the complete class ([class.mem]).
    pub(crate) fn in_class_members<T>(&mut self, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        let first = self.lazy_bodies.len();
        self.class_nesting += 1;
        let r = f(self);
        self.class_nesting -= 1;
        if self.class_nesting == 0 {
            let end = self.names.now();
            for rec in self.lazy_bodies.iter_mut().skip(first) {
                rec.horizon = end;
            }
        }
        r
    }

    // ---- looking at tokens

    pub(crate) fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        let steps = self.steps.get();
        assert!(steps < 50_000_000, "the parser seems stuck");
        self.steps.set(steps + 1);
        self.inp.kind(self.pos + n)
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.nth_at(0, kind)
    }

    /// The index (relative, as `nth`'s) of the bracket that closes the one
    /// at `n`, `(`, `[` and `{` counted alike; `None` if `n` opens none or
    /// nothing closes it.
    pub(crate) fn closer(&self, n: usize) -> Option<usize> {
        let closers = self.closers.get_or_init(|| {
            let mut out = vec![u32::MAX; self.inp.len()];
            let mut open = Vec::new();
            for i in 0..self.inp.len() {
                match self.inp.kind(i) {
                    L_PAREN | L_BRACK | L_CURLY => open.push(i),
                    R_PAREN | R_BRACK | R_CURLY => {
                        if let Some(o) = open.pop() {
                            out[o] = i as u32;
                        }
                    }
                    _ => {}
                }
            }
            out
        });
        match closers.get(self.pos + n) {
            Some(&c) if c != u32::MAX => Some(c as usize - self.pos),
            _ => None,
        }
    }

    /// `kind` may be a composite (`>>`, `>=`, `>>=`) made of joint `>` tokens.
    pub(crate) fn nth_at(&self, n: usize, kind: SyntaxKind) -> bool {
        match kind {
            SHR => self.composite_at(n, &[R_ANGLE, R_ANGLE]),
            GTEQ => self.composite_at(n, &[R_ANGLE, EQ]) && !self.composite_at(n + 1, &[EQ, EQ]),
            SHREQ => self.composite_at(n, &[R_ANGLE, R_ANGLE, EQ]),
            _ => self.nth(n) == kind,
        }
    }

    fn composite_at(&self, n: usize, parts: &[SyntaxKind]) -> bool {
        parts.iter().enumerate().all(|(i, &k)| self.nth(n + i) == k)
            && (0..parts.len() - 1).all(|i| self.inp.is_joint(self.pos + n + i))
    }

    pub(crate) fn at_any(&self, kinds: &[SyntaxKind]) -> bool {
        kinds.contains(&self.current())
    }

    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.inp.len()
    }

    pub(crate) fn current_text(&self) -> &'t str {
        self.inp.text(self.pos)
    }

    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        self.inp.text(self.pos + n)
    }

    /// `IDENT` with exactly this text (contextual keywords: `final`, `override`, `import`).
    pub(crate) fn at_contextual(&self, text: &str) -> bool {
        self.at(IDENT) && self.current_text() == text
    }

    /// Position of the cursor among significant tokens (for loop-progress checks).
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    // ---- consuming tokens

    pub(crate) fn bump_any(&mut self) {
        if self.at_eof() {
            return;
        }
        let kind = self.current();
        self.do_bump(kind, 1);
    }

    /// Consumes `kind`, which must be at the cursor (composites included).
    pub(crate) fn bump(&mut self, kind: SyntaxKind) {
        assert!(self.eat(kind), "bump: expected {kind:?}, found {:?}", self.current());
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if !self.nth_at(0, kind) {
            return false;
        }
        let n_sig = match kind {
            SHR | GTEQ => 2,
            SHREQ => 3,
            _ => 1,
        };
        self.do_bump(kind, n_sig);
        true
    }

    fn do_bump(&mut self, kind: SyntaxKind, n_sig: u32) {
        if kind == L_CURLY {
            self.braces += 1;
        }
        self.pos += n_sig as usize;
        self.steps.set(0);
        self.events.push(Event::Token { kind, n_sig });
    }

    pub(crate) fn expect(&mut self, kind: SyntaxKind) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.push_error(ErrorMsg::Expected(kind));
        false
    }

    // ---- nodes

    pub(crate) fn start(&mut self) -> Marker {
        let pos = self.events.len() as u32;
        self.events.push(Event::Start { kind: TOMBSTONE, forward_parent: OPEN });
        Marker { pos, completed: false }
    }

    pub(crate) fn error(&mut self, msg: impl Into<std::borrow::Cow<'static, str>>) {
        self.push_error(ErrorMsg::Text(msg.into()));
    }

    /// A warning at the current token (`SyntaxSeverity::Warning`).
    pub(crate) fn warning(&mut self, msg: &'static str) {
        self.push_error(ErrorMsg::Warning(msg));
    }

    /// `expected <kind>` as a discretionary error (`SyntaxSeverity::Discretionary`).
    pub(crate) fn error_expected_discretionary(&mut self, kind: SyntaxKind) {
        self.push_error(ErrorMsg::ExpectedDiscretionary(kind));
    }

    fn push_error(&mut self, msg: ErrorMsg) {
        self.events.push(Event::Error { msg: self.msgs.len() as u32 });
        self.msgs.push(msg);
    }

    /// Reports an error and consumes one token (a balanced group if it opens one) into an `ERROR` node.
    pub(crate) fn err_and_bump(&mut self, msg: &'static str) {
        let m = self.start();
        self.error(msg);
        self.bump_balanced();
        m.complete(self, ERROR);
    }

    /// Consumes one token; if it opens a bracket, consumes through the matching close
    /// (or the end of input). Flat: uses no recursion.
    pub(crate) fn bump_balanced(&mut self) {
        let end = balanced_end(self.inp.kinds, self.pos);
        while self.pos < end {
            self.bump_any();
        }
    }

    /// `bump_balanced` for a lazy body: the group becomes one token event,
    /// which `record_lazy_body` takes with the body's other events (a body's
    /// tokens never get an event each).
    pub(crate) fn bump_balanced_lazy(&mut self) {
        let end = balanced_end(self.inp.kinds, self.pos);
        if end > self.pos {
            self.do_bump(BODY_TEXT, (end - self.pos) as u32);
        }
    }

    // ---- tentative parsing

    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            pos: self.pos,
            events: self.events.len(),
            msgs: self.msgs.len(),
            names: self.names.journal_len(),
            bodies: self.lazy_bodies.len(),
            braces: self.braces,
        }
    }

    /// Must what was parsed since `cp` stand, errors and all? So when it
    /// found an error and either went through a braced group (a class or
    /// enum body, a lambda body, a braced initializer) or the speculations
    /// of this parse have already given back more than their budget
    /// (`REWIND_BUDGET`). Rewound for another reading, an erroneous
    /// speculation and every speculation in it would be parsed again, once
    /// per nesting level: time exponential in the nesting, through braces
    /// (`sizeof(struct B {` or `sizeof(V<decltype([]{` repeated) or through
    /// parentheses alone (`(int(o(int((i%(int(` repeated: each group read as
    /// a type-id, a declarator's parameters, then as an expression). The
    /// budget bounds the time spent on readings given back to a constant
    /// times the input. A speculation without an error (valid code read
    /// another way) is always rewound.
    pub(crate) fn must_keep(&self, cp: Checkpoint) -> bool {
        self.has_error_since(cp) && (self.braces > cp.braces || self.budget_spent())
    }

    /// Have the speculations of this parse given back more tokens than
    /// `REWIND_BUDGET`? From then on an erroneous reading stands wherever
    /// another reading would parse the same tokens again, braced group or
    /// not: a statement's tentative readings (`for (decl : range)`, an
    /// init-statement, a condition) are each tried once per position
    /// (`failed_before`), but a region nested in N of them is still parsed
    /// once per enclosing reading given back — N times, up to the nesting
    /// bound — unless the readings stop being given back.
    pub(crate) fn budget_spent(&self) -> bool {
        self.rewound > REWIND_BUDGET.0 * self.inp.len() + REWIND_BUDGET.1
    }

    pub(crate) fn rewind(&mut self, cp: Checkpoint) {
        if cp.events < self.sent as usize {
            self.stream_changed();
        }
        self.rewound += self.pos - cp.pos;
        self.pos = cp.pos;
        self.events.truncate(cp.events);
        self.msgs.truncate(cp.msgs);
        self.names.rewind(cp.names);
        self.lazy_bodies.truncate(cp.bodies);
    }

    /// Has `reading`, begun here, already failed? A condition or an
    /// init-statement is read as a declaration, then (after a failure) as
    /// another declaration or an expression; each reading parses the braced
    /// groups in it (lambda bodies, class bodies) and every condition inside
    /// them, which tries its readings again: time exponential in the
    /// nesting, on valid code (`if (auto x = [] { if (auto y = [] { …
    /// }()) … }())`) as on broken code. A reading that failed on the same
    /// tokens fails again, so it is remembered (`rewind_failed`) and not
    /// tried twice: each condition is read at most once per reading.
    pub(crate) fn failed_before(&self, reading: Reading) -> bool {
        self.failed_readings.contains(&(reading, self.pos))
    }

    /// Rewinds to `cp` after `reading` failed there, remembering the failure
    /// when the reading went through a braced group (only then can a
    /// condition be nested in it: `failed_before`).
    pub(crate) fn rewind_failed(&mut self, reading: Reading, cp: Checkpoint) {
        if self.braces > cp.braces {
            self.failed_readings.insert((reading, cp.pos));
        }
        self.rewind(cp);
    }

    /// Did anything since `cp` report an error?
    pub(crate) fn has_error_since(&self, cp: Checkpoint) -> bool {
        // Errors and their events are pushed and truncated together.
        self.msgs.len() > cp.msgs
    }

    // ---- nesting

    /// Runs `f` one nesting level deeper. Past `MAX_NESTING` it reports one
    /// error, consumes the current (balanced) group into an `ERROR` node and
    /// returns `None`; callers treat that as "parsed something".
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Parser<'t>) -> T) -> Option<T> {
        if self.depth >= MAX_NESTING {
            let m = self.start();
            if !self.depth_error_reported {
                self.depth_error_reported = true;
                self.error("nesting too deep");
            }
            self.bump_balanced();
            m.complete(self, ERROR);
            return None;
        }
        self.depth += 1;
        let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || f(self));
        self.depth -= 1;
        Some(r)
    }

    /// Runs `f` with `gt_closes` set to `value`, restoring it afterwards.
    /// Keeping the current value keeps a launch configuration's reading of `>`.
    /// Runs `f` (a loop's or a switch's body) with one more loop or switch around.
    pub(crate) fn in_jump_target<T>(&mut self, is_loop: bool, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        let saved = self.jumps;
        if is_loop {
            self.jumps.loops += 1;
        } else {
            self.jumps.switches += 1;
        }
        let r = f(self);
        self.jumps = saved;
        r
    }

    /// Runs `f` (a body of its own: a lambda's, a local class member's)
    /// with no loop or switch around.
    pub(crate) fn in_new_body<T>(&mut self, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        let saved = std::mem::take(&mut self.jumps);
        let r = f(self);
        self.jumps = saved;
        r
    }

    /// Whether a `break` (`is_break`) or `continue` has somewhere to go.
    pub(crate) fn jump_has_target(&self, is_break: bool) -> bool {
        self.jumps.loops > 0 || is_break && self.jumps.switches > 0
    }

    pub(crate) fn with_gt_closes<T>(&mut self, value: bool, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        let launch = value == self.gt_closes && self.launch_gt;
        self.with_gt(value, launch, f)
    }

    /// Runs `f` in a launch configuration: only `>>>` ends it (see `launch_gt`).
    pub(crate) fn with_launch_gt<T>(&mut self, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        self.with_gt(true, true, f)
    }

    fn with_gt<T>(&mut self, closes: bool, launch: bool, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        let saved = (std::mem::replace(&mut self.gt_closes, closes), std::mem::replace(&mut self.launch_gt, launch));
        let r = f(self);
        (self.gt_closes, self.launch_gt) = saved;
        r
    }

    /// Does a `>` at the cursor end the enclosing list (template arguments,
    /// or a launch configuration at its `>>>`)?
    pub(crate) fn gt_ends_list(&self) -> bool {
        self.gt_closes && (!self.launch_gt || self.composite_at(0, &[R_ANGLE, R_ANGLE, R_ANGLE]))
    }
}

/// The end of the group `Parser::bump_balanced` consumes from significant
/// token `start` of `kinds`: one token, or if it opens a bracket, through
/// the matching close (or the end). Flat: uses no recursion.
pub(crate) fn balanced_end(kinds: &[SyntaxKind], start: usize) -> usize {
    let mut stack: Vec<SyntaxKind> = Vec::new();
    // How many of each closer the stack holds (`)`, `]`, `}`): O(1) "is it open?".
    let mut open = [0u32; 3];
    let slot = |k: SyntaxKind| match k {
        R_PAREN => 0,
        R_BRACK => 1,
        _ => 2,
    };
    let mut i = start;
    while let Some(&k) = kinds.get(i) {
        match k {
            L_PAREN | L_BRACK | L_CURLY => {
                let close = match k {
                    L_PAREN => R_PAREN,
                    L_BRACK => R_BRACK,
                    _ => R_CURLY,
                };
                stack.push(close);
                open[slot(close)] += 1;
            }
            R_PAREN | R_BRACK | R_CURLY => {
                // A stray closer with nothing open: only it.
                if stack.is_empty() {
                    return i + 1;
                }
                // Pop to the matching opener; mismatched closers end inner groups.
                // A closer that matches nothing open is a stray token inside
                // the group (so that `{ ) }` stays one group).
                if open[slot(k)] > 0 {
                    while let Some(top) = stack.pop() {
                        open[slot(top)] -= 1;
                        if top == k {
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
        if stack.is_empty() {
            return i;
        }
    }
    i
}

/// A started node; must be completed or abandoned.
pub(crate) struct Marker {
    pos: u32,
    completed: bool,
}

impl Marker {
    pub(crate) fn complete(mut self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        self.completed = true;
        match &mut p.events[self.pos as usize] {
            e @ Event::Start { .. } => *e = Event::Start { kind, forward_parent: 0 },
            _ => unreachable!(),
        }
        if self.pos < p.sent {
            p.stream_completed(self.pos, kind);
        }
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos, kind }
    }

    pub(crate) fn abandon(mut self, p: &mut Parser<'_>) {
        self.completed = true;
        let idx = self.pos as usize;
        if self.pos < p.sent {
            p.stream_changed();
        }
        if idx == p.events.len() - 1 {
            p.events.pop();
        } else {
            // A TOMBSTONE start: the builder skips it.
            p.events[idx] = Event::Start { kind: TOMBSTONE, forward_parent: 0 };
        }
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        if !self.completed && !std::thread::panicking() {
            panic!("marker dropped without being completed or abandoned");
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct CompletedMarker {
    pos: u32,
    kind: SyntaxKind,
}

impl CompletedMarker {
    /// Starts a new node that will contain this one (`a` → `a + b`).
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Marker {
        if self.pos < p.sent {
            p.stream_changed();
        }
        let m = p.start();
        match &mut p.events[self.pos as usize] {
            Event::Start { forward_parent, .. } => *forward_parent = m.pos - self.pos,
            _ => unreachable!(),
        }
        m
    }

    pub(crate) fn kind(&self) -> SyntaxKind {
        self.kind
    }
}

pub(crate) fn describe(kind: SyntaxKind) -> String {
    match kind.text() {
        Some(t) => format!("a \"{t}\""),
        None => match kind {
            IDENT => "an identifier".to_string(),
            _ => format!("{kind:?}"),
        },
    }
}
