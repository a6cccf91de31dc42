//! Class template argument deduction (`infer/ctad.rs`): deduction guides,
//! constructors as guides, the copy deduction candidate (names checked
//! against g++ `nm`).

use expect_test::expect;

use super::calls as check;

#[test]
fn guides_constructors_and_copy_deduction() {
    // libstdc++'s `filter_view(std::forward<R>(r), p)` and `ref_view{r}`, reduced.
    check(
        "namespace r {\n\
         template<class T> struct remove_reference { typedef T type; };\n\
         template<class T> struct remove_reference<T&> { typedef T type; };\n\
         template<class R> struct ref_view { R* p; ref_view(R& x) : p(&x) {} };\n\
         template<class R> ref_view(R&) -> ref_view<R>;\n\
         template<class V, class P> struct filter_view { V v; P p; filter_view(V a, P b) : v(a), p(b) {} };\n\
         template<class R, class P> filter_view(R&&, P) -> filter_view<ref_view<typename remove_reference<R>::type>, P>;\n\
         template<class T> struct box { T t; box(T x) : t(x) {} };\n\
         }\n\
         struct Pred { bool operator()(int) const { return true; } };\n\
         struct V { };\n\
         void user() { V v; Pred p; auto f = r::filter_view(v, p); auto b = r::box(3); auto c = r::box(b); auto d = r::ref_view{v}; }",
        "user",
        expect![[r#"
            _ZN1r11filter_viewINS_8ref_viewI1VEE4PredEC1ES3_S4_
            _ZN1r8ref_viewI1VEC1ERS1_
            _ZN1r3boxIiEC1Ei
        "#]],
    );
}

#[test]
fn pointer_to_data_member_deduces() {
    // `views::transform(&Measurement::name)`: `&S::m` is an `int S::*`.
    check(
        "struct S { int m; double d; };\n\
         template<class T> void take(T) {}\n\
         void user() { take(&S::m); take(&S::d); }",
        "user",
        expect![[r#"
            _Z4takeIM1SiEvT_
            _Z4takeIM1SdEvT_
        "#]],
    );
}
