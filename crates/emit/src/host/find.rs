//! Finding the nodes of a few kinds in a whole unit without a cursor per
//! node: the search runs over the green tree (plain data; a rowan cursor
//! allocates at every step, and a unit has hundreds of thousands of
//! nodes), and only the nodes picked become `SyntaxNode`s, found from the
//! root by their range.

use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};
use rowan::{GreenNodeData, NodeOrToken};

/// Calls `f`, in preorder (as `root.descendants()` visits them), on every
/// node below `root` for which `pick(kind, green)` is true.
pub(super) fn nodes(root: &SyntaxNode, pick: &mut dyn FnMut(K, &GreenNodeData) -> bool, f: &mut dyn FnMut(SyntaxNode)) {
    let start = root.text_range().start();
    let green = root.green();
    // The root itself, as `descendants()` yields it first.
    if pick(root.kind(), &green) {
        f(root.clone());
    }
    // (kind, range) of the enclosing nodes, innermost last: to tell apart
    // nested nodes of one kind with one range.
    let mut chain = vec![(root.kind(), root.text_range())];
    visit(root, &green, start, &mut chain, pick, f);
}

fn visit(
    root: &SyntaxNode,
    node: &GreenNodeData,
    offset: TextSize,
    chain: &mut Vec<(K, TextRange)>,
    pick: &mut dyn FnMut(K, &GreenNodeData) -> bool,
    f: &mut dyn FnMut(SyntaxNode),
) {
    let mut at = offset;
    for c in node.children() {
        let len = c.text_len();
        if let NodeOrToken::Node(n) = c {
            let kind = K::from(n.kind().0);
            let range = TextRange::at(at, len);
            if pick(kind, n) {
                // How many enclosing nodes have this kind and range.
                let outer = chain.iter().rev().take_while(|&&(_, r)| r == range).filter(|&&(k, _)| k == kind).count();
                f(materialize(root, kind, range, outer));
            }
            chain.push((kind, range));
            visit(root, n, at, chain, pick, f);
            chain.pop();
        }
        at += len;
    }
}

/// The node of `kind` with `range` that has `outer` enclosing nodes of the
/// same kind and range. The nodes that contain a non-empty range are one
/// chain of ancestors, so the deepest element covering it leads there.
fn materialize(root: &SyntaxNode, kind: K, range: TextRange, outer: usize) -> SyntaxNode {
    let deepest = match root.covering_element(range) {
        NodeOrToken::Node(n) => Some(n),
        NodeOrToken::Token(t) => t.parent(),
    };
    if !range.is_empty()
        && let Some(deepest) = deepest
    {
        // Innermost first.
        let found: Vec<SyntaxNode> =
            deepest.ancestors().take_while(|a| a.text_range() == range).filter(|a| a.kind() == kind).collect();
        let n = found.len();
        if outer < n {
            return found[n - 1 - outer].clone();
        }
    }
    // An empty node (error recovery only): by a walk.
    root.descendants()
        .filter(|d| d.kind() == kind && d.text_range() == range)
        .nth(outer)
        .expect("a node the green tree has")
}
