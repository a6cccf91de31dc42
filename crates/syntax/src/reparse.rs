//! Reparsing an edit inside one lazy function body without parsing the unit.
//!
//! With lazy bodies the declaration pass skips each function body as one
//! balanced token group (`Parser::bump_balanced_lazy`) and keeps it as a
//! `LAZY_BODY` node holding one `BODY_TEXT` token; nothing else the pass
//! records depends on the body's contents: the name table and each body's
//! scope and horizon are the same whatever the body holds. So when an edit
//! lies strictly inside such a body (its `{` and `}` untouched) and the
//! body's new text still lexes to one balanced `{ … }` group ending at its
//! `}` (no comment, string or bracket left open across its end), a full
//! parse of the new text gives the old tree with that token replaced, the
//! later offsets shifted and the body's lexer errors replaced. That is what
//! [`Parse::reparse`] builds; for any other edit it gives `None` and the
//! caller parses in full. Its result is equal to the full parse's (tree,
//! errors, lazy bodies), which the tests check edit by edit.

use std::sync::Arc;

use rowan::{GreenToken, TextRange, TextSize};

use crate::lexer;
use crate::syntax_kind::SyntaxKind::{self, BODY_TEXT, L_CURLY, LAZY_BODY, R_CURLY};
use crate::{BodyContext, Parse, SyntaxError, lex_errors};

impl Parse {
    /// This parse of `old_text` updated to `new_text`, when the change lies
    /// inside one lazy body (see the module doc); `None` when the unit must
    /// be parsed again. The result equals `parse(new_text, self.options())`.
    pub fn reparse(&self, old_text: &str, new_text: &str) -> Option<Parse> {
        let opts = self.bodies.opts;
        if !opts.lazy_bodies || u32::from(self.green.text_len()) as usize != old_text.len() {
            return None;
        }
        let (start, old_end, new_end) = changed_range(old_text, new_text)?;
        if old_end == start && new_end == start {
            return Some(self.clone());
        }
        // The body whose interior holds the change.
        let root = self.syntax_node();
        let token = crate::green::token_at(&root, TextSize::from(start as u32))?;
        let body = token.text_range();
        let (b_start, b_end) = (usize::from(body.start()), usize::from(body.end()));
        if token.kind() != BODY_TEXT || start <= b_start || old_end >= b_end {
            return None;
        }
        let node = token.parent().filter(|n| n.kind() == LAZY_BODY)?;
        if node.children_with_tokens().count() != 1 || self.bodies.lazy.get(&body.start())?.len != body.len() {
            return None;
        }
        let delta = new_end as i64 - old_end as i64;
        let new_b_end = (b_end as i64 + delta) as usize;
        let new_body = new_text.get(b_start..new_b_end)?;
        let new_lexed = lexer::lex(new_body, opts.lex);
        if !one_group(&new_lexed, new_body.len()) {
            return None;
        }
        // The old errors inside the body are exactly its lexer errors (the
        // declaration pass reports nothing inside a body it skips).
        let old_lexed = lexer::lex(token.text(), opts.lex);
        let at = |e: SyntaxError, base: usize| SyntaxError { range: e.range + TextSize::from(base as u32), ..e };
        let old_inside: Vec<SyntaxError> = lex_errors(&old_lexed).map(|e| at(e, b_start)).collect();
        // An error starting in the body, or before it and reaching into it.
        let touches = |e: &SyntaxError| {
            let (s, t) = (usize::from(e.range.start()), usize::from(e.range.end()));
            (b_start..b_end).contains(&s) || (s < b_start && t > b_start)
        };
        let inside: Vec<&SyntaxError> = self.errors.iter().filter(|e| touches(e)).collect();
        if inside.len() != old_inside.len() || inside.iter().zip(&old_inside).any(|(a, b)| *a != b) {
            return None;
        }
        // Lazy bodies nested in the edited one would not be in the map.
        if self.bodies.lazy.keys().any(|&k| k > body.start() && k < body.end()) {
            return None;
        }
        let shift = |r: TextRange| -> TextRange {
            let s = TextSize::from((u32::from(r.start()) as i64 + delta) as u32);
            TextRange::at(s, r.len())
        };
        let mut errors: Vec<SyntaxError> =
            self.errors.iter().filter(|e| usize::from(e.range.start()) < b_start && !touches(e)).cloned().collect();
        errors.extend(lex_errors(&new_lexed).map(|e| at(e, b_start)));
        errors.extend(
            self.errors
                .iter()
                .filter(|e| usize::from(e.range.start()) >= b_end && !touches(e))
                .map(|e| SyntaxError { range: shift(e.range), ..e.clone() }),
        );
        let green = token.replace_with(GreenToken::new(BODY_TEXT.into(), new_body));
        let new_len = TextSize::from(new_body.len() as u32);
        let lazy = self
            .bodies
            .lazy
            .iter()
            .map(|(&k, &b)| {
                if k == body.start() {
                    (k, crate::LazyBody { len: new_len, ..b })
                } else if k > body.start() {
                    (shift(TextRange::empty(k)).start(), b)
                } else {
                    (k, b)
                }
            })
            .collect();
        let bodies = Arc::new(BodyContext { opts, names: self.bodies.names.clone(), lazy });
        Some(Parse { green, errors, bodies })
    }
}

/// The changed byte range: its start, its end in the old text and its end
/// in the new one (common prefix and suffix removed, at character boundaries).
pub(crate) fn changed_range(old: &str, new: &str) -> Option<(usize, usize, usize)> {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    // Whole chunks first (memcmp), then bytes: units are megabytes.
    const CHUNK: usize = 4096;
    let mut prefix = 0;
    while prefix + CHUNK <= o.len().min(n.len()) && o[prefix..prefix + CHUNK] == n[prefix..prefix + CHUNK] {
        prefix += CHUNK;
    }
    prefix += o[prefix..].iter().zip(&n[prefix..]).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let max_suffix = o.len().min(n.len()) - prefix;
    let mut suffix = 0;
    while suffix + CHUNK <= max_suffix
        && o[o.len() - suffix - CHUNK..o.len() - suffix] == n[n.len() - suffix - CHUNK..n.len() - suffix]
    {
        suffix += CHUNK;
    }
    suffix +=
        o[..o.len() - suffix].iter().rev().zip(n[..n.len() - suffix].iter().rev()).take_while(|(a, b)| a == b).count();
    let mut suffix = suffix.min(max_suffix);
    while !old.is_char_boundary(o.len() - suffix) || !new.is_char_boundary(n.len() - suffix) {
        suffix -= 1;
    }
    Some((prefix, o.len() - suffix, n.len() - suffix))
}

/// Whether `lexed` (a body's text of `len` bytes) is one balanced group
/// from its first token, a `{`, to its last, a `}` ending the text: what
/// the declaration pass would skip as one body.
fn one_group(lexed: &lexer::Lexed, len: usize) -> bool {
    let n = lexed.len();
    if n == 0 || lexed.kind(0) != L_CURLY || lexed.kind(n - 1) != R_CURLY || lexed.range(n - 1).end != len {
        return false;
    }
    // The group closes at the last token, not before (an unclosed group
    // would run past a token after it).
    let (_, sig_kinds, _) = lexed.significant();
    let mut kinds: Vec<SyntaxKind> = sig_kinds.to_vec();
    let n = kinds.len();
    kinds.push(SyntaxKind::SEMI);
    crate::parser::balanced_end(&kinds, 0) == n
}

#[cfg(test)]
mod tests {
    use crate::{LexOptions, Parse, ParseOptions, parse};

    const OPTS: ParseOptions =
        ParseOptions { lex: LexOptions { cxx20: false, digit_separators: true }, lazy_bodies: true };

    const UNIT: &str = "# 1 \"a.cu\"\nnamespace n {\nstruct S {\n  int f(int x) { return x + 1; }\n};\n}\n\
                        int g(int a) {\n  int acc = a;\n  return acc;\n}\n\
                        template <class T> T h(T t) { return t; }\n\
                        int k() try { return 1; } catch (...) { return 0; }\nint z;\n";

    /// Replaces the first `find` of `text` by `with`.
    fn edit(text: &str, find: &str, with: &str) -> String {
        let at = text.find(find).unwrap_or_else(|| panic!("{find:?} in the text"));
        format!("{}{with}{}", &text[..at], &text[at + find.len()..])
    }

    fn lazy_ranges(p: &Parse) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = p.lazy_body_ranges().map(|r| (r.start().into(), r.end().into())).collect();
        v.sort();
        v
    }

    /// Reparses `old` → `new` and checks the result is the full parse's.
    fn same_as_full(old: &str, new: &str) -> bool {
        let before = parse(old, OPTS);
        let Some(got) = before.reparse(old, new) else { return false };
        let full = parse(new, OPTS);
        assert_eq!(got.green(), full.green(), "tree of {new:?}");
        assert_eq!(got.errors(), full.errors(), "errors of {new:?}");
        assert_eq!(lazy_ranges(&got), lazy_ranges(&full), "lazy bodies of {new:?}");
        // The bodies parse alike (scopes and horizons kept).
        let ranges: Vec<_> = full.lazy_body_ranges().collect();
        let (a, b) = (got.with_bodies_parsed(&ranges), full.with_bodies_parsed(&ranges));
        assert_eq!(a.green(), b.green(), "bodies of {new:?}");
        assert_eq!(a.errors(), b.errors(), "body errors of {new:?}");
        true
    }

    #[test]
    fn edits_inside_a_body_equal_a_full_parse() {
        let cases = [
            ("  int acc = a;\n", "  int acc = a;\n  acc += 2\n"),
            ("  int acc = a;\n", "  int acc = a;\n  acc += 2;\n"),
            ("  int acc = a;\n", ""),
            ("return x + 1;", "return x + 1; const char *s = \"}\"; char c = '}';"),
            ("  int acc = a;\n", "  int acc = 'ab;\n"),
            ("return x + 1;", "return x + 1; { { } }"),
            ("return t;", "return t + T();"),
            ("return acc;", "return acc; // }"),
            ("return acc;", "return acc; /* } */"),
            ("return acc;", "return acc; \""),
            ("return acc;", "return acc; )"),
        ];
        for (find, with) in cases {
            let new = edit(UNIT, find, with);
            assert!(same_as_full(UNIT, &new), "reparsed: {find:?} -> {with:?}");
        }
        // Successive edits, each from the previous reparse.
        let mut text = UNIT.to_string();
        let mut p = parse(&text, OPTS);
        for k in 0..5 {
            let new = edit(&text, "  return acc;", &format!("  acc += {k}\n  return acc;"));
            p = p.reparse(&text, &new).expect("inside the body");
            text = new;
            assert_eq!(p.green(), parse(&text, OPTS).green());
            assert_eq!(p.errors(), parse(&text, OPTS).errors());
        }
    }

    #[test]
    fn other_edits_need_a_full_parse() {
        let cases = [
            // The body's extent changes.
            ("return acc;\n}", "return acc;\n}}"),
            ("return acc;", "return acc; }"),
            ("return acc;", "return acc; {"),
            ("return acc;", "return acc; /*"),
            ("return acc;", "return acc; R\"x("),
            ("return x + 1;", "return x + 'ab;"),
            // Outside any body, or on its braces.
            ("int g(int a)", "int g(long a)"),
            ("int z;", "int z, y;"),
            ("int g(int a) {", "int g(int a) {{"),
            // A function-try-block's parts.
            ("return 1;", "return 2;"),
        ];
        for (find, with) in cases {
            let new = edit(UNIT, find, with);
            let before = parse(UNIT, OPTS);
            assert!(before.reparse(UNIT, &new).is_none(), "not reparsed: {find:?} -> {with:?}");
        }
    }

    #[test]
    fn a_large_unit_streamed_reparses_alike() {
        let mut text = String::from("# 1 \"big.cu\"\n");
        for i in 0..12_000 {
            text.push_str(&format!("int f{i}(int a) {{ int b = a * {i}; return b + 1; }}\n"));
        }
        let new = edit(&text, "int b = a * 6000;", "int b = a * 6000;\n b += 'x\n");
        assert!(same_as_full(&text, &new));
    }
}
