//! Unqualified lookup into the non-dependent bases of a class template
//! ([temp.dep]/3, [class.member.lookup]): in
//! `template <class U> struct res : memory_resource<device_ptr<void>>`, a
//! `pointer` written in `res`'s members names the base's member typedef,
//! not a namespace-scope `pointer` template — the base does not depend on
//! `U`, so it is searched when the template is defined. A dependent base is
//! never searched (its members are found only through `this->` or a
//! qualified name), which is why the bases looked at are those of the
//! pattern resolved without the instance's arguments (`ty::class_bases`):
//! only non-dependent ones resolve to a specialization there.
//!
//! `scopes::lookup` cannot do this itself: a member of a specialization is
//! read with that specialization's `Env`, which the scope graph lacks.

use crate::item_tree::Path;
use crate::layout::ClassRef;
use crate::scopes::{self, Ns, ScopeKind};
use crate::ty::LowerCx;

use super::{Resolved, member_of};

/// The member of a non-dependent specialization base of an enclosing class
/// template that unqualified lookup of `name` from `cx.scope` finds before
/// any enclosing scope declares `name`; None when ordinary lookup decides.
pub(super) fn nondependent_base_member(cx: LowerCx<'_>, name: &str, ns: Ns) -> Option<Resolved> {
    let (db, map) = (cx.db, cx.map);
    let mut cur = Some(cx.scope);
    for _ in 0..64 {
        let s = cur?;
        let scope = map.scope(s);
        match scope.kind {
            ScopeKind::Class(c) => {
                // The class's own members (using-declarations of a
                // dependent base's members included) and its plain bases
                // come first.
                if scope.names.contains_key(name) || scopes::lookup_member(db, map, s, name, ns).is_some() {
                    return None;
                }
                if map.templated.contains(&s) {
                    for b in crate::ty::class_bases(db, c).iter() {
                        if let Some(ClassRef::Inst(bi)) = b.class {
                            // `B<T>` resolves to a specialization with the
                            // parameters as arguments: dependent, not searched.
                            if bi.args(db).iter().any(|a| crate::consteval::var_template::dependent(db, a)) {
                                continue;
                            }
                            if let Some((d, env, sc)) = member_of(db, ClassRef::Inst(bi), name, ns, 1) {
                                return Some(Resolved::Def(d, env, sc));
                            }
                        }
                    }
                }
            }
            _ => {
                if scope.names.contains_key(name) {
                    return None;
                }
            }
        }
        cur = scope.parent;
    }
    None
}

/// Whether `p` is a single unqualified name without template arguments:
/// the paths this lookup applies to.
pub(super) fn applies(p: &Path) -> bool {
    !p.global && !p.segments.is_empty() && p.segments[0].args.is_none()
}
