//! The implicit object parameter's conversion ([over.match.funcs]/4–5):
//! an object of a class derived from the member's class binds with a
//! derived-to-base Conversion, not an identity. It matters when members
//! and non-members compete: `ofstream << "text"` calls
//! `operator<<(basic_ostream<char, _Traits>&, const char*)` (Conversion,
//! Exact) over the member `basic_ostream::operator<<(const void*)`
//! (Conversion, Conversion). A member brought in by a using-declaration
//! binds as a member of the class that declares it so.

use super::*;

impl Infer<'_> {
    /// The rank of binding `obj` to the implicit object parameter of member `c` whose cv is `method_cv`.
    pub(super) fn object_rank(&self, c: Cand, obj: Arg, method_cv: Cv) -> Rank {
        let db = self.db;
        let ocv = cv_of(db, canonical(db, obj.ty));
        let qual = if ocv.c == method_cv.c { 0 } else { 1 };
        let owner = match c.1 {
            Some(o) => Some(class_ty(db, ClassRefT::Inst(o))),
            None => instances::fn_scope(db, c.0).and_then(|s| match self.map.scope(s).kind {
                ScopeKind::Class(k) => Some(class_ty(db, ClassRefT::Class(self.map.class_definition(k)))),
                _ => None,
            }),
        };
        // A base's member brought in by a using-declaration counts as a
        // member of the class that names it (the class lookup found it in).
        let owner = match (owner, self.class_ref(obj.ty), c.0.data(db)) {
            (Some(b), Some(oc), Some(d)) if !self.same_class(obj.ty, b) => {
                match instances::member_fns_found(db, oc, &scopes::fn_name_key(&d.name)) {
                    Some((found, fns)) if fns.contains(&c) => Some(class_ty(db, found)),
                    _ => Some(b),
                }
            }
            (o, ..) => o,
        };
        match owner {
            Some(b) if !self.same_class(obj.ty, b) && self.derives(obj.ty, b) => {
                Rank { reference: false, major: 2, minor: qual + self.base_distance_penalty(obj.ty, b) }
            }
            _ => Rank { reference: false, major: 0, minor: qual },
        }
    }
}
