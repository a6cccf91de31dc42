//! The bound an initializer gives an array declared without one
//! (`__constant__ float m[] = {1, 2, 3};`, `char s[] = "abc";`).
//!
//! The host file drops a device variable's initializer (spec 30 §2.6), so the
//! bound the initializer implied must be written into the declarator, as
//! cudafe++ prints the completed type (`static float m[3];`). The count
//! follows [dcl.init.aggr]/10 and [dcl.init.string]: one element per
//! initializer-clause, a string literal's code units plus the terminator,
//! and brace elision over scalar clauses when the element is an array of
//! known bounds. Where the answer depends on a type this syntactic reader
//! cannot see (brace elision into a class, a pack expansion, a designator),
//! the answer is `None`: the caller reports it rather than guess.

use cufront_syntax::{SyntaxKind as K, SyntaxNode};

/// How a character type stores a string literal's characters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Units {
    /// `char`, `char8_t` (`""`, `u8""`): UTF-8 bytes.
    Utf8,
    /// `char16_t` (`u""`): UTF-16 code units.
    Utf16,
    /// `char32_t`, `wchar_t` on Linux (`U""`, `L""`): code points.
    Utf32,
}

/// The number of elements the initializer `init` (an `EQUAL_INITIALIZER`,
/// `INITIALIZER` or `INIT_LIST`) gives the array declared by `declarator`
/// (whose first array derivation is the unknown bound), with `specs` the
/// declaration's specifiers.
pub(crate) fn deduced_bound(specs: Option<&SyntaxNode>, declarator: &SyntaxNode, init: &SyntaxNode) -> Option<u64> {
    let arrays: Vec<SyntaxNode> = declarator.children().filter(|c| c.kind() == K::ARRAY_DECLARATOR).collect();
    // The element type's own bounds: every derivation after the first.
    let inner: Option<Vec<u64>> = arrays.iter().skip(1).map(literal_bound).collect();
    let pointer = declarator.children().any(|c| c.kind() == K::PTR_OPERATOR)
        || declarator.children().any(|c| c.kind() == K::DECLARATOR);
    let scalar_elements = pointer || specs.is_some_and(builtin_type);
    let value = match init.kind() {
        K::EQUAL_INITIALIZER | K::INITIALIZER => {
            init.children().find(|c| !matches!(c.kind(), K::EQ | K::L_PAREN | K::R_PAREN))?
        }
        K::INIT_LIST => init.clone(),
        _ => return None,
    };
    match value.kind() {
        K::STRING_LITERAL if arrays.len() == 1 && !pointer => string_units(&value).map(|n| n + 1),
        K::INIT_LIST => {
            let clauses: Vec<SyntaxNode> =
                value.children().filter(|c| !matches!(c.kind(), K::L_CURLY | K::R_CURLY | K::COMMA)).collect();
            if clauses.iter().any(|c| c.kind() != K::INIT_LIST && !is_plain_expr(c)) {
                return None;
            }
            // `char s[] = {"abc"}`: the braces around a string are optional.
            if let [only] = clauses.as_slice()
                && only.kind() == K::STRING_LITERAL
                && arrays.len() == 1
                && !pointer
                && specs.is_some_and(char_type)
            {
                return string_units(only).map(|n| n + 1);
            }
            let unbraced = clauses.iter().filter(|c| c.kind() != K::INIT_LIST).count();
            let inner = inner?;
            if unbraced == 0 || inner.is_empty() && scalar_elements {
                return Some(clauses.len() as u64);
            }
            // Brace elision: scalar clauses fill the element arrays in order.
            if !scalar_elements || unbraced != clauses.len() {
                return None;
            }
            let per: u64 = inner.iter().product();
            if per == 0 {
                return None;
            }
            Some((clauses.len() as u64).div_ceil(per))
        }
        _ => None,
    }
}

/// An `[N]` with a plain integer literal.
fn literal_bound(a: &SyntaxNode) -> Option<u64> {
    let lit = a.children().find(|c| c.kind() == K::LITERAL)?;
    let tok = lit.first_token()?;
    cufront_syntax::literal::IntLiteral::parse(tok.text()).map(|l| l.value as u64)
}

/// An initializer-clause that is one expression (not a pack expansion or a
/// designator, whose element counts this reader cannot know).
fn is_plain_expr(n: &SyntaxNode) -> bool {
    !n.descendants_with_tokens().any(|t| t.kind() == K::DOT3) && !matches!(n.kind(), K::DESIGNATED_INIT)
}

/// The declared type is arithmetic (keywords only): a braced clause list
/// can then be counted clause by clause.
fn builtin_type(specs: &SyntaxNode) -> bool {
    specs.children_with_tokens().any(|t| {
        matches!(
            t.kind(),
            K::INT_KW
                | K::CHAR_KW
                | K::CHAR8_T_KW
                | K::CHAR16_T_KW
                | K::CHAR32_T_KW
                | K::WCHAR_T_KW
                | K::SHORT_KW
                | K::LONG_KW
                | K::FLOAT_KW
                | K::DOUBLE_KW
                | K::BOOL_KW
                | K::SIGNED_KW
                | K::UNSIGNED_KW
        )
    })
}

fn char_type(specs: &SyntaxNode) -> bool {
    specs
        .children_with_tokens()
        .any(|t| matches!(t.kind(), K::CHAR_KW | K::CHAR8_T_KW | K::CHAR16_T_KW | K::CHAR32_T_KW | K::WCHAR_T_KW))
}

/// The code units of a (possibly concatenated) string literal, without the
/// terminator; `None` for what this reader does not decode.
fn string_units(lit: &SyntaxNode) -> Option<u64> {
    let pieces: Vec<(String, String)> = lit
        .children_with_tokens()
        .filter_map(|t| t.into_token())
        .filter(|t| t.kind() == K::STRING)
        .map(|t| split_prefix(t.text()).map(|(p, b)| (p.to_string(), b.to_string())))
        .collect::<Option<_>>()?;
    // Concatenation takes the one encoding prefix present ([lex.string]/7).
    let mut units = Units::Utf8;
    for (prefix, _) in &pieces {
        let u = match prefix.trim_end_matches('R') {
            "" | "u8" => continue,
            "u" => Units::Utf16,
            "U" | "L" => Units::Utf32,
            _ => return None,
        };
        if units != Units::Utf8 && units != u {
            return None;
        }
        units = u;
    }
    let mut total = 0;
    for (prefix, body) in &pieces {
        let chars = if prefix.ends_with('R') { raw_chars(body)? } else { cooked_chars(body)? };
        total += chars.iter().map(|c| c.units(units)).sum::<u64>();
    }
    Some(total)
}

/// One character of a literal: a code point, or a numeric escape that is
/// one code unit whatever its value.
enum Char {
    Point(u32),
    Unit,
}

impl Char {
    fn units(&self, u: Units) -> u64 {
        match (self, u) {
            (Char::Unit, _) => 1,
            (Char::Point(c), Units::Utf8) => char::from_u32(*c).map_or(1, |c| c.len_utf8() as u64),
            (Char::Point(c), Units::Utf16) => char::from_u32(*c).map_or(1, |c| c.len_utf16() as u64),
            (Char::Point(_), Units::Utf32) => 1,
        }
    }
}

/// `u8R"x(...)x"` → (`u8R`, `"x(...)x"`).
fn split_prefix(tok: &str) -> Option<(&str, &str)> {
    let q = tok.find('"')?;
    Some((&tok[..q], &tok[q..]))
}

fn raw_chars(body: &str) -> Option<Vec<Char>> {
    let open = body.find('(')?;
    let delim = &body[1..open];
    let inner = body.get(open + 1..body.len().checked_sub(delim.len() + 2)?)?;
    Some(inner.chars().map(|c| Char::Point(c as u32)).collect())
}

fn cooked_chars(body: &str) -> Option<Vec<Char>> {
    let inner = body.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = Vec::new();
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(Char::Point(c as u32));
            continue;
        }
        match it.next()? {
            'x' => {
                let mut any = false;
                while it.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                    it.next();
                    any = true;
                }
                if !any {
                    return None;
                }
                out.push(Char::Unit);
            }
            '0'..='7' => {
                for _ in 0..2 {
                    if it.peek().is_some_and(|c| ('0'..='7').contains(c)) {
                        it.next();
                    }
                }
                out.push(Char::Unit);
            }
            e @ ('u' | 'U') => {
                let n = if e == 'u' { 4 } else { 8 };
                let mut v = 0u32;
                for _ in 0..n {
                    v = v * 16 + it.next()?.to_digit(16)?;
                }
                out.push(Char::Point(v));
            }
            '\'' | '"' | '?' | '\\' | 'a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | 'e' => out.push(Char::Unit),
            _ => return None,
        }
    }
    Some(out)
}
