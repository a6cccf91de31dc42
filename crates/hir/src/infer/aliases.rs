//! Block-scope type aliases (`typedef T X;` and `using X = T;` in a body):
//! bound in the inference environment like template parameters, so that
//! types written later in the block, functional casts (`X(e)`) and
//! qualified names (`X::f(e)`) see them; released at the end of the block.
//! libstdc++ leans on them (`chrono::duration_cast`'s `__dc::__cast`,
//! `system_clock::from_time_t`'s `__from(…)`).

use crate::item_tree::TypeRef;
use crate::templates::{Env, TemplateArg};

use super::Infer;

impl Infer<'_> {
    /// Binds the aliases of one declaration, in order (a later one may use an earlier one).
    pub(super) fn local_aliases(&mut self, aliases: &[(String, TypeRef)]) {
        for (name, t) in aliases {
            let ty = self.lower(t);
            self.env.get_or_insert_with(Env::default).names.push((name.clone(), TemplateArg::Type(ty)));
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
