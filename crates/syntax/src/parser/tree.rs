//! Grammar events to a rowan tree.
//!
//! Rowan's `GreenNodeBuilder` interns every token and every small node in a
//! hash table; on a translation unit of millions of tokens that costs more
//! than the grammar. `TreeBuilder` interns only short tokens, in a table
//! keyed by the source text itself (no allocation to look one up), gives
//! punctuators and keywords one shared token per kind, and builds nodes
//! directly.
//!
//! A full parse builds one tree: where the declaration pass left a
//! `LAZY_BODY`, the builder asks for that body's events (parsed after the
//! declaration pass) and builds them in place, at the depth the `LAZY_BODY`
//! had. No tree is built twice and nothing is spliced afterwards.

use rowan::{GreenNode, GreenToken, NodeOrToken, TextRange, TextSize};
use rustc_hash::FxHashMap;

use super::{Chunk, Event, Events, Input, MAX_TREE_DEPTH, OPEN, SyntaxError, SyntaxSeverity};
use crate::SyntaxKind::{self, *};
use crate::lexer::Lexed;

type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// Tokens longer than this are not interned (comments, long strings, whole
/// lazy bodies: rarely repeated, and expensive to hash).
const MAX_INTERNED_LEN: usize = 48;

/// Nodes with at most this many children, all of them shared, are shared
/// too (`NAME_REF` of `x`, `SIMPLE_TYPE_SPECIFIER` of `int`, …): green
/// trees are immutable, and a table lookup is cheaper than an allocation.
const MAX_SHARED_CHILDREN: usize = 3;

/// A child of an open node. Shared tokens and nodes are held by the cache
/// and named by index: pushing one, or dropping it when its parent turns
/// out to be shared too, touches no reference count.
enum Child {
    SharedToken(u32),
    SharedNode(u32),
    Own(GreenElement),
}

/// One shared `GreenToken` per distinct short (kind, text), one shared
/// `GreenNode` per distinct small node of shared children.
struct Cache<'t> {
    tokens: Vec<GreenToken>,
    nodes: Vec<GreenNode>,
    /// Punctuators and keywords spelled canonically, by kind.
    fixed: Vec<Option<u32>>,
    /// Whitespace made of an optional newline and up to `MAX_INDENT` spaces
    /// (most of it), by `whitespace_slot`.
    whitespace: Vec<Option<u32>>,
    other_tokens: FxHashMap<(SyntaxKind, &'t str), u32>,
    /// A direct-mapped cache in front of `other_tokens` for texts of up to
    /// `RECENT_TOKEN_LEN` bytes, which it holds itself: a probe of the table
    /// compares with the token's first occurrence, far back in the text.
    recent_tokens: Box<[RecentToken]>,
    /// Keyed by kind and the children (`child_key`).
    node_ids: FxHashMap<NodeKey, u32>,
    /// A direct-mapped cache in front of `node_ids` (by `NodeKey` hash): the
    /// table is megabytes and each probe a cache miss, while most small
    /// nodes recur close together (`NAME_REF` of `T`, `SIMPLE_TYPE_SPECIFIER` of `int`).
    recent_nodes: Box<[(NodeKey, u32)]>,
}

type NodeKey = (SyntaxKind, [u32; MAX_SHARED_CHILDREN]);

const RECENT_TOKEN_LEN: usize = 24;

/// `Cache::recent_tokens` has `1 << RECENT_TOKEN_BITS` entries.
const RECENT_TOKEN_BITS: u32 = 12;

#[derive(Clone, Copy)]
struct RecentToken {
    kind: SyntaxKind,
    len: u8,
    text: [u8; RECENT_TOKEN_LEN],
    id: u32,
}

impl RecentToken {
    fn holds(&self, kind: SyntaxKind, text: &str) -> bool {
        self.kind == kind && self.len as usize == text.len() && &self.text[..text.len()] == text.as_bytes()
    }
}

fn recent_token_slot(kind: SyntaxKind, text: &str) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    kind.hash(&mut h);
    text.hash(&mut h);
    (h.finish() >> (64 - RECENT_TOKEN_BITS)) as usize
}

/// `Cache::recent_nodes` has `1 << RECENT_NODE_BITS` entries.
const RECENT_NODE_BITS: u32 = 12;

fn recent_node_slot(key: &NodeKey) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    key.hash(&mut h);
    (h.finish() >> (64 - RECENT_NODE_BITS)) as usize
}

const MAX_INDENT: usize = 63;

/// `whitespace[whitespace_slot(text)]` caches `text`, if it is an optional newline and spaces.
fn whitespace_slot(text: &str) -> Option<usize> {
    let (newline, spaces) = match text.as_bytes() {
        [b'\n', rest @ ..] => (1, rest),
        rest => (0, rest),
    };
    (spaces.len() <= MAX_INDENT && spaces.iter().all(|&b| b == b' '))
        .then_some(newline * (MAX_INDENT + 1) + spaces.len())
}

/// A shared child as part of a node key (never 0: 0 pads keys of fewer children).
fn child_key(c: &Child) -> Option<u32> {
    match *c {
        Child::SharedToken(id) => Some(2 * id + 1),
        Child::SharedNode(id) => Some(2 * id + 2),
        Child::Own(_) => None,
    }
}

impl<'t> Cache<'t> {
    /// Sized for a text of `len` bytes (the tables then rarely grow).
    fn new(len: usize) -> Cache<'t> {
        let capacity = (len / 256).clamp(64, 1 << 16);
        Cache {
            tokens: Vec::with_capacity(capacity),
            nodes: Vec::with_capacity(capacity),
            fixed: vec![None; SyntaxKind::__LAST as usize],
            whitespace: vec![None; 2 * (MAX_INDENT + 1)],
            other_tokens: FxHashMap::with_capacity_and_hasher(capacity, Default::default()),
            // `TOMBSTONE` is never a token kind: the empty entries match no token.
            recent_tokens: vec![
                RecentToken { kind: TOMBSTONE, len: 0, text: [0; RECENT_TOKEN_LEN], id: 0 };
                1 << RECENT_TOKEN_BITS
            ]
            .into_boxed_slice(),
            node_ids: FxHashMap::with_capacity_and_hasher(capacity, Default::default()),
            // `TOMBSTONE` is never a node kind: the empty entries match no key.
            recent_nodes: vec![((TOMBSTONE, [0; MAX_SHARED_CHILDREN]), 0); 1 << RECENT_NODE_BITS].into_boxed_slice(),
        }
    }

    fn new_token(tokens: &mut Vec<GreenToken>, kind: SyntaxKind, text: &str) -> u32 {
        tokens.push(GreenToken::new(kind.into(), text));
        (tokens.len() - 1) as u32
    }

    fn token(&mut self, kind: SyntaxKind, text: &'t str) -> Child {
        let tokens = &mut self.tokens;
        if kind.text() == Some(text) {
            let id = *self.fixed[kind as usize].get_or_insert_with(|| Cache::new_token(tokens, kind, text));
            return Child::SharedToken(id);
        }
        if kind == WHITESPACE
            && let Some(slot) = whitespace_slot(text)
        {
            let id = *self.whitespace[slot].get_or_insert_with(|| Cache::new_token(tokens, kind, text));
            return Child::SharedToken(id);
        }
        if text.len() > MAX_INTERNED_LEN || kind == BODY_TEXT {
            return Child::Own(NodeOrToken::Token(GreenToken::new(kind.into(), text)));
        }
        if text.len() > RECENT_TOKEN_LEN {
            let id = *self.other_tokens.entry((kind, text)).or_insert_with(|| Cache::new_token(tokens, kind, text));
            return Child::SharedToken(id);
        }
        let slot = recent_token_slot(kind, text);
        let recent = &mut self.recent_tokens[slot];
        if recent.holds(kind, text) {
            return Child::SharedToken(recent.id);
        }
        let id = *self.other_tokens.entry((kind, text)).or_insert_with(|| Cache::new_token(tokens, kind, text));
        let mut held = [0; RECENT_TOKEN_LEN];
        held[..text.len()].copy_from_slice(text.as_bytes());
        *recent = RecentToken { kind, len: text.len() as u8, text: held, id };
        Child::SharedToken(id)
    }

    fn element(&self, c: Child) -> GreenElement {
        cache_element(&self.tokens, &self.nodes, c)
    }
}

fn cache_element(tokens: &[GreenToken], nodes: &[GreenNode], c: Child) -> GreenElement {
    match c {
        Child::SharedToken(id) => NodeOrToken::Token(tokens[id as usize].clone()),
        Child::SharedNode(id) => NodeOrToken::Node(nodes[id as usize].clone()),
        Child::Own(e) => e,
    }
}

/// Builds one tree from the events of a text's declaration pass (or of one
/// lazy body) and, in place of its `LAZY_BODY`s, those of the bodies.
pub(crate) struct TreeBuilder<'t> {
    text: &'t str,
    lexed: &'t Lexed,
    cache: Cache<'t>,
    /// The children of the open nodes, innermost last.
    children: Vec<Child>,
    /// Open nodes: kind and index of their first child in `children`.
    parents: Vec<(SyntaxKind, usize)>,
    errors: Vec<SyntaxError>,
    /// Each `LAZY_BODY` node left in the tree: its first raw token and its depth.
    lazy_depths: Vec<(u32, u32)>,
    depth_capped: bool,
    /// Building the second part of a split build: how many of the open
    /// nodes in `parents` were opened by the first part, and the children
    /// this part gave the ones it finished, innermost first.
    inherited: usize,
    tails: Vec<Vec<GreenElement>>,
    /// A streamed build (`build_streamed`): index of the first event of the
    /// chunk being built, the open nodes whose kind was not known when their
    /// start was sent (index in `parents`, event index), and the kinds of
    /// such nodes completed since, by event index.
    event_base: u32,
    unresolved: Vec<(usize, u32)>,
    completed: FxHashMap<u32, SyntaxKind>,
}

/// Where a build is: next raw token, next significant token, open nodes.
#[derive(Clone, Copy, Debug)]
struct Cursor {
    raw: usize,
    sig: usize,
    depth: usize,
}

/// The events of a lazy body parsed after the declaration pass.
pub(crate) struct BodyEvents<'t> {
    pub(crate) input: Input<'t>,
    pub(crate) raw_range: std::ops::Range<usize>,
    pub(crate) events: Events,
}

impl<'t> TreeBuilder<'t> {
    pub(crate) fn new(text: &'t str, lexed: &'t Lexed) -> TreeBuilder<'t> {
        TreeBuilder {
            text,
            lexed,
            cache: Cache::new(text.len()),
            children: Vec::with_capacity(1024),
            parents: Vec::with_capacity(256),
            errors: Vec::new(),
            lazy_depths: Vec::new(),
            depth_capped: false,
            inherited: 0,
            tails: Vec::new(),
            event_base: 0,
            unresolved: Vec::new(),
            completed: FxHashMap::default(),
        }
    }

    /// The tree, its errors, and for each `LAZY_BODY` node in it its first
    /// raw token and its depth.
    pub(crate) fn finish(mut self) -> (GreenNode, Vec<SyntaxError>, Vec<(u32, u32)>) {
        debug_assert!(self.inherited == 0 && self.tails.is_empty());
        if self.depth_capped {
            // One "nesting too deep" is enough (the parser's guard may have reported it too).
            let mut seen = false;
            self.errors.retain(|e| !(e.msg == "nesting too deep" && std::mem::replace(&mut seen, true)));
        }
        let root = match self.children.pop().map(|c| self.cache.element(c)) {
            Some(NodeOrToken::Node(n)) if self.children.is_empty() => n,
            _ => unreachable!("the events describe exactly one root node"),
        };
        (root, self.errors, self.lazy_depths)
    }

    fn token(&mut self, kind: SyntaxKind, text: &'t str) {
        let child = self.cache.token(kind, text);
        self.children.push(child);
    }

    fn finish_node(&mut self) {
        let (kind, first) = self.parents.pop().expect("finish matches a start");
        if self.parents.len() < self.inherited {
            // A node opened before this part of the events: its children
            // from here on are the tail `build_split` completes it with.
            let tail: Vec<GreenElement> = self.children.drain(first..).map(|c| self.cache.element(c)).collect();
            self.tails.push(tail);
            self.inherited -= 1;
            return;
        }
        let n = self.children.len() - first;
        let mut key = [0; MAX_SHARED_CHILDREN];
        let shared = n <= MAX_SHARED_CHILDREN
            && key.iter_mut().zip(&self.children[first..]).all(|(k, c)| child_key(c).map(|c| *k = c).is_some());
        let cache = &mut self.cache;
        let child = if shared {
            let key = (kind, key);
            let slot = recent_node_slot(&key);
            let id = match cache.recent_nodes[slot] {
                (k, id) if k == key => id,
                _ => {
                    let children = &mut self.children;
                    let id = *cache.node_ids.entry(key).or_insert_with(|| {
                        let elements = children.drain(first..).map(|c| cache_element(&cache.tokens, &cache.nodes, c));
                        cache.nodes.push(GreenNode::new(kind.into(), elements));
                        (cache.nodes.len() - 1) as u32
                    });
                    cache.recent_nodes[slot] = (key, id);
                    id
                }
            };
            Child::SharedNode(id)
        } else {
            let elements = self.children.drain(first..).map(|c| cache.element(c));
            Child::Own(NodeOrToken::Node(GreenNode::new(kind.into(), elements)))
        };
        // Children of a shared node found in the table are just indices.
        self.children.truncate(first);
        self.children.push(child);
    }

    fn raw_token(&mut self, raw: usize) {
        self.token(self.lexed.kind(raw), self.lexed.text(self.text, raw));
    }

    /// Builds the tree of `events` (the grammar's over `inp`, whose tokens
    /// are `lexed[raw_range]`) as one node, a child of the open node if any.
    /// Trivia between significant tokens is attached before nodes open (so
    /// nodes start and end with significant tokens); trailing trivia goes to
    /// the root.
    ///
    /// `base_depth` is the depth of the root in the final tree. Where a
    /// `LAZY_BODY` starts, `bodies(first raw token)` may give the body's
    /// events, which are then built in its place (recursively).
    pub(crate) fn build(
        &mut self,
        inp: Input<'t>,
        raw_range: std::ops::Range<usize>,
        mut events: Events,
        base_depth: usize,
        bodies: &mut dyn FnMut(u32) -> Option<BodyEvents<'t>>,
    ) {
        let mut at = Cursor { raw: raw_range.start, sig: 0, depth: 0 };
        self.build_events(inp, raw_range, &mut events.events, &mut events.msgs, 0, &mut at, base_depth, bodies);
    }

    /// `build` of `events`, a part of a build's events starting at `at`,
    /// whose error messages are `msgs` (numbered from `msg_base`).
    #[allow(clippy::too_many_arguments)]
    fn build_events(
        &mut self,
        inp: Input<'t>,
        raw_range: std::ops::Range<usize>,
        events: &mut [Event],
        msgs: &mut [super::ErrorMsg],
        msg_base: u32,
        at: &mut Cursor,
        base_depth: usize,
        bodies: &mut dyn FnMut(u32) -> Option<BodyEvents<'t>>,
    ) {
        let lexed = self.lexed;
        let Cursor { mut raw, mut sig, mut depth } = *at;
        // Events of a `LAZY_BODY` replaced by its parsed body: skipped.
        let mut skip = 0usize;
        let mut chain: Vec<SyntaxKind> = Vec::new();
        let sig_start = |inp: &Input<'_>, sig: usize| {
            inp.sig.get(sig).map_or(lexed.start(raw_range.end), |&r| lexed.start(r as usize))
        };

        for i in 0..events.len() {
            let event = std::mem::replace(&mut events[i], Event::Start { kind: TOMBSTONE, forward_parent: 0 });
            if skip > 0 {
                match event {
                    Event::Start { kind, .. } if kind != TOMBSTONE => skip += 1,
                    Event::Finish => skip -= 1,
                    _ => {}
                }
                continue;
            }
            match event {
                Event::Start { forward_parent: OPEN, .. } => {
                    // Streamed while open: its kind comes with a later chunk.
                    if depth > 0 && base_depth + depth >= MAX_TREE_DEPTH {
                        if !self.depth_capped {
                            self.depth_capped = true;
                            let at = TextSize::from(sig_start(&inp, sig));
                            self.errors.push(SyntaxError {
                                range: TextRange::empty(at),
                                msg: "nesting too deep".into(),
                                severity: SyntaxSeverity::Error,
                            });
                        }
                    } else {
                        if depth > 0 {
                            raw = self.flush_trivia(raw, raw_range.end);
                        }
                        self.unresolved.push((self.parents.len(), self.event_base + i as u32));
                        self.parents.push((TOMBSTONE, self.children.len()));
                    }
                    depth += 1;
                }
                Event::Start { kind, forward_parent } => {
                    // The chain of forward parents, outermost last.
                    chain.push(kind);
                    let (mut idx, mut fp) = (i, forward_parent);
                    while fp != 0 {
                        idx += fp as usize;
                        match std::mem::replace(&mut events[idx], Event::Start { kind: TOMBSTONE, forward_parent: 0 }) {
                            Event::Start { kind, forward_parent } => {
                                chain.push(kind);
                                fp = forward_parent;
                            }
                            _ => unreachable!("a forward parent is a start event"),
                        }
                    }
                    while let Some(kind) = chain.pop() {
                        if kind == TOMBSTONE {
                            continue;
                        }
                        if depth > 0 && base_depth + depth >= MAX_TREE_DEPTH {
                            // Too deep for recursive consumers (rowan's drop): the
                            // node's contents go flat into its deepest allowed ancestor.
                            if !self.depth_capped {
                                self.depth_capped = true;
                                let at = TextSize::from(sig_start(&inp, sig));
                                self.errors.push(SyntaxError {
                                    range: TextRange::empty(at),
                                    msg: "nesting too deep".into(),
                                    severity: SyntaxSeverity::Error,
                                });
                            }
                            depth += 1;
                            continue;
                        }
                        if depth > 0 {
                            raw = self.flush_trivia(raw, raw_range.end);
                        }
                        if kind == LAZY_BODY {
                            let at_depth = (base_depth + depth) as u32;
                            // Only the innermost node of a chain can be replaced.
                            if chain.is_empty()
                                && let Some(body) = bodies(raw as u32)
                            {
                                let (n_sig, end) = (body.input.len(), body.raw_range.end);
                                self.build(body.input, body.raw_range, body.events, at_depth as usize, bodies);
                                raw = end;
                                sig += n_sig;
                                skip = 1;
                                break;
                            }
                            self.lazy_depths.push((raw as u32, at_depth));
                        }
                        self.parents.push((kind, self.children.len()));
                        depth += 1;
                    }
                    chain.clear();
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
                            self.raw_token(raw);
                            raw += 1;
                        }
                    }
                    if let Some(&(parent, event)) = self.unresolved.last()
                        && parent + 1 == self.parents.len()
                    {
                        self.unresolved.pop();
                        let kind = self
                            .completed
                            .remove(&event)
                            .expect("a streamed open node is completed before it finishes");
                        self.parents[parent].0 = kind;
                    }
                    self.finish_node();
                }
                Event::Token { kind, n_sig } => {
                    raw = self.flush_trivia(raw, raw_range.end);
                    let n = (n_sig as usize).min(inp.len().saturating_sub(sig));
                    if n == 0 {
                        continue;
                    }
                    let (first, last) = (inp.sig[sig] as usize, inp.sig[sig + n - 1] as usize);
                    let text = &self.text[lexed.start(first) as usize..lexed.range(last).end];
                    self.token(kind, text);
                    raw = last + 1;
                    sig += n;
                }
                Event::Error { msg } => {
                    // Point at the next significant token (or the end of input).
                    let at = TextSize::from(sig_start(&inp, sig));
                    let msg =
                        std::mem::replace(&mut msgs[(msg - msg_base) as usize], super::ErrorMsg::Expected(TOMBSTONE));
                    let severity = msg.severity();
                    self.errors.push(SyntaxError { range: TextRange::empty(at), msg: msg.into_string(), severity });
                }
            }
        }
        *at = Cursor { raw, sig, depth };
    }

    /// Emits the trivia tokens from `raw` on; returns the next raw token.
    fn flush_trivia(&mut self, mut raw: usize, end: usize) -> usize {
        while raw < end && self.lexed.kind(raw).is_trivia() {
            self.raw_token(raw);
            raw += 1;
        }
        raw
    }
}

/// The tree of a declaration pass over all of `inp` whose events come in
/// chunks from `rx` while the grammar runs (`Parser::stream_to`): the same
/// as `build_split`'s, or `None` if the stream ended before its last chunk.
pub(crate) fn build_streamed<'t>(
    text: &'t str,
    lexed: &'t Lexed,
    inp: Input<'t>,
    rx: std::sync::mpsc::Receiver<Chunk>,
) -> Option<(GreenNode, Vec<SyntaxError>, Vec<(u32, u32)>)> {
    let mut builder = TreeBuilder::new(text, lexed);
    let mut msgs = Vec::new();
    let mut at = Cursor { raw: 0, sig: 0, depth: 0 };
    for mut chunk in rx {
        builder.completed.extend(chunk.completed);
        msgs.append(&mut chunk.msgs);
        builder.build_events(inp, 0..lexed.len(), &mut chunk.events, &mut msgs, 0, &mut at, 0, &mut |_| None);
        builder.event_base += chunk.events.len() as u32;
        if chunk.last {
            return Some(builder.finish());
        }
    }
    None
}

/// Below this many events the declaration pass's tree is built on one thread.
const SPLIT_MIN_EVENTS: usize = 400_000;

/// Split points are only looked for this shallow (namespace members).
const MAX_SPLIT_DEPTH: usize = 8;

/// The tree of `events` (the declaration pass's over all of `inp`, with
/// lazy bodies left as they are), built in two halves on two threads when
/// it is large. Same result as `TreeBuilder::build` then `finish`.
pub(crate) fn build_split<'t>(
    text: &'t str,
    lexed: &'t Lexed,
    inp: Input<'t>,
    events: Events,
) -> (GreenNode, Vec<SyntaxError>, Vec<(u32, u32)>) {
    let split = match events.events.len() {
        n if n >= SPLIT_MIN_EVENTS => find_split(&events.events, n / 2),
        _ => None,
    };
    build_split_at(text, lexed, inp, events, split)
}

fn build_split_at<'t>(
    text: &'t str,
    lexed: &'t Lexed,
    inp: Input<'t>,
    mut events: Events,
    split: Option<Split>,
) -> (GreenNode, Vec<SyntaxError>, Vec<(u32, u32)>) {
    let raw_range = 0..lexed.len();
    let Some(split) = split else {
        let mut builder = TreeBuilder::new(text, lexed);
        builder.build(inp, raw_range, events, 0, &mut |_| None);
        return builder.finish();
    };
    let (events1, events2) = events.events.split_at_mut(split.index);
    let (msgs1, msgs2) = events.msgs.split_at_mut(split.msgs);
    // Where the first half stops emitting: after its last token, or after
    // the trivia that follows if it opened a node since (nodes open after
    // the trivia before them).
    let raw = match (split.sig, split.trivia_flushed) {
        (n, true) => inp.sig.get(n).map_or(raw_range.end, |&r| r as usize),
        (0, false) => raw_range.start,
        (n, false) => inp.sig[n - 1] as usize + 1,
    };
    let depth = split.open.len();
    let mut first = TreeBuilder::new(text, lexed);
    let mut second = TreeBuilder::new(text, lexed);
    second.parents.extend(split.open.iter().map(|&k| (k, 0)));
    second.inherited = depth;
    std::thread::scope(|s| {
        let range = raw_range.clone();
        let second = s.spawn(move || {
            let mut at = Cursor { raw, sig: split.sig, depth };
            second.build_events(inp, range, events2, msgs2, split.msgs as u32, &mut at, 0, &mut |_| None);
            second
        });
        let mut at = Cursor { raw: raw_range.start, sig: 0, depth: 0 };
        first.build_events(inp, raw_range, events1, msgs1, 0, &mut at, 0, &mut |_| None);
        let mut second = second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        // The open nodes of the first half, completed with the second half's tails.
        let heads: Vec<(SyntaxKind, usize)> = std::mem::take(&mut first.parents);
        let mut node: Option<GreenNode> = None;
        for (level, &(kind, start)) in heads.iter().enumerate().rev() {
            let head: Vec<Child> = first.children.drain(start..).collect();
            let tail = second.tails.get_mut(depth - 1 - level).map(std::mem::take).unwrap_or_default();
            let elements: Vec<GreenElement> = head
                .into_iter()
                .map(|c| first.cache.element(c))
                .chain(node.take().map(NodeOrToken::Node))
                .chain(tail)
                .collect();
            node = Some(GreenNode::new(kind.into(), elements));
        }
        let root = node.expect("a split point is inside the root");
        first.errors.append(&mut second.errors);
        first.lazy_depths.append(&mut second.lazy_depths);
        if first.depth_capped || second.depth_capped {
            let mut seen = false;
            first.errors.retain(|e| !(e.msg == "nesting too deep" && std::mem::replace(&mut seen, true)));
        }
        (root, first.errors, first.lazy_depths)
    })
}

/// A point to split a build at: before event `index`, with the kinds of the
/// nodes open there (outermost first), the significant tokens and the error
/// messages the events before it account for.
struct Split {
    index: usize,
    open: Vec<SyntaxKind>,
    sig: usize,
    msgs: usize,
    /// A node was opened inside the root since the last token.
    trivia_flushed: bool,
}

/// The first event from `from` on that starts a node at most
/// `MAX_SPLIT_DEPTH` deep, with no forward parent link across it.
fn find_split(events: &[Event], from: usize) -> Option<Split> {
    let mut open: Vec<SyntaxKind> = Vec::new();
    let (mut sig, mut msgs) = (0usize, 0usize);
    let mut trivia_flushed = false;
    // Starts already opened as forward parents, and the furthest one linked to.
    let mut taken: rustc_hash::FxHashSet<usize> = Default::default();
    let mut furthest = 0usize;
    let mut chain: Vec<SyntaxKind> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        match *event {
            Event::Start { kind, forward_parent } => {
                let was_taken = !taken.is_empty() && taken.remove(&i);
                if i >= from && furthest < i && open.len() <= MAX_SPLIT_DEPTH && !was_taken {
                    return Some(Split { index: i, open, sig, msgs, trivia_flushed });
                }
                if was_taken {
                    continue;
                }
                // The chain, outermost last, as `build_events` opens it.
                chain.clear();
                chain.push(kind);
                let (mut idx, mut fp) = (i, forward_parent);
                while fp != 0 {
                    idx += fp as usize;
                    match events.get(idx) {
                        Some(&Event::Start { kind, forward_parent }) => {
                            taken.insert(idx);
                            furthest = furthest.max(idx);
                            chain.push(kind);
                            fp = forward_parent;
                        }
                        _ => return None,
                    }
                }
                for &kind in chain.iter().rev().filter(|&&k| k != TOMBSTONE) {
                    trivia_flushed |= !open.is_empty();
                    open.push(kind);
                }
                if open.len() >= MAX_TREE_DEPTH {
                    return None;
                }
            }
            Event::Finish => {
                open.pop()?;
            }
            Event::Token { n_sig, .. } => {
                sig += n_sig as usize;
                trivia_flushed = false;
            }
            Event::Error { .. } => msgs += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{Parser, SigTokens};
    use crate::{grammar, lexer, names::Names};

    /// A build split anywhere gives the tree, errors and lazy body depths of
    /// the build in one piece (trivia, forward parents, errors, bodies).
    #[test]
    fn split_builds_equal_whole_builds() {
        let text = "# 1 \"a.cu\"\nnamespace n { // c\n  template <class T> struct S : T { int f() { return 1; } S() : x(1 + 2 * 3) {} int x; };\n\
                    int g(int a, int b = 1 >> 2) { return a; }\n  enum E { A = 1, B };\n  int v = (1, 2) ? g(3) : 4;\n}\n\
                    int bad( ; struct Q { void h() try {} catch (...) {} };\n  extern \"C\" { int k; }\n";
        let lexed = lexer::lex(text, Default::default());
        let sig = SigTokens::new(&lexed);
        let inp = Input::new(text, &lexed, &sig);
        let mut names = Names::new();
        let mut p = Parser::new(inp, &mut names);
        grammar::source_file(&mut p);
        let (events, _) = p.finish_with_bodies();
        let whole = build_split_at(text, &lexed, inp, events.clone(), None);
        assert!(!whole.1.is_empty() && !whole.2.is_empty(), "the text has errors and lazy bodies");
        let mut splits = 0;
        for from in 1..events.events.len() {
            let Some(split) = find_split(&events.events, from) else { continue };
            if split.index != from {
                continue;
            }
            splits += 1;
            let parts = build_split_at(text, &lexed, inp, events.clone(), Some(split));
            assert_eq!(parts.0, whole.0, "split at event {from}");
            assert_eq!(parts.1, whole.1, "errors, split at event {from}");
            assert_eq!(parts.2, whole.2, "lazy bodies, split at event {from}");
        }
        assert!(splits > 20, "only {splits} split points");
    }

    /// A streamed build gives up (and the caller builds after the grammar)
    /// when the grammar changes an event it already sent.
    #[test]
    fn streamed_build_gives_up_on_changed_events() {
        let text = "int a; int b; int c;";
        let lexed = lexer::lex(text, Default::default());
        let sig = SigTokens::new(&lexed);
        let inp = Input::new(text, &lexed, &sig);
        let changes: [fn(&mut Parser<'_>); 3] = [
            // Rewound past a sent event.
            |p| {
                let cp = p.checkpoint();
                let m = p.start();
                p.bump_any();
                m.complete(p, ERROR);
                p.publish();
                p.rewind(cp);
            },
            // A sent node wrapped.
            |p| {
                let m = p.start();
                p.bump_any();
                let done = m.complete(p, ERROR);
                p.publish();
                done.precede(p).complete(p, ERROR);
            },
            // A node open when sent abandoned.
            |p| {
                let outer = p.start();
                let m = p.start();
                p.bump_any();
                m.complete(p, ERROR);
                p.publish();
                outer.abandon(p);
            },
        ];
        for (i, change) in changes.into_iter().enumerate() {
            let mut names = Names::new();
            let (tx, rx) = std::sync::mpsc::channel();
            let mut p = Parser::new(inp, &mut names);
            p.stream_to(tx, 1);
            let root = p.start();
            change(&mut p);
            while !p.at_eof() {
                p.bump_any();
            }
            root.complete(&mut p, SOURCE_FILE);
            assert!(!p.end_stream(), "change {i}");
            assert!(build_streamed(text, &lexed, inp, rx).is_none(), "change {i}");
        }
    }
}
