//! Reading subtrees through their green nodes. A rowan cursor allocates at
//! every step (each child, each token it visits); the green tree is plain
//! data. The small questions asked of every declaration of a unit (its
//! keywords, attributes, names, parameter types) are answered here without
//! cursors; the results are those of the cursor walks they replace.

use cufront_syntax::SyntaxKind;
use rowan::{GreenNodeData, GreenTokenData, NodeOrToken};

pub(crate) fn node_kind(n: &GreenNodeData) -> SyntaxKind {
    SyntaxKind::from(n.kind().0)
}

pub(crate) fn token_kind(t: &GreenTokenData) -> SyntaxKind {
    SyntaxKind::from(t.kind().0)
}

/// The child nodes of `n`.
pub(crate) fn child_nodes(n: &GreenNodeData) -> impl Iterator<Item = &GreenNodeData> {
    n.children().filter_map(|c| c.into_node())
}

/// Calls `f` on the tokens under `n` in order; `f` returns false to stop.
/// Child nodes for which `skip` is true are not entered. Returns false when stopped.
pub(crate) fn tokens(
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
pub(crate) fn first_significant(n: &GreenNodeData) -> Option<&GreenTokenData> {
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
pub(crate) fn first_of(n: &GreenNodeData, kind: SyntaxKind) -> Option<&GreenTokenData> {
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
