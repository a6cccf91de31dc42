//! Which bodies can have a finding at all, decided before inferring them:
//! inferring a body that calls into a template library instantiates much
//! of it, while the host-pass checks on calls and variables can only fire
//! where a body names a device-only function, a kernel, a device variable,
//! a class with device-only members, or launches a kernel. The names come
//! from the declarations of the whole unit (headers included, all
//! declarations of a name: a superset of what lookup can find).

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_hir::body::{Body, Expr};
use cufront_hir::item_tree::{FnData, FnName, Item, TypeRef};
use rustc_hash::FxHashSet;

/// The names a body must mention for the call and variable checks to find
/// anything in it.
#[salsa::tracked(returns(clone))]
pub fn device_names(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<FxHashSet<String>> {
    let mut out = FxHashSet::default();
    let device_only = |f: &FnData| f.linkage.cuda.global || (f.linkage.cuda.device && !f.linkage.cuda.host);
    for &item in cufront_hir::top_level_items(db, tu).items.iter() {
        let tree = cufront_hir::item_tree_of(db, item);
        let fns = tree.fns.iter().chain(tree.fn_templates.iter().map(|t| &t.f));
        for f in fns.filter(|f| device_only(f)) {
            match &f.name {
                FnName::Ident(n) => {
                    out.insert(n.clone());
                }
                // Members are reached through their class (below); a
                // namespace-scope operator through its operands' types.
                _ => {
                    if let Some(q) = f.qualifier.as_ref().and_then(|q| q.segments.last()) {
                        out.insert(q.name.clone());
                    }
                    if !f.in_class {
                        for p in &f.ty.params {
                            out.extend(identifiers(&format!("{p:?}")).map(str::to_string));
                        }
                    }
                }
            }
        }
        for v in &tree.vars {
            let a = v.linkage.cuda;
            if a.device || a.constant || a.shared {
                out.insert(v.name.clone());
            }
        }
        for c in &tree.classes {
            let has_device_member = c.items.iter().any(|i| match i {
                Item::Fn(k) => tree.fns.get(*k as usize).is_some_and(device_only),
                Item::FnTemplate(k) => tree.fn_templates.get(*k as usize).is_some_and(|t| device_only(&t.f)),
                _ => false,
            });
            if has_device_member && let Some(n) = c.name.clone().or_else(|| c.typedef_name.clone()) {
                out.insert(n);
            }
        }
    }
    Arc::new(out)
}

/// Whether the call and variable checks can find anything in `body`.
pub(crate) fn worth_inferring(names: &FxHashSet<String>, body: &Body) -> bool {
    let named = |p: &cufront_hir::item_tree::Path| p.segments.iter().any(|s| names.contains(&s.name));
    body.exprs.iter().any(|e| match e {
        Expr::Path(p) | Expr::Member { name: p, .. } => named(p),
        Expr::KernelLaunch { .. } => true,
        Expr::Construct { ty, .. } => type_named(names, ty),
        _ => false,
    }) || body.locals.iter().any(|l| type_named(names, &l.ty))
}

/// Whether a written type names one of `names` (`D`, `ns::D`, `const D&`):
/// any identifier of its text (a superset: the debug text has field names too).
fn type_named(names: &FxHashSet<String>, t: &TypeRef) -> bool {
    identifiers(&format!("{t:?}")).any(|w| names.contains(w))
}

fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}
