//! `const %n requires an initializer` (EDG 257) and `reference %n requires
//! an initializer` (252), errors: a `const` object of scalar type (or an
//! array of them) or a reference defined without an initializer, at
//! namespace or block scope. The caret is at the token after the
//! declarator. Checked against the real front end.
//!
//! Certainty: the type as written decides (`const int`, `const int[3]`,
//! `int&`; a `const` class object is 811, another message, and a typedef'd
//! type is not looked through: left out). Not checked: `extern`
//! declarations, class members (a constructor initializes them), templates.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::FnId;
use cufront_hir::body::{Init, Stmt};
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::TypeRef;
use cufront_hir::scopes::{DeclKey, def_map};

use crate::{Found, Raw};

const REFERENCE: DiagId = DiagId(252);
const CONSTANT: DiagId = DiagId(257);

/// What an uninitialized declaration of this type is told.
fn rule(t: &TypeRef) -> Option<DiagId> {
    match t {
        TypeRef::LRef(_) | TypeRef::RRef(_) => Some(REFERENCE),
        TypeRef::Cv(inner, cv) if cv.c && scalar(inner) => Some(CONSTANT),
        TypeRef::Array(elem, Some(_)) => match &**elem {
            TypeRef::Cv(inner, cv) if cv.c && scalar(inner) => Some(CONSTANT),
            _ => None,
        },
        _ => None,
    }
}

fn scalar(t: &TypeRef) -> bool {
    matches!(t, TypeRef::Builtin(_) | TypeRef::Ptr(_))
}

/// Where the caret goes for a declarator whose name ends at `end`: the
/// first token after it and its array bounds.
fn after_declarator(text: &str, end: usize) -> Option<u32> {
    let b = text.as_bytes();
    let mut i = end;
    loop {
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if b.get(i) != Some(&b'[') {
            break;
        }
        let mut depth = 0usize;
        while let Some(&c) = b.get(i) {
            i += 1;
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    matches!(b.get(i), Some(b';' | b',')).then_some(i as u32)
}

/// Whether the declaration a name belongs to is left alone: it says
/// `extern`, or its type keywords do not combine (`const long char v;`:
/// EDG reports the combination, and the type is an error type after it).
/// Read between the statement's start and the name.
fn left_alone(text: &str, name_at: usize) -> bool {
    let before = &text[..name_at.min(text.len())];
    let start = before.rfind([';', '{', '}']).map_or(0, |i| i + 1);
    let words: Vec<&str> = before[start..].split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
    let count = |w: &str| words.iter().filter(|x| **x == w).count();
    let (char_, short, int, long) = (count("char"), count("short"), count("int"), count("long"));
    let (float, double, bool_, void) = (count("float"), count("double"), count("bool"), count("void"));
    let sign = count("signed") + count("unsigned");
    let integral = char_ + short + int + long + sign;
    let valid = char_ <= 1
        && short <= 1
        && int <= 1
        && long <= 2
        && sign <= 1
        && float + double + bool_ + void <= 1
        && !(char_ == 1 && short + long + int > 0)
        && !(short == 1 && long > 0)
        && (float + bool_ + void == 0 || integral == 0)
        && (double == 0 || integral == long && long <= 1);
    count("extern") > 0 || !valid
}

/// The uninitialized constants and references of one body.
#[salsa::tracked(returns(clone))]
pub fn fn_uninitialized(db: &dyn SourceDatabase, f: FnId) -> Arc<Vec<Raw>> {
    let body = cufront_hir::infer::decl_body(db, FnDecl::Fn(f));
    let declared: Vec<_> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Decl(ls) => Some(ls.iter().copied()),
            _ => None,
        })
        .flatten()
        .filter(|&l| {
            let local = body.local(l);
            matches!(local.init, Init::None) && local.binding_of.is_none() && rule(&local.ty).is_some()
        })
        .collect();
    if declared.is_empty() {
        return Arc::default();
    }
    // A templated body is not checked (its instances would be).
    if cufront_hir::infer::infer(db, cufront_hir::infer::InferOwner::Fn(f)).skipped.is_some() {
        return Arc::default();
    }
    let text = cufront_hir::consteval::interp::item_text(db, f.item(db));
    let mut out = Vec::new();
    for l in declared {
        let local = body.local(l);
        let (Some(name), Some(Some(range))) = (&local.name, body.local_names.get(l.0 as usize)) else { continue };
        if left_alone(&text, usize::from(range.start())) {
            continue;
        }
        let (Some(id), Some(at)) = (rule(&local.ty), after_declarator(&text, usize::from(range.end()))) else {
            continue;
        };
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name: name.clone(), ..DiagEntity::default() };
        out.push(Raw { at, id, severity: Severity::Error, args: vec![Arg::Entity(entity)] });
    }
    Arc::new(out)
}

/// The same for the user's namespace-scope variables.
pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<Found> {
    let map = def_map(db, tu);
    let mut out = Vec::new();
    for (item, start) in crate::calls::user_items(db, tu) {
        let tree = cufront_hir::item_tree_of(db, item);
        let offsets = cufront_hir::item_offsets(db, item);
        let mut text = None;
        for (i, v) in tree.vars.iter().enumerate() {
            let Some(id) = rule(&v.ty) else { continue };
            let Some(&at) = offsets.vars.get(i) else { continue };
            if v.linkage.is_extern || v.linkage.is_constexpr || v.qualifier.is_some() {
                continue;
            }
            if offsets.var_inits.iter().any(|&(k, _)| k == i as u32) {
                continue;
            }
            let me = cufront_hir::VarId::new(db, item, i as u32);
            let Some(&scope) = map.parent.get(&DeclKey::Var(me)) else { continue };
            if !matches!(
                map.scope(scope).kind,
                cufront_hir::scopes::ScopeKind::Namespace { .. } | cufront_hir::scopes::ScopeKind::Root
            ) {
                continue;
            }
            let text = text.get_or_insert_with(|| cufront_hir::consteval::interp::item_text(db, item));
            let end = at as usize + v.name.len();
            if text.get(at as usize..end) != Some(v.name.as_str()) || left_alone(text, at as usize) {
                continue;
            }
            let Some(caret) = after_declarator(text, end) else { continue };
            let Some(qual) = crate::names::scope_chain(db, tu, scope) else { continue };
            let name: String = qual.into_iter().map(|(_, n)| format!("{n}::")).chain([v.name.clone()]).collect();
            let entity = DiagEntity { kind: Some(EntityKind::Variable), name, ..DiagEntity::default() };
            let at = start + caret;
            out.push(Found::new(at, id, Severity::Error, vec![Arg::Entity(entity)]));
        }
    }
    out
}
