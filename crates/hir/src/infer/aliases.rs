//! Block-scope type aliases (`typedef T X;` and `using X = T;` in a body):
//! bound in the inference environment like template parameters, so that
//! types written later in the block, functional casts (`X(e)`) and
//! qualified names (`X::f(e)`) see them; released at the end of the block.
//! libstdc++ leans on them (`chrono::duration_cast`'s `__dc::__cast`,
//! `system_clock::from_time_t`'s `__from(…)`).

use crate::body::Expr;
use crate::item_tree::TypeRef;
use crate::templates::{Env, TemplateArg};
use crate::ty::{TyId, TyKind, canonical, mk};

use super::{Category, Infer, ty_has_placeholder};

impl Infer<'_> {
    /// Binds the aliases of one declaration, in order (a later one may use an earlier one).
    pub(super) fn local_aliases(&mut self, aliases: &[(String, TypeRef)]) {
        for (name, t) in aliases {
            let ty = match self.alias_decltype(t) {
                Some(ty) => ty,
                None => {
                    self.bind_nested_decltypes(t);
                    self.lower(t)
                }
            };
            self.env.get_or_insert_with(Env::default).names.push((name.clone(), TemplateArg::Type(ty)));
        }
    }

    /// `decltype(e)` as a whole alias (`using _From = decltype(*__first);`):
    /// `e` typed in the body ([dcl.type.decltype]: an lvalue gives `T&`, an
    /// xvalue `T&&`, a prvalue `T`). An unparenthesized name is left to
    /// `lower`, which sees the local's declared type (`bind_local`).
    pub(super) fn alias_decltype(&mut self, t: &TypeRef) -> Option<TyId> {
        let TypeRef::Opaque(text) = t else { return None };
        let &(_, e) = self.body.alias_decltypes.iter().find(|(s, _)| s == text.trim())?;
        if matches!(self.body.expr(e), Expr::Path(_)) {
            return None;
        }
        // An unevaluated operand: what it would call is not odr-used.
        let (required, calls) = (self.res.required.len(), self.res.calls.len());
        let (ty, cat) = self.expr_cat(e);
        for r in self.res.required.drain(required..) {
            self.seen.remove(&r);
        }
        self.res.calls.truncate(calls);
        let c = canonical(self.db, ty);
        if ty_has_placeholder(self.db, c, 0) || matches!(c.kind(self.db), TyKind::Dependent(_) | TyKind::Error(_)) {
            return None;
        }
        Some(match cat {
            Category::LValue => mk(self.db, TyKind::LRef(ty)),
            Category::XValue => mk(self.db, TyKind::RRef(ty)),
            Category::PRValue => ty,
        })
    }

    /// The `decltype`s nested in a type written in the body
    /// (`std::unique_ptr<float, decltype(&cudaFree)> p(…);`), typed here and
    /// bound by their text as `bind_expr_decltypes` does, so that `ty::lower`
    /// finds them: their operands are the body's expressions
    /// (`alias_decltypes`), which no item-level reader sees.
    pub(super) fn bind_nested_decltypes(&mut self, t: &TypeRef) {
        let mut texts = Vec::new();
        nested_decltypes(t, &mut texts);
        for text in texts {
            if self.env.as_ref().is_some_and(|env| env.get(text).is_some()) {
                continue;
            }
            if let Some(ty) = self.alias_decltype(&TypeRef::Opaque(text.to_string())) {
                self.env.get_or_insert_with(Env::default).names.push((text.to_string(), TemplateArg::Type(ty)));
            }
        }
    }

    /// The `decltype`s written in the types of expression `e`
    /// (`decltype(rank(t))::value`, `decltype(x){}`), typed here, where the
    /// body's locals are in scope, and bound by their text like a local's
    /// `decltype(x)` (`bind_local`): `ty::lower` and qualified names find
    /// them there until the end of the block.
    pub(super) fn bind_expr_decltypes(&mut self, e: super::ExprId) {
        let body = self.body;
        for (owner, text) in &body.expr_decltypes {
            if *owner != e || self.env.as_ref().is_some_and(|env| env.get(text).is_some()) {
                continue;
            }
            if let Some(ty) = self.alias_decltype(&TypeRef::Opaque(text.clone())) {
                self.env.get_or_insert_with(Env::default).names.push((text.clone(), TemplateArg::Type(ty)));
            }
        }
    }

    /// What `alias_release` restores at the end of a block.
    pub(super) fn alias_mark(&self) -> Option<usize> {
        self.env.as_ref().map(|e| e.names.len())
    }

    pub(super) fn alias_release(&mut self, mark: Option<usize>) {
        match mark {
            Some(n) => {
                if let Some(e) = &mut self.env {
                    e.names.truncate(n);
                }
            }
            None => self.env = None,
        }
    }
}

/// The `decltype(…)` texts below the top of type `t` (in template
/// arguments, pointees, parameter types).
fn nested_decltypes<'a>(t: &'a TypeRef, out: &mut Vec<&'a str>) {
    use crate::item_tree::{Path, TemplateArgRef};
    fn path<'a>(p: &'a Path, out: &mut Vec<&'a str>) {
        for seg in &p.segments {
            for a in seg.args.iter().flatten() {
                arg(a, out);
            }
        }
    }
    fn arg<'a>(a: &'a TemplateArgRef, out: &mut Vec<&'a str>) {
        match a {
            TemplateArgRef::Type(TypeRef::Opaque(s)) if s.starts_with("decltype(") => out.push(s),
            TemplateArgRef::Type(t) => nested_decltypes(t, out),
            TemplateArgRef::Expansion(x) => arg(x, out),
            TemplateArgRef::Expr(_) => {}
        }
    }
    let inner = |t: &'a TypeRef, out: &mut Vec<&'a str>| match t {
        TypeRef::Opaque(s) if s.starts_with("decltype(") => out.push(s),
        _ => nested_decltypes(t, out),
    };
    match t {
        TypeRef::Path(p) => path(p, out),
        TypeRef::Ptr(x)
        | TypeRef::LRef(x)
        | TypeRef::RRef(x)
        | TypeRef::Cv(x, _)
        | TypeRef::Complex(x)
        | TypeRef::Array(x, _) => inner(x, out),
        TypeRef::MemPtr(p, x) => {
            path(p, out);
            inner(x, out);
        }
        TypeRef::Func(f) => {
            inner(&f.ret, out);
            for p in &f.params {
                inner(p, out);
            }
        }
        TypeRef::Builtin(_) | TypeRef::LocalClass(_) | TypeRef::LocalEnum(_) | TypeRef::Opaque(_) => {}
    }
}
