//! Primary expressions and the keyword-introduced unary forms: literals,
//! names and functional casts, parentheses (grouping, C casts, compound
//! literals, folds, GNU statement expressions), `sizeof`, `alignof`,
//! `noexcept`, `typeid`, the C++ casts, `new`, `delete`, `throw`.

use super::{
    arg_list, assign, at_expr_start, at_fold_op, braced_init_list, builtins, expr_opt, fold_operand, lambdas,
    missing_expr, requires, unary,
};
use crate::SyntaxKind::{self, *};
use crate::grammar::{paths, statements, types};
use crate::parser::{CompletedMarker, Parser};

/// A primary expression; `None` after reporting an error when none starts here.
pub(crate) fn primary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let k = p.current();
    let cm = match k {
        INT_NUMBER | FLOAT_NUMBER | CHAR | TRUE_KW | FALSE_KW | NULLPTR_KW | GNU_NULL_KW | FUNC_KW | FUNCTION_KW
        | PRETTY_FUNCTION_KW => {
            let m = p.start();
            p.bump_any();
            m.complete(p, LITERAL)
        }
        STRING => {
            // Adjacent string literals (prefixes and UDL suffixes are part of each token) are one literal.
            let m = p.start();
            while p.at(STRING) {
                p.bump(STRING);
            }
            m.complete(p, STRING_LITERAL)
        }
        THIS_KW => {
            let m = p.start();
            p.bump(THIS_KW);
            m.complete(p, THIS_EXPR)
        }
        L_PAREN => return p.nested(paren_or_cast).map(|(cm, _)| cm),
        L_BRACK => return p.nested(lambdas::lambda_expr),
        STATIC_CAST_KW | DYNAMIC_CAST_KW | CONST_CAST_KW | REINTERPRET_CAST_KW => cxx_cast(p),
        TYPEID_KW => typeid_expr(p),
        REQUIRES_KW => return p.nested(requires::requires_expr),
        BUILTIN_OFFSETOF_KW
        | BUILTIN_VA_ARG_KW
        | BUILTIN_BIT_CAST_KW
        | BUILTIN_TYPES_COMPATIBLE_P_KW
        | BUILTIN_CONVERTVECTOR_KW => builtins::builtin_call(p),
        IDENT if builtins::at_type_trait(p) => builtins::type_trait(p),
        IDENT | COLON2 | OPERATOR_KW | TYPENAME_KW | DECLTYPE_KW | DECLTYPE2_KW => return name_expr(p),
        _ if types::at_type_id_start(p) => return name_expr(p),
        _ => {
            missing_expr(p);
            return None;
        }
    };
    Some(cm)
}

/// The argument list of a functional cast, whose type `m` has already started.
fn functional_cast_args(p: &mut Parser<'_>, m: crate::parser::Marker) -> CompletedMarker {
    match p.current() {
        L_PAREN => arg_list(p),
        L_CURLY => braced_init_list(p),
        _ => p.error("expected a \"(\""),
    }
    m.complete(p, FUNCTIONAL_CAST_EXPR)
}

/// A name (`x`, `N::f<int>`, `operator+`, `decltype(x)::y`), or a functional
/// cast `T(x)` / `T{x}` when a type (a name the oracle calls a type, builtin
/// type keywords, `typename T::U`, `decltype(e)`) is followed by `(` or `{`.
fn name_expr(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if types::at_type_id_start(p) {
        let first = p.current();
        let cp = p.checkpoint();
        let m = p.start();
        let t = p.start();
        let has_type = types::type_specifier_seq(p);
        t.complete(p, TYPE_ID);
        if has_type && (p.at(L_PAREN) || p.at(L_CURLY)) && !p.has_error_since(cp) {
            return Some(functional_cast_args(p, m));
        }
        if !matches!(first, IDENT | COLON2 | DECLTYPE_KW | DECLTYPE2_KW) || p.must_keep(cp) {
            // A type keyword or `typename`: only a functional cast can follow.
            // (And a type that went through a braced group with an error
            // stands: `Parser::must_keep`.)
            return Some(functional_cast_args(p, m));
        }
        m.abandon(p);
        p.rewind(cp);
    }
    let m = p.start();
    if !paths::id_expression(p) {
        m.abandon(p);
        missing_expr(p);
        return None;
    }
    Some(m.complete(p, ID_EXPR))
}

/// `( type-id )` if the parentheses hold exactly a type-id, else `( expr )`
/// (`sizeof`, `alignof`, `typeid`, `typeof` operands). At `(`.
fn paren_type_or_expr(p: &mut Parser<'_>) {
    if !p.expect(L_PAREN) {
        return;
    }
    p.with_gt_closes(false, |p| {
        if !try_type_id_before(p, R_PAREN) {
            p.nested(expr_opt);
        }
    });
    p.expect(R_PAREN);
}

/// Tentatively parses a type-id that must be followed by `close`; rewinds and returns `false` if that fails.
pub(crate) fn try_type_id_before(p: &mut Parser<'_>, close: SyntaxKind) -> bool {
    try_type_id_before_any(p, &[close])
}

/// Tentatively parses a type-id that must be followed by one of `follow`.
///
/// A type-id that starts with a class key is one however it ends (no
/// expression starts with `struct`): parsed once, never rewound, so the
/// caller must expect its follower. Rewinding there would parse a class
/// body twice, once per nesting level: `sizeof(struct B {` repeated takes
/// time exponential in the repetitions.
pub(crate) fn try_type_id_before_any(p: &mut Parser<'_>, follow: &[SyntaxKind]) -> bool {
    if types::at_class_key(p) {
        types::type_id(p);
        return true;
    }
    if !types::at_type_id_start(p) {
        return false;
    }
    let cp = p.checkpoint();
    if types::type_id(p) && p.at_any(follow) && !p.has_error_since(cp) {
        return true;
    }
    if p.must_keep(cp) {
        // It stands, not parsed again as an expression (`Parser::must_keep`;
        // the caller expects the follower).
        return true;
    }
    p.rewind(cp);
    false
}

/// At `(`: a parenthesized expression, a C cast `(T)x`, a compound literal
/// `(T){...}`, a fold expression or a GNU statement expression `({...})`.
/// The flag says whether postfix operators may follow (not after a cast).
pub(crate) fn paren_or_cast(p: &mut Parser<'_>) -> (CompletedMarker, bool) {
    let m = p.start();
    p.bump(L_PAREN);
    if p.at(L_CURLY) {
        p.with_gt_closes(false, statements::compound_stmt);
        p.expect(R_PAREN);
        return (m.complete(p, STMT_EXPR), true);
    }
    if p.at(DOT3) {
        // `( ... op e )`
        p.bump(DOT3);
        p.with_gt_closes(false, |p| match at_fold_op_any(p) {
            Some(op) => {
                p.bump(op);
                fold_operand(p, op);
            }
            None => p.error("expected an operator"),
        });
        close_paren(p);
        return (m.complete(p, FOLD_EXPR), true);
    }
    if types::at_class_key(p) {
        // A cast (`(struct S *)p`) however it ends: parsed once, as
        // `try_type_id_before_any` does.
        p.with_gt_closes(false, types::type_id);
        if p.expect(R_PAREN) && p.at(L_CURLY) {
            braced_init_list(p);
            return (m.complete(p, CAST_EXPR), true);
        }
        if at_expr_start(p) {
            p.nested(unary);
        }
        return (m.complete(p, CAST_EXPR), false);
    }
    if types::at_type_id_start(p) {
        let cp = p.checkpoint();
        if p.with_gt_closes(false, types::type_id) && p.at(R_PAREN) && !p.has_error_since(cp) {
            p.bump(R_PAREN);
            if p.at(L_CURLY) {
                braced_init_list(p);
                return (m.complete(p, CAST_EXPR), true);
            }
            // `(T())` or `(T)` followed by no operand is not a cast but a parenthesized expression.
            if at_expr_start(p) {
                p.nested(unary);
                return (m.complete(p, CAST_EXPR), false);
            }
        } else if !p.has_error_since(cp) && p.at_any(&[SEMI, R_CURLY, R_BRACK, EOF]) {
            // A type-id that the group cannot go on from (`(int;`): a cast
            // missing its `)`. EDG reports the `)`, then the missing operand.
            crate::grammar::recovery::expect_or_skip(p, R_PAREN);
            p.nested(unary);
            return (m.complete(p, CAST_EXPR), false);
        } else if p.must_keep(cp) {
            // Kept as a cast (`Parser::must_keep`).
            if p.expect(R_PAREN) && at_expr_start(p) {
                p.nested(unary);
            }
            return (m.complete(p, CAST_EXPR), false);
        }
        p.rewind(cp);
    }
    let kind = p.with_gt_closes(false, |p| {
        p.nested(expr_opt);
        if let Some((op, _)) = at_fold_op(p) {
            // `( e op ... )` or `( e op ... op init )`
            p.bump(op);
            p.bump(DOT3);
            if let Some(op2) = at_fold_op_any(p) {
                p.bump(op2);
                fold_operand(p, op2);
            }
            FOLD_EXPR
        } else {
            PAREN_EXPR
        }
    });
    close_paren(p);
    (m.complete(p, kind), true)
}

/// Any operator a fold expression may use, at the cursor (composites glued).
fn at_fold_op_any(p: &Parser<'_>) -> Option<SyntaxKind> {
    const SIMPLE: &[SyntaxKind] = &[
        PLUS, MINUS, STAR, SLASH, PERCENT, CARET, AMP, PIPE, EQ, L_ANGLE, PLUSEQ, MINUSEQ, STAREQ, SLASHEQ, PERCENTEQ,
        CARETEQ, AMPEQ, PIPEEQ, SHL, SHLEQ, EQ2, NEQ, LTEQ, AMP2, PIPE2, COMMA, DOT_STAR, ARROW_STAR,
    ];
    for composite in [SHREQ, SHR, GTEQ] {
        if p.at(composite) {
            return Some(composite);
        }
    }
    let k = p.current();
    (SIMPLE.contains(&k) || k == R_ANGLE).then_some(k)
}

/// Expects the `)` of a parenthesized group; on anything else reports it and
/// skips to the `)` so that one stray token does not derail the enclosing construct.
pub(crate) fn close_paren(p: &mut Parser<'_>) {
    if p.eat(R_PAREN) {
        return;
    }
    p.error("expected a \")\"");
    skip_to_close(p, R_PAREN);
}

/// After an error inside a group: skips balanced tokens up to and including
/// `close`, stopping (without consuming) at `;`, `}` or the end of input.
pub(crate) fn skip_to_close(p: &mut Parser<'_>, close: SyntaxKind) {
    if p.at_any(&[SEMI, R_CURLY]) || p.at_eof() {
        return;
    }
    let m = p.start();
    while !p.at_eof() && !p.at(close) && !p.at_any(&[SEMI, R_CURLY, R_PAREN, R_BRACK]) {
        p.bump_balanced();
    }
    m.complete(p, ERROR);
    p.eat(close);
}

/// `throw` with an optional operand.
pub(crate) fn throw_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(THROW_KW);
    if at_expr_start(p) {
        p.nested(assign);
    }
    m.complete(p, THROW_EXPR)
}

/// `sizeof x`, `sizeof(T)`, `sizeof...(pack)`.
pub(crate) fn sizeof_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(SIZEOF_KW);
    if p.at(DOT3) {
        p.bump(DOT3);
        if p.expect(L_PAREN) {
            if !paths::id_expression(p) {
                p.error("expected an identifier");
            }
            close_paren(p);
        }
        return m.complete(p, SIZEOF_PACK_EXPR);
    }
    type_in_parens_or_unary(p);
    m.complete(p, SIZEOF_EXPR)
}

/// `(type-id)` if the parentheses hold a type-id, else a unary expression.
fn type_in_parens_or_unary(p: &mut Parser<'_>) {
    if p.at(L_PAREN) {
        let cp = p.checkpoint();
        p.bump(L_PAREN);
        if p.with_gt_closes(false, |p| try_type_id_before(p, R_PAREN)) {
            // At `)` unless the type-id began with a class key (then committed).
            p.expect(R_PAREN);
            // `sizeof(T){...}` would be a compound literal; we do not special-case it.
            return;
        }
        p.rewind(cp);
    }
    p.nested(unary);
}

/// `alignof(T)`, GNU `__alignof__(T)` / `__alignof__ expr`, C `_Alignof`.
pub(crate) fn alignof_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump_any();
    type_in_parens_or_unary(p);
    m.complete(p, ALIGNOF_EXPR)
}

/// `noexcept(expr)`.
pub(crate) fn noexcept_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(NOEXCEPT_KW);
    if p.expect(L_PAREN) {
        p.with_gt_closes(false, |p| p.nested(expr_opt));
        close_paren(p);
    }
    m.complete(p, NOEXCEPT_EXPR)
}

/// `typeid(T)` / `typeid(expr)`.
fn typeid_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(TYPEID_KW);
    paren_type_or_expr(p);
    m.complete(p, TYPEID_EXPR)
}

/// `static_cast<T>(e)` and its siblings.
fn cxx_cast(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump_any();
    if p.expect(L_ANGLE) {
        if !p.with_gt_closes(true, types::type_id) {
            p.error("expected a type specifier");
        }
        p.expect(R_ANGLE);
    }
    // A missing `(` is reported and skipped past; the operand and `)` are still expected (EDG).
    if !p.eat(L_PAREN) {
        crate::grammar::recovery::error_and_skip(p, "expected a \"(\"");
    }
    p.with_gt_closes(false, |p| p.nested(expr_opt));
    close_paren(p);
    m.complete(p, CXX_CAST_EXPR)
}

/// `[::] new [(placement)] (T) | T [initializer]`.
pub(crate) fn new_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.eat(COLON2);
    p.bump(NEW_KW);
    if p.at(L_PAREN) {
        // `new (T)` or a placement `new (args) T`: a parenthesized type-id
        // followed by something that is not a type is the former.
        let cp = p.checkpoint();
        p.bump(L_PAREN);
        // No placement argument starts with a class key: `new (struct S)` is
        // a parenthesized type however it ends, as is one that went through
        // a braced group with an error (not rewound: `try_type_id_before_any`).
        let class_key = types::at_class_key(p);
        let typed = p.with_gt_closes(false, |p| try_type_id_before(p, R_PAREN));
        let kept = typed && (class_key || p.must_keep(cp));
        let parenthesized_type = typed && {
            p.expect(R_PAREN);
            kept || (!types::at_type_id_start(p) && !p.at(L_PAREN))
        };
        if parenthesized_type {
            new_initializer(p);
            return m.complete(p, NEW_EXPR);
        }
        p.rewind(cp);
        let pl = p.start();
        arg_list(p);
        pl.complete(p, NEW_PLACEMENT);
    }
    if p.at(L_PAREN) {
        p.bump(L_PAREN);
        if !p.with_gt_closes(false, types::type_id) {
            p.error("expected a type specifier");
        }
        close_paren(p);
    } else if !types::new_type_id(p) {
        p.error("expected a type specifier");
    }
    new_initializer(p);
    m.complete(p, NEW_EXPR)
}

fn new_initializer(p: &mut Parser<'_>) {
    match p.current() {
        L_PAREN => {
            let m = p.start();
            arg_list(p);
            m.complete(p, NEW_INITIALIZER);
        }
        L_CURLY => {
            let m = p.start();
            braced_init_list(p);
            m.complete(p, NEW_INITIALIZER);
        }
        _ => {}
    }
}

/// `[::] delete [[]] e`.
pub(crate) fn delete_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.eat(COLON2);
    p.bump(DELETE_KW);
    if p.at(L_BRACK) && p.nth_at(1, R_BRACK) {
        p.bump(L_BRACK);
        p.bump(R_BRACK);
    }
    p.nested(unary);
    m.complete(p, DELETE_EXPR)
}
