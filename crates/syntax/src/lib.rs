//! cufront-syntax: the lossless C++/CUDA syntax of a preprocessed translation unit.
//!
//! Input is what nvcc hands cudafe++ (a `.cpp4.ii`): gcc line markers, `#pragma`
//! lines, CUDA keywords already expanded to `__attribute__((...))`.
//!
//! Invariants:
//! - Parsing never fails: every input yields a tree and a list of errors.
//! - The tree is lossless: its text is the input, byte for byte.
//! - Nesting is bounded (`parser::MAX_NESTING`): no input overflows the stack.
//! - No I/O, no salsa, no CUDA semantics here.

mod grammar;
pub mod lexer;
pub mod names;
mod parser;
pub mod source_map;
mod syntax_kind;
#[cfg(test)]
mod tests;

pub use crate::lexer::{LexOptions, Lexed};
pub use crate::names::{NameKind, Names};
pub use crate::parser::{ParseOptions, SyntaxError, MAX_NESTING};
pub use crate::syntax_kind::SyntaxKind;
pub use rowan::{GreenNode, TextRange, TextSize};

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Vec<SyntaxError>,
}

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
}

/// Parses a whole translation unit.
pub fn parse(text: &str, opts: ParseOptions) -> Parse {
    let lexed = lexer::lex(text, opts.lex);
    parse_lexed(text, &lexed, opts, &mut Names::new())
}

/// Parses a translation unit that is already lexed, with a caller-supplied
/// name table (which ends up holding every name the TU declares).
pub fn parse_lexed(text: &str, lexed: &Lexed, opts: ParseOptions, names: &mut Names) -> Parse {
    let input = parser::Input::new(text, lexed);
    let mut p = parser::Parser::new(&input, names, opts);
    grammar::source_file(&mut p);
    let events = p.finish();
    let (green, mut errors) = parser::build_tree(&input, 0..lexed.len(), events);
    errors.extend(lexed.errors.iter().map(|e| {
        let at = TextSize::from(lexed.start(e.token));
        SyntaxError { range: TextRange::new(at, TextSize::from(lexed.range(e.token).end as u32)), msg: e.msg.clone() }
    }));
    errors.sort_by_key(|e| e.range.start());
    Parse { green, errors }
}

/// Debug form of a tree: one line per node/token with its range.
pub fn debug_tree(node: &SyntaxNode) -> String {
    let mut out = String::new();
    let mut indent = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(el) => {
                out.push_str(&"  ".repeat(indent));
                match &el {
                    rowan::NodeOrToken::Node(n) => out.push_str(&format!("{:?}@{:?}\n", n.kind(), n.text_range())),
                    rowan::NodeOrToken::Token(t) => {
                        out.push_str(&format!("{:?}@{:?} {:?}\n", t.kind(), t.text_range(), t.text()))
                    }
                }
                indent += 1;
            }
            rowan::WalkEvent::Leave(_) => indent -= 1,
        }
    }
    out
}
