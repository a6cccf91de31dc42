//! Statements and function bodies.
//!
//! Function bodies are never parsed where they are written: `function_body`
//! keeps them as `LAZY_BODY` token ranges and records the scope they were
//! written in (`Parser::lazy_bodies`); `crate::parse` parses them afterwards
//! (`grammar::body`), so that a member function body sees its whole class.
//!
//! Every statement form that contains a statement recurses through
//! `statement`, which goes through `p.nested`: nesting depth is bounded.
//! Each statement parser consumes at least one token, so that the loop in
//! `compound_stmt` always progresses.

use crate::SyntaxKind::{self, *};
use crate::grammar::recovery::{self, error_and_skip, expect_or_skip, with_semi_stop};
use crate::grammar::{attributes, expressions, items};
use crate::parser::{Marker, Parser, Reading};

/// The contents of a function body parsed on its own: a compound statement
/// or a function-try-block.
pub(crate) fn body_contents(p: &mut Parser<'_>) {
    if p.at(TRY_KW) {
        let m = p.start();
        p.bump(TRY_KW);
        if p.at(COLON) {
            items::ctor_initializer(p);
        }
        compound_stmt(p);
        handlers(p);
        m.complete(p, FUNCTION_TRY_BLOCK);
    } else {
        compound_stmt(p);
    }
}

/// Bodies inside bodies are kept lazy (and so see their whole local class)
/// up to this level of body nesting; deeper ones are parsed in place.
const MAX_LAZY_BODY_LEVEL: u32 = 2;

/// A function body at its definition (at `{` or `try`), kept as a
/// `LAZY_BODY` of balanced tokens: the braces, or for a function-try-block
/// `try`, the ctor-initializer, the braces and every handler.
pub(crate) fn function_body(p: &mut Parser<'_>) {
    let m = p.start();
    if p.body_level >= MAX_LAZY_BODY_LEVEL {
        // A member of a local class in a member of a local class …: parsed
        // here, so that deeply nested bodies are not re-scanned once per level.
        p.in_new_body(body_contents);
        m.complete(p, FUNCTION_BODY);
        return;
    }
    let start = p.pos();
    if p.eat(TRY_KW) {
        // The ctor-initializer of a function-try-block: everything up to the body's `{`.
        while !p.at_eof() && !p.at(L_CURLY) && !p.at(SEMI) && !p.at(R_CURLY) {
            p.bump_balanced_lazy();
        }
        p.bump_balanced_lazy();
        while p.at(CATCH_KW) {
            p.bump(CATCH_KW);
            if p.at(L_PAREN) {
                p.bump_balanced_lazy();
            }
            if p.at(L_CURLY) {
                p.bump_balanced_lazy();
            }
        }
    } else {
        p.bump_balanced_lazy();
    }
    p.record_lazy_body(start);
    m.complete(p, LAZY_BODY);
}

/// `{ statement* }`, in a block scope of its own.
pub(crate) fn compound_stmt(p: &mut Parser<'_>) {
    let m = p.start();
    if !p.expect(L_CURLY) {
        m.complete(p, COMPOUND_STMT);
        return;
    }
    in_block_scope(p, |p| {
        while !p.at_eof() && !p.at(R_CURLY) {
            let before = p.pos();
            let cp = p.checkpoint();
            statement(p);
            if p.pos() == before {
                // Stopped at a closer of an enclosing construct: take it, so that the block progresses.
                if !p.has_error_since(cp) {
                    p.error("expected a statement");
                }
                let e = p.start();
                p.bump_balanced();
                e.complete(p, ERROR);
            }
        }
    });
    p.expect(R_CURLY);
    m.complete(p, COMPOUND_STMT);
}

/// One statement; always consumes at least one token unless at `}` or the end.
pub(crate) fn statement(p: &mut Parser<'_>) {
    if p.nested(statement_inner).is_none() {
        // Nested too deep (reported once): skip the rest of the block, so
        // that a long chain (`if (x) if (x) …`, `else if …`) is not parsed
        // again in slices of `MAX_NESTING` levels.
        let m = p.start();
        while !p.at_eof() && !p.at(R_CURLY) {
            p.bump_balanced();
        }
        m.complete(p, ERROR);
    }
}

fn statement_inner(p: &mut Parser<'_>) {
    // Tokens that end or continue an enclosing construct start no statement
    // (a missing statement before `}`, `else` without `if`).
    if p.at_any(&[R_CURLY, EOF]) {
        error_and_skip(p, "expected a statement");
        return;
    }
    if p.at(ELSE_KW) {
        // EDG takes the `else` alone and goes on with what follows it.
        p.err_and_bump("expected a statement");
        return;
    }
    let cp = p.checkpoint();
    let m = p.start();
    let has_attrs = at_attribute_start(p) && attributes::attribute_specifier_seq(p);
    match p.current() {
        L_CURLY if !has_attrs => {
            m.abandon(p);
            compound_stmt(p);
        }
        L_CURLY => {
            compound_stmt(p);
            m.complete(p, COMPOUND_STMT);
        }
        SEMI => {
            p.bump(SEMI);
            m.complete(p, NULL_STMT);
        }
        IF_KW => if_stmt(p, m),
        SWITCH_KW => switch_stmt(p, m),
        WHILE_KW => while_stmt(p, m),
        DO_KW => do_stmt(p, m),
        FOR_KW => for_stmt(p, m),
        BREAK_KW | CONTINUE_KW => {
            let is_break = p.at(BREAK_KW);
            let kind = if is_break { BREAK_STMT } else { CONTINUE_STMT };
            if !p.jump_has_target(is_break) {
                p.error(if is_break {
                    "a break statement may only be used within a loop or switch"
                } else {
                    "a continue statement may only be used within a loop"
                });
            }
            p.bump_any();
            with_semi_stop(p, |p| stmt_end(p, cp));
            m.complete(p, kind);
        }
        RETURN_KW | CO_RETURN_KW => with_semi_stop(p, |p| return_stmt(p, m, cp)),
        GOTO_KW => with_semi_stop(p, |p| goto_stmt(p, m, cp)),
        CASE_KW => case_stmt(p, m),
        DEFAULT_KW if p.nth_at(1, COLON) => {
            p.bump(DEFAULT_KW);
            p.bump(COLON);
            labeled_tail(p);
            m.complete(p, DEFAULT_STMT);
        }
        IDENT if p.nth_at(1, COLON) => {
            let n = p.start();
            p.bump(IDENT);
            n.complete(p, NAME);
            p.bump(COLON);
            labeled_tail(p);
            m.complete(p, LABELED_STMT);
        }
        TRY_KW => {
            p.bump(TRY_KW);
            compound_stmt(p);
            handlers(p);
            m.complete(p, TRY_BLOCK);
        }
        ASM_KW | ASM2_KW | ASM3_KW => with_semi_stop(p, |p| {
            asm_after_keyword(p);
            stmt_end(p, cp);
            m.complete(p, ASM_STMT);
        }),
        LABEL_KW => with_semi_stop(p, |p| label_decl(p, m, cp)),
        _ if has_attrs => {
            // `[[attr]] int x;` is a declaration with attributes, which the
            // declaration parser reads itself.
            // It is a declaration statement like any other (`DECL_STMT`).
            m.abandon(p);
            p.rewind(cp);
            with_semi_stop(p, |p| {
                let d = p.start();
                if block_declaration(p) {
                    d.complete(p, DECL_STMT);
                } else {
                    d.abandon(p);
                    let m = p.start();
                    attributes::attribute_specifier_seq(p);
                    expr_stmt(p, m, cp);
                }
            });
        }
        EXTENSION_KW => {
            // `__extension__` before a declaration or an expression statement.
            p.bump(EXTENSION_KW);
            while p.eat(EXTENSION_KW) {}
            with_semi_stop(p, |p| decl_or_expr_stmt(p, m, cp));
        }
        _ => with_semi_stop(p, |p| decl_or_expr_stmt(p, m, cp)),
    }
}

fn at_attribute_start(p: &Parser<'_>) -> bool {
    (p.at(L_BRACK) && p.nth_at(1, L_BRACK)) || p.at_any(&[ATTRIBUTE_KW, ATTRIBUTE2_KW, ALIGNAS_KW, DECLSPEC_KW])
}

fn decl_or_expr_stmt(p: &mut Parser<'_>, m: Marker, cp: crate::parser::Checkpoint) {
    if block_declaration(p) {
        m.complete(p, DECL_STMT);
    } else {
        expr_stmt(p, m, cp);
    }
}

/// A declaration statement's declaration, if one starts here (tentative).
fn block_declaration(p: &mut Parser<'_>) -> bool {
    items::try_simple_declaration(p, items::DeclContext::Block)
}

fn expr_stmt(p: &mut Parser<'_>, m: Marker, cp: crate::parser::Checkpoint) {
    let before = p.pos();
    expressions::expr(p);
    if p.pos() == before {
        // Nothing starts an expression here (a stray `)`): skip it.
        if !p.has_error_since(cp) {
            p.error("expected an expression");
        }
        recovery::skip_to_stop(p);
    }
    stmt_end(p, cp);
    m.complete(p, EXPR_STMT);
}

/// The `;` that ends a statement (with `;` a stop token): missing, it is
/// reported (also after earlier errors in the statement, as EDG does) and
/// the parser skips to a stop token, taking it if it is a `;`.
fn stmt_end(p: &mut Parser<'_>, _cp: crate::parser::Checkpoint) {
    expect_or_skip(p, SEMI);
}

/// The statement after a label. A label directly before `}` is accepted
/// (C++23, and EDG in GNU mode).
fn labeled_tail(p: &mut Parser<'_>) {
    if !p.at(R_CURLY) && !p.at_eof() {
        statement(p);
    }
}

/// `if constexpr? (init; condition) stmt else stmt`, `if !? consteval { } else { }`.
fn if_stmt(p: &mut Parser<'_>, m: Marker) {
    p.bump(IF_KW);
    in_block_scope(p, |p| {
        if p.at(CONSTEVAL_KW) || (p.at(BANG) && p.nth_at(1, CONSTEVAL_KW)) {
            p.eat(BANG);
            p.bump(CONSTEVAL_KW);
            compound_stmt(p);
        } else {
            p.eat(CONSTEXPR_KW);
            parenthesized(p, |p| init_and_condition(p, R_PAREN));
            statement(p);
        }
        if p.at(ELSE_KW) {
            let e = p.start();
            p.bump(ELSE_KW);
            statement(p);
            e.complete(p, ELSE_BRANCH);
        }
    });
    m.complete(p, IF_STMT);
}

/// `switch (init; condition) stmt`
fn switch_stmt(p: &mut Parser<'_>, m: Marker) {
    p.bump(SWITCH_KW);
    in_block_scope(p, |p| {
        parenthesized(p, |p| init_and_condition(p, R_PAREN));
        p.in_jump_target(false, statement);
    });
    m.complete(p, SWITCH_STMT);
}

/// `while (condition) stmt`
fn while_stmt(p: &mut Parser<'_>, m: Marker) {
    p.bump(WHILE_KW);
    in_block_scope(p, |p| {
        parenthesized(p, |p| condition(p, R_PAREN));
        p.in_jump_target(true, statement);
    });
    m.complete(p, WHILE_STMT);
}

/// `( f )` after `if`, `while`, `switch`, `do … while`. A missing `(` is
/// reported and skipped past (EDG then still parses the condition where it
/// stopped); a missing `)` likewise.
fn parenthesized(p: &mut Parser<'_>, f: impl FnOnce(&mut Parser<'_>)) {
    if !p.eat(L_PAREN) {
        error_and_skip(p, "expected a \"(\"");
    }
    f(p);
    expect_or_skip(p, R_PAREN);
}

/// `do stmt while (expr);`
fn do_stmt(p: &mut Parser<'_>, m: Marker) {
    let cp = p.checkpoint();
    p.bump(DO_KW);
    p.in_jump_target(true, statement);
    if !p.eat(WHILE_KW) {
        error_and_skip(p, "expected \"while\"");
    }
    with_semi_stop(p, |p| {
        parenthesized(p, |p| {
            let before = p.pos();
            expressions::expr(p);
            if p.pos() == before {
                recovery::skip_to_stop(p);
            }
        });
        stmt_end(p, cp);
    });
    m.complete(p, DO_STMT);
}

/// `for (init; condition; expr) stmt` and `for (init; decl : range) stmt`.
fn for_stmt(p: &mut Parser<'_>, m: Marker) {
    p.bump(FOR_KW);
    let kind = in_block_scope(p, |p| {
        if !p.expect(L_PAREN) {
            p.in_jump_target(true, statement);
            return FOR_STMT;
        }
        // The first top-level `;` or `)` decides: a plain range-for has no `;`.
        let range = if header_has_semi(p) { RangeFor::No } else { try_range_for_rest(p) };
        match range {
            RangeFor::Yes => return RANGE_FOR_STMT,
            RangeFor::StoodAsInit => {}
            RangeFor::No => {
                init_statement(p);
                // C++20: `for (init; decl : range)`.
                if !header_has_semi(p) {
                    match try_range_for_rest(p) {
                        RangeFor::Yes => return RANGE_FOR_STMT,
                        RangeFor::StoodAsInit | RangeFor::No => {}
                    }
                }
            }
        }
        if !p.at(SEMI) {
            condition(p, SEMI);
        }
        p.expect(SEMI);
        if !p.at(R_PAREN) {
            expressions::expr(p);
        }
        expect_or_skip(p, R_PAREN);
        p.in_jump_target(true, statement);
        FOR_STMT
    });
    m.complete(p, kind);
}

/// Is there a `;` at the top level of the parenthesised header before its `)`?
/// (A bounded, balanced scan.)
fn header_has_semi(p: &Parser<'_>) -> bool {
    let mut depth = 0u32;
    let mut n = 0;
    loop {
        match p.nth(n) {
            EOF => return false,
            SEMI if depth == 0 => return true,
            L_PAREN | L_BRACK | L_CURLY => depth += 1,
            R_PAREN | R_BRACK | R_CURLY => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            _ => {}
        }
        n += 1;
    }
}

/// What `try_range_for_rest` found.
enum RangeFor {
    /// A range-based for, parsed to its end.
    Yes,
    /// No declaration followed by `:`; rewound.
    No,
    /// An erroneous declaration that stands as the init-statement
    /// (`Parser::budget_spent`).
    StoodAsInit,
}

/// At the for-range-declaration: `decl : range) stmt`. Rewinds and returns
/// `No` if no declaration followed by `:` is here.
fn try_range_for_rest(p: &mut Parser<'_>) -> RangeFor {
    if p.failed_before(Reading::RangeDecl) {
        return RangeFor::No;
    }
    let cp = p.checkpoint();
    let d = p.start();
    let declared = declaration_in(p, DeclCtx::ForRange);
    if !(declared && p.at(COLON) && !p.has_error_since(cp)) {
        if declared && p.has_error_since(cp) && p.budget_spent() {
            d.complete(p, FOR_INIT);
            return RangeFor::StoodAsInit;
        }
        d.abandon(p);
        p.rewind_failed(Reading::RangeDecl, cp);
        return RangeFor::No;
    }
    d.complete(p, FOR_INIT);
    p.bump(COLON);
    if p.at(L_CURLY) {
        expressions::braced_init_list(p);
    } else {
        expressions::expr(p);
    }
    p.expect(R_PAREN);
    p.in_jump_target(true, statement);
    RangeFor::Yes
}

/// The contexts in which a statement asks for a declaration.
#[derive(Clone, Copy)]
enum DeclCtx {
    /// An init-statement (`int i = 0;`, the `;` included).
    ForInit,
    /// A condition (`if (auto x = f())`).
    Condition,
    /// A for-range-declaration (`auto& [k, v]`), stopping before `:`.
    ForRange,
    /// A handler's exception-declaration.
    Exception,
}

/// A declaration in `ctx` (tentative: rewinds and returns `false` if none).
fn declaration_in(p: &mut Parser<'_>, ctx: DeclCtx) -> bool {
    let ctx = match ctx {
        DeclCtx::ForInit => items::DeclContext::ForInit,
        DeclCtx::Condition => items::DeclContext::Condition,
        DeclCtx::ForRange => items::DeclContext::ForRange,
        DeclCtx::Exception => items::DeclContext::Exception,
    };
    items::try_simple_declaration(p, ctx)
}

/// An init-statement: `;`, a simple-declaration or an expression statement,
/// as a `FOR_INIT` node.
fn init_statement(p: &mut Parser<'_>) {
    let cp = p.checkpoint();
    let m = p.start();
    if p.eat(SEMI) {
        m.complete(p, FOR_INIT);
        return;
    }
    if p.failed_before(Reading::InitDecl) {
        m.abandon(p);
    } else if declaration_in(p, DeclCtx::ForInit) && (!p.has_error_since(cp) || p.budget_spent()) {
        m.complete(p, FOR_INIT);
        return;
    } else {
        m.abandon(p);
        p.rewind_failed(Reading::InitDecl, cp);
    }
    let m = p.start();
    expressions::expr(p);
    p.expect(SEMI);
    m.complete(p, FOR_INIT);
}

/// `init-statement? condition` of `if` and `switch`, up to `end` (not consumed).
fn init_and_condition(p: &mut Parser<'_>, end: SyntaxKind) {
    let cp = p.checkpoint();
    let m = p.start();
    if p.eat(SEMI) {
        m.complete(p, FOR_INIT);
        condition(p, end);
        return;
    }
    if p.failed_before(Reading::InitDecl) {
        m.abandon(p);
    } else if declaration_in(p, DeclCtx::ForInit) && (!p.has_error_since(cp) || p.budget_spent()) {
        m.complete(p, FOR_INIT);
        condition(p, end);
        return;
    } else {
        m.abandon(p);
        p.rewind_failed(Reading::InitDecl, cp);
    }
    if try_condition_decl(p, end) {
        return;
    }
    // An expression: the init-statement if a `;` follows, else the condition.
    let m = p.start();
    expressions::expr(p);
    if p.eat(SEMI) {
        m.complete(p, FOR_INIT);
        condition(p, end);
    } else {
        m.complete(p, CONDITION);
    }
}

/// A condition (declaration or expression) as a `CONDITION` node.
fn condition(p: &mut Parser<'_>, end: SyntaxKind) {
    if try_condition_decl(p, end) {
        return;
    }
    let m = p.start();
    expressions::expr(p);
    m.complete(p, CONDITION);
}

fn try_condition_decl(p: &mut Parser<'_>, end: SyntaxKind) -> bool {
    if p.failed_before(Reading::ConditionDecl) {
        return false;
    }
    let cp = p.checkpoint();
    let m = p.start();
    let declared = declaration_in(p, DeclCtx::Condition);
    if declared && if p.has_error_since(cp) { p.budget_spent() } else { p.at(end) } {
        m.complete(p, CONDITION);
        return true;
    }
    m.abandon(p);
    p.rewind_failed(Reading::ConditionDecl, cp);
    false
}

/// `return expr? ;`, `return {…};`, `co_return …;`
fn return_stmt(p: &mut Parser<'_>, m: Marker, cp: crate::parser::Checkpoint) {
    let kind = if p.at(CO_RETURN_KW) { CO_RETURN_STMT } else { RETURN_STMT };
    p.bump_any();
    if p.at(L_CURLY) {
        expressions::braced_init_list(p);
    } else if !p.at(SEMI) {
        expressions::expr(p);
    }
    stmt_end(p, cp);
    m.complete(p, kind);
}

/// `goto label;` and GNU `goto *expr;`
fn goto_stmt(p: &mut Parser<'_>, m: Marker, cp: crate::parser::Checkpoint) {
    p.bump(GOTO_KW);
    if p.at(IDENT) {
        let n = p.start();
        p.bump(IDENT);
        n.complete(p, NAME_REF);
    } else if p.eat(STAR) {
        expressions::expr(p);
    } else {
        p.error("expected an identifier");
    }
    stmt_end(p, cp);
    m.complete(p, GOTO_STMT);
}

/// `case expr:` and GNU `case lo ... hi:`
fn case_stmt(p: &mut Parser<'_>, m: Marker) {
    p.bump(CASE_KW);
    expressions::constant_expr(p);
    if p.eat(DOT3) {
        expressions::constant_expr(p);
    }
    if p.expect(COLON) {
        labeled_tail(p);
    }
    m.complete(p, CASE_STMT);
}

/// `catch (exception-declaration) { … }` handlers, at least one.
fn handlers(p: &mut Parser<'_>) {
    if !p.at(CATCH_KW) {
        p.error("try block requires at least one handler");
        return;
    }
    while p.at(CATCH_KW) {
        let m = p.start();
        p.bump(CATCH_KW);
        if p.expect(L_PAREN) {
            in_block_scope(p, |p| {
                let d = p.start();
                if p.eat(DOT3) {
                    d.complete(p, EXCEPTION_DECL);
                } else if declaration_in(p, DeclCtx::Exception) {
                    d.complete(p, EXCEPTION_DECL);
                } else {
                    d.abandon(p);
                    p.error("handler requires an exception declaration");
                    while !p.at_eof() && !p.at(R_PAREN) && !p.at(L_CURLY) && !p.at(R_CURLY) {
                        p.bump_balanced();
                    }
                }
                p.expect(R_PAREN);
                compound_stmt(p);
            });
        } else if p.at(L_CURLY) {
            compound_stmt(p);
        }
        m.complete(p, HANDLER);
    }
}

/// GNU `__label__ a, b;` (local label declarations).
fn label_decl(p: &mut Parser<'_>, m: Marker, cp: crate::parser::Checkpoint) {
    p.bump(LABEL_KW);
    loop {
        if p.at(IDENT) {
            let n = p.start();
            p.bump(IDENT);
            n.complete(p, NAME);
        } else {
            p.error("expected an identifier");
            break;
        }
        if !p.eat(COMMA) {
            break;
        }
    }
    stmt_end(p, cp);
    m.complete(p, LABEL_DECL);
}

/// After `asm`/`__asm__`: GNU qualifiers and `( template : outputs : inputs
/// : clobbers : labels )`. Shared with namespace-scope asm declarations.
pub(crate) fn asm_after_keyword(p: &mut Parser<'_>) {
    p.bump_any();
    while p.at_any(&[VOLATILE_KW, VOLATILE2_KW, VOLATILE3_KW, INLINE_KW, INLINE2_KW, INLINE3_KW, GOTO_KW]) {
        p.bump_any();
    }
    if !p.expect(L_PAREN) {
        return;
    }
    p.with_gt_closes(false, |p| {
        if !asm_strings(p) {
            error_and_skip(p, "expected an asm string");
        }
        // Sections are separated by `:`; `::` is two separators with an empty section between.
        let mut section = 0u32;
        loop {
            if p.eat(COLON) {
                section += 1;
            } else if p.eat(COLON2) {
                section += 2;
            } else {
                break;
            }
            if p.at(COLON) || p.at(COLON2) || p.at(R_PAREN) {
                continue;
            }
            asm_section(p, section);
        }
    });
    expect_or_skip(p, R_PAREN);
}

/// One or more adjacent string literals.
fn asm_strings(p: &mut Parser<'_>) -> bool {
    if !p.at(STRING) {
        return false;
    }
    let m = p.start();
    while p.eat(STRING) {}
    m.complete(p, STRING_LITERAL);
    true
}

/// Section 1 and 2: operands `[name] "constraint" (expr)`; 3: clobbers; 4+: labels.
fn asm_section(p: &mut Parser<'_>, section: u32) {
    let list = p.start();
    loop {
        let m = p.start();
        match section {
            1 | 2 => {
                if p.eat(L_BRACK) {
                    p.expect(IDENT);
                    p.expect(R_BRACK);
                }
                if !asm_strings(p) {
                    p.error("expected an asm operand");
                }
                if p.expect(L_PAREN) {
                    expressions::expr(p);
                    p.expect(R_PAREN);
                }
            }
            3 => {
                if !asm_strings(p) {
                    p.error("expected a register to clobber");
                }
            }
            _ => {
                if p.at(IDENT) {
                    let n = p.start();
                    p.bump(IDENT);
                    n.complete(p, NAME_REF);
                } else {
                    p.error("expected a label");
                }
            }
        }
        m.complete(p, ASM_OPERAND);
        if !p.eat(COMMA) {
            break;
        }
    }
    list.complete(p, ASM_OPERAND_LIST);
}

/// Runs `f` in a fresh block scope of the name table, restoring the current scope after.
fn in_block_scope<T>(p: &mut Parser<'_>, f: impl FnOnce(&mut Parser<'_>) -> T) -> T {
    let saved = p.names.push_block_scope();
    let r = f(p);
    p.names.enter_scope(saved);
    r
}
