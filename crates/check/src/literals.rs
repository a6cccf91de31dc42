//! User-defined literals whose literal operator does not exist: `user-defined
//! literal operator not found` (2486, an error), after `a user-provided
//! literal suffix must begin with "_"` (warning 2506) when the suffix does
//! not begin with `_`; both at the literal (`12abc`, `1lul`, `1.5e`,
//! `"x"qq`). EDG looks the operator up when it meets the literal; the
//! warning comes with the failed lookup (a declared `operator""abc` makes
//! `12abc` silent).
//!
//! The same warning is given on the declaration of a literal operator
//! whose suffix does not begin with `_`, at the token that holds the
//! suffix (`""abc`, or `abc` in `operator"" abc`).
//!
//! Certainty: "not found" is claimed only when no `operator ""suffix` is
//! written anywhere in the unit (a textual scan: every declaration,
//! using-declaration and friend counts, wherever it is). Literals are read
//! in the bodies `infer` types (templated ones are skipped: EDG does not
//! look up there either), outside lambdas with parameters (perhaps
//! generic), and in the initializers of namespace-scope variables.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{DiagId, Severity};
use cufront_hir::body::{Body, Expr};
use cufront_hir::infer::{self, InferOwner};
use cufront_hir::instances::{FnDecl, VarDecl};
use cufront_hir::{FnId, VarId};
use cufront_syntax::{LexOptions, SyntaxKind as K, SyntaxNode, TextRange};
use rustc_hash::FxHashSet;

use crate::Raw;

const SUFFIX_WITHOUT_UNDERSCORE: DiagId = DiagId(2506);
const OPERATOR_NOT_FOUND: DiagId = DiagId(2486);

/// The warnings on the literal operators one item declares (the
/// declarator's name, bodies not read).
#[salsa::tracked(returns(clone))]
pub fn item_literal_operator_findings(db: &dyn SourceDatabase, item: cufront_hir::ItemId) -> Arc<Vec<Raw>> {
    if item.tu(db).options(db).lang(db).standard < cufront_base_db::LangStandard::Cxx11 {
        return Arc::default();
    }
    let Some(src) = cufront_hir::item_source(db, item) else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let mut out = Vec::new();
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        match n.kind() {
            K::FUNCTION_BODY | K::LAZY_BODY | K::INITIALIZER | K::EQUAL_INITIALIZER => walk.skip_subtree(),
            K::LITERAL_OPERATOR_NAME if n.parent().is_some_and(|p| p.kind() == K::DECLARATOR) => {
                let tokens: Vec<_> =
                    n.children_with_tokens().filter_map(|e| e.into_token()).filter(|t| !t.kind().is_trivia()).collect();
                // `operator""abc` (one token) or `operator"" abc`.
                let Some(last) = tokens.last() else { continue };
                let suffix = match last.kind() {
                    K::STRING => last.text().trim_start_matches('"'),
                    _ => last.text(),
                };
                if !suffix.is_empty() && !suffix.starts_with('_') {
                    let at = u32::from(last.text_range().start());
                    out.push(Raw { at, id: SUFFIX_WITHOUT_UNDERSCORE, severity: Severity::Warning, args: vec![] });
                }
            }
            _ => {}
        }
    }
    Arc::new(out)
}

/// The findings on the literals of one body (offsets relative to the item).
#[salsa::tracked(returns(clone))]
pub fn fn_literal_findings(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let body = infer::decl_body(db, FnDecl::Fn(f));
    if infer::infer(db, InferOwner::Fn(f)).skipped.is_some() {
        return Arc::default();
    }
    findings(db, f.item(db), &body)
}

/// The same for the initializer of a namespace-scope variable.
#[salsa::tracked(returns(clone))]
pub fn var_literal_findings(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<Raw>> {
    let body = infer::var_init::var_init_body(db, VarDecl::Var(v));
    findings(db, v.item(db), &body)
}

fn findings(db: &dyn SourceDatabase, item: cufront_hir::ItemId, body: &Body) -> Arc<Vec<Raw>> {
    let options = item.tu(db).options(db);
    // Before C++11 a suffix is not a literal operator's.
    if options.lang(db).standard < cufront_base_db::LangStandard::Cxx11 {
        return Arc::default();
    }
    let text = cufront_hir::consteval::interp::item_text(db, item);
    let opts = cufront_base_db::parse_options(db, options).lex;
    // Lambdas with parameters: perhaps generic, their bodies templates.
    let skipped: Vec<TextRange> = body
        .exprs
        .iter()
        .zip(&body.expr_ranges)
        .filter_map(|(e, r)| matches!(e, Expr::Lambda { params, .. } if !params.is_empty()).then_some(*r))
        .collect();
    let mut literals: Vec<(u32, String)> = Vec::new();
    for (e, r) in body.exprs.iter().zip(&body.expr_ranges) {
        if !matches!(e, Expr::Literal(_) | Expr::Missing(_)) || skipped.iter().any(|l| l.contains_range(*r)) {
            continue;
        }
        let Some(src) = text.get(usize::from(r.start())..usize::from(r.end())) else { continue };
        if let Some(suffix) = user_suffix(src, opts) {
            literals.push((u32::from(r.start()), suffix));
        }
    }
    if literals.is_empty() {
        return Arc::default();
    }
    literals.sort();
    literals.dedup();
    let declared = declared_suffixes(db, item.tu(db));
    let mut out = Vec::new();
    for (at, suffix) in literals {
        if declared.contains(&suffix) {
            continue;
        }
        if !suffix.starts_with('_') {
            out.push(Raw { at, id: SUFFIX_WITHOUT_UNDERSCORE, severity: Severity::Warning, args: vec![] });
        }
        out.push(Raw { at, id: OPERATOR_NOT_FOUND, severity: Severity::Error, args: vec![] });
    }
    Arc::new(out)
}

/// The user-defined suffix of a literal written as one token.
fn user_suffix(src: &str, opts: LexOptions) -> Option<String> {
    let lexed = cufront_syntax::lexer::lex(src, opts);
    let tokens: Vec<usize> = (0..lexed.len()).filter(|&i| !lexed.kind(i).is_trivia()).collect();
    let [i] = tokens[..] else { return None };
    // A literal the lexer found broken (an unclosed quote, a raw string's
    // bad delimiter) has no suffix to judge.
    if lexed.errors.iter().any(|e| e.token == i) {
        return None;
    }
    let t = lexed.text(src, i);
    match lexed.kind(i) {
        K::INT_NUMBER | K::FLOAT_NUMBER => cufront_syntax::user_suffix(t.as_bytes()).map(|k| t[k..].to_string()),
        K::STRING | K::CHAR => {
            let quote = if lexed.kind(i) == K::STRING { '"' } else { '\'' };
            let rest = &t[t.rfind(quote)? + 1..];
            let ident = rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            ident.then(|| rest.to_string())
        }
        _ => None,
    }
}

/// Every suffix some `operator ""suffix` of the unit names (declarations,
/// using-declarations, friends; in any scope or body).
#[salsa::tracked(returns(clone))]
pub(crate) fn declared_suffixes(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<FxHashSet<String>> {
    let text = tu.text(db);
    let b = text.as_bytes();
    let mut out = FxHashSet::default();
    let mut from = 0;
    while let Some(k) = text[from..].find("operator") {
        let mut i = from + k + "operator".len();
        from = i;
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if !text[i..].starts_with("\"\"") {
            continue;
        }
        i += 2;
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let end = i + b[i..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
        if end > i {
            out.insert(text[i..end].to_string());
        }
    }
    Arc::new(out)
}
