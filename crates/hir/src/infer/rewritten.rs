//! C++20 rewritten comparison candidates ([over.match.oper]/3.4): when no
//! `operator!=` (`<`, `>`, `<=`, `>=`) is found for `a @ b`, `!(a == b)`,
//! `!(b == a)` (`(a <=> b) @ 0`, `0 @ (b <=> a)`); `a == b` also as
//! `b == a`. libstdc++ in C++20 declares only `operator==` and
//! `operator<=>` for `__normal_iterator` and the views' iterators, so a
//! range-for's `__begin != __end` calls `operator==`. The result is taken
//! as `bool` (what the standard orderings' comparisons with 0 give).

use std::cell::Cell;

use super::*;

thread_local! {
    /// Set while a rewritten form is tried: its own failure is final.
    static REWRITING: Cell<bool> = const { Cell::new(false) };
}

impl Infer<'_> {
    /// `a @ b` through a rewritten candidate, when the direct ones failed.
    pub(super) fn rewritten_operator(&mut self, e: ExprId, name: &str, args: &[Arg]) -> Option<(TyId, Category)> {
        let [a, b] = args else { return None };
        let target = match name {
            "operator!=" | "operator==" => "operator==",
            "operator<" | "operator>" | "operator<=" | "operator>=" => "operator<=>",
            _ => return None,
        };
        if REWRITING.with(|r| r.get()) {
            return None;
        }
        let mut tries = Vec::new();
        if name != "operator==" {
            tries.push([*a, *b]);
        }
        tries.push([*b, *a]);
        let found = crate::guard::with_cell(&REWRITING, true, || {
            tries.into_iter().any(|t| self.operator(e, target, &t).is_some())
        });
        found.then(|| (self.builtin(Builtin::Bool), Category::PRValue))
    }
}
