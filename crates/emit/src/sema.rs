//! What the printer asks the semantic model about a declarator it walks:
//! the hir declaration whose name starts where the declarator's name does
//! (`hir::locate`), then hir's queries about it — execution spaces merged
//! over redeclarations matched by the scope graph
//! (`hir::exec_space`), `constexpr` on any declaration, linkage names.
//! The attributes were read once, by the item tree (`cufront_cuda::attrs`).

use cufront_cuda::attrs;
use cufront_cuda::decl;
use cufront_cuda::spaces::ExecSpace;
use cufront_hir::instances::FnDecl;
use cufront_hir::{Entity, ItemId};
use cufront_syntax::SyntaxNode;

use crate::Sema;

impl<'a> Sema<'a> {
    /// Where the name of the declarator `d` starts, in the tree walked.
    fn name_at(d: &SyntaxNode) -> Option<u32> {
        Some(decl::name_node(d)?.text_range().start().into())
    }

    /// The model of the unit `tu`, for trees of the whole unit.
    pub fn new(db: &'a dyn cufront_base_db::SourceDatabase, tu: cufront_base_db::TranslationUnit) -> Sema<'a> {
        Sema { db, tu, item: None }
    }

    /// The model for the tree of one top-level item of `tu` (offsets
    /// relative to the item's start).
    pub(crate) fn of_item(&self, item: ItemId) -> Sema<'a> {
        Sema { item: Some(item), ..*self }
    }

    /// The function or variable the declarator `d` declares.
    pub(crate) fn entity(&self, d: &SyntaxNode) -> Option<Entity> {
        let at = Sema::name_at(d)?;
        match self.item {
            Some(item) => cufront_hir::locate::entity_in(self.db, item, at),
            None => cufront_hir::locate::entity_at(self.db, self.tu, at),
        }
    }

    /// The function or function template the declarator `d` declares.
    pub(crate) fn fn_decl(&self, d: &SyntaxNode) -> Option<FnDecl> {
        let at = Sema::name_at(d)?;
        match self.item {
            Some(item) => cufront_hir::locate::fn_decl_in(self.db, item, at),
            None => cufront_hir::locate::fn_decl_at(self.db, self.tu, at),
        }
    }

    /// Where the function that the declarator `d` (with specifiers `specs`)
    /// declares runs: its attributes merged over its redeclarations.
    ///
    /// A declarator hir does not lower as a function declaration (an
    /// explicit specialization of a function template, `template <>
    /// __global__ void k<int>(int *)`) gets the space of its own attributes:
    /// what this declaration says of itself is a syntactic fact; only a
    /// further declaration of the same specialization could add to it, and
    /// it is not merged.
    pub(crate) fn function_space(&self, specs: Option<&SyntaxNode>, d: &SyntaxNode) -> ExecSpace {
        match self.fn_decl(d) {
            Some(f) => cufront_hir::exec_space::fn_exec_space(self.db, f),
            None => ExecSpace::from_attrs(&attrs::of_declarator(specs, d)),
        }
    }

    /// Whether the function `d` declares is a kernel
    /// (`function_space(..) == Global`, answered more cheaply).
    pub(crate) fn is_kernel(&self, specs: Option<&SyntaxNode>, d: &SyntaxNode) -> bool {
        match self.fn_decl(d) {
            Some(f) => cufront_hir::exec_space::fn_is_kernel(self.db, f),
            None => ExecSpace::from_attrs(&attrs::of_declarator(specs, d)) == ExecSpace::Global,
        }
    }

    /// Whether any declaration of the function that `d` declares is
    /// `constexpr` (`false` where hir has no declaration: the declarator's
    /// own keyword is printed as written).
    pub(crate) fn is_constexpr(&self, d: &SyntaxNode) -> bool {
        self.fn_decl(d).is_some_and(|f| cufront_hir::exec_space::fn_is_constexpr(self.db, f))
    }
}
