//! Expressions: precedence climbing over unary and postfix expressions.
//!
//! Levels, loosest first (spec 50 §3.4): comma < assignment, conditional,
//! `throw`, `co_yield` < `||` < `&&` < `|` < `^` < `&` < equality <
//! relational < `<=>` < shift < additive < multiplicative < `.*`/`->*` <
//! unary (casts included) < postfix < primary.
//!
//! Conventions the rest of the grammar relies on:
//! - Inside a template argument list (`p.gt_closes`), a top-level `>` ends the
//!   expression, and so does the first `>` of `>>` (a composite of joint `>`
//!   tokens); `>=` and `>>=` stay operators, as they are single tokens in
//!   C++. Parentheses, brackets and braces reset that. In a launch
//!   configuration only `>>>` ends it (`k<<<1, n > 32 ? 4 : 0>>>()`).
//! - A binary operator directly followed by `...` is never consumed as a
//!   binary operator: it belongs to an enclosing fold expression.
//! - Every recursion goes through `p.nested`, so nesting depth is bounded.
//! - `expr_list` parses the comma-separated arguments between parentheses;
//!   `arg_list` the whole `( ... )` as an `ARG_LIST` node.

mod atoms;
mod builtins;
mod initializers;
mod lambdas;
mod requires;

use crate::SyntaxKind::{self, *};
use crate::grammar::paths::NameMode;
use crate::parser::{CompletedMarker, Marker, Parser};

pub(crate) use initializers::{arg_list, braced_init_list, expr_list, initializer_clause};
pub(crate) use requires::constraint_expr;

/// A full expression, comma operator included.
pub(crate) fn expr(p: &mut Parser<'_>) {
    expr_opt(p);
}

/// A full expression; `None` (after reporting "expected an expression") when none starts here.
pub(crate) fn expr_opt(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let lhs = assign(p)?;
    let mut chain = Chain::new(lhs);
    while p.at(COMMA) && !p.nth_at(1, DOT3) {
        chain.wrap(p, |p| {
            p.bump(COMMA);
            assign(p);
            COMMA_EXPR
        });
    }
    Some(chain.finish(p))
}

/// Left-associative chains (`a + b + c`, `f()()`, `a, b, c`) nest to the
/// left, one tree level per operator. So that trees stay shallow whatever the
/// input, a chain longer than `MAX_CHAIN` continues flat inside its last
/// node: read such a node's operands and operators left to right.
pub(crate) const MAX_CHAIN: u32 = 64;

pub(crate) struct Chain {
    lhs: CompletedMarker,
    len: u32,
    open: Option<(Marker, SyntaxKind)>,
}

impl Chain {
    pub(crate) fn new(lhs: CompletedMarker) -> Chain {
        Chain { lhs, len: 0, open: None }
    }

    /// Wraps the chain so far in a node whose remaining children `rest` parses, returning the node's kind.
    pub(crate) fn wrap(&mut self, p: &mut Parser<'_>, rest: impl FnOnce(&mut Parser<'_>) -> SyntaxKind) {
        if self.open.is_some() {
            rest(p);
            return;
        }
        let m = self.lhs.precede(p);
        let kind = rest(p);
        self.len += 1;
        if self.len >= MAX_CHAIN {
            self.open = Some((m, kind));
        } else {
            self.lhs = m.complete(p, kind);
        }
    }

    pub(crate) fn finish(self, p: &mut Parser<'_>) -> CompletedMarker {
        match self.open {
            Some((m, kind)) => m.complete(p, kind),
            None => self.lhs,
        }
    }
}

/// An assignment-expression (no top-level comma).
pub(crate) fn assignment_expr(p: &mut Parser<'_>) {
    assign(p);
}

/// A constant-expression (a conditional-expression; we accept an assignment-expression).
pub(crate) fn constant_expr(p: &mut Parser<'_>) {
    assign(p);
}

/// Can an expression start at the cursor? (A cheap, conservative test used to
/// decide between readings, e.g. whether `(T)` is followed by a cast operand.)
pub(crate) fn at_expr_start(p: &Parser<'_>) -> bool {
    let k = p.current();
    match k {
        IDENT | INT_NUMBER | FLOAT_NUMBER | CHAR | STRING | L_PAREN | L_BRACK | COLON2 | PLUS | MINUS | BANG
        | TILDE | STAR | AMP | PLUS2 | MINUS2 | AMP2 => true,
        _ => k.is_keyword() && !NOT_EXPR_KEYWORDS.contains(&k),
    }
}

/// Keywords that cannot start an expression operand.
const NOT_EXPR_KEYWORDS: &[SyntaxKind] = &[
    BREAK_KW,
    CASE_KW,
    CONTINUE_KW,
    DEFAULT_KW,
    DO_KW,
    ELSE_KW,
    ENUM_KW,
    EXTERN_KW,
    FOR_KW,
    GOTO_KW,
    IF_KW,
    REGISTER_KW,
    RETURN_KW,
    STATIC_KW,
    STRUCT_KW,
    SWITCH_KW,
    TYPEDEF_KW,
    UNION_KW,
    WHILE_KW,
    CATCH_KW,
    CLASS_KW,
    EXPLICIT_KW,
    EXPORT_KW,
    FRIEND_KW,
    INLINE_KW,
    MUTABLE_KW,
    NAMESPACE_KW,
    PRIVATE_KW,
    PROTECTED_KW,
    PUBLIC_KW,
    TEMPLATE_KW,
    TRY_KW,
    USING_KW,
    VIRTUAL_KW,
    ALIGNAS_KW,
    CONSTEXPR_KW,
    STATIC_ASSERT_KW,
    THREAD_LOCAL_KW,
    CONCEPT_KW,
    CONSTEVAL_KW,
    CONSTINIT_KW,
    CO_RETURN_KW,
    THROW_KW,
    CO_YIELD_KW,
    ATTRIBUTE_KW,
    ATTRIBUTE2_KW,
    ASM_KW,
    ASM2_KW,
    ASM3_KW,
    THREAD_KW,
    LABEL_KW,
    CONST_KW,
    VOLATILE_KW,
    CONST2_KW,
    CONST3_KW,
    VOLATILE2_KW,
    VOLATILE3_KW,
    RESTRICT_KW,
    RESTRICT2_KW,
    RESTRICT3_KW,
    INLINE2_KW,
    INLINE3_KW,
    STATIC_ASSERT_C_KW,
    THREAD_LOCAL_C_KW,
    ALIGNAS_C_KW,
    NORETURN_KW,
    DECLSPEC_KW,
];

/// Tokens at which a missing operand is reported without consuming anything:
/// they most likely close or continue an enclosing construct.
const RECOVERY: &[SyntaxKind] =
    &[SEMI, COMMA, R_PAREN, R_BRACK, R_CURLY, L_CURLY, COLON, R_ANGLE, EQ, QUESTION, DOT3, EOF];

/// Reports a missing expression; unless at a likely delimiter, skips to a
/// stop token as EDG does (`f( { return 0; }` resumes at the `;`).
pub(crate) fn missing_expr(p: &mut Parser<'_>) {
    // A binary operator stays: `a * / b` recovers as `(a * <missing>) / b`.
    if p.at_eof() || p.at_any(RECOVERY) || binary_op(p).is_some() {
        p.error("expected an expression");
    } else {
        crate::grammar::recovery::error_and_skip(p, "expected an expression");
    }
}

/// An assignment-expression; `None` after reporting an error when none starts here.
pub(crate) fn assign(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    assign_or_conditional(p, true)
}

/// A conditional-expression: no assignment at the top level (an array
/// bound: `int a[3 = {1};` lacks a `]` before the `=`).
pub(crate) fn conditional_expr(p: &mut Parser<'_>) {
    assign_or_conditional(p, false);
}

fn assign_or_conditional(p: &mut Parser<'_>, allow_assign: bool) -> Option<CompletedMarker> {
    match p.current() {
        THROW_KW => return Some(atoms::throw_expr(p)),
        CO_YIELD_KW => {
            let m = p.start();
            p.bump(CO_YIELD_KW);
            if p.at(L_CURLY) {
                braced_init_list(p);
            } else {
                p.nested(assign);
            }
            return Some(m.complete(p, CO_YIELD_EXPR));
        }
        _ => {}
    }
    let lhs = binary(p, PREC_LOGICAL_OR)?;
    // Right-associative: the right operand takes the rest of the chain, so this
    // loops only when nesting too deep cut that operand short.
    let mut chain = Chain::new(lhs);
    loop {
        if p.at(QUESTION) {
            chain.wrap(p, |p| {
                p.bump(QUESTION);
                // GNU `a ?: b` omits the middle operand.
                if !p.at(COLON) {
                    p.nested(expr_opt);
                }
                p.expect(COLON);
                p.nested(assign);
                CONDITIONAL_EXPR
            });
        } else if allow_assign
            && let Some((op, n)) = assign_op(p)
            && !p.nth_at(n, DOT3)
        {
            chain.wrap(p, |p| {
                p.bump(op);
                if p.at(L_CURLY) {
                    braced_init_list(p);
                } else {
                    p.nested(assign);
                }
                ASSIGN_EXPR
            });
        } else {
            return Some(chain.finish(p));
        }
    }
}

/// The assignment operator at the cursor, with its length in tokens.
fn assign_op(p: &Parser<'_>) -> Option<(SyntaxKind, usize)> {
    let k = p.current();
    match k {
        EQ | PLUSEQ | MINUSEQ | STAREQ | SLASHEQ | PERCENTEQ | CARETEQ | AMPEQ | PIPEEQ | SHLEQ => Some((k, 1)),
        R_ANGLE if p.at(SHREQ) => Some((SHREQ, 3)),
        _ => None,
    }
}

const PREC_LOGICAL_OR: u8 = 3;

/// A logical-or-expression (a nested requirement's constraint, for instance).
pub(crate) fn logical_or_expr(p: &mut Parser<'_>) {
    binary(p, PREC_LOGICAL_OR);
}

/// The binary operator at the cursor: its kind, precedence and length in tokens.
/// `>`-composites are operators only outside template argument lists.
pub(crate) fn binary_op(p: &Parser<'_>) -> Option<(SyntaxKind, u8, usize)> {
    let k = p.current();
    let (prec, n) = match k {
        PIPE2 => (3, 1),
        AMP2 => (4, 1),
        PIPE => (5, 1),
        CARET => (6, 1),
        AMP => (7, 1),
        EQ2 | NEQ => (8, 1),
        L_ANGLE | LTEQ => (9, 1),
        R_ANGLE => {
            // In a template argument list only `>` and `>>` close it: `>=`
            // and `>>=` are single tokens in C++ (`enable_if_t<N >= 32>`).
            if p.at(SHREQ) {
                return None; // an assignment
            }
            if p.at(GTEQ) {
                return Some((GTEQ, 9, 2));
            }
            if p.gt_ends_list() {
                return None;
            }
            if p.at(SHR) {
                return Some((SHR, 11, 2));
            }
            (9, 1)
        }
        SPACESHIP => (10, 1),
        SHL => {
            // `<<` `<` is a kernel launch, handled as a postfix operator.
            if p.nth_at(1, L_ANGLE) && p.inp.is_joint(p.pos()) {
                return None;
            }
            (11, 1)
        }
        PLUS | MINUS => (12, 1),
        STAR | SLASH | PERCENT => (13, 1),
        DOT_STAR | ARROW_STAR => (14, 1),
        _ => return None,
    };
    Some((k, prec, n))
}

/// Binary expressions whose operators bind at least as tightly as `min_prec`
/// (all binary operators are left-associative).
fn binary(p: &mut Parser<'_>, min_prec: u8) -> Option<CompletedMarker> {
    let lhs = unary(p)?;
    let mut chain = Chain::new(lhs);
    while let Some((op, prec, n)) = binary_op(p) {
        if prec < min_prec || p.nth_at(n, DOT3) {
            break;
        }
        chain.wrap(p, |p| {
            p.bump(op);
            // A missing operand is reported by `unary`.
            binary(p, prec + 1);
            BIN_EXPR
        });
    }
    Some(chain.finish(p))
}

/// The operand of a fold expression on the other side of `op ...`.
pub(crate) fn fold_operand(p: &mut Parser<'_>, op: SyntaxKind) {
    match binary_op_prec(op) {
        Some(prec) => {
            binary(p, prec + 1);
        }
        None => {
            assign(p);
        }
    }
}

fn binary_op_prec(op: SyntaxKind) -> Option<u8> {
    Some(match op {
        PIPE2 => 3,
        AMP2 => 4,
        PIPE => 5,
        CARET => 6,
        AMP => 7,
        EQ2 | NEQ => 8,
        L_ANGLE | LTEQ | R_ANGLE | GTEQ => 9,
        SPACESHIP => 10,
        SHL | SHR => 11,
        PLUS | MINUS => 12,
        STAR | SLASH | PERCENT => 13,
        DOT_STAR | ARROW_STAR => 14,
        _ => return None,
    })
}

/// The operator of a fold expression at the cursor (with its length), if one is followed by `...`.
pub(crate) fn at_fold_op(p: &Parser<'_>) -> Option<(SyntaxKind, usize)> {
    let (op, n) = if let Some((op, _, n)) = binary_op(p) {
        (op, n)
    } else if let Some((op, n)) = assign_op(p) {
        (op, n)
    } else if p.at(COMMA) {
        (COMMA, 1)
    } else {
        return None;
    };
    p.nth_at(n, DOT3).then_some((op, n))
}

/// A unary expression or cast-expression.
pub(crate) fn unary(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let k = p.current();
    match k {
        PLUS | MINUS | BANG | TILDE | STAR | AMP | PLUS2 | MINUS2 | EXTENSION_KW | REAL_KW | IMAG_KW => {
            let m = p.start();
            p.bump_any();
            p.nested(unary);
            Some(m.complete(p, PREFIX_EXPR))
        }
        // GNU `&&label`: the address of a label.
        AMP2 if p.nth_at(1, IDENT) => {
            let m = p.start();
            p.bump(AMP2);
            let n = p.start();
            p.bump(IDENT);
            n.complete(p, NAME_REF);
            Some(m.complete(p, PREFIX_EXPR))
        }
        CO_AWAIT_KW => {
            let m = p.start();
            p.bump(CO_AWAIT_KW);
            p.nested(unary);
            Some(m.complete(p, CO_AWAIT_EXPR))
        }
        SIZEOF_KW => Some(atoms::sizeof_expr(p)),
        ALIGNOF_KW | ALIGNOF2_KW | ALIGNOF3_KW | ALIGNOF_C_KW => Some(atoms::alignof_expr(p)),
        NOEXCEPT_KW => Some(atoms::noexcept_expr(p)),
        NEW_KW => Some(atoms::new_expr(p)),
        DELETE_KW => Some(atoms::delete_expr(p)),
        COLON2 if p.nth_at(1, NEW_KW) => Some(atoms::new_expr(p)),
        COLON2 if p.nth_at(1, DELETE_KW) => Some(atoms::delete_expr(p)),
        L_PAREN => {
            let (lhs, is_primary) = p.nested(atoms::paren_or_cast)?;
            Some(if is_primary { postfix(p, lhs) } else { lhs })
        }
        _ => {
            let lhs = atoms::primary(p)?;
            Some(postfix(p, lhs))
        }
    }
}

/// Postfix operators after `lhs`: calls, subscripts, member access, `++`/`--`, kernel launches.
pub(crate) fn postfix(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    let mut chain = Chain::new(lhs);
    loop {
        let k = p.current();
        match k {
            L_PAREN | L_BRACK | DOT | ARROW | PLUS2 | MINUS2 => {}
            SHL if p.nth_at(1, L_ANGLE) && p.inp.is_joint(p.pos()) => {}
            _ => return chain.finish(p),
        }
        chain.wrap(p, |p| postfix_op(p, k));
    }
}

/// One postfix operator (at `k`); returns the kind of the node it makes.
fn postfix_op(p: &mut Parser<'_>, k: SyntaxKind) -> SyntaxKind {
    match k {
        L_PAREN => {
            arg_list(p);
            CALL_EXPR
        }
        L_BRACK => {
            p.bump(L_BRACK);
            p.with_gt_closes(false, |p| {
                if p.at(L_CURLY) {
                    braced_init_list(p);
                } else {
                    p.nested(expr_opt);
                }
            });
            if !p.eat(R_BRACK) {
                p.error("expected a \"]\"");
                atoms::skip_to_close(p, R_BRACK);
            }
            INDEX_EXPR
        }
        DOT | ARROW => {
            let object_is_this = k == ARROW && p.pos() > 0 && p.inp.kind(p.pos() - 1) == THIS_KW;
            p.bump_any();
            member_name(p, object_is_this);
            MEMBER_EXPR
        }
        PLUS2 | MINUS2 => {
            p.bump_any();
            POSTFIX_EXPR
        }
        _ => {
            launch_config(p);
            if p.at(L_PAREN) {
                arg_list(p);
            } else {
                p.error("expected a \"(\"");
            }
            KERNEL_LAUNCH
        }
    }
}

/// The name after `.` or `->`: an id-expression (with `template`, `~T`,
/// `operator X`, qualified names), or a pseudo-destructor `~decltype(x)`.
fn member_name(p: &mut Parser<'_>, object_is_this: bool) {
    if p.at(TILDE) && p.nth_at(1, DECLTYPE_KW) {
        let m = p.start();
        p.bump(TILDE);
        super::types::decltype_specifier(p);
        m.complete(p, DESTRUCTOR_NAME);
        return;
    }
    // `x.template f<T>`: after `template` a `<` always opens arguments.
    if p.eat(TEMPLATE_KW) && p.at(IDENT) && p.nth_at(1, L_ANGLE) {
        let m = p.start();
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME_REF);
        super::paths::template_arg_list(p);
        m.complete(p, TEMPLATE_ID);
        return;
    }
    if p.at(IDENT) && p.nth_at(1, L_ANGLE) && try_member_template_call(p) {
        return;
    }
    // `this->f<…>` in a member body: ordinary lookup finds the members of
    // the object's class first, so its answer stands.
    let mode = if object_is_this { NameMode::Expr } else { NameMode::Member };
    if super::paths::name(p, mode).is_none() {
        p.error("expected an identifier");
    }
}

/// `obj.f<T>(args)` with a non-dependent object: the member's class is not
/// known to the parser (no types yet), so the name table cannot say that `f`
/// is a member template. Arguments that parse cleanly and are followed by `(`
/// are taken as a template-id; anything else rewinds (`a.x < b`).
fn try_member_template_call(p: &mut Parser<'_>) -> bool {
    if !plausible_member_template_args(p) {
        return false;
    }
    let cp = p.checkpoint();
    let m = p.start();
    let n = p.start();
    p.bump(IDENT);
    n.complete(p, NAME_REF);
    super::paths::template_arg_list(p);
    if !p.has_error_since(cp) && p.at(L_PAREN) {
        m.complete(p, TEMPLATE_ID);
        return true;
    }
    m.abandon(p);
    p.rewind(cp);
    false
}

/// At `name <`: do the tokens up to the matching `>` look like template
/// arguments rather than the middle of a condition (`a.x < b && c > (d)`)?
/// Logical and equality operators at the top level say "condition"; `&&`
/// right before `,` `>` `...` is an rvalue-reference type.
fn plausible_member_template_args(p: &Parser<'_>) -> bool {
    let Some(end) = super::paths::skip_angles(p, 1) else { return false };
    let mut depth = 0usize;
    for i in 2..end.saturating_sub(1) {
        match p.nth(i) {
            L_PAREN | L_BRACK | L_CURLY => depth += 1,
            R_PAREN | R_BRACK | R_CURLY => depth = depth.saturating_sub(1),
            PIPE2 | QUESTION | EQ2 | NEQ | LTEQ if depth == 0 => return false,
            AMP2 if depth == 0 && !matches!(p.nth(i + 1), COMMA | R_ANGLE | DOT3) => return false,
            _ => {}
        }
    }
    p.nth_at(end, L_PAREN)
}

/// `<<<grid, block, shmem, stream>>>`: the lexer gives `<<` `<` and three `>`.
fn launch_config(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(SHL);
    p.bump(L_ANGLE);
    p.with_launch_gt(|p| {
        if !p.at(R_ANGLE) {
            loop {
                p.nested(assign);
                if !p.eat(COMMA) {
                    break;
                }
            }
        }
    });
    let closed = (0..3).all(|i| p.nth_at(i, R_ANGLE));
    if closed {
        for _ in 0..3 {
            p.bump(R_ANGLE);
        }
    } else {
        p.error("expected a \">>>\"");
    }
    m.complete(p, LAUNCH_CONFIG);
}

#[cfg(test)]
mod tests {
    use crate::{ParseOptions, parse};

    fn errors(text: &str) -> Vec<String> {
        let parse = parse(text, ParseOptions::default());
        assert_eq!(parse.syntax_node().text().to_string(), text, "not lossless");
        parse.errors().iter().map(|e| e.msg.clone()).collect()
    }

    /// Pathological nesting is reported, not a stack overflow, and stays linear.
    #[test]
    fn deep_nesting_is_bounded() {
        let n = 100_000;
        let parens = format!("int x = {}1{};", "(".repeat(n), ")".repeat(n));
        assert_eq!(errors(&parens), ["nesting too deep"]);
        let unary = format!("int x = {}1;", "- ".repeat(n));
        assert_eq!(errors(&unary), ["nesting too deep"]);
        let assign = format!("void f() {{ int a; a{} = 1; }}", " = a".repeat(n));
        assert_eq!(errors(&assign), ["nesting too deep"]);
        let cond = format!("int x = {}1;", "1 ? 1 : ".repeat(n));
        assert_eq!(errors(&cond), ["nesting too deep"]);
        let lambdas = format!("auto x = {}1{};", "[]{ return ".repeat(n), "; }()".repeat(n));
        assert!(errors(&lambdas).contains(&"nesting too deep".to_string()));
        let braces = format!("int x[1] = {}1{};", "{".repeat(n), "}".repeat(n));
        assert_eq!(errors(&braces), ["nesting too deep"]);
    }

    /// Moderate nesting that real code has parses without errors.
    #[test]
    fn moderate_nesting_is_fine() {
        let n = 60;
        let parens = format!("int x = {}1{};", "(".repeat(n), ")".repeat(n));
        assert_eq!(errors(&parens), Vec::<String>::new());
        let unary = format!("int x = {}1;", "-".to_string().clone() + &" ~".repeat(n));
        assert_eq!(errors(&unary), Vec::<String>::new());
    }

    #[test]
    fn long_flat_chains_are_fine() {
        let sum = format!("int x = 1{};", " + 1".repeat(200_000));
        assert_eq!(errors(&sum), Vec::<String>::new());
        let comma = format!("void f() {{ int a; a = 1{}; }}", ", a = 1".repeat(100_000));
        assert_eq!(errors(&comma), Vec::<String>::new());
    }
}
