//! Names: qualified names, template-ids, operator, conversion, literal-operator
//! and destructor names.
//!
//! Two halves share one set of resolution rules:
//! - `scan_name` looks ahead without consuming anything and says what a
//!   (possibly qualified) name denotes, so that callers can decide
//!   declaration vs expression and type vs value cheaply;
//! - `name` parses it into the tree, resolving scope by scope as it goes.
//!
//! The rules (see `docs/name-oracle.md`): the first component is looked up
//! unqualified, later ones in the scope the qualifier names. A qualifier that
//! is a template type parameter, or a class template whose scope misses the
//! name, is dependent: the name is a value unless `typename` precedes it, and
//! a template only after `template`.

use crate::SyntaxKind::{self, *};
use crate::grammar::{expressions, types};
use crate::names::{Entry, NameKind, ScopeId};
use crate::parser::{CompletedMarker, Parser};

/// How the last component of a scanned name is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Last {
    Ident,
    TemplateId,
    /// `~X` (or `A::~A`)
    Destructor,
    /// `operator ...` of any kind
    Operator,
    /// `decltype(...)` alone
    Decltype,
}

/// What `scan_name` found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameScan {
    /// Number of tokens the name spans.
    pub len: usize,
    /// What the last component denotes, when known.
    pub entry: Option<Entry>,
    /// Any `::` in the name.
    pub qualified: bool,
    /// The qualifier is dependent and the last component was not found in it.
    pub dependent: bool,
    pub last: Last,
    /// The last identifier repeats the one before the last `::` (`X::X`, `X<T>::X`): a constructor.
    pub ctor_like: bool,
}

impl NameScan {
    /// The name denotes a type (class, enum, typedef, alias, template type parameter,
    /// a class template used with or without arguments).
    pub(crate) fn is_type(&self) -> bool {
        match self.last {
            Last::Decltype => true,
            Last::Destructor | Last::Operator => false,
            Last::Ident | Last::TemplateId => match self.entry {
                Some(e) => e.kind == NameKind::Type || (e.kind == NameKind::Template && e.type_template),
                None => false,
            },
        }
    }

    pub(crate) fn is_unknown(&self) -> bool {
        self.entry.is_none() && !self.dependent && matches!(self.last, Last::Ident | Last::TemplateId)
    }
}

/// Longest name scanned; a longer one (pathological) is treated as unknown.
const MAX_SCAN: usize = 4096;

/// Looks at the name starting `n` tokens ahead (`::`, identifiers, template-ids,
/// `decltype(...)`, `template`, `~X`, `operator`). Consumes nothing.
/// `None` if no name starts there.
pub(crate) fn scan_name(p: &Parser<'_>, n: usize) -> Option<NameScan> {
    scan_name_impl(p, n, true, Scan { depth: 0, limit: n + MAX_SCAN })
}

/// Where a scan is: how many template argument lists deep (`skip_angles_at`),
/// and the token index it must not pass (one budget for the whole scan, so
/// that nested arguments do not multiply it).
#[derive(Clone, Copy)]
struct Scan {
    depth: u32,
    limit: usize,
}

impl Scan {
    fn deeper(self) -> Scan {
        Scan { depth: self.depth + 1, ..self }
    }
}

/// Bound on the nesting of names inside template arguments that the scan
/// resolves (`A<B<C<…>>>`); deeper arguments are skipped by counting angles.
const MAX_SCAN_DEPTH: u32 = 32;

/// `operators`: whether an `operator` name may end the name (not inside a
/// conversion-type-id, which keeps the scan non-recursive). `depth`: how
/// many template argument lists the scan is inside, and its end (`Scan`).
fn scan_name_impl(p: &Parser<'_>, n: usize, operators: bool, cx: Scan) -> Option<NameScan> {
    let mut i = n;
    let mut scope: Option<ScopeId> = None; // qualifier scope
    let mut qualified = false;
    let mut dep_qual = false; // the qualifier is dependent
    let mut template_kw = false;
    let mut prev_ident: Option<&str> = None;
    if p.nth(i) == COLON2 {
        qualified = true;
        scope = Some(ScopeId::GLOBAL);
        i += 1;
    } else if matches!(p.nth(i), DECLTYPE_KW | DECLTYPE2_KW) && p.nth(i + 1) == L_PAREN {
        let close = skip_parens(p, i + 1)?;
        if p.nth(close) == COLON2 && p.nth(close + 1) != STAR {
            // `decltype(x)::member`: a dependent-like qualifier of unknown scope.
            qualified = true;
            dep_qual = true;
            i = close + 1;
        } else {
            return Some(NameScan {
                len: close - n,
                entry: Some(Entry::new(NameKind::Type)),
                qualified: false,
                dependent: false,
                last: Last::Decltype,
                ctor_like: false,
            });
        }
    }
    loop {
        if i - n > MAX_SCAN || i > cx.limit {
            return None;
        }
        if p.nth(i) == TEMPLATE_KW && qualified {
            template_kw = true;
            i += 1;
        }
        let k = p.nth(i);
        if k == TILDE && (p.nth(i + 1) == IDENT || matches!(p.nth(i + 1), DECLTYPE_KW)) {
            let end = if p.nth(i + 1) == IDENT { i + 2 } else { skip_parens(p, i + 2)? };
            let end = if p.nth(end) == L_ANGLE { skip_angles_at(p, end, cx).unwrap_or(end) } else { end };
            return Some(NameScan {
                len: end - n,
                entry: None,
                qualified,
                dependent: dep_qual,
                last: Last::Destructor,
                ctor_like: false,
            });
        }
        if k == OPERATOR_KW {
            if !operators {
                return None;
            }
            let end = scan_operator(p, i, cx)?;
            let entry = if p.nth(end) == L_ANGLE {
                let text = operator_key(p, i);
                text.and_then(|t| lookup_component(p, scope, qualified, t))
            } else {
                None
            };
            let (end, last) = match entry {
                Some(e) if e.is_template() && p.nth(end) == L_ANGLE => {
                    (skip_angles_at(p, end, cx).unwrap_or(end), Last::Operator)
                }
                _ => (end, Last::Operator),
            };
            return Some(NameScan { len: end - n, entry, qualified, dependent: dep_qual, last, ctor_like: false });
        }
        if k != IDENT {
            return None;
        }
        let text = p.nth_text(i);
        let mut entry = if dep_qual { None } else { lookup_component(p, scope, qualified, text) };
        let dependent_here =
            dep_qual || (qualified && entry.is_none() && scope.is_some_and(|s| p.names.is_dependent_scope(s)));
        if dependent_here && entry.is_none() && template_kw {
            entry = Some(Entry { type_template: true, dependent: true, ..Entry::new(NameKind::Template) });
        }
        i += 1;
        let mut last = Last::Ident;
        let opens_args = p.nth(i) == L_ANGLE
            && match entry {
                Some(e) => e.is_template(),
                None => template_kw,
            };
        if opens_args {
            match skip_angles_at(p, i, cx) {
                Some(end) => {
                    i = end;
                    last = Last::TemplateId;
                }
                None => return None,
            }
        }
        if p.nth(i) == COLON2 && p.nth(i + 1) != STAR && (p.nth(i + 1) != L_PAREN) {
            // A qualifier: move into its scope.
            qualified = true;
            template_kw = false;
            let e = entry;
            dep_qual = match e {
                Some(e) => e.dependent || (last == Last::TemplateId && e.scope.is_none()) || dependent_here,
                None => true,
            };
            scope = e.and_then(|e| e.scope);
            if scope.is_none() {
                dep_qual = true;
            }
            prev_ident = Some(text);
            i += 1;
            continue;
        }
        let ctor_like = prev_ident == Some(text);
        return Some(NameScan {
            len: i - n,
            entry,
            qualified,
            dependent: dependent_here && entry.is_none_or(|e| e.dependent),
            last,
            ctor_like,
        });
    }
}

/// Looks up one component: unqualified for the first, in the qualifier's scope after.
fn lookup_component(p: &Parser<'_>, scope: Option<ScopeId>, qualified: bool, text: &str) -> Option<Entry> {
    if !qualified {
        return p.names.lookup_entry(text);
    }
    let s = scope?;
    p.names.lookup_in(s, text)
}

/// Index just past the `)` matching the `(` at `open` (brackets of all
/// kinds counted alike), if it is at most `4 * MAX_SCAN` tokens ahead.
pub(crate) fn skip_parens(p: &Parser<'_>, open: usize) -> Option<usize> {
    if p.nth(open) != L_PAREN {
        return None;
    }
    let close = p.closer(open)?;
    (close - open <= MAX_SCAN * 4).then_some(close + 1)
}

/// Index just past the `>` closing the template argument list opened at `open`.
///
/// Inside the arguments, each name is scanned with `scan_name`'s rules, which
/// skip its own template arguments exactly when `name` would parse them; a
/// `<` after a complete name is then less-than
/// (`bool_constant<R<a,b>::num * R<x,y>::den < R<x,y>::num>`). The only `<`
/// taken as openers besides are those the grammar also takes without the
/// oracle: after `template`, `typename` or a class key, after a `*_cast`
/// keyword, after an unqualified name that lookup does not find (C++20
/// [temp.names]/2), and after `.`/`->` when the arguments are followed by
/// `(` (`expressions::try_member_template_call`).
pub(crate) fn skip_angles(p: &Parser<'_>, open: usize) -> Option<usize> {
    skip_angles_at(p, open, Scan { depth: 0, limit: open + MAX_SCAN })
}

fn skip_angles_at(p: &Parser<'_>, open: usize, cx: Scan) -> Option<usize> {
    if cx.depth >= MAX_SCAN_DEPTH {
        return skip_angles_counting(p, open, cx.limit);
    }
    let mut brackets = 0usize;
    let mut i = open + 1;
    loop {
        if i > cx.limit {
            return None;
        }
        let k = p.nth(i);
        match k {
            IDENT if brackets == 0 => {
                // A name that cannot be scanned (unclosed arguments, too long) ends the scan.
                let s = scan_name_impl(p, i, true, cx.deeper())?;
                let end = i + s.len;
                if p.nth(end) == L_ANGLE && opens_args_after(p, i, &s, cx.limit) {
                    i = skip_angles_at(p, end, cx.deeper())?;
                } else {
                    i = end.max(i + 1);
                }
                continue;
            }
            COLON2 if brackets == 0 => {
                if let Some(s) = scan_name_impl(p, i, true, cx.deeper()).filter(|s| s.len > 0) {
                    i += s.len;
                    continue;
                }
            }
            STATIC_CAST_KW | DYNAMIC_CAST_KW | CONST_CAST_KW | REINTERPRET_CAST_KW
                if brackets == 0 && p.nth(i + 1) == L_ANGLE =>
            {
                i = skip_angles_at(p, i + 1, cx.deeper())?;
                continue;
            }
            // `>=` is one operator token in C++ (our lexer splits it): not a closer.
            R_ANGLE if brackets == 0 && p.nth(i + 1) == EQ && p.nth(i + 2) != EQ && p.inp.is_joint(p.pos() + i) => {
                i += 1;
            }
            R_ANGLE if brackets == 0 => return Some(i + 1),
            L_PAREN | L_BRACK | L_CURLY => brackets += 1,
            R_PAREN | R_BRACK | R_CURLY => {
                if brackets == 0 {
                    return None;
                }
                brackets -= 1;
            }
            SEMI if brackets == 0 => return None,
            EOF => return None,
            _ => {}
        }
        i += 1;
    }
}

/// A name scanned at `start` (as `s`) is followed by a `<` that `s` did not
/// take as arguments: does the grammar still take it as an opener?
fn opens_args_after(p: &Parser<'_>, start: usize, s: &NameScan, limit: usize) -> bool {
    if s.last != Last::Ident || s.entry.is_some_and(|e| e.is_template()) {
        return false;
    }
    let before = if start == 0 { EOF } else { p.nth(start - 1) };
    match before {
        TEMPLATE_KW | TYPENAME_KW | STRUCT_KW | CLASS_KW | UNION_KW | ENUM_KW => s.entry.is_none(),
        // `x.get<0>()` in an argument: only before a call, as the grammar does.
        DOT | ARROW => skip_angles_counting(p, start + s.len, limit).is_some_and(|e| p.nth(e) == L_PAREN),
        _ => s.is_unknown() && !s.qualified,
    }
}

/// `skip_angles` by counting: a `<` right after an identifier or `template`
/// opens, a top-level `>` closes (for arguments nested past `MAX_SCAN_DEPTH`).
fn skip_angles_counting(p: &Parser<'_>, open: usize, limit: usize) -> Option<usize> {
    let mut angles = 0usize;
    let mut brackets = 0usize;
    let mut i = open;
    loop {
        let k = p.nth(i);
        match k {
            L_ANGLE if brackets == 0 && (i == open || matches!(p.nth(i - 1), IDENT | TEMPLATE_KW)) => angles += 1,
            // `>=` is one operator token in C++ (our lexer splits it): not a closer.
            R_ANGLE if brackets == 0 && p.nth(i + 1) == EQ && p.nth(i + 2) != EQ && p.inp.is_joint(p.pos() + i) => {
                i += 1;
            }
            R_ANGLE if brackets == 0 => {
                angles -= 1;
                if angles == 0 {
                    return Some(i + 1);
                }
            }
            L_PAREN | L_BRACK | L_CURLY => brackets += 1,
            R_PAREN | R_BRACK | R_CURLY => {
                if brackets == 0 {
                    return None;
                }
                brackets -= 1;
            }
            SEMI if brackets == 0 => return None,
            EOF => return None,
            _ => {}
        }
        i += 1;
        if i > limit {
            return None;
        }
    }
}

/// Index just past an operator-function-id / conversion-function-id /
/// literal-operator-id starting at `operator` (index `i`).
fn scan_operator(p: &Parser<'_>, i: usize, cx: Scan) -> Option<usize> {
    let k = p.nth(i + 1);
    let end = match k {
        NEW_KW | DELETE_KW => {
            if p.nth(i + 2) == L_BRACK && p.nth(i + 3) == R_BRACK {
                i + 4
            } else {
                i + 2
            }
        }
        L_PAREN if p.nth(i + 2) == R_PAREN => i + 3,
        L_BRACK if p.nth(i + 2) == R_BRACK => i + 3,
        STRING => {
            // operator "" _x  or  operator ""_x (the suffix is part of the string token)
            if p.nth(i + 2) == IDENT { i + 3 } else { i + 2 }
        }
        CO_AWAIT_KW => i + 2,
        R_ANGLE => {
            // `>`, `>>`, `>=`, `>>=`: joint pieces
            let mut j = i + 2;
            while matches!(p.nth(j), R_ANGLE | EQ) && p.inp.is_joint(p.pos() + j - 1) && j < i + 4 {
                j += 1;
            }
            j
        }
        _ if is_overloadable_operator(k) => i + 2,
        _ => {
            // conversion-function-id: a type-specifier-seq and ptr-operators
            let mut j = i + 1;
            let mut seen = false;
            loop {
                let t = p.nth(j);
                if types::is_simple_type_keyword(t) || matches!(t, CONST_KW | VOLATILE_KW) {
                    j += 1;
                    seen = true;
                } else if !seen && (t == IDENT || t == COLON2 || matches!(t, DECLTYPE_KW | TYPENAME_KW)) {
                    if t == TYPENAME_KW {
                        j += 1;
                    }
                    let s = scan_name_impl(p, j, false, cx)?;
                    j += s.len;
                    seen = true;
                } else if seen && matches!(t, STAR | AMP | AMP2) {
                    j += 1;
                } else {
                    break;
                }
            }
            if !seen {
                return None;
            }
            j
        }
    };
    Some(end)
}

/// A key under which an operator template is declared (`operator""_x`, `operator()`).
fn operator_key<'a>(p: &Parser<'a>, i: usize) -> Option<&'a str> {
    match p.nth(i + 1) {
        STRING => Some(p.nth_text(i + 1)),
        _ => None,
    }
}

fn is_overloadable_operator(k: SyntaxKind) -> bool {
    matches!(
        k,
        PLUS | MINUS
            | STAR
            | SLASH
            | PERCENT
            | CARET
            | AMP
            | PIPE
            | TILDE
            | BANG
            | EQ
            | L_ANGLE
            | PLUSEQ
            | MINUSEQ
            | STAREQ
            | SLASHEQ
            | PERCENTEQ
            | CARETEQ
            | AMPEQ
            | PIPEEQ
            | SHL
            | SHLEQ
            | EQ2
            | NEQ
            | LTEQ
            | SPACESHIP
            | AMP2
            | PIPE2
            | PLUS2
            | MINUS2
            | COMMA
            | ARROW_STAR
            | ARROW
    )
}

/// What `name` parsed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameInfo {
    pub entry: Option<Entry>,
    pub qualified: bool,
    pub dependent: bool,
    pub last: Last,
    /// Token index (significant tokens) of the last identifier, if the name ends in one.
    pub last_ident: Option<usize>,
    /// The class/namespace scopes named by the qualifier, outermost first
    /// (for re-entering them in out-of-line definitions), up to 8.
    pub quals: [Option<ScopeId>; 8],
    pub ctor_like: bool,
}

impl NameInfo {
    pub(crate) fn qualifier_scopes(&self) -> impl Iterator<Item = ScopeId> + '_ {
        self.quals.iter().filter_map(|s| *s)
    }
}

/// How `name` treats the pieces that vary by context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameMode {
    /// An expression or declarator: `<` opens arguments only after a template name.
    Expr,
    /// A place where only a type can appear (after `typename`, a base
    /// specifier, a class-key): an unknown name followed by `<` is taken as a
    /// template (see docs/name-oracle.md).
    Type,
    /// After `.`/`->`: the parser does not know the object's class, so the
    /// first component is looked up in the context of the expression, and
    /// there only a class or alias template makes `<` open arguments
    /// ([basic.lookup.classref]/1): a function or variable template of that
    /// name (`l.first < r.first` with `template<class T> int first(T)`)
    /// does not. Member templates called with arguments are taken by
    /// `expressions::try_member_template_call` before this.
    Member,
}

/// Parses a (possibly qualified) name into `QUALIFIED_NAME` / `NAME_REF` /
/// `TEMPLATE_ID` / `OPERATOR_NAME` / ... nodes. Returns `None` with nothing
/// consumed when no name starts here.
pub(crate) fn name(p: &mut Parser<'_>, mode: NameMode) -> Option<NameInfo> {
    let starts = p.at(IDENT)
        || p.at(COLON2)
        || p.at(OPERATOR_KW)
        || (p.at(TILDE) && matches!(p.nth(1), IDENT | DECLTYPE_KW))
        || (matches!(p.current(), DECLTYPE_KW | DECLTYPE2_KW) && p.nth(1) == L_PAREN && {
            // only as a qualifier: `decltype(x)::y`
            skip_parens(p, 1).is_some_and(|e| p.nth(e) == COLON2)
        });
    if !starts {
        return None;
    }
    let m = p.start();
    let mut info = NameInfo {
        entry: None,
        qualified: false,
        dependent: false,
        last: Last::Ident,
        last_ident: None,
        quals: [None; 8],
        ctor_like: false,
    };
    let mut nq = 0usize;
    let mut scope: Option<ScopeId> = None;
    let mut dep_qual = false;
    let mut prev_text: Option<&str> = None;
    if p.eat(COLON2) {
        info.qualified = true;
        scope = Some(ScopeId::GLOBAL);
    } else if matches!(p.current(), DECLTYPE_KW | DECLTYPE2_KW) {
        types::decltype_specifier(p);
        p.expect(COLON2);
        info.qualified = true;
        dep_qual = true;
    }
    loop {
        let mut template_kw = false;
        if info.qualified && p.at(TEMPLATE_KW) {
            p.bump(TEMPLATE_KW);
            template_kw = true;
        }
        if p.at(TILDE) {
            let d = p.start();
            p.bump(TILDE);
            if p.at(IDENT) {
                let r = p.start();
                p.bump(IDENT);
                r.complete(p, NAME_REF);
            } else if matches!(p.current(), DECLTYPE_KW | DECLTYPE2_KW) {
                types::decltype_specifier(p);
            }
            if p.at(L_ANGLE) {
                template_arg_list(p);
            }
            d.complete(p, DESTRUCTOR_NAME);
            info.last = Last::Destructor;
            info.dependent = dep_qual;
            break;
        }
        if p.at(OPERATOR_KW) {
            let key_entry = if p.nth(1) == STRING && p.nth(2) != IDENT {
                let t = p.nth_text(1);
                if info.qualified { scope.and_then(|s| p.names.lookup_in(s, t)) } else { p.names.lookup_entry(t) }
            } else {
                None
            };
            let op = operator_name(p);
            if p.at(L_ANGLE)
                && (key_entry.is_some_and(|e| e.is_template())
                    || template_kw
                    || (op.kind() == OPERATOR_NAME && operator_template_ok(p)))
            {
                let t = op.precede(p);
                template_arg_list(p);
                t.complete(p, TEMPLATE_ID);
            }
            info.last = Last::Operator;
            info.entry = key_entry;
            info.dependent = dep_qual;
            break;
        }
        if !p.at(IDENT) {
            p.error("expected an identifier");
            break;
        }
        let text = p.current_text();
        let idx = p.pos();
        let mut entry = if dep_qual {
            None
        } else if info.qualified {
            scope.and_then(|s| p.names.lookup_in(s, text))
        } else if mode == NameMode::Member {
            p.names.lookup_entry(text).filter(|e| !e.is_template() || e.type_template)
        } else {
            p.names.lookup_entry(text)
        };
        let dependent_here =
            dep_qual || (info.qualified && entry.is_none() && scope.is_some_and(|s| p.names.is_dependent_scope(s)));
        if entry.is_none() && (template_kw || (mode == NameMode::Type && p.nth(1) == L_ANGLE)) {
            entry = Some(Entry { type_template: true, dependent: dependent_here, ..Entry::new(NameKind::Template) });
        }
        let id = p.start();
        let r = p.start();
        p.bump(IDENT);
        r.complete(p, NAME_REF);
        let mut last = Last::Ident;
        if p.at(L_ANGLE) && entry.is_some_and(|e| e.is_template()) {
            template_arg_list(p);
            id.complete(p, TEMPLATE_ID);
            last = Last::TemplateId;
        } else {
            id.abandon(p);
        }
        info.last_ident = Some(idx);
        if p.at(COLON2) && p.nth(1) != STAR {
            p.bump(COLON2);
            info.qualified = true;
            dep_qual = match entry {
                Some(e) => e.dependent || dependent_here || e.scope.is_none(),
                None => true,
            };
            scope = entry.and_then(|e| e.scope);
            if let Some(s) = scope
                && nq < info.quals.len()
            {
                info.quals[nq] = Some(s);
                nq += 1;
            }
            prev_text = Some(text);
            continue;
        }
        info.entry = entry;
        info.last = last;
        info.dependent = dependent_here && entry.is_none_or(|e| e.dependent);
        info.ctor_like = prev_text == Some(text);
        break;
    }
    // A qualified name is one flat node: `::`, the qualifier components
    // (NAME_REF / TEMPLATE_ID) and their `::`, then the last component.
    if info.qualified {
        m.complete(p, QUALIFIED_NAME);
    } else {
        m.abandon(p);
    }
    Some(info)
}

/// After an operator name, may `<` open template arguments (a known operator template)?
fn operator_template_ok(p: &Parser<'_>) -> bool {
    // `operator< <T>` style explicit specializations and calls are rare; only
    // take `<` as arguments when a `>` soon follows and then `(`.
    skip_angles(p, 0).is_some_and(|e| p.nth(e) == L_PAREN)
}

/// `operator` followed by an operator, `new[]`, `""_x`, `co_await`, or a
/// conversion type.
pub(crate) fn operator_name(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(OPERATOR_KW);
    let k = p.current();
    let kind = match k {
        NEW_KW | DELETE_KW => {
            p.bump_any();
            if p.at(L_BRACK) && p.nth(1) == R_BRACK {
                p.bump(L_BRACK);
                p.bump(R_BRACK);
            }
            OPERATOR_NAME
        }
        L_PAREN if p.nth(1) == R_PAREN => {
            p.bump(L_PAREN);
            p.bump(R_PAREN);
            OPERATOR_NAME
        }
        L_BRACK if p.nth(1) == R_BRACK => {
            p.bump(L_BRACK);
            p.bump(R_BRACK);
            OPERATOR_NAME
        }
        STRING => {
            p.bump(STRING);
            if p.at(IDENT) {
                p.bump(IDENT);
            }
            LITERAL_OPERATOR_NAME
        }
        CO_AWAIT_KW => {
            p.bump_any();
            OPERATOR_NAME
        }
        R_ANGLE => {
            if !(p.eat(SHREQ) || p.eat(SHR) || p.eat(GTEQ)) {
                p.bump(R_ANGLE);
            }
            OPERATOR_NAME
        }
        _ if is_overloadable_operator(k) => {
            p.bump_any();
            OPERATOR_NAME
        }
        _ => {
            // conversion-type-id: type-specifier-seq conversion-declarator (ptr-operators only)
            let t = p.start();
            if !types::type_specifier_seq(p) {
                p.error("expected a type specifier");
            }
            while matches!(p.current(), STAR | AMP | AMP2) {
                types::ptr_operator(p);
            }
            t.complete(p, TYPE_ID);
            CONVERSION_NAME
        }
    };
    m.complete(p, kind)
}

/// An id-expression (`x`, `N::f<int>`, `operator+`, `~T`, `T::template f<int>`).
/// Returns `false` with nothing consumed if none starts here.
pub(crate) fn id_expression(p: &mut Parser<'_>) -> bool {
    name(p, NameMode::Expr).is_some()
}

/// `< args >`: template arguments (types, expressions, template names,
/// pack expansions). Sets `gt_closes` so that a top-level `>` ends the list.
pub(crate) fn template_arg_list(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(L_ANGLE);
    p.with_gt_closes(true, |p| {
        while !p.at(R_ANGLE) && !p.at_eof() {
            let before = p.pos();
            template_arg(p);
            if !p.eat(COMMA) {
                break;
            }
            if p.pos() == before {
                break;
            }
        }
    });
    crate::grammar::recovery::expect_or_skip(p, R_ANGLE);
    m.complete(p, TEMPLATE_ARG_LIST);
}

fn template_arg(p: &mut Parser<'_>) {
    let m = p.start();
    p.nested(|p| {
        if types::at_type_id_start(p) {
            let cp = p.checkpoint();
            // A reading that went through a braced group and found an error
            // stands: not parsed again another way (`Parser::must_keep`).
            if types::type_id(p) && !p.has_error_since(cp) {
                if matches!(p.current(), COMMA | R_ANGLE | DOT3) {
                    return;
                }
                // Something else follows the type (`A<int b;`): an expression
                // argument if one parses, else the type (and a missing `>`).
                p.rewind(cp);
                expressions::assignment_expr(p);
                if !p.has_error_since(cp) || p.must_keep(cp) {
                    return;
                }
                p.rewind(cp);
                types::type_id(p);
                return;
            }
            if p.must_keep(cp) {
                return;
            }
            p.rewind(cp);
        }
        expressions::assignment_expr(p);
    });
    p.eat(DOT3);
    m.complete(p, TEMPLATE_ARG);
}
