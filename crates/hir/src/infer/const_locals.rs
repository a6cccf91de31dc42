//! Block-scope variables usable in constant expressions ([expr.const]/4:
//! `constexpr`, or `const` of integral or enumeration type with a constant
//! initializer). Their values are bound by name in the inference
//! environment, so that template arguments (`price_call<BLOCK><<<…>>>`),
//! `if constexpr` conditions and array bounds written later in the body see
//! them; the binding ends with the block, like an alias's.

use super::*;
use crate::consteval::interp::{self, CValue};

impl Infer<'_> {
    pub(super) fn const_local(&mut self, l: LocalId, t: TyId) {
        let loc = self.body.local(l);
        let Some(name) = loc.name.clone() else { return };
        if matches!(loc.init, Init::None) || loc.pack || loc.binding_of.is_some() {
            return;
        }
        let c = canonical(self.db, t);
        let (base, cv) = match c.kind(self.db) {
            TyKind::Qualified(b, cv) => (canonical(self.db, *b), *cv),
            _ => (c, Cv::default()),
        };
        let scalar = match base.kind(self.db) {
            TyKind::Builtin(b) => Some(*b).filter(|b| is_int(*b)),
            TyKind::Enum(_) => Some(crate::templates::value_builtin(self.db, base)),
            _ => None,
        };
        if !(loc.is_constexpr || (cv.c && scalar.is_some())) {
            return;
        }
        let env = self.env.clone();
        let known = self.const_known();
        let Ok(v) =
            interp::eval_local_init(self.db, self.map, (self.item, self.scope, env.as_ref()), self.body, &known, l)
        else {
            return;
        };
        if let (CValue::Int(i), Some(_)) = (&v, scalar) {
            self.env.get_or_insert_with(Env::default).names.push((name, TemplateArg::Value(i.v, base)));
        }
        self.const_locals.push((l, v));
    }
}

impl Infer<'_> {
    /// What the constant interpreter knows of the body's locals: the values
    /// of those usable in constant expressions, and, for a parameter or
    /// other uninitialized local of class type, an object whose state is
    /// unknown: a member function that reads none of it may still be called
    /// in a constant expression ([expr.const]/5), as `constexpr size_t __j
    /// = __rhs_index;` does through `integral_constant`'s conversion.
    pub(super) fn const_known(&self) -> Vec<(LocalId, CValue)> {
        let mut out = self.const_locals.clone();
        for (i, loc) in self.body.locals.iter().enumerate() {
            let l = LocalId(i as u32);
            if !matches!(loc.init, Init::None)
                || loc.pack
                || loc.binding_of.is_some()
                || out.iter().any(|(k, _)| *k == l)
            {
                continue;
            }
            let Some(t) = self.res.local_tys.get(i).copied().flatten() else { continue };
            let c = strip_cv(self.db, canonical(self.db, t));
            if matches!(c.kind(self.db), TyKind::Class(_) | TyKind::App(_) | TyKind::Inst(_)) {
                out.push((l, CValue::Object(Some(c), Vec::new())));
            }
        }
        out
    }
}

/// The type of an object declared `constexpr`: `const T` ([dcl.constexpr]/10).
/// `std::piecewise_construct` is a `const piecewise_construct_t` lvalue, so a
/// forwarding reference deduces `const piecewise_construct_t&`. References
/// and arrays (whose cv is their elements', `array_cv`) are left as written.
pub(super) fn constexpr_object_ty(db: &dyn SourceDatabase, t: TyId, data: &crate::item_tree::VarData) -> TyId {
    if !data.linkage.is_constexpr {
        return t;
    }
    constexpr_ty(db, t)
}

pub(super) fn constexpr_ty(db: &dyn SourceDatabase, t: TyId) -> TyId {
    match canonical(db, t).kind(db) {
        TyKind::LRef(_) | TyKind::RRef(_) | TyKind::Array(..) | TyKind::Error(_) | TyKind::Dependent(_) => t,
        TyKind::Qualified(_, cv) if cv.c => t,
        TyKind::Qualified(b, cv) => mk(db, TyKind::Qualified(*b, Cv { c: true, ..*cv })),
        _ => mk(db, TyKind::Qualified(t, Cv { c: true, ..Cv::default() })),
    }
}
