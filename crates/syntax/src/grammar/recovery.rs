//! Error recovery the way EDG (cudafe++) does it, so that the errors after
//! the first one are the ones cudafe++ reports, at the same tokens.
//!
//! After a syntax error the parser skips to a *stop token*: a token that an
//! enclosing construct is waiting for. A stop token is never consumed by the
//! skip; the constructs around it then carry on, each reporting what it
//! expected and did not find (`f( { return 0; }` reports `expected an
//! expression` at `return`, then `expected a "}"` and `expected a ")"` at `;`).
//!
//! - `)`, `]` and `}` are stop tokens when they close a bracket opened before
//!   the skip started. Brackets are matched lexically (the grammar always
//!   balances them), so a closer that closes nothing at all (`if (1)) {}`)
//!   is skipped like any other token, and groups opened during the skip are
//!   skipped whole.
//! - `;` is a stop token while a construct that ends with one is open
//!   (`with_semi_stop`): a declaration, an expression statement, `return`,
//!   the tail of `do … while`. It is not one in a condition or between
//!   statements (`if 1 ; int y; }` skips to the `}`).
//! - A required token that is missing (`expect_or_skip`) is reported, the
//!   parser skips, and the token is consumed if the skip stopped at it
//!   (`g(1 2);` reports one error: `2` is skipped, `)` closes the call).

use crate::SyntaxKind::{self, *};
use crate::parser::Parser;

/// Parser state for recovery (held by `Parser`).
#[derive(Default)]
pub(crate) struct Recovery {
    /// Open constructs that end with `;`.
    semi_stops: u32,
    /// Bit `i`: significant token `i` is a closer that closes no bracket
    /// (computed on the first skip; most parses never skip).
    stray: Option<Vec<u64>>,
}

/// Runs `f` with `;` as a stop token.
pub(crate) fn with_semi_stop<T>(p: &mut Parser<'_>, f: impl FnOnce(&mut Parser<'_>) -> T) -> T {
    p.recovery.semi_stops += 1;
    let r = f(p);
    p.recovery.semi_stops -= 1;
    r
}

/// Is the current token one that the skip stops at?
pub(crate) fn at_stop(p: &mut Parser<'_>) -> bool {
    match p.current() {
        EOF => true,
        SEMI => p.recovery.semi_stops > 0,
        R_PAREN | R_BRACK | R_CURLY => !is_stray(p, p.pos()),
        _ => false,
    }
}

/// Skips to the next stop token (see the module docs) into an `ERROR` node.
/// Consumes nothing when already at one.
pub(crate) fn skip_to_stop(p: &mut Parser<'_>) {
    if at_stop(p) {
        return;
    }
    let m = p.start();
    while !at_stop(p) {
        // An opener takes its whole group; a stray closer is one token.
        p.bump_balanced();
    }
    m.complete(p, ERROR);
}

/// A required token: consumed if present; otherwise `expected …` is
/// reported, the parser skips to a stop token, and consumes it if it is `kind`.
pub(crate) fn expect_or_skip(p: &mut Parser<'_>, kind: SyntaxKind) -> bool {
    if p.eat(kind) {
        return true;
    }
    p.expect(kind);
    skip_to_stop(p);
    p.eat(kind)
}

/// Reports `msg` at the current token and skips to a stop token.
pub(crate) fn error_and_skip(p: &mut Parser<'_>, msg: &'static str) {
    p.error(msg);
    skip_to_stop(p);
}

fn is_stray(p: &mut Parser<'_>, pos: usize) -> bool {
    if p.recovery.stray.is_none() {
        p.recovery.stray = Some(stray_closers(p));
    }
    let bits = p.recovery.stray.as_ref().unwrap();
    bits.get(pos / 64).is_some_and(|w| w & (1 << (pos % 64)) != 0)
}

/// Matches brackets over the whole input as `Parser::bump_balanced` does:
/// a closer closes the innermost open bracket of its kind (ending the groups
/// opened inside it); one with no open bracket of its kind is stray.
fn stray_closers(p: &Parser<'_>) -> Vec<u64> {
    let n = p.inp.len();
    let mut bits = vec![0u64; n / 64 + 1];
    let mut stack: Vec<SyntaxKind> = Vec::new();
    let mut open = [0u32; 3];
    let slot = |k: SyntaxKind| match k {
        R_PAREN => 0,
        R_BRACK => 1,
        _ => 2,
    };
    for i in 0..n {
        match p.inp.kind(i) {
            L_PAREN => {
                stack.push(R_PAREN);
                open[0] += 1;
            }
            L_BRACK => {
                stack.push(R_BRACK);
                open[1] += 1;
            }
            L_CURLY => {
                stack.push(R_CURLY);
                open[2] += 1;
            }
            k @ (R_PAREN | R_BRACK | R_CURLY) => {
                if open[slot(k)] == 0 {
                    bits[i / 64] |= 1 << (i % 64);
                    continue;
                }
                while let Some(top) = stack.pop() {
                    open[slot(top)] -= 1;
                    if top == k {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    bits
}
