//! Accessors the node tables cannot express: operators, the parts of a
//! range-for, flattened argument and member lists.

use super::*;
use crate::ast::{first_significant_token, support};

macro_rules! op_token {
    ($($name:ident),*) => {$(
        impl $name {
            /// The operator token (`+`, `>>`, `++`, …): the first token directly in the node.
            pub fn op_token(&self) -> Option<SyntaxToken> {
                first_significant_token(&self.syntax)
            }
            pub fn op_kind(&self) -> Option<SyntaxKind> {
                self.op_token().map(|t| t.kind())
            }
        }
    )*};
}
op_token!(BinExpr, AssignExpr, PrefixExpr, PostfixExpr, CommaExpr);

impl Literal {
    /// The literal token (`INT_NUMBER`, `FLOAT_NUMBER`, `CHAR`, `STRING`, `true`, `nullptr`, …).
    pub fn token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.syntax)
    }
}

impl StringLiteral {
    /// The pieces of a concatenated string literal.
    pub fn pieces(&self) -> impl Iterator<Item = SyntaxToken> + use<> {
        self.syntax.children_with_tokens().filter_map(|it| it.into_token()).filter(|t| t.kind() == SyntaxKind::STRING)
    }
}

impl CallExpr {
    /// The arguments (the expressions in the `ARG_LIST`).
    pub fn args(&self) -> AstChildren<Expr> {
        args_of(self.arg_list())
    }
}

impl KernelLaunch {
    pub fn args(&self) -> AstChildren<Expr> {
        args_of(self.arg_list())
    }
}

fn args_of(list: Option<ArgList>) -> AstChildren<Expr> {
    match list {
        Some(list) => list.args(),
        // No argument list (a syntax error): an empty iterator over a fresh leaf.
        None => support::children(&empty_node()),
    }
}

fn empty_node() -> SyntaxNode {
    SyntaxNode::new_root(rowan::GreenNode::new(SyntaxKind::ARG_LIST.into(), std::iter::empty()))
}

impl ClassSpecifier {
    /// The member declarations, in order.
    pub fn members(&self) -> AstChildren<Decl> {
        match self.member_list() {
            Some(list) => list.members(),
            None => support::children(&empty_node()),
        }
    }
}

impl RangeForStmt {
    /// The C++20 init-statement (`for (init; decl : range)`).
    pub fn init(&self) -> Option<ForInit> {
        let mut inits = support::children::<ForInit>(&self.syntax);
        let first = inits.next()?;
        inits.next().map(|_| first)
    }
    /// The for-range-declaration (`auto& x`), the last `FOR_INIT`.
    pub fn decl(&self) -> Option<ForInit> {
        support::children::<ForInit>(&self.syntax).last()
    }
}

impl IfStmt {
    pub fn is_constexpr(&self) -> bool {
        self.constexpr_token().is_some()
    }
    /// `if consteval` / `if !consteval`.
    pub fn is_consteval(&self) -> bool {
        self.consteval_token().is_some()
    }
}

impl GotoStmt {
    /// GNU computed goto: `goto *expr;`
    pub fn is_computed(&self) -> bool {
        support::token(&self.syntax, SyntaxKind::STAR).is_some()
    }
}

impl Body {
    /// Still a token range (declarations-only parse).
    pub fn is_lazy(&self) -> bool {
        matches!(self, Body::LazyBody(_))
    }
}

impl FunctionDef {
    /// The statements of the body, when it is parsed (compound body or function-try-block).
    pub fn compound(&self) -> Option<CompoundStmt> {
        match self.body()? {
            Body::FunctionBody(b) => b.compound().or_else(|| b.try_block()?.compound()),
            _ => None,
        }
    }
}

impl Name {
    /// The identifier, whether directly in the node or in a `NAME_REF` inside it.
    pub fn text(&self) -> Option<String> {
        self.ident().or_else(|| self.name_ref()?.ident()).map(|t| t.text().to_string())
    }
}

impl NameRef {
    pub fn text(&self) -> Option<String> {
        self.ident().map(|t| t.text().to_string())
    }
}
