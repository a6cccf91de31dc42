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
            if let Some(bc) = b.class {
                if !classes.contains(&bc) {
                    classes.push(bc);
                    added.push(match bc {
                        ClassRefT::Class(k) => k,
                        ClassRefT::Inst(i) => i.class(db),
                    });
                }
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
