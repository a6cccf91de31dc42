//! Default member initializers ([class.mem], [class.base.init]/9): a
//! constructor that does not name a member in its mem-initializer list
//! initializes it from the member's default initializer, and so does the
//! implicit default constructor; what the initializer uses (`atomic<int>
//! n{0};` → `atomic<int>::atomic(int)`) is used by that constructor.
//!
//! Invariants:
//! - The item tree keeps only `Field::has_init`; the initializer is read
//!   from the class's item at the offset `item_tree::Offsets::field_inits`
//!   records, so an edit inside an initializer leaves the tree (and
//!   `def_map`, layouts, names) equal: only the bodies of this query re-run.
//! - An initializer is lowered as a body of one unnamed local of the
//!   member's type (`body::lower_field_init`) and inferred in the class's
//!   scope with `this`, through the instance's `Env` for a member of a
//!   specialization. It has no owner: a lambda in it is not a closure of
//!   the constructor (it stays untyped).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::body::{self, Body, Stmt};
use crate::item_tree::{Cv, FnName};
use crate::scopes::def_map;
use crate::templates::{self, ClassRefT};
use crate::{ClassId, Entity, item_tree_of};

use super::{Infer, OwnerInfo, new_infer};

/// The default member initializers of a class definition: (field index,
/// its body), in declaration order.
#[salsa::tracked(returns(clone))]
pub fn field_init_bodies(db: &dyn SourceDatabase, c: ClassId) -> Arc<Vec<(u32, Arc<Body>)>> {
    let item = c.item(db);
    let tree = item_tree_of(db, item);
    let Some(data) = tree.classes.get(c.idx(db) as usize) else { return Arc::default() };
    if !data.fields.iter().any(|f| f.has_init) {
        return Arc::default();
    }
    let Some(src) = crate::item_source(db, item).as_ref().cloned() else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let offs = crate::item_offsets(db, item);
    let mut out = Vec::new();
    for &(k, f, at) in &offs.field_inits {
        if k != c.idx(db) {
            continue;
        }
        let Some(field) = data.fields.get(f as usize) else { continue };
        let Some(tok) = cufront_syntax::green::token_at(&root, TextSize::from(at)) else { continue };
        // The init-declarator that starts there (the one holding the initializer).
        let node = tok
            .parent_ancestors()
            .take_while(|n| u32::from(n.text_range().start()) == at)
            .find(|n| n.children().any(|c| matches!(c.kind(), K::EQUAL_INITIALIZER | K::INITIALIZER | K::INIT_LIST)));
        if let Some(node) = node {
            out.push((f, Arc::new(body::lower_field_init(&node, field.ty.clone()))));
        }
    }
    Arc::new(out)
}

/// The body of the default member initializer of `class`'s member `name`.
fn field_init_body(db: &dyn SourceDatabase, class: ClassRefT, name: &str) -> Option<(ClassId, Arc<Body>)> {
    let c = match class {
        ClassRefT::Class(c) => c,
        ClassRefT::Inst(i) => i.class(db),
    };
    let c = def_map(db, c.tu(db)).class_definition(c);
    let tree = item_tree_of(db, c.item(db));
    let data = tree.classes.get(c.idx(db) as usize)?;
    let f = data.fields.iter().position(|f| f.has_init && f.name.as_deref() == Some(name))? as u32;
    let bodies = field_init_bodies(db, c);
    bodies.iter().find(|(k, _)| *k == f).map(|(_, b)| (c, b.clone()))
}

/// What the default member initializer of `class`'s member `name` uses
/// (none when it has none): what each constructor that does not initialize
/// the member itself requires.
///
/// An initializer can lead back to itself (a class with a member of its own
/// type whose initializer is a braced list, written or left by error
/// recovery): an initializer already being looked into is not looked into
/// again (a cycle: the program is ill-formed), and past `MAX_NESTING`
/// nested initializers none is. Both found by the `semantic` fuzz target:
/// a stack overflow, then `struct P{P p{;P p{}}p`, whose two members led
/// to 2^32 visits under the depth bound alone.
pub fn field_init_required(db: &dyn SourceDatabase, class: ClassRefT, name: &str) -> Vec<Entity> {
    const MAX_NESTING: usize = 32;
    thread_local! {
        static UNDER_WAY: std::cell::RefCell<Vec<(ClassRefT, String)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let refused = UNDER_WAY.with(|u| {
        let u = u.borrow();
        u.len() >= MAX_NESTING || u.iter().any(|(c, n)| *c == class && n == name)
    });
    if refused {
        return Vec::new();
    }
    crate::guard::with_pushed(&UNDER_WAY, (class, name.to_string()), || field_init_required_inner(db, class, name))
}

fn field_init_required_inner(db: &dyn SourceDatabase, class: ClassRefT, name: &str) -> Vec<Entity> {
    let Some((c, body)) = field_init_body(db, class, name) else { return Vec::new() };
    let map = def_map(db, c.tu(db));
    let Some(&scope) = map.class_scope.get(&c) else { return Vec::new() };
    let env = match class {
        ClassRefT::Inst(i) => match templates::inst_env(db, i) {
            Ok(e) => Some(e),
            Err(_) => return Vec::new(),
        },
        ClassRefT::Class(_) => {
            if map.templated.contains(&scope) {
                return Vec::new();
            }
            None
        }
    };
    let info = OwnerInfo {
        body: body.clone(),
        item: c.item(db),
        scope,
        env,
        class: Some(class),
        is_static: false,
        method_cv: Cv::default(),
        name: FnName::Ctor,
        ret: None,
    };
    let Some(Stmt::Decl(ls)) = body.root.map(|r| body.stmt(r)) else { return Vec::new() };
    let mut cx: Infer<'_> = new_infer(db, &map, &body, &info, None);
    for &l in ls {
        cx.local(l);
    }
    cx.res.required
}
