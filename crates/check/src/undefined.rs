//! `identifier "x" is undefined` (EDG 20), once per function body, at the
//! first use.
//!
//! Certainty does not come from lookup failing (the model's lookup is not
//! complete: ADL, dependent bases, block-scope declarations it does not
//! lower) but from the text: a name is undefined when the unit's text
//! holds it, as a whole word, only at the places where user function
//! bodies use it as an unqualified id-expression. A name declared
//! anywhere, used as a member, or spelt in a string or a line marker is
//! left alone. Names beginning with `__` (compiler builtins) are never
//! reported; templated bodies are not checked (a call's name may be found
//! by argument-dependent lookup at instantiation).

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::FnId;
use cufront_hir::body::Expr;
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::scopes::def_map;
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
    let locals: FxHashSet<&str> = body.locals.iter().filter_map(|l| l.name.as_deref()).collect();
    let declared = declared_names(db, decl.tu(db));
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

/// The findings of the unit: `uses` are (function, item start, relative
/// offset, name) of every candidate use, in source order.
pub(crate) fn findings(text: &str, uses: &[(FnId, u32, u32, String)]) -> Vec<Found> {
    let mut by_name: FxHashMap<&str, FxHashSet<u32>> = FxHashMap::default();
    for (_, start, at, name) in uses {
        by_name.entry(name).or_default().insert(start + at);
    }
    // Certain: every whole-word occurrence of the name is such a use.
    let certain: FxHashSet<&str> = by_name
        .iter()
        .filter(|(name, at)| word_offsets(text, name).all(|o| at.contains(&o)))
        .map(|(name, _)| *name)
        .collect();
    let mut seen: FxHashSet<(FnId, &str)> = FxHashSet::default();
    let mut out = Vec::new();
    for (f, start, at, name) in uses {
        if certain.contains(name.as_str()) && seen.insert((*f, name)) {
            let at = start + at;
            let args = vec![Arg::Str(name.clone())];
            out.push(Found {
                at,
                order: at,
                id: UNDEFINED_IDENTIFIER,
                severity: Severity::Error,
                args,
                args_once_erred: None,
                late: false,
            });
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
