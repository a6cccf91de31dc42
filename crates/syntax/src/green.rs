//! Reading subtrees through their green nodes. A rowan cursor allocates at
//! every step (each child, each token it visits); the green tree is plain
//! data. The small questions asked of every declaration of a unit (its
//! keywords, attributes, names, parameter types) are answered here without
//! cursors; the results are those of the cursor walks they replace.

use crate::SyntaxKind;
use rowan::{GreenNodeData, GreenTokenData, NodeOrToken};

pub fn node_kind(n: &GreenNodeData) -> SyntaxKind {
    SyntaxKind::from(n.kind().0)
}

pub fn token_kind(t: &GreenTokenData) -> SyntaxKind {
    SyntaxKind::from(t.kind().0)
}

/// The child nodes of `n`.
pub fn child_nodes(n: &GreenNodeData) -> impl Iterator<Item = &GreenNodeData> {
    n.children().filter_map(|c| c.into_node())
}

/// Calls `f` on the tokens under `n` in order; `f` returns false to stop.
/// Child nodes for which `skip` is true are not entered. Returns false when stopped.
pub fn tokens(
    n: &GreenNodeData,
    skip: &mut dyn FnMut(&GreenNodeData) -> bool,
    f: &mut dyn FnMut(&GreenTokenData) -> bool,
) -> bool {
    for c in n.children() {
        match c {
            NodeOrToken::Token(t) => {
                if !f(t) {
                    return false;
                }
            }
            NodeOrToken::Node(c) => {
                if !skip(c) && !tokens(c, skip, f) {
                    return false;
                }
            }
        }
    }
    true
}

/// The first token under `n` that is not trivia.
pub fn first_significant(n: &GreenNodeData) -> Option<&GreenTokenData> {
    for c in n.children() {
        match c {
            NodeOrToken::Token(t) => {
                if !SyntaxKind::from(t.kind().0).is_trivia() {
                    return Some(t);
                }
            }
            NodeOrToken::Node(c) => {
                if let Some(t) = first_significant(c) {
                    return Some(t);
                }
            }
        }
    }
    None
}

/// The first token of kind `kind` under `n`.
pub fn first_of(n: &GreenNodeData, kind: SyntaxKind) -> Option<&GreenTokenData> {
    for c in n.children() {
        match c {
            NodeOrToken::Token(t) => {
                if SyntaxKind::from(t.kind().0) == kind {
                    return Some(t);
                }
            }
            NodeOrToken::Node(c) => {
                if let Some(t) = first_of(c, kind) {
                    return Some(t);
                }
            }
        }
    }
    None
}

/// Calls `f` on every node under `n` (not `n` itself) in preorder; `f`
/// returns whether to enter the node's children. Returns false as soon as
/// `f` asks to stop ([`Visit::Stop`]).
pub fn visit_nodes(n: &GreenNodeData, f: &mut dyn FnMut(&GreenNodeData) -> Visit) -> bool {
    for c in child_nodes(n) {
        match f(c) {
            Visit::Enter => {
                if !visit_nodes(c, f) {
                    return false;
                }
            }
            Visit::Skip => {}
            Visit::Stop => return false,
        }
    }
    true
}

/// What [`visit_nodes`] does after visiting a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    Enter,
    Skip,
    Stop,
}

/// Whether a node of kind `kind` lies under `n`, without entering nodes
/// whose kind `skip` holds (such a node is itself still compared).
pub fn has_node(n: &GreenNodeData, kind: SyntaxKind, skip: &dyn Fn(SyntaxKind) -> bool) -> bool {
    !visit_nodes(n, &mut |c| {
        let k = node_kind(c);
        if k == kind {
            Visit::Stop
        } else if skip(k) {
            Visit::Skip
        } else {
            Visit::Enter
        }
    })
}

/// Whether any token under `n` satisfies `pred`.
pub fn any_token(n: &GreenNodeData, pred: &mut dyn FnMut(&GreenTokenData) -> bool) -> bool {
    !tokens(n, &mut |_| false, &mut |t| !pred(t))
}

/// The token that covers offset `at` of `root`'s text, or starts there
/// (rowan's `token_at_offset(at).right_biased()`), found by a binary search
/// over each level's children. Rowan's `token_at_offset` builds a cursor for
/// every child of each node on the way down, and a top-level item (a
/// namespace) can have thousands: the queries that map an offset back to
/// its declaration ask this for every entity.
pub fn token_at(root: &crate::SyntaxNode, at: crate::TextSize) -> Option<crate::SyntaxToken> {
    let byte = rowan::TextRange::at(at, 1.into());
    if !root.text_range().contains_range(byte) {
        return root.token_at_offset(at).right_biased();
    }
    match root.covering_element(byte) {
        NodeOrToken::Token(t) => Some(t),
        NodeOrToken::Node(_) => None,
    }
}

/// The text of `n`: its tokens' texts, concatenated.
pub fn text(n: &GreenNodeData) -> String {
    fn push(n: &GreenNodeData, out: &mut String) {
        for c in n.children() {
            match c {
                NodeOrToken::Token(t) => out.push_str(t.text()),
                NodeOrToken::Node(c) => push(c, out),
            }
        }
    }
    let mut out = String::with_capacity(u32::from(n.text_len()) as usize);
    push(n, &mut out);
    out
}

/// Calls `f` on the children of `node` in order: child nodes as cursors,
/// tokens as green tokens. Rowan's `children_with_tokens` allocates a cursor
/// for each token as well, where most readers only compare a token's kind or
/// text.
pub fn for_each_child(node: &crate::SyntaxNode, f: &mut dyn FnMut(NodeOrToken<crate::SyntaxNode, &GreenTokenData>)) {
    let green = node.green();
    let mut nodes = node.children();
    for c in green.children() {
        match c {
            NodeOrToken::Token(t) => f(NodeOrToken::Token(t)),
            NodeOrToken::Node(_) => {
                if let Some(n) = nodes.next() {
                    f(NodeOrToken::Node(n))
                }
            }
        }
    }
}

/// The last token under `n` that is not trivia.
pub fn last_significant(n: &GreenNodeData) -> Option<&GreenTokenData> {
    for c in n.children().rev() {
        match c {
            NodeOrToken::Token(t) => {
                if !SyntaxKind::from(t.kind().0).is_trivia() {
                    return Some(t);
                }
            }
            NodeOrToken::Node(c) => {
                if let Some(t) = last_significant(c) {
                    return Some(t);
                }
            }
        }
    }
    None
}

/// The first child node of `node` of kind `kind`: found on the green
/// children, then made a cursor by a binary search on its range (rowan's
/// `children().find(…)` makes a cursor for every child before it).
pub fn child(node: &crate::SyntaxNode, kind: SyntaxKind) -> Option<crate::SyntaxNode> {
    let green = node.green();
    let mut at = node.text_range().start();
    for c in green.children() {
        let len = c.text_len();
        if let NodeOrToken::Node(n) = c
            && node_kind(n) == kind
        {
            if len == 0.into() {
                // An empty node shares its offset with its neighbours.
                return node.children().find(|c| c.kind() == kind);
            }
            return match node.child_or_token_at_range(rowan::TextRange::at(at, len)) {
                Some(NodeOrToken::Node(n)) => Some(n),
                _ => None,
            };
        }
        at += len;
    }
    None
}
