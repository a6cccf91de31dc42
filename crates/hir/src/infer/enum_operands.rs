//! Operator candidates when no operand has class type ([over.match.oper]/3.2):
//! only non-member functions with a parameter of the operand's enumeration
//! type (or a reference to it) in that position are candidates. Without the
//! rule `error != cudaSuccess` (two `cudaError_t`) would pick `__half`'s
//! `operator!=` through its converting constructor instead of the built-in
//! comparison.

use super::*;

impl Infer<'_> {
    /// Whether non-member candidate `c` survives for operands `args` none of
    /// which has class type. Templates are left to deduction.
    pub(super) fn enum_operator_candidate(&self, c: Cand, args: &[Arg]) -> bool {
        let FnDecl::Fn(f) = c.0 else { return true };
        let Some(sig) = self.sig_of_entity(Entity::Fn(f)) else { return true };
        args.iter().zip(&sig.params).any(|(a, p)| {
            let a = strip_cv(self.db, canonical(self.db, a.ty));
            let p = canonical(self.db, *p);
            let p = match p.kind(self.db) {
                TyKind::LRef(t) | TyKind::RRef(t) => canonical(self.db, *t),
                _ => p,
            };
            self.is_enum(a) && strip_cv(self.db, p) == a
        })
    }
}
