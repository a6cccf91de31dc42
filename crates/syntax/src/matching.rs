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
///
/// The tokens before `at` are walked backwards to the first `{` that opens
/// its construct (the construct's first `{`) and is not closed before `at`:
/// the cost is the distance to that brace, not the size of the tree (an
/// error limit's worth of missing `}` at the end of a large unit).
pub fn brace_to_match(root: &SyntaxNode, at: TextSize) -> Option<TextRange> {
    let end = root.text_range().end();
    let mut tok = if at >= end { root.last_token() } else { root.token_at_offset(at).left_biased() };
    while let Some(t) = tok {
        if t.kind() == SyntaxKind::L_CURLY && t.text_range().start() < at {
            let node = t.parent()?;
            let tokens = || node.children_with_tokens().filter_map(|e| e.into_token());
            let first_open = tokens().find(|x| x.kind() == SyntaxKind::L_CURLY);
            // The node's last `}`, looked for from its end (once per node:
            // only its first `{` gets here).
            let last_close = || {
                let mut e = node.last_child_or_token();
                while let Some(x) = e {
                    if x.kind() == SyntaxKind::R_CURLY && x.as_token().is_some() {
                        return Some(x.text_range().start());
                    }
                    e = x.prev_sibling_or_token();
                }
                None
            };
            if first_open.as_ref() == Some(&t) && last_close().is_none_or(|c| c >= at) {
                let kind = node.kind();
                return NOTED.contains(&kind).then(|| TextRange::at(t.text_range().start(), TextSize::from(1)));
            }
        }
        tok = t.prev_token();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ParseOptions, parse};

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
