//! The calls EDG folds (`infer::folded_calls`): snippet → each folded
//! callee, mangled, in call order. Checked against cicc's device listing:
//! a folded `constexpr` function is not listed.

use expect_test::expect;

use super::body::fn_named;
use super::db_with;
use crate::infer::{InferOwner, folded_calls};

fn folded(text: &str, name: &str, want: expect_test::Expect) {
    let (db, tu) = db_with(text);
    let f = fn_named(&db, tu, name).expect("function");
    let out: String = folded_calls(&db, InferOwner::Fn(f))
        .iter()
        .map(|(_, e)| format!("{}\n", crate::symbols::mangled_name(&db, *e).unwrap_or_else(|e| e.to_string())))
        .collect();
    want.assert_eq(&out);
}

#[test]
fn constant_arguments_fold() {
    folded(
        "constexpr int sq(int x) { return x * x; }\n\
         constexpr int cube(int x) { return x * x * x; }\n\
         int runtime(int x) { return x; }\n\
         struct Q { int a; constexpr Q(int x) : a(x) {} };\n\
         struct R { int a; constexpr R(int x) : a(x) {} };\n\
         int user(int argc) {\n\
           const int n = 4;\n\
           int v = sq(argc);\n\
           int w = cube(2) + argc + sq(n / 2);\n\
           Q q(argc);\n\
           R r(3);\n\
           return v + w + q.a + r.a + runtime(3);\n\
         }",
        "user",
        expect![[r#"
            _Z4cubei
            _Z2sqi
            _ZN1RC1Ei
        "#]],
    );
}

#[test]
fn members_of_unknown_objects_do_not_fold() {
    folded(
        "struct L { const int* p; unsigned long n;\n\
           constexpr const int* begin() const { return p; }\n\
           constexpr const int* end() const { return p + n; } };\n\
         int user(L l) { int s = 0; for (const int* i = l.begin(); i != l.end(); ++i) s += *i; return s; }",
        "user",
        expect![[r#""#]],
    );
}

#[test]
fn range_for_over_a_braced_list_does_not_fold() {
    folded(
        "namespace std { typedef unsigned long size_t;\n\
           template<class E> class initializer_list { const E* _M_array; size_t _M_len;\n\
             constexpr initializer_list(const E* a, size_t l) : _M_array(a), _M_len(l) {}\n\
           public: constexpr initializer_list() noexcept : _M_array(0), _M_len(0) {}\n\
             constexpr size_t size() const noexcept { return _M_len; }\n\
             constexpr const E* begin() const noexcept { return _M_array; }\n\
             constexpr const E* end() const noexcept { return begin() + size(); } }; }\n\
         int user() { int s = 0; for (int n : {1, 2, 3}) s += n; return s; }",
        "user",
        expect![[r#""#]],
    );
}

/// A launch's configuration is `__cudaPushCallConfiguration`'s arguments:
/// the integers converted to `dim3`, each at its own expression, folded
/// where constant.
#[test]
fn launch_configuration() {
    let text = "struct dim3 { unsigned x, y, z;\n\
           constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {} };\n\
         extern \"C\" unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, unsigned long s = 0, void* st = 0);\n\
         __attribute__((global)) void k(int);\n\
         void user(int n) { const int c = 64; k<<<n, c / 2>>>(1); k<<<1, 2>>>(n); }";
    super::calls(
        text,
        "user",
        expect![[r#"
            _Z1ki
            __cudaPushCallConfiguration
            _ZN4dim3C1Ejjj
        "#]],
    );
    folded(
        text,
        "user",
        expect![[r#"
            _ZN4dim3C1Ejjj
            _ZN4dim3C1Ejjj
            _ZN4dim3C1Ejjj
        "#]],
    );
}

#[test]
fn manifestly_constant_sites_fold() {
    // CUB's `if constexpr (enable_simd_reduction<Input, Op, PromT>())` and
    // `constexpr auto length = static_size_v<Input>();`: the condition of
    // an `if constexpr` and a `constexpr` local's initializer are constant
    // expressions by the program's rules, so EDG folds their calls (cicc
    // lists neither function), even where the interpreter does not
    // evaluate the site (here: the callee is named through a block-scope
    // using-declaration). A plain `if`'s call is not such a site.
    folded(
        "namespace in { constexpr bool wide(int x) { return x > 4; } constexpr unsigned long size() { return 8; } }\n\
         int user(int argc) {\n\
           using in::wide;\n\
           using in::size;\n\
           constexpr auto n = size();\n\
           if constexpr (wide(n)) { argc += n; }\n\
           if (wide(argc)) { argc += 1; }\n\
           return argc;\n\
         }",
        "user",
        expect![[r#"
            _ZN2in4sizeEv
            _ZN2in4wideEi
        "#]],
    );
}

#[test]
fn calls_naming_block_scope_aliases_and_using_declarations_fold() {
    // CUB's `ThreadReduce`: `using PromT = _If<enable_promotion<…>(), int,
    // AccumT>;` then `if (enable_ternary_reduction<Input, Op, PromT>())`,
    // a plain `if` whose constant call cicc folds (not in its listing). The
    // callee's own body names a block-scope using-declaration and a
    // `constexpr` local in a template argument.
    folded(
        "namespace ns { template <class T, class... Ts> constexpr bool one_of() { return (sizeof(T) == sizeof(Ts) || ...); }\n\
           template <class T, int N> constexpr bool wide() { return N * sizeof(T) > 8; }\n\
           template <class T> constexpr bool promote() { return sizeof(T) <= 2; }\n\
           template <class T, int N> constexpr bool ternary() {\n\
             using ns::one_of;\n\
             constexpr int length = N;\n\
             return one_of<T, int, unsigned>() && wide<T, length>();\n\
           } }\n\
         template <bool B, class T, class F> struct If_ { using type = T; };\n\
         template <class T, class F> struct If_<false, T, F> { using type = F; };\n\
         int user(int argc) {\n\
           using ns::promote;\n\
           using P = If_<promote<short>(), int, short>::type;\n\
           if (ns::ternary<P, 4>()) { return argc; }\n\
           return 0;\n\
         }",
        "user",
        expect![[r#"
            _ZN2ns7ternaryIiLi4EEEbv
        "#]],
    );
}
