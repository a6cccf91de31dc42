//! The parser machinery: a cursor over non-trivia tokens that records
//! events (start node, token, finish node, error). The grammar lives in
//! `grammar/`; `build_tree` turns the events into a rowan tree.
//!
//! C++ needs tentative parsing (declaration or expression?): a `Checkpoint`
//! captures the cursor, the events and the name table journal, and `rewind`
//! returns to it. Because nothing but events and the journal are mutated,
//! rewinding is exact.

use std::cell::Cell;

use rowan::{GreenNode, GreenNodeBuilder, TextRange, TextSize};

use crate::lexer::{Lexed, LexOptions};
use crate::names::{Names, ScopeId};
use crate::SyntaxKind::{self, *};

/// Nesting deeper than this is reported once and skipped as balanced tokens,
/// so that the parser and every tree walk keep a bounded stack.
pub const MAX_NESTING: u32 = 400;

/// No tree is deeper than this (a few nodes per nesting level): consumers
/// that recurse over trees (rowan's drop among them) need a bounded stack.
/// `build_tree` flattens whatever a grammar rule nests deeper.
pub const MAX_TREE_DEPTH: usize = 10 * MAX_NESTING as usize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseOptions {
    pub lex: LexOptions,
    /// Keep function bodies as `LAZY_BODY` token ranges (parse them on demand).
    pub lazy_bodies: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { lex: LexOptions::default(), lazy_bodies: false }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub range: TextRange,
    pub msg: String,
}

/// The non-trivia tokens the grammar sees, with their position among all tokens.
pub(crate) struct Input<'t> {
    pub(crate) text: &'t str,
    pub(crate) lexed: &'t Lexed,
    /// Indices (into `lexed`) of the non-trivia tokens.
    pub(crate) sig: Vec<u32>,
    /// `joint[i]`: significant token `i + 1` immediately follows token `i` (no trivia between).
    pub(crate) joint: Vec<bool>,
}

impl<'t> Input<'t> {
    pub(crate) fn new(text: &'t str, lexed: &'t Lexed) -> Input<'t> {
        Input::from_range(text, lexed, 0..lexed.len())
    }

    /// The significant tokens among `lexed[range]`.
    pub(crate) fn from_range(text: &'t str, lexed: &'t Lexed, range: std::ops::Range<usize>) -> Input<'t> {
        let mut sig = Vec::with_capacity(range.len() / 2);
        let mut joint = Vec::with_capacity(range.len() / 2);
        let mut prev_sig = false;
        for i in range {
            let k = lexed.kind(i);
            if k.is_trivia() {
                prev_sig = false;
                continue;
            }
            if !sig.is_empty() {
                joint.push(prev_sig);
            }
            sig.push(i as u32);
            prev_sig = true;
        }
        joint.push(false);
        Input { text, lexed, sig, joint }
    }

    pub(crate) fn len(&self) -> usize {
        self.sig.len()
    }
    pub(crate) fn kind(&self, i: usize) -> SyntaxKind {
        match self.sig.get(i) {
            Some(&raw) => self.lexed.kind(raw as usize),
            None => EOF,
        }
    }
    pub(crate) fn text(&self, i: usize) -> &'t str {
        match self.sig.get(i) {
            Some(&raw) => self.lexed.text(self.text, raw as usize),
            None => "",
        }
    }
    pub(crate) fn is_joint(&self, i: usize) -> bool {
        self.joint.get(i).copied().unwrap_or(false)
    }
}

#[derive(Debug, Clone)]
pub(crate) enum Event {
    /// `forward_parent` lets a node be wrapped after the fact (`CompletedMarker::precede`).
    Start { kind: SyntaxKind, forward_parent: Option<u32> },
    Finish,
    /// `n_raw` significant tokens glued into one token of `kind` (`>` `>` → `>>`).
    Token { kind: SyntaxKind, n_raw: u8 },
    Error { msg: String },
}

pub struct Parser<'t> {
    pub(crate) inp: &'t Input<'t>,
    pos: usize,
    events: Vec<Event>,
    pub(crate) names: &'t mut Names,
    pub(crate) opts: ParseOptions,
    depth: u32,
    depth_error_reported: bool,
    /// Inside a template argument list, a top-level `>` ends the argument
    /// (it is not a greater-than). Parenthesised and bracketed
    /// sub-expressions reset it.
    pub(crate) gt_closes: bool,
    steps: Cell<u32>,
    /// The `LAZY_BODY`s made so far (see `grammar::statements::function_body`).
    pub(crate) lazy_bodies: Vec<LazyBodyRec>,
    /// 0 in the declaration pass; 1 + the level of the body being parsed after it.
    pub(crate) body_level: u32,
    /// Stop tokens for skipping after an error (`grammar::recovery`).
    pub(crate) recovery: crate::grammar::recovery::Recovery,
}

/// A function body kept as tokens: where it is and what it needs to be parsed later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LazyBodyRec {
    /// Raw token range (indices into `Lexed`) of the body.
    pub(crate) raw_start: u32,
    pub(crate) raw_end: u32,
    /// The scope the body was written in (the function's parameter scope).
    pub(crate) scope: ScopeId,
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
    names: usize,
    bodies: usize,
}

impl<'t> Parser<'t> {
    pub(crate) fn new(inp: &'t Input<'t>, names: &'t mut Names, opts: ParseOptions) -> Parser<'t> {
        Parser {
            inp,
            pos: 0,
            events: Vec::with_capacity(inp.len() * 2),
            names,
            opts,
            depth: 0,
            depth_error_reported: false,
            gt_closes: false,
            steps: Cell::new(0),
            lazy_bodies: Vec::new(),
            body_level: 0,
            recovery: Default::default(),
        }
    }

    /// The events and the lazy bodies recorded on the way.
    pub(crate) fn finish_with_bodies(self) -> (Vec<Event>, Vec<LazyBodyRec>) {
        (self.events, self.lazy_bodies)
    }

    /// Starts at nesting depth `depth` (a lazy body parsed after the fact).
    pub(crate) fn set_depth(&mut self, depth: u32) {
        self.depth = depth;
    }

    /// Records the tokens from significant position `start` to the cursor as a lazy body.
    pub(crate) fn record_lazy_body(&mut self, start: usize) {
        if start >= self.pos {
            return;
        }
        let raw_start = self.inp.sig[start];
        let raw_end = self.inp.sig[self.pos - 1] + 1;
        let scope = self.names.current_scope();
        self.lazy_bodies.push(LazyBodyRec { raw_start, raw_end, scope, depth: self.depth, tree_depth: 0 });
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

    /// Consumes the current token but records it as `kind` (e.g. an `IDENT` used as a keyword).
    pub(crate) fn bump_remap(&mut self, kind: SyntaxKind) {
        if !self.at_eof() {
            self.do_bump(kind, 1);
        }
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if !self.nth_at(0, kind) {
            return false;
        }
        let n_raw = match kind {
            SHR | GTEQ => 2,
            SHREQ => 3,
            _ => 1,
        };
        self.do_bump(kind, n_raw);
        true
    }

    fn do_bump(&mut self, kind: SyntaxKind, n_raw: u8) {
        self.pos += n_raw as usize;
        self.steps.set(0);
        self.events.push(Event::Token { kind, n_raw });
    }

    pub(crate) fn expect(&mut self, kind: SyntaxKind) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.error(format!("expected {}", describe(kind)));
        false
    }

    // ---- nodes

    pub(crate) fn start(&mut self) -> Marker {
        let pos = self.events.len() as u32;
        self.events.push(Event::Start { kind: TOMBSTONE, forward_parent: None });
        Marker { pos, completed: false }
    }

    pub(crate) fn error(&mut self, msg: impl Into<String>) {
        self.events.push(Event::Error { msg: msg.into() });
    }

    /// Reports an error and consumes one token (a balanced group if it opens one) into an `ERROR` node.
    pub(crate) fn err_and_bump(&mut self, msg: &str) {
        let m = self.start();
        self.error(msg);
        self.bump_balanced();
        m.complete(self, ERROR);
    }

    /// Consumes one token; if it opens a bracket, consumes through the matching close
    /// (or the end of input). Flat: uses no recursion.
    pub(crate) fn bump_balanced(&mut self) {
        let mut stack: Vec<SyntaxKind> = Vec::new();
        // How many of each closer the stack holds (`)`, `]`, `}`): O(1) "is it open?".
        let mut open = [0u32; 3];
        let slot = |k: SyntaxKind| match k {
            R_PAREN => 0,
            R_BRACK => 1,
            _ => 2,
        };
        loop {
            if self.at_eof() {
                return;
            }
            let k = self.current();
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
                    // A stray closer with nothing open: consume only it.
                    if stack.is_empty() {
                        self.bump_any();
                        return;
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
            self.bump_any();
            if stack.is_empty() {
                return;
            }
        }
    }

    // ---- tentative parsing

    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            pos: self.pos,
            events: self.events.len(),
            names: self.names.journal_len(),
            bodies: self.lazy_bodies.len(),
        }
    }

    pub(crate) fn rewind(&mut self, cp: Checkpoint) {
        self.pos = cp.pos;
        self.events.truncate(cp.events);
        self.names.rewind(cp.names);
        self.lazy_bodies.truncate(cp.bodies);
    }

    /// Did anything since `cp` report an error?
    pub(crate) fn has_error_since(&self, cp: Checkpoint) -> bool {
        self.events[cp.events..].iter().any(|e| matches!(e, Event::Error { .. }))
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
    pub(crate) fn with_gt_closes<T>(&mut self, value: bool, f: impl FnOnce(&mut Parser<'t>) -> T) -> T {
        let saved = std::mem::replace(&mut self.gt_closes, value);
        let r = f(self);
        self.gt_closes = saved;
        r
    }
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
            Event::Start { kind: slot, .. } => *slot = kind,
            _ => unreachable!(),
        }
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos, kind }
    }

    pub(crate) fn abandon(mut self, p: &mut Parser<'_>) {
        self.completed = true;
        let idx = self.pos as usize;
        if idx == p.events.len() - 1 {
            p.events.pop();
        }
        // Otherwise the start stays a TOMBSTONE and the builder skips it.
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
        let m = p.start();
        match &mut p.events[self.pos as usize] {
            Event::Start { forward_parent, .. } => *forward_parent = Some(m.pos - self.pos),
            _ => unreachable!(),
        }
        m
    }

    pub(crate) fn kind(&self) -> SyntaxKind {
        self.kind
    }

    /// Changes the kind of the completed node.
    pub(crate) fn change_kind(self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        match &mut p.events[self.pos as usize] {
            Event::Start { kind: slot, .. } => *slot = kind,
            _ => unreachable!(),
        }
        CompletedMarker { kind, ..self }
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

/// Builds the rowan tree for `input` from the grammar's events. Trivia between
/// significant tokens is attached before nodes open (so nodes start and end
/// with significant tokens), and trailing trivia goes to the root.
///
/// `base_depth` is the depth at which the tree will be spliced (a lazy body);
/// the returned list gives, for each `LAZY_BODY` opened, its first raw token
/// and its depth (`base_depth` included).
pub(crate) fn build_tree(
    inp: &Input<'_>,
    raw_range: std::ops::Range<usize>,
    mut events: Vec<Event>,
    base_depth: usize,
) -> (GreenNode, Vec<SyntaxError>, Vec<(u32, u32)>) {
    let mut lazy_depths = Vec::new();
    let lexed = inp.lexed;
    let text = inp.text;
    let mut builder = GreenNodeBuilder::new();
    let mut errors = Vec::new();
    let mut raw = raw_range.start; // next raw token to emit
    let mut sig = 0usize; // next significant token
    let mut depth = 0usize;
    let mut forward_parents: Vec<SyntaxKind> = Vec::new();
    let mut depth_capped = false;

    let flush_trivia = |builder: &mut GreenNodeBuilder<'static>, raw: &mut usize, end: usize| {
        while *raw < end && lexed.kind(*raw).is_trivia() {
            builder.token(lexed.kind(*raw).into(), lexed.text(text, *raw));
            *raw += 1;
        }
    };

    for i in 0..events.len() {
        match std::mem::replace(&mut events[i], Event::Start { kind: TOMBSTONE, forward_parent: None }) {
            Event::Start { kind, forward_parent } => {
                // Collect the chain of forward parents, outermost first.
                forward_parents.push(kind);
                let mut idx = i;
                let mut fp = forward_parent;
                while let Some(delta) = fp {
                    idx += delta as usize;
                    fp = match std::mem::replace(&mut events[idx], Event::Start { kind: TOMBSTONE, forward_parent: None }) {
                        Event::Start { kind, forward_parent } => {
                            forward_parents.push(kind);
                            forward_parent
                        }
                        _ => unreachable!(),
                    };
                }
                for kind in forward_parents.drain(..).rev() {
                    if kind == TOMBSTONE {
                        continue;
                    }
                    if depth > 0 && base_depth + depth >= MAX_TREE_DEPTH {
                        // Too deep for recursive consumers (rowan's drop): the
                        // node's contents go flat into its deepest allowed ancestor.
                        if !depth_capped {
                            depth_capped = true;
                            let at = inp.sig.get(sig).map_or(lexed.start(raw_range.end) as usize, |&r| lexed.range(r as usize).start);
                            errors.push(SyntaxError { range: TextRange::empty(TextSize::from(at as u32)), msg: "nesting too deep".into() });
                        }
                        depth += 1;
                        continue;
                    }
                    if depth > 0 {
                        flush_trivia(&mut builder, &mut raw, raw_range.end);
                    }
                    if kind == LAZY_BODY {
                        lazy_depths.push((raw as u32, (base_depth + depth) as u32));
                    }
                    builder.start_node(kind.into());
                    depth += 1;
                }
            }
            Event::Finish => {
                depth -= 1;
                if depth > 0 && base_depth + depth >= MAX_TREE_DEPTH {
                    continue;
                }
                if depth == 0 {
                    // Root: everything left (trailing trivia, and tokens the grammar did not
                    // consume, which it should not leave) goes inside it, keeping the tree lossless.
                    while raw < raw_range.end {
                        builder.token(lexed.kind(raw).into(), lexed.text(text, raw));
                        raw += 1;
                    }
                }
                builder.finish_node();
            }
            Event::Token { kind, n_raw } => {
                flush_trivia(&mut builder, &mut raw, raw_range.end);
                let start = lexed.range(raw).start;
                let mut end = start;
                for _ in 0..n_raw {
                    end = lexed.range(raw).end;
                    raw += 1;
                    sig += 1;
                }
                builder.token(kind.into(), &text[start..end]);
            }
            Event::Error { msg } => {
                // Point at the next significant token (or the end of input).
                let at = inp.sig.get(sig).map_or(lexed.start(raw_range.end) as usize, |&r| lexed.range(r as usize).start);
                let at = TextSize::from(at as u32);
                errors.push(SyntaxError { range: TextRange::empty(at), msg });
            }
        }
    }
    if depth_capped {
        // One "nesting too deep" is enough (the parser's guard may have reported it too).
        let mut seen = false;
        errors.retain(|e| !(e.msg == "nesting too deep" && std::mem::replace(&mut seen, true)));
    }
    (builder.finish(), errors, lazy_depths)
}
