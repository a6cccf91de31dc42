//! Argument-dependent lookup's classes ([basic.lookup.argdep]/2): the
//! classes of the arguments and their bases, and the hidden friends those
//! classes define (`FnData::friend`), which no other lookup finds. A friend
//! of a class template specialization is a candidate with that
//! specialization as its `outer` (its signature is substituted there).

use super::*;

pub(super) fn push_class(out: &mut Vec<ClassRefT>, c: ClassRefT) {
    if !out.contains(&c) {
        out.push(c);
    }
}

/// Adds the bases of `classes` (transitively, bounded) and returns the
/// class declarations of the bases added, for their namespaces.
pub(super) fn with_bases(db: &dyn SourceDatabase, classes: &mut Vec<ClassRefT>) -> Vec<crate::ClassId> {
    let mut added = Vec::new();
    let mut i = 0;
    while i < classes.len() && classes.len() < 64 {
        for b in templates::class_bases_of(db, classes[i]).iter() {
            if let Some(bc) = b.class
                && !classes.contains(&bc)
            {
                classes.push(bc);
                added.push(match bc {
                    ClassRefT::Class(k) => k,
                    ClassRefT::Inst(i) => i.class(db),
                });
            }
        }
        i += 1;
    }
    added
}

/// The hidden friends named `name` (`fn_name_key`) of `classes`.
pub(super) fn hidden_friends(db: &dyn SourceDatabase, map: &DefMap, classes: &[ClassRefT], name: &str) -> Vec<Cand> {
    let mut out = Vec::new();
    for &c in classes {
        let (k, outer) = match c {
            ClassRefT::Class(k) => (k, None),
            ClassRefT::Inst(i) => (i.class(db), Some(i)),
        };
        let Some(s) = map.class_scope.get(&map.class_definition(k)) else { continue };
        for &f in map.friends.get(s).into_iter().flatten() {
            if f.data(db).is_some_and(|d| scopes::fn_name_key(&d.name) == name) {
                let cand = (f, outer);
                if !out.contains(&cand) {
                    out.push(cand);
                }
            }
        }
    }
    out
}

/// Why an unqualified call that ordinary lookup does not resolve and
/// argument-dependent lookup finds nothing for fails, when the name is a
/// hidden friend of some class (no other lookup can find it) and every
/// argument's type is known: no viable function, which in `decltype`
/// (`__esft_base_t<_Yp>`: `__enable_shared_from_this_base(…, declval<_Yp*>())`
/// for a `_Yp` without an `enable_shared_from_this` base) is a substitution
/// failure, not a gap of the model. `None` otherwise.
pub(super) fn adl_only_miss(inf: &Infer<'_>, name: &str, args: &[Arg]) -> Option<String> {
    let db = inf.db;
    let known = |t: TyId| {
        let t = canonical(db, t);
        !ty_has_error(db, t, 0) && !ty_has_placeholder(db, t, 0) && !matches!(t.kind(db), TyKind::Dependent(_))
    };
    if args.is_empty() || !args.iter().all(|a| known(a.ty)) {
        return None;
    }
    let is_friend =
        inf.map.friends.values().flatten().any(|f| f.data(db).is_some_and(|d| scopes::fn_name_key(&d.name) == name));
    is_friend.then(|| format!("no viable function: argument-dependent lookup finds no `{name}`"))
}
