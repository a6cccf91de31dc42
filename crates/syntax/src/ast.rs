//! The typed AST: a zero-cost typed view over the untyped rowan tree
//! (rust-analyzer style). Each node kind has a wrapper type with `cast` and
//! `syntax`, and typed accessors for its children; categories (`Expr`,
//! `Stmt`, `Decl`, `Body`, …) are enums over wrappers.
//!
//! Everything is generated from the tables in `nodes.rs`, so the accessors
//! are uniform: `child` (first child of that type), `children` (all of them),
//! `nth` (the n-th child of that type: binary operands), `token` (first
//! direct child token of a kind). Accessors return `Option` because trees
//! with syntax errors may lack any part. A few derived helpers that the
//! tables cannot express live in `ext.rs`.

mod ext;
mod nodes;

use std::marker::PhantomData;

use crate::{SyntaxKind, SyntaxNode, SyntaxToken};

pub use self::nodes::*;

/// A typed view of a syntax node.
pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

/// The children of a node that cast to `N`, in order.
#[derive(Debug, Clone)]
pub struct AstChildren<N> {
    inner: rowan::SyntaxNodeChildren<crate::CppLanguage>,
    ph: PhantomData<N>,
}

impl<N: AstNode> AstChildren<N> {
    fn new(parent: &SyntaxNode) -> Self {
        AstChildren { inner: parent.children(), ph: PhantomData }
    }
}

impl<N: AstNode> Iterator for AstChildren<N> {
    type Item = N;
    fn next(&mut self) -> Option<N> {
        self.inner.by_ref().find_map(N::cast)
    }
}

/// Helpers the generated accessors call.
pub(crate) mod support {
    use super::{AstChildren, AstNode};
    use crate::{SyntaxKind, SyntaxNode, SyntaxToken};

    pub(crate) fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
        parent.children().find_map(N::cast)
    }

    pub(crate) fn children<N: AstNode>(parent: &SyntaxNode) -> AstChildren<N> {
        AstChildren::new(parent)
    }

    pub(crate) fn nth<N: AstNode>(parent: &SyntaxNode, n: usize) -> Option<N> {
        parent.children().filter_map(N::cast).nth(n)
    }

    pub(crate) fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
        parent.children_with_tokens().filter_map(|it| it.into_token()).find(|it| it.kind() == kind)
    }
}

/// The first direct child token that is not trivia (an operator, a keyword).
pub(crate) fn first_significant_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens().filter_map(|it| it.into_token()).find(|t| !t.kind().is_trivia())
}

#[cfg(test)]
mod tests;
