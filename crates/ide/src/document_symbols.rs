//! The outline of a file: its declarations nested by containment.

use cufront_syntax::TextSize;

use crate::symbols::{self, DeclKind};
use crate::{Ctx, FileRange};

/// One node of the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureNode {
    pub name: String,
    pub kind: DeclKind,
    /// A member of a class (methods, fields).
    pub member: bool,
    /// The signature, CUDA keywords as written.
    pub detail: String,
    pub range: FileRange,
    pub selection: FileRange,
    pub children: Vec<StructureNode>,
}

pub(crate) fn document_symbols(cx: &Ctx<'_>) -> Vec<StructureNode> {
    let starts = symbols::item_starts(cx.db, cx.unit.tu);
    // (full range in the unit, node): nested by a stack, in source order.
    let mut flat = Vec::new();
    for &(item, start) in &starts.list {
        if !cx.in_file(start) && !item_touches_file(cx, start) {
            continue;
        }
        for d in symbols::item_decls(cx.db, item).iter() {
            let name_at = d.name_range + TextSize::from(start);
            if !cx.in_file(name_at.start().into()) {
                continue;
            }
            let full = d.full_range + TextSize::from(start);
            let node = StructureNode {
                name: d.name.clone(),
                kind: d.kind,
                member: d.member,
                detail: d.signature.clone(),
                range: cx.file_range(full),
                selection: cx.file_range(name_at),
                children: Vec::new(),
            };
            flat.push((full, node));
        }
    }
    flat.sort_by_key(|(r, _)| (r.start(), std::cmp::Reverse(r.end())));
    let mut roots: Vec<StructureNode> = Vec::new();
    let mut stack: Vec<(cufront_syntax::TextRange, StructureNode)> = Vec::new();
    for (range, node) in flat {
        while let Some((top, _)) = stack.last() {
            if top.contains_range(range) {
                break;
            }
            let (_, done) = stack.pop().expect("non-empty");
            attach(&mut stack, &mut roots, done);
        }
        stack.push((range, node));
    }
    while let Some((_, done)) = stack.pop() {
        attach(&mut stack, &mut roots, done);
    }
    roots
}

fn attach(
    stack: &mut [(cufront_syntax::TextRange, StructureNode)],
    roots: &mut Vec<StructureNode>,
    node: StructureNode,
) {
    match stack.last_mut() {
        Some((_, parent)) => parent.children.push(node),
        None => roots.push(node),
    }
}

/// A top-level item that starts in another file (a namespace opened in a
/// header) may still declare things in this one.
fn item_touches_file(cx: &Ctx<'_>, start: u32) -> bool {
    // Items of system headers never hold user declarations.
    !cx.is_system(start)
}
