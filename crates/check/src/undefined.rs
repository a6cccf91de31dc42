//! `identifier "x" is undefined` (EDG 20), as EDG reports it: in a
//! function body once, at the first use (the name is then declared in the
//! body); in a namespace-scope initializer once, and never again after
//! (declared in the unit); as the type of a declaration at every use.
//!
//! Certainty does not come from lookup failing (the model's lookup is not
//! complete: ADL, dependent bases, block-scope declarations it does not
//! lower) but from the text: a name is undefined when the unit's text
//! holds it, as a whole word, only at the places where user function
//! bodies use it as an unqualified id-expression. A name declared
//! anywhere, used as a member, or spelt in a string or a line marker is
//! left alone. Names beginning with `__` (compiler builtins) are never
//! reported; templated bodies are not checked (a call's name may be found
//! by argument-dependent lookup at instantiation). Type names are read
//! from the declarations outside function bodies and initializers: a
//! simple type specifier that is one identifier.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::body::{Body, Expr};
use cufront_hir::instances::{self, FnDecl, VarDecl};
use cufront_hir::scopes::{DeclKey, def_map};
use cufront_hir::{FnId, ItemId, VarId};
use cufront_syntax::{SyntaxKind as K, SyntaxNode};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::Found;

const UNDEFINED_IDENTIFIER: DiagId = DiagId(20);

/// The unqualified id-expressions of a body whose names are neither its
/// locals nor declared in any scope of the unit: (offset relative to the
/// item, name), in source order, every use.
#[salsa::tracked(returns(clone))]
pub fn fn_unknown_names(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<(u32, String)>> {
    let decl = FnDecl::Fn(f);
    let Some(data) = decl.data(db) else { return Arc::default() };
    let map = def_map(db, decl.tu(db));
    let templated =
        !data.outer_tparams.is_empty() || instances::fn_scope(db, decl).is_none_or(|s| map.templated.contains(&s));
    if templated {
        return Arc::default();
    }
    let body = cufront_hir::infer::decl_body(db, decl);
    Arc::new(unknown_uses(db, decl.tu(db), &body))
}

/// The same for the initializer of a variable outside templates.
#[salsa::tracked(returns(clone))]
pub fn var_unknown_names(db: &dyn SourceDatabase, v: VarId) -> Arc<Vec<(u32, String)>> {
    let tu = v.item(db).tu(db);
    let map = def_map(db, tu);
    if map.parent.get(&DeclKey::Var(v)).is_none_or(|s| map.templated.contains(s)) {
        return Arc::default();
    }
    let body = cufront_hir::infer::var_init::var_init_body(db, VarDecl::Var(v));
    Arc::new(unknown_uses(db, tu, &body))
}

/// The unqualified id-expressions of `body` that name nothing declared.
fn unknown_uses(db: &dyn SourceDatabase, tu: TranslationUnit, body: &Body) -> Vec<(u32, String)> {
    let locals: FxHashSet<&str> = body.locals.iter().filter_map(|l| l.name.as_deref()).collect();
    let declared = declared_names(db, tu);
    let mut out = Vec::new();
    for (e, r) in body.exprs.iter().zip(&body.expr_ranges) {
        let Expr::Path(p) = e else { continue };
        let [seg] = p.segments.as_slice() else { continue };
        if p.global
            || seg.args.is_some()
            || seg.name.starts_with("__")
            || !is_identifier(&seg.name)
            || locals.contains(seg.name.as_str())
            || declared.contains(&seg.name)
        {
            continue;
        }
        out.push((u32::from(r.start()), seg.name.clone()));
    }
    out.sort();
    out
}

/// The type specifiers of an item's declarations (outside function
/// bodies, initializers and template argument lists) that are one
/// identifier naming nothing declared: (offset relative to the item, name).
#[salsa::tracked(returns(clone))]
pub fn item_unknown_type_names(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<(u32, String)>> {
    let Some(src) = cufront_hir::item_source(db, item) else { return Arc::default() };
    let declared = declared_names(db, item.tu(db));
    let mut out = Vec::new();
    let mut stack = vec![SyntaxNode::new_root(src.green.clone())];
    while let Some(n) = stack.pop() {
        match n.kind() {
            K::FUNCTION_BODY
            | K::LAZY_BODY
            | K::INITIALIZER
            | K::EQUAL_INITIALIZER
            | K::INIT_LIST
            | K::TEMPLATE_ARG_LIST => continue,
            K::SIMPLE_TYPE_SPECIFIER => {
                let mut children = n.children();
                if let (Some(name), None) = (children.next(), children.next())
                    && name.kind() == K::NAME_REF
                    && n.children_with_tokens().filter(|t| !t.kind().is_trivia()).count() == 1
                {
                    let text = name.text().to_string();
                    if is_identifier(&text) && !text.starts_with("__") && !declared.contains(&text) {
                        out.push((u32::from(name.text_range().start()), text));
                    }
                }
                continue;
            }
            _ => {}
        }
        stack.extend(n.children());
    }
    out.sort();
    Arc::new(out)
}

/// Every name some scope of the unit declares.
#[salsa::tracked(returns(clone))]
pub fn declared_names(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<FxHashSet<String>> {
    let map = def_map(db, tu);
    Arc::new(map.scopes.iter().flat_map(|s| s.names.keys().cloned()).collect())
}

fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// What a use of an unknown name belongs to, which decides how often EDG
/// reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Owner {
    /// A function body: once per body.
    Fn(FnId),
    /// A namespace-scope initializer: once, and then the name is declared.
    Namespace,
    /// The type of a declaration: every use.
    Type,
}

/// The findings of the unit: `uses` are (owner, absolute offset, name) of
/// every candidate use.
pub(crate) fn findings(text: &str, uses: &[(Owner, u32, String)]) -> Vec<Found> {
    let mut by_name: FxHashMap<&str, FxHashSet<u32>> = FxHashMap::default();
    for (_, at, name) in uses {
        by_name.entry(name).or_default().insert(*at);
    }
    // Certain: every whole-word occurrence of the name is such a use.
    let certain: FxHashSet<&str> = by_name
        .iter()
        .filter(|(name, at)| word_offsets(text, name).all(|o| at.contains(&o)))
        .map(|(name, _)| *name)
        .collect();
    let mut sorted: Vec<&(Owner, u32, String)> = uses.iter().filter(|(_, _, n)| certain.contains(n.as_str())).collect();
    sorted.sort_by_key(|(_, at, _)| *at);
    let mut seen: FxHashSet<(Owner, &str)> = FxHashSet::default();
    let mut global: FxHashSet<&str> = FxHashSet::default();
    let mut out = Vec::new();
    for (owner, at, name) in sorted {
        let report = match owner {
            _ if global.contains(name.as_str()) => false,
            Owner::Namespace => global.insert(name),
            Owner::Fn(_) => seen.insert((*owner, name)),
            Owner::Type => true,
        };
        if report {
            let args = vec![Arg::Str(name.clone())];
            out.push(Found::new(*at, UNDEFINED_IDENTIFIER, Severity::Error, args));
        }
    }
    out
}

/// The offsets of `word` in `text` as a whole identifier.
pub(crate) fn word_offsets<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = u32> + 'a {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(bytes, word.as_bytes())
        .filter(move |&i| (i == 0 || !ident(bytes[i - 1])) && bytes.get(i + word.len()).is_none_or(|&b| !ident(b)))
        .map(|i| i as u32)
}
