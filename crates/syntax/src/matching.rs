//! Which opening brace a missing `}` was to close, for EDG's note under
//! `expected a "}"`: `note: to match this "{"`.
//!
//! EDG adds the note for the braces of blocks, class bodies, enumerator
//! lists, namespaces and linkage specifications, not for braced initializer
//! lists. The parser always puts a brace-delimited construct's `{` (and its
//! `}`, when there is one) directly in the construct's node, so the brace an
//! error belongs to is the innermost `{` before the error whose construct was
//! still open there.

use rowan::{TextRange, TextSize};

use crate::{SyntaxKind, SyntaxNode};

/// Constructs whose missing `}` EDG explains with a note.
const NOTED: &[SyntaxKind] = &[
    SyntaxKind::COMPOUND_STMT,
    SyntaxKind::MEMBER_LIST,
    SyntaxKind::ENUMERATOR_LIST,
    SyntaxKind::NAMESPACE_DEF,
    SyntaxKind::LINKAGE_SPEC,
    SyntaxKind::EXPORT_DECL,
];

/// For an `expected a "}"` error at `at` (in the tree `root`): the range of
/// the `{` to point the note at, if EDG gives one.
pub fn brace_to_match(root: &SyntaxNode, at: TextSize) -> Option<TextRange> {
    let mut best: Option<(TextSize, SyntaxKind)> = None;
    for node in root.descendants() {
        if node.text_range().start() >= at {
            continue;
        }
        let mut open = None;
        let mut close = None;
        for tok in node.children_with_tokens().filter_map(|e| e.into_token()) {
            match tok.kind() {
                SyntaxKind::L_CURLY if open.is_none() => open = Some(tok.text_range().start()),
                SyntaxKind::R_CURLY => close = Some(tok.text_range().start()),
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        // Open at the error: the `{` is before it and its `}` (if any) not.
        if open < at && close.is_none_or(|c| c >= at) && best.is_none_or(|(b, _)| open > b) {
            best = Some((open, node.kind()));
        }
    }
    let (open, kind) = best?;
    NOTED.contains(&kind).then(|| TextRange::at(open, TextSize::from(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, ParseOptions};

    fn note_at(text: &str) -> Option<u32> {
        let p = parse(text, ParseOptions::default());
        let e = p.errors().iter().find(|e| e.msg == "expected a \"}\"")?;
        brace_to_match(&p.syntax_node(), e.range.start()).map(|r| r.start().into())
    }

    #[test]
    fn blocks_classes_enums_namespaces_have_a_note() {
        assert_eq!(note_at("void f() { int a;"), Some(9));
        assert_eq!(note_at("struct S { int a;"), Some(9));
        assert_eq!(note_at("namespace n { int a;"), Some(12));
        assert_eq!(note_at("enum E { a, b c };"), Some(7));
        // The block of `f`, not the lambda's (closed) body.
        assert_eq!(note_at("void f() { auto l = [] { int a; ; }"), Some(9));
    }

    #[test]
    fn initializer_lists_have_none() {
        assert_eq!(note_at("void f() { int a[] = {1, 2; }"), None);
        assert_eq!(note_at("int f( { return 0; }"), None);
    }
}
