//! The C++/CUDA grammar: hand-written recursive descent over `Parser`, with
//! precedence climbing for expressions. Modules by what they parse:
//!
//! - `items`: declarations at namespace and class scope, templates, classes, enums
//! - `types`: decl-specifiers, declarators, type-ids
//! - `paths`: qualified names, template-ids, operator names
//! - `attributes`: `[[...]]`, `__attribute__((...))`, `alignas`, `__declspec`
//! - `expressions`: every expression form, lambdas, initializers, kernel launches
//! - `statements`: statements and function bodies (eager or lazy)
//! - `recovery`: where to resume after a syntax error (EDG's stop tokens)

pub(crate) mod attributes;
pub(crate) mod expressions;
pub(crate) mod items;
pub(crate) mod paths;
pub(crate) mod recovery;
pub(crate) mod statements;
mod type_keywords;
pub(crate) mod types;

use crate::SyntaxKind::*;
use crate::parser::Parser;

/// The whole translation unit.
pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start();
    items::declaration_seq(p, EOF);
    while !p.at_eof() {
        p.err_and_bump("expected a declaration");
    }
    m.complete(p, SOURCE_FILE);
}

/// A function body parsed on its own (lazy bodies): the tokens of one
/// `LAZY_BODY`, i.e. a compound statement or a function-try-block.
pub(crate) fn body(p: &mut Parser<'_>) {
    let m = p.start();
    statements::body_contents(p);
    while !p.at_eof() {
        p.err_and_bump("expected a statement");
    }
    m.complete(p, FUNCTION_BODY);
}
