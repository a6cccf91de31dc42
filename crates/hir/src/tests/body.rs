//! Body lowering: snippets → the rendered arenas.

use expect_test::{Expect, expect};

use crate::item_tree::FnName;
use crate::{Entity, item_tree_of};

/// The body of the last definition of function `name` in the unit.
pub(crate) fn fn_named(
    db: &dyn cufront_base_db::SourceDatabase,
    tu: cufront_base_db::TranslationUnit,
    name: &str,
) -> Option<crate::FnId> {
    let map = crate::def_map(db, tu);
    let mut found = None;
    for e in &map.entities {
        if let Entity::Fn(f) = e {
            let tree = item_tree_of(db, f.item(db));
            let d = &tree.fns[f.idx(db) as usize];
            if matches!(&d.name, FnName::Ident(n) if n == name) && d.linkage.is_definition {
                found = Some(*f);
            }
        }
    }
    found
}

fn check(text: &str, name: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let f = fn_named(&db, tu, name).expect("function");
    let body = crate::body::fn_body(&db, f);
    want.assert_eq(&crate::body::render(&body));
}

#[test]
fn statements_and_expressions() {
    check(
        "struct S { S(int); ~S(); int m(int) const; static int sm(); int x; };\n\
         template<class T> T tf(T a) { return a; }\n\
         int g(int a, double b = 1.0) {\n\
           S s(1); S t = S(2); S u{3};\n\
           static int k = 0;\n\
           auto [p, q] = s;\n\
           int arr[3] = {1,2,3};\n\
           for (int i = 0; i < 3; ++i) { k += s.m(i); }\n\
           for (auto& e : arr) e++;\n\
           if (int z = a; z > 0) return tf<int>(z); else return S::sm();\n\
           auto l = [&](int y) -> int { return y + a; };\n\
           new S(4); delete &s;\n\
           return static_cast<int>(b) + sizeof(int) + (int)b + l(2) + s.x + \"ab\"[0];\n\
         }",
        "g",
        expect![[r#"
            param 0: a : int
            param 1: b : double = Float(Double)
            {
              let s : S(1);
              let t : S = S(2);
              let u : S{3};
              let k : int static = 0;
              let _ : auto = s;
              let p : auto [binding 0 of local 6];
              let q : auto [binding 1 of local 6];
              let arr : int[] = {1, 2, 3};
              for (; (i Lt 3); PreInc(i))
                let i : int = 0;
                {
                  (k Add= s.m(i));
                }
              for (e : auto& : arr)
                PostInc(e);
              if ((z Gt 0))
                let z : int = a;
                return tf<int>(z);
              else
                return S::sm();
              let l : auto = [](y : int) {   return (y Add a); };
              new S(4);
              delete AddrOf(s);
              return (((((Static<int>(b) Add sizeof(int)) Add CStyle<int>(b)) Add l(2)) Add s.x) Add String(Char, 3)[0]);
            }
        "#]],
    );
}

#[test]
fn ctor_initializers_and_lazy_bodies() {
    let text = "struct B { B(int); }; struct D : B { int m; D(int x) : B(x), m{x + 1} { m++; } };\n\
                void h() { D d(2); }";
    check(
        text,
        "h",
        expect![[r#"
        {
          let d : D(2);
        }
    "#]],
    );
    // The same unit parsed with lazy bodies lowers the same body.
    let db = cufront_base_db::RootDatabase::new();
    let opts = cufront_base_db::new_options(
        &db,
        cufront_base_db::LangOptions {
            standard: cufront_base_db::LangStandard::Cxx20,
            lazy_bodies: true,
            ..Default::default()
        },
    );
    let tu = cufront_base_db::new_translation_unit(&db, "t.ii".into(), std::sync::Arc::from(text), opts);
    let f = fn_named(&db, tu, "h").expect("function");
    expect![[r#"
        {
          let d : D(2);
        }
    "#]]
    .assert_eq(&crate::body::render(&crate::body::fn_body(&db, f)));
}
