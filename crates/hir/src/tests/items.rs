//! Item tree, scopes, lookup and type lowering.

use super::db_with;
use crate::item_tree::{Item, Path, PathSegment};
use crate::scopes::{self, Def, Ns, ROOT};
use crate::ty::{self, TyKind, display};

fn path(s: &str) -> Path {
    let mut p = Path::default();
    let s = match s.strip_prefix("::") {
        Some(r) => {
            p.global = true;
            r
        }
        None => s,
    };
    for seg in s.split("::") {
        p.segments.push(PathSegment { name: seg.to_string(), args: None });
    }
    p
}

const SRC: &str = "
namespace a { inline namespace v1 { struct S { int x; }; } namespace b { typedef S T; } }
namespace c { using namespace a::b; struct U : a::S { T t; S s2; }; }
namespace d = a::b;
struct Outer { struct In { int q; }; typedef In Alias; enum class E : short { A = 1 << 2, B }; };
struct Derived : Outer { Alias al; Derived* self; };
typedef const int CI; typedef CI CI2[3];
int (*fp)(int, ...) noexcept; int Outer::*pm; void (Outer::*pmf)(int) const;
template<class T> struct X { T t; };
struct HasX { X<int> x; };
";

#[test]
fn item_tree_of_a_namespace_item() {
    let (db, tu) =
        db_with("namespace n { struct A; struct A { int x : 3; static int s; }; typedef A B; enum E { X }; }");
    let items = crate::item_ids(&db, tu);
    assert_eq!(items.len(), 1);
    let tree = crate::item_tree_of(&db, items[0]);
    assert_eq!(tree.namespaces.len(), 1);
    assert_eq!(tree.namespaces[0].name.as_deref(), Some("n"));
    assert!(matches!(tree.namespaces[0].items[..], [Item::Class(_), Item::Class(_), Item::Typedef(_), Item::Enum(_)]));
    let def = tree.classes.iter().find(|c| c.is_definition).expect("definition");
    assert_eq!(def.fields.len(), 1, "static members are not fields");
    assert!(def.fields[0].bit_width.is_some());
    assert_eq!(tree.vars.len(), 1);
}

#[test]
fn lookup_through_inline_namespaces_usings_aliases_and_bases() {
    let (db, tu) = db_with(SRC);
    let map = crate::def_map(&db, tu);
    // a::S through the inline namespace v1.
    let s = scopes::resolve_path(&db, &map, ROOT, &path("a::S"), Ns::Type);
    assert!(matches!(s, Some(Def::Class(_))), "{s:?}");
    // d::T through the namespace alias.
    assert!(matches!(scopes::resolve_path(&db, &map, ROOT, &path("d::T"), Ns::Type), Some(Def::Typedef(_))));
    // In c::U, `T` comes from the using-directive, `S` from the base's injected name.
    let u = crate::find_class(&db, tu, "c::U").expect("c::U");
    let l = crate::layout::layout(&db, u).expect("layout");
    let fields: Vec<String> = l
        .fields
        .iter()
        .map(|f| format!("{} {}", f.name.clone().unwrap(), display(&db, ty::canonical(&db, f.ty))))
        .collect();
    assert_eq!(fields, ["t a::v1::S", "s2 a::v1::S"]);
    // Derived finds Outer's typedef `Alias` through its base.
    let d = crate::find_class(&db, tu, "Derived").expect("Derived");
    let l = crate::layout::layout(&db, d).expect("layout");
    assert_eq!((l.size, l.align), (16, 8));
    assert_eq!(display(&db, ty::canonical(&db, l.fields[0].ty)), "Outer::In");
    // Scoped enumerators are found through the enum.
    match scopes::resolve_path(&db, &map, ROOT, &path("Outer::E::B"), Ns::Value) {
        Some(Def::Enumerator(e, 1)) => {
            let info = ty::enum_info(&db, e);
            assert_eq!(info.values[1], Ok(5));
            assert_eq!(info.underlying, crate::item_tree::Builtin::Short);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn type_lowering() {
    let (db, tu) = db_with(SRC);
    let map = crate::def_map(&db, tu);
    let ty_of = |name: &str| match scopes::resolve_path(&db, &map, ROOT, &path(name), Ns::Type) {
        Some(Def::Typedef(t)) => display(&db, ty::canonical(&db, ty::typedef_ty(&db, t))),
        other => panic!("{other:?}"),
    };
    assert_eq!(ty_of("CI2"), "const int[3]");
    assert_eq!(ty_of("CI"), "const int");
    // Variables' declared types.
    let tree_types: Vec<String> = crate::item_ids(&db, tu)
        .iter()
        .flat_map(|&item| {
            let tree = crate::item_tree_of(&db, item);
            let cx = ty::LowerCx { db: &db, map: &map, item, scope: ROOT, env: None };
            tree.vars.iter().map(|v| display(&db, ty::canonical(&db, ty::lower(cx, &v.ty)))).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(tree_types, ["int(int, ...) noexcept*", "int Outer::*", "void(int) Outer::*"]);
    // A member of template type: the specialization is instantiated.
    let h = crate::find_class(&db, tu, "HasX").expect("HasX");
    assert_eq!(crate::layout::layout(&db, h).map(|l| l.size), Ok(4));
    assert!(matches!(
        ty::canonical(&db, ty::mk(&db, TyKind::Builtin(crate::item_tree::Builtin::Int))).kind(&db),
        TyKind::Builtin(_)
    ));
}
