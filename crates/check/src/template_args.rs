//! Template argument lists of a class template in declarations, errors
//! (checked against the real front end):
//!
//! - 443 `too many arguments for class template "Box"`, at the first
//!   argument too many;
//! - 79 `expected a type specifier`, at a literal given for a type
//!   parameter.
//!
//! Certainty: the template-id is written in a declaration outside
//! function bodies and initializers, as one identifier whose every
//! declaration in the unit is the same class template (no other entity of
//! that name anywhere, so lookup can find nothing else), and the template
//! has no parameter pack.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity, EntityKind, Severity};
use cufront_hir::item_tree::TemplateParamKind;
use cufront_hir::scopes::{Def, def_map};
use cufront_hir::{ClassId, ItemId, item_tree_of};
use cufront_syntax::{SyntaxKind as K, SyntaxNode};

use crate::Raw;

const EXPECTED_TYPE: DiagId = DiagId(79);
const TOO_MANY_ARGS: DiagId = DiagId(443);

/// The findings on the template-ids of one item's declarations.
#[salsa::tracked(returns(clone))]
pub fn item_template_arg_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let Some(src) = cufront_hir::item_source(db, item) else { return Arc::default() };
    let mut out = Vec::new();
    let mut stack = vec![SyntaxNode::new_root(src.green.clone())];
    while let Some(n) = stack.pop() {
        match n.kind() {
            K::FUNCTION_BODY | K::LAZY_BODY | K::INITIALIZER | K::EQUAL_INITIALIZER | K::INIT_LIST => continue,
            K::SIMPLE_TYPE_SPECIFIER => {
                if let Some(id) = n.children().find(|c| c.kind() == K::TEMPLATE_ID) {
                    out.extend(template_id(db, item.tu(db), &id));
                }
                continue;
            }
            _ => {}
        }
        stack.extend(n.children());
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

fn template_id(db: &dyn SourceDatabase, tu: TranslationUnit, id: &SyntaxNode) -> Option<Raw> {
    let mut children = id.children();
    let (name, list) = (children.next()?, children.next()?);
    if name.kind() != K::NAME_REF || list.kind() != K::TEMPLATE_ARG_LIST || children.next().is_some() {
        return None;
    }
    let name = name.text().to_string();
    let class = only_class_template(db, tu, &name)?;
    let tree = item_tree_of(db, class.item(db));
    let params = tree.classes.get(class.idx(db) as usize)?.tparams.clone()?;
    if params.iter().any(|p| p.pack) {
        return None;
    }
    let args: Vec<SyntaxNode> = list.children().filter(|c| c.kind() == K::TEMPLATE_ARG).collect();
    if let Some(extra) = args.get(params.len()) {
        let entity = Entity::new(EntityKind::ClassTemplate, name);
        let at = u32::from(extra.text_range().start());
        return Some(Raw { at, id: TOO_MANY_ARGS, severity: Severity::Error, args: vec![Arg::Entity(entity)] });
    }
    args.iter().zip(&params).find_map(|(a, p)| {
        let literal = a.children().next().is_some_and(|c| c.kind() == K::LITERAL) && a.children().count() == 1;
        (literal && matches!(p.kind, TemplateParamKind::Type)).then(|| Raw {
            at: u32::from(a.text_range().start()),
            id: EXPECTED_TYPE,
            severity: Severity::Error,
            args: vec![],
        })
    })
}

/// The class template every declaration of `name` in the unit declares
/// (its definition), when there is no other entity of that name.
fn only_class_template(db: &dyn SourceDatabase, tu: TranslationUnit, name: &str) -> Option<ClassId> {
    sole_class_templates(db, tu).get(name).copied().flatten()
}

/// Every name the unit declares, with the one class template all its
/// declarations declare (`None`: something else, or two templates). One
/// pass over the scopes: each template-id of every item asks it.
#[salsa::tracked(returns(clone))]
fn sole_class_templates(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<FxHashMap<String, Option<ClassId>>> {
    let map = def_map(db, tu);
    let mut out: FxHashMap<String, Option<ClassId>> = FxHashMap::default();
    for s in &map.scopes {
        for (name, defs) in &s.names {
            for d in defs {
                let this = match d {
                    Def::ClassTemplate(c) => Some(map.class_definition(*c)),
                    _ => None,
                };
                let slot = out.entry(name.clone()).or_insert(this);
                if *slot != this {
                    *slot = None;
                }
            }
        }
    }
    Arc::new(out)
}
