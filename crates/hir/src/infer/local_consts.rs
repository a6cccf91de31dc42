//! Block-scope constants as template arguments: a `constexpr` local (or a
//! `const` one of integral or enumeration type with a constant
//! initializer) is usable in constant expressions, so `f<BLOCK>()` after
//! `constexpr int BLOCK = 256;` names `f<256>`. Its value is bound in the
//! inference environment like a value template parameter, which is what
//! the item-tree evaluator of template arguments reads.

use super::*;
use crate::consteval::interp::{self, CValue};

impl Infer<'_> {
    /// Binds local `l` (declared type `t`) when it is a constant.
    pub(super) fn local_constant(&mut self, l: LocalId, t: TyId) {
        let loc = self.body.local(l);
        let Some(name) = loc.name.clone() else { return };
        if loc.pack || loc.is_static || loc.binding_of.is_some() || matches!(loc.init, Init::None) {
            return;
        }
        let (inner, is_const) = match canonical(self.db, t).kind(self.db) {
            TyKind::Qualified(i, cv) => (*i, cv.c),
            _ => (canonical(self.db, t), false),
        };
        let integral = match inner.kind(self.db) {
            TyKind::Builtin(b) => is_int(*b),
            TyKind::Enum(_) => true,
            _ => false,
        };
        if !integral || !(loc.is_constexpr || is_const) {
            return;
        }
        let body = Arc::new(self.body.clone());
        let v = templates::nested(|| Ok(interp::local_value(self.db, self.map, body, self.item, self.scope, self.env.as_ref(), l)));
        if let Ok(Ok(CValue::Int(v))) = v {
            let b = templates::value_builtin(self.db, inner);
            self.env.get_or_insert_with(Env::default).names.push((name, TemplateArg::Value(crate::consteval::convert(v.v, b), inner)));
        }
    }
}
