//! Template parameter packs in function template argument deduction
//! ([temp.deduct.call], [temp.deduct.type]): while a candidate's parameter
//! types are lowered for deduction, a pack parameter `Ts` is bound to the
//! pack marker `templates` deduces class patterns with
//! (`Pack([Dependent("pack:i")])`), so that `X<Ts...>` deduces the whole
//! pack from `X<int, char>`; a function parameter pack (`Ts&&... xs`) is
//! lowered with `Ts` bound to its single placeholder and deduced once per
//! argument.

use cufront_base_db::SourceDatabase;

use crate::item_tree::TemplateParam;
use crate::templates::{Env, TemplateArg};

/// The deduction marker of pack parameter `i` (see `templates::deduce`).
pub(super) fn pack_placeholder(i: u32) -> TemplateArg {
    TemplateArg::Pack(vec![TemplateArg::Dependent(format!("pack:{i}"))])
}

/// `env` with every pack parameter rebound to its single placeholder.
pub(super) fn element_env(db: &dyn SourceDatabase, env: &Env, params: &[TemplateParam]) -> Env {
    let mut e = env.clone();
    for (i, p) in params.iter().enumerate() {
        if let (true, Some(n)) = (p.pack, &p.name) {
            e.names.push((n.clone(), super::placeholder(db, p, i as u32)));
        }
    }
    e
}
