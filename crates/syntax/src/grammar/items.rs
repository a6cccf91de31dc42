//! Declarations at namespace and class scope.

use crate::parser::Parser;
use crate::SyntaxKind::{self, *};

/// Declarations until `end` (not consumed) or end of input.
pub(crate) fn declaration_seq(p: &mut Parser<'_>, end: SyntaxKind) {
    while !p.at_eof() && !p.at(end) {
        let m = p.start();
        while !p.at_eof() && !p.at(SEMI) && !p.at(L_CURLY) {
            p.bump_balanced();
        }
        if p.at(L_CURLY) {
            p.bump_balanced();
        } else {
            p.eat(SEMI);
        }
        m.complete(p, SIMPLE_DECL);
    }
}

/// In a block: parses a declaration if the tokens at the cursor are one,
/// else rewinds and returns `false` (the caller parses an expression statement).
pub(crate) fn try_block_declaration(p: &mut Parser<'_>) -> bool {
    let _ = p;
    false
}
