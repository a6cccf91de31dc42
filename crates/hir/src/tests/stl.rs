//! libstdc++'s container idioms, reduced: SFINAE through alias templates,
//! iterator adaptors, allocation chains (names checked against g++ `nm`).

use expect_test::{Expect, expect};

use crate::infer::{InferOwner, infer, render_calls};

fn check(text: &str, name: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let f = super::body::fn_named(&db, tu, name).expect("function");
    let r = infer(&db, InferOwner::Fn(f));
    want.assert_eq(&render_calls(&db, &r));
}

/// libstdc++'s iterator traits and `_RequireInputIter` (stl_iterator_base_types.h).
const ITER_TRAITS: &str = "namespace std {\n\
    template<typename...> using __void_t = void;\n\
    template<bool B, class T = void> struct enable_if {};\n\
    template<class T> struct enable_if<true, T> { typedef T type; };\n\
    template<bool B, class T = void> using __enable_if_t = typename enable_if<B, T>::type;\n\
    template<class T, T v> struct integral_constant { static constexpr T value = v; };\n\
    typedef integral_constant<bool, true> true_type; typedef integral_constant<bool, false> false_type;\n\
    template<class T> struct is_void : false_type {};\n\
    template<class From, class To, bool = is_void<From>::value> struct __is_convertible_helper { typedef true_type type; };\n\
    template<class From, class To> struct __is_convertible_helper<From, To, false> {\n\
      typedef integral_constant<bool, __is_base_of(To, From)> type; };\n\
    template<class From, class To> struct is_convertible : __is_convertible_helper<From, To>::type {};\n\
    struct input_iterator_tag {};\n\
    struct random_access_iterator_tag : input_iterator_tag {};\n\
    template<typename _Iterator, typename = __void_t<>> struct __iterator_traits { };\n\
    template<typename _Iterator> struct __iterator_traits<_Iterator, __void_t<typename _Iterator::iterator_category>> {\n\
      typedef typename _Iterator::iterator_category iterator_category; };\n\
    template<typename _Iterator> struct iterator_traits : public __iterator_traits<_Iterator> { };\n\
    template<class T> struct iterator_traits<T*> { typedef random_access_iterator_tag iterator_category; };\n\
    template<class It> using __iterator_category_t = typename iterator_traits<It>::iterator_category;\n\
    template<class It> using _RequireInputIter = __enable_if_t<is_convertible<__iterator_category_t<It>, input_iterator_tag>::value>;\n\
    }\n";

#[test]
fn require_input_iter_rejects_integers() {
    // `vector<int>(3, 4)`: deducing `It = int` for the range constructor
    // makes its default argument `_RequireInputIter<int>` ill-formed
    // (`iterator_traits<int>` has no `iterator_category`): a deduction
    // failure, so the count constructor is called.
    check(
        &format!(
            "{ITER_TRAITS}namespace std {{ template<class T> struct vector {{\n\
               vector(unsigned long n, const T& v);\n\
               template<class It, class = _RequireInputIter<It>> vector(It a, It b); }}; }}\n\
             void user() {{ std::vector<int> v(3, 4); int* p = 0; std::vector<int> w(p, p); }}"
        ),
        "user",
        expect![[r#"
            _ZNSt6vectorIiEC1EmRKi
            _ZNSt6vectorIiEC1IPivEET_S3_
        "#]],
    );
}

/// Every name the unit's symbol list holds (sorted; errors as `error: …`).
fn entities(text: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    want.assert_eq(&super::entity_names(&db, tu));
}

#[test]
fn local_constants_as_template_arguments() {
    // `k<BLOCK>(…)` with `constexpr int BLOCK` (and const integral or
    // enumeration locals with constant initializers) in a function template.
    entities(
        "template<int B, class T> void k(T* p, int n) {}\n\
         enum E { E3 = 3 };\n\
         template<E e> void g() {}\n\
         template<class T> T run(T* p) { constexpr int BLOCK = 256; const int blocks = BLOCK / 2; const E e = E3;\n\
           k<BLOCK>(p, 1); k<blocks + 1>(p, 2); g<e>(); return T(); }\n\
         void user() { float* p = 0; run(p); }",
        expect![[r#"
            _Z1gIL1E3EEvv
            _Z1kILi129EfEvPT0_i
            _Z1kILi256EfEvPT0_i
            _Z3runIfET_PS0_
            _Z4userv
        "#]],
    );
}

#[test]
fn qualification_conversion_in_deduction() {
    // `const T*` from `float*` deduces `T = float` ([temp.deduct.call]/4.2).
    check(
        "template <int B, typename T> void f(const T *in, T* out) {}\n\
         template <typename T> void g(const volatile T *in) {}\n\
         void u(float* p, const int* q) { f<1>(p, p); g(p); g(q); }",
        "u",
        expect![[r#"
            _Z1fILi1EfEvPKT0_PS0_
            _Z1gIfEvPVKT_
            _Z1gIiEvPVKT_
        "#]],
    );
}

#[test]
fn common_type_through_a_conditional_in_decltype() {
    // libstdc++'s `common_type<T, U>`: `decltype(true ? declval<T>() :
    // declval<U>())` (same types keep their category; arithmetic types
    // take the usual arithmetic conversions), decayed.
    check(
        "namespace std {\n\
         template<class T> T&& declval() noexcept;\n\
         template<class T> struct remove_reference { typedef T type; };\n\
         template<class T> struct remove_reference<T&> { typedef T type; };\n\
         template<class T> struct remove_reference<T&&> { typedef T type; };\n\
         template<class T> struct __success_type { typedef T type; };\n\
         struct __failure_type {};\n\
         template<class... T> struct common_type;\n\
         struct __do_common_type_impl {\n\
           template<typename _Tp, typename _Up> using __cond_t = decltype(true ? std::declval<_Tp>() : std::declval<_Up>());\n\
           template<typename _Tp, typename _Up> static __success_type<typename remove_reference<__cond_t<_Tp, _Up>>::type> _S_test(int);\n\
           template<typename, typename> static __failure_type _S_test_2(...);\n\
           template<typename _Tp, typename _Up> static decltype(_S_test_2<_Tp, _Up>(0)) _S_test(...);\n\
         };\n\
         template<typename _Tp1, typename _Tp2> struct __common_type_impl : private __do_common_type_impl {\n\
           using type = decltype(_S_test<_Tp1, _Tp2>(0)); };\n\
         template<typename _Tp1, typename _Tp2> struct common_type<_Tp1, _Tp2> : public __common_type_impl<_Tp1, _Tp2>::type { };\n\
         }\n\
         template<class T> void f(T) {}\n\
         void user() { f(std::common_type<long, long>::type()); f(std::common_type<int, double>::type()); f(std::common_type<short, char>::type()); }",
        "user",
        expect![[r#"
            _Z1fIlEvT_
            _Z1fIdEvT_
            _Z1fIiEvT_
        "#]],
    );
}

#[test]
fn default_constructible_through_a_declared_constructor() {
    // `is_default_constructible<default_delete<T>>` (unique_ptr's
    // `_DeleterConstraint`): a declared constructor without parameters.
    check(
        "template<class T> struct default_delete { constexpr default_delete() noexcept = default;\n\
           template<class U> default_delete(const default_delete<U>&) noexcept {} void operator()(T* p) const { delete p; } };\n\
         template<bool B> void b() {}\n\
         struct Job { int a; };\n\
         void user() { b<__is_constructible(default_delete<Job>)>(); }",
        "user",
        expect![[r#"
            _Z1bILb1EEvv
        "#]],
    );
}

#[test]
fn inheriting_constructors() {
    // `using Impl<T>::Impl;` (libstdc++'s `__uniq_ptr_data`, variant's and
    // optional's storage bases): the base's constructors are candidates,
    // and g++ names the one chosen `<derived> CI1 <base> …` with the base
    // constructor's signature; it calls the base constructor. The
    // derived class's move constructor is not hidden; the base's copy
    // and move constructors are not inherited. Names checked against g++ `nm`.
    entities(
        "template<class T> struct Impl {\n\
           Impl() = default;\n\
           Impl(T* p) : p_(p) {}\n\
           template<class D> Impl(T* p, D&& d) : p_(p) {}\n\
           T* p_; };\n\
         template<class T> struct Data : Impl<T> { using Impl<T>::Impl; Data(Data&&) = default; };\n\
         struct B { B(int) {} };\n\
         struct D : B { using B::B; };\n\
         void user() { int x = 0; Data<int> a(&x); Data<int> b(&x, 1); Data<int> c; D d(3); }",
        expect![[r#"
            _Z4userv
            _ZN1BC1Ei
            _ZN1DCI11BEi
            _ZN4DataIiECI14ImplIiEEPi
            _ZN4DataIiECI14ImplIiEEv
            _ZN4DataIiECI14ImplIiEIiEEPiOT_
            _ZN4ImplIiEC1EPi
            _ZN4ImplIiEC1Ev
            _ZN4ImplIiEC1IiEEPiOT_
        "#]],
    );
}

#[test]
fn deduction_from_an_explicit_specialization() {
    // `this` in `promise<void>` (an explicit specialization) has the class
    // type, which deduces `promise<R>` with `R = void` (libstdc++'s
    // `promise<void>::set_value` calling `__setter(this)`). Checked against g++ `nm`.
    entities(
        "template<class R> struct promise { };\n\
         template<class R> int setter(promise<R>* p) { return 0; }\n\
         template<> struct promise<void> { void set(); void set2() { setter(this); } };\n\
         void promise<void>::set() { setter(this); }\n\
         void user() { promise<void> p; p.set2(); }",
        expect![[r#"
            _Z4userv
            _Z6setterIvEiP7promiseIT_E
            _ZN7promiseIvE3setEv
            _ZN7promiseIvE4set2Ev
        "#]],
    );
}

#[test]
fn partial_ordering_prefers_allocator_overloads() {
    // [temp.func.order]: `(_Fwd, _Size, allocator<_Tp>&)` is more
    // specialized than `(_Fwd, _Size, _Allocator&)`, whatever the names of
    // the parameters; the generic one still takes other allocators.
    check(
        "namespace std {\n\
         template<class T> struct allocator {};\n\
         template<class _ForwardIterator, class _Size, class _Allocator> _ForwardIterator __uninitialized_default_n_a(_ForwardIterator f, _Size n, _Allocator& a) { return f; }\n\
         template<class _ForwardIterator, class _Size, class _Tp> inline _ForwardIterator __uninitialized_default_n_a(_ForwardIterator f, _Size n, allocator<_Tp>&) { return f; }\n\
         template<class _ForwardIterator, class _Allocator> void _Destroy(_ForwardIterator, _ForwardIterator, _Allocator&) {}\n\
         template<class _ForwardIterator, class _Tp> void _Destroy(_ForwardIterator, _ForwardIterator, allocator<_Tp>&) {}\n\
         }\n\
         struct Other {};\n\
         void user() { std::allocator<float> a; float* p = 0; std::__uninitialized_default_n_a(p, 3ul, a); std::_Destroy(p, p, a); Other o; std::_Destroy(p, p, o); }",
        "user",
        expect![[r#"
            _ZSt27__uninitialized_default_n_aIPfmfET_S1_T0_RSaIT1_E
            _ZSt8_DestroyIPffEvT_S1_RSaIT0_E
            _ZSt8_DestroyIPf5OtherEvT_S2_RT0_
        "#]],
    );
}

#[test]
fn out_of_line_member_templates_match_by_position() {
    // basic_string's two `_M_construct` templates are both defined with
    // `_InIterator`: the definition of the `fwd_tag` one is the one whose
    // types match once the own parameters are compared by position.
    entities(
        "struct in_tag {}; struct fwd_tag : in_tag {};\n\
         template<class T> void from_input() {} template<class T> void from_forward() {}\n\
         template<class C> struct S {\n\
           template<class _InIterator> void build(_InIterator b, _InIterator e, in_tag);\n\
           template<class _FwdIterator> void build(_FwdIterator b, _FwdIterator e, fwd_tag);\n\
         };\n\
         template<class C> template<class _InIterator> void S<C>::build(_InIterator b, _InIterator e, in_tag) { from_input<C>(); }\n\
         template<class C> template<class _InIterator> void S<C>::build(_InIterator b, _InIterator e, fwd_tag) { from_forward<C>(); }\n\
         void user() { S<char> s; const char* p = 0; s.build(p, p, fwd_tag()); }",
        expect![[r#"
            _Z12from_forwardIcEvv
            _Z4userv
            _ZN1SIcE5buildIPKcEEvT_S4_7fwd_tag
        "#]],
    );
}

#[test]
fn derived_object_and_range_for_inequality() {
    // `ofstream << "P6"`: the implicit object binds through a
    // derived-to-base Conversion, so the non-member `operator<<(basic_ostream<char, T>&,
    // const char*)` (the more specialized of two templates) beats the member
    // `operator<<(const void*)`. A range-for's `__begin != __end` finds the
    // non-member `operator!=` of the iterator's namespace (the more
    // specialized one, with one iterator parameter). `Vec::begin`/`end`
    // are listed though only declared (g++'s `U` symbols).
    entities(
        "namespace std {\n\
         template<class C> struct char_traits {};\n\
         template<class C, class T = char_traits<C>> struct basic_ostream {\n\
           basic_ostream& operator<<(const void* p) { return *this; }\n\
           basic_ostream& operator<<(int n) { return *this; }\n\
         };\n\
         template<class C, class T> basic_ostream<C, T>& operator<<(basic_ostream<C, T>& o, const C* s) { return o; }\n\
         template<class T> basic_ostream<char, T>& operator<<(basic_ostream<char, T>& o, const char* s) { return o; }\n\
         template<class C, class T = char_traits<C>> struct basic_ofstream : basic_ostream<C, T> {};\n\
         }\n\
         namespace gx {\n\
         template<class I, class C> struct normal_iterator { I p; I base() const { return p; } normal_iterator& operator++() { ++p; return *this; } int& operator*() const { return *p; } };\n\
         template<class L, class R, class C> bool operator!=(const normal_iterator<L, C>& a, const normal_iterator<R, C>& b) { return a.base() != b.base(); }\n\
         template<class I, class C> bool operator!=(const normal_iterator<I, C>& a, const normal_iterator<I, C>& b) { return a.base() != b.base(); }\n\
         }\n\
         struct Vec { gx::normal_iterator<int*, Vec> begin(); gx::normal_iterator<int*, Vec> end(); };\n\
         void user(Vec& v) { std::basic_ofstream<char> out; out << \"P6\" << 3; for (int x : v) (void)x; }",
        expect![[r#"
            _Z4userR3Vec
            _ZN2gx15normal_iteratorIPi3VecEppEv
            _ZN2gxneIPi3VecEEbRKNS_15normal_iteratorIT_T0_EES8_
            _ZN3Vec3endEv
            _ZN3Vec5beginEv
            _ZNK2gx15normal_iteratorIPi3VecE4baseEv
            _ZNK2gx15normal_iteratorIPi3VecEdeEv
            _ZNSolsEi
            _ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc
        "#]],
    );
}

#[test]
fn nttp_type_substitution_failure_removes_candidate() {
    // `enable_if_t<…, int> = 0` as a non-type parameter: the disabled
    // overload is not viable, even where partial ordering would prefer it.
    check(
        "template<bool B, class T = void> struct enable_if {}; template<class T> struct enable_if<true, T> { typedef T type; };\n\
         template<bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;\n\
         template<class T> struct is_int { static constexpr bool value = false; }; template<> struct is_int<int> { static constexpr bool value = true; };\n\
         template<class P> struct policy {};\n\
         template<class P, class T, enable_if_t<!is_int<T>::value, int> = 0> void pick(P&, T) {}\n\
         template<class P, class T, enable_if_t<is_int<T>::value, int> = 0> void pick(policy<P>&, T) {}\n\
         void user() { policy<char> p; pick(p, 1.0); pick(p, 1); }",
        "user",
        expect![[r#"
            _Z4pickI6policyIcEdLi0EEvRT_T0_
            _Z4pickIciLi0EEvR6policyIT_ET0_
        "#]],
    );
}

#[test]
fn using_declared_base_member_binds_as_the_naming_class_member() {
    // libstdc++'s `_Insert` brings `_Insert_base::insert(const value_type&)`
    // in with a using-declaration beside its own `insert(_Pair&&)`
    // template: both take the object as an `_Insert` ([over.match.funcs]/4),
    // so the tie goes to the non-template (checked with g++ 12 `nm`).
    entities(
        "template <class T> struct Base { int insert(const T& v) { return 1; } };\n\
         template <class T> struct Ins : Base<T> {\n\
           using Base<T>::insert;\n\
           template <class P> long insert(P&& p) { return 2; }\n\
         };\n\
         struct Table : Ins<int> {\n\
           void fill(const int* f, const int* l) { for (; f != l; ++f) this->insert(*f); }\n\
         };\n\
         void user(Table& t, const int* a) { t.fill(a, a + 1); }",
        expect![[r#"
            _Z4userR5TablePKi
            _ZN4BaseIiE6insertERKi
            _ZN5Table4fillEPKiS1_
        "#]],
    );
}

#[test]
fn member_template_partial_specialization_in_sfinae() {
    // libstdc++'s `__shared_count<_Lp>::__not_alloc_shared_tag`: a member
    // template of a class template whose partial specialization has no
    // `type` removes the deleter constructors for `_Sp_alloc_shared_tag`.
    check(
        "template<typename A> struct Tag { };\n\
         template<int L> struct C {\n\
           template<typename T> struct N { using type = void; };\n\
           template<typename T> struct N<Tag<T>> { };\n\
           template<typename T, typename = typename N<T>::type> static void g(T t) { }\n\
           template<typename T> static void g(T t, int = 0) { }\n\
           template<typename T> static typename N<T>::type k(T t) { }\n\
           template<typename T> static void k(T t, int = 0) { }\n\
         };\n\
         void user() { Tag<int> t; C<2>::g(t); C<2>::k(t); }",
        "user",
        expect![[r#"
            _ZN1CILi2EE1gI3TagIiEEEvT_i
            _ZN1CILi2EE1kI3TagIiEEEvT_i
        "#]],
    );
}

#[test]
fn void_t_of_an_ill_formed_argument_is_a_substitution_failure() {
    // `__uniq_ptr_impl::_Ptr`: `__void_t<typename remove_reference<_Ep>::type::pointer>`
    // is ill-formed (not `void`) for a deleter without `pointer`.
    check(
        "template<typename...> using __void_t = void;\n\
         template<typename T> struct remove_reference { typedef T type; };\n\
         template<typename T> struct DD { };\n\
         template<typename T> struct PD { typedef long* pointer; };\n\
         template<typename _Tp, typename _Dp> struct U {\n\
           template<typename _Up, typename _Ep, typename = void> struct _Ptr { using type = _Up*; };\n\
           template<typename _Up, typename _Ep> struct _Ptr<_Up, _Ep, __void_t<typename remove_reference<_Ep>::type::pointer>> {\n\
             using type = typename remove_reference<_Ep>::type::pointer; };\n\
           using pointer = typename _Ptr<_Tp, _Dp>::type;\n\
           static void f(pointer p) {}\n\
         };\n\
         void user() { U<int, DD<int>>::f(0); U<int, PD<int>>::f(0); }",
        "user",
        expect![[r#"
            _ZN1UIi2DDIiEE1fEPi
            _ZN1UIi2PDIiEE1fEPl
        "#]],
    );
}

#[test]
fn dependent_member_in_a_template_argument_is_spelled() {
    // `make_shared`'s `shared_ptr<_NonArray<_Tp>>`: g++ spells the alias's
    // `typename enable_if<!is_array<_Tp>::value, _Tp>::type` as written
    // (the placeholders must not evaluate the primary `is_array`).
    check(
        "namespace std {\n\
         template<bool B, class T = void> struct enable_if {};\n\
         template<class T> struct enable_if<true, T> { typedef T type; };\n\
         template<bool _Cond, typename _Tp = void> using __enable_if_t = typename enable_if<_Cond, _Tp>::type;\n\
         template<class T> struct is_array { static constexpr bool value = false; };\n\
         template<class T> struct sp { };\n\
         template<typename _Tp> using _NonArray = __enable_if_t<!is_array<_Tp>::value, _Tp>;\n\
         template<typename _Tp, typename... _Args> inline sp<_NonArray<_Tp>> make_shared(_Args&&... __args) { return sp<_Tp>(); }\n\
         template<typename _Tp> inline sp<__enable_if_t<!is_array<_Tp>::value, _Tp>> ms2() { return sp<_Tp>(); }\n\
         template<typename _Tp> inline sp<typename enable_if<!is_array<_Tp>::value, _Tp>::type> ms3() { return sp<_Tp>(); }\n\
         }\n\
         void user() { std::make_shared<int>(1); std::ms2<int>(); std::ms3<int>(); }",
        "user",
        expect![[r#"
            _ZSt11make_sharedIiJiEESt2spINSt9enable_ifIXntsrSt8is_arrayIT_E5valueES3_E4typeEEDpOT0_
            _ZSt3ms2IiESt2spINSt9enable_ifIXntsrSt8is_arrayIT_E5valueES3_E4typeEEv
            _ZSt3ms3IiESt2spINSt9enable_ifIXntsrSt8is_arrayIT_E5valueES3_E4typeEEv
        "#]],
    );
}

#[test]
fn defaulted_destructor_of_a_base_is_not_trivial_by_declaration() {
    // `shared_ptr` declares no destructor; `__shared_ptr`'s is `= default`
    // but its `__shared_count` member's is user-provided: the implicit
    // destructors are non-trivial and emitted (`_ZN2spIiED1Ev`, `_ZN2S3D1Ev`).
    check(
        "struct cnt { ~cnt() {} };\n\
         template<class T> struct base { ~base() = default; cnt c; };\n\
         struct B3 { ~B3() = default; cnt c; };\n\
         template<class T> struct sp : public base<T> { };\n\
         struct S3 : B3 {};\n\
         void user() { sp<int> q; S3 s3; }",
        "user",
        expect![[r#"
            _ZN2S3D1Ev
            _ZN2spIiED1Ev
        "#]],
    );
}

#[test]
fn hidden_friend_not_found_by_adl_is_a_substitution_failure() {
    // `__shared_ptr::__has_esft_base`: `__esft_base_t<V>` calls a hidden
    // friend of `enable_shared_from_this` that ADL cannot find for `V*`:
    // the partial specialization does not match, `has<V>` is false.
    check(
        "namespace std {\n\
         template<class T> T&& declval();\n\
         template<typename...> using __void_t = void;\n\
         struct false_type { static constexpr bool value = false; };\n\
         struct true_type { static constexpr bool value = true; };\n\
         template<bool B, class T = void> struct enable_if {};\n\
         template<class T> struct enable_if<true, T> { typedef T type; };\n\
         template<class T> struct esft { friend const esft* __esft_base(const esft* p) { return p; } };\n\
         template<class T> struct sp {\n\
           template<class Y> using __esft_base_t = decltype(__esft_base(declval<Y*>()));\n\
           template<class Y, class = void> struct has : false_type {};\n\
           template<class Y> struct has<Y, __void_t<__esft_base_t<Y>>> : true_type {};\n\
           template<class Y> typename enable_if<has<Y>::value>::type with(Y*) {}\n\
           template<class Y> typename enable_if<!has<Y>::value>::type with(Y*) {}\n\
         };\n\
         }\n\
         struct V {};\n\
         struct W : std::esft<W> {};\n\
         void user() { V* v = 0; std::sp<V> a; a.with(v); W* w = 0; std::sp<W> b; b.with(w); }",
        "user",
        expect![[r#"
            _ZNSt2spI1VE4withIS0_EENSt9enable_ifIXntsrNS1_3hasIT_vEE5valueEvE4typeEPS5_
            _ZNSt2spI1WE4withIS0_EENSt9enable_ifIXsrNS1_3hasIT_vEE5valueEvE4typeEPS5_
        "#]],
    );
}

#[test]
fn member_of_a_typedef_naming_a_plain_class() {
    // `__uniq_ptr_impl::_Ptr`'s partial specialization asks for
    // `remove_reference<_Ep>::type::pointer`; with a deleter that is a
    // plain (non-template) nested class without `pointer`, substitution
    // fails and the primary (`_Up*`) is chosen; with one that has it,
    // `pointer` is the deleter's (names checked against g++ `nm`).
    super::calls(
        "namespace std {\n\
         template<typename...> using __void_t = void;\n\
         template<class T> struct remove_reference { typedef T type; };\n\
         template<class T> struct remove_reference<T&> { typedef T type; };\n\
         template <typename _Tp, typename _Dp> class __uniq_ptr_impl {\n\
           template <typename _Up, typename _Ep, typename = void> struct _Ptr { using type = _Up*; };\n\
           template <typename _Up, typename _Ep> struct _Ptr<_Up, _Ep, __void_t<typename remove_reference<_Ep>::type::pointer>> { using type = typename remove_reference<_Ep>::type::pointer; };\n\
         public:\n\
           using pointer = typename _Ptr<_Tp, _Dp>::type;\n\
           pointer _M_p;\n\
           pointer _M_ptr() const { return _M_p; } };\n\
         template<class T, class D> class unique_ptr { __uniq_ptr_impl<T, D> _M_t;\n\
         public: using pointer = typename __uniq_ptr_impl<T, D>::pointer;\n\
           pointer get() const { return _M_t._M_ptr(); }\n\
           void reset(pointer p) { } }; }\n\
         struct R { struct D { void operator()(R*) const; }; };\n\
         struct P { struct D { typedef long pointer; }; };\n\
         void user() { std::unique_ptr<R, R::D> u; u.get(); u.reset(0); std::unique_ptr<P, P::D> v; v.reset(0); }",
        "user",
        expect![[r#"
            _ZNKSt10unique_ptrI1RNS0_1DEE3getEv
            _ZNSt10unique_ptrI1RNS0_1DEE5resetEPS0_
            _ZNSt10unique_ptrI1PNS0_1DEE5resetEl
        "#]],
    );
}

#[test]
fn this_of_an_instance_deduces_its_template_id() {
    // `promise<_Res>*` deduced from `this` inside `promise<int>` (an
    // instance of the primary) and inside `promise<long&>` (an instance of
    // the partial specialization `promise<R&>`): libstdc++'s
    // `_State_baseV2::__setter(this, …)` (names checked against g++ `nm`).
    super::closure(
        "template<class R> class promise;\n\
         struct FB {\n\
           template<class R, class A> struct S { };\n\
           template<typename _Res, typename _Arg>\n\
           static S<_Res, _Arg&&> setter(promise<_Res>* p, _Arg&& a) noexcept { return S<_Res, _Arg&&>(); } };\n\
         template<class R> class promise { public: void set(R&& r) { FB::setter(this, static_cast<R&&>(r)); } };\n\
         template<class R> class promise<R&> { public: void set(R& r) { FB::setter(this, r); } };\n\
         void user() { promise<int> p; p.set(1); promise<long&> q; long l = 0; q.set(l); }",
        expect![[r#"
            _Z4userv
            _ZN7promiseIiE3setEOi
            _ZN7promiseIRlE3setES0_
            _ZN2FB6setterIiiEENS_1SIT_OT0_EEP7promiseIS2_ES4_
            _ZN2FB6setterIRlS1_EENS_1SIT_OT0_EEP7promiseIS3_ES5_
        "#]],
    );
}

#[test]
fn defaulted_special_members_use_the_members_ones() {
    // `__shared_ptr(const __shared_ptr&) noexcept = default;` copies its
    // `__shared_count` through that class's copy constructor (the source's
    // members are const: `__shared_count`'s `template<class _Ptr> explicit
    // __shared_count(_Ptr)` does not beat it), like the implicit one would
    // (names checked against g++ `nm`).
    super::closure(
        "template<class U> struct Count { Count() {} Count(const Count&) {} template<class P> explicit Count(P p) {} ~Count() {} };\n\
         template<class T> struct SP { T* p; Count<T> c; SP() {} SP(const SP&) = default; ~SP() = default; };\n\
         void user() { SP<int> a; SP<int> b(a); }",
        expect![[r#"
            _Z4userv
            _ZN2SPIiEC1Ev
            _ZN2SPIiEC1ERKS0_
            _ZN2SPIiED1Ev
            _ZN5CountIiEC1Ev
            _ZN5CountIiEC1ERKS0_
            _ZN5CountIiED1Ev
        "#]],
    );
}

#[test]
fn class_parameters_copy_or_move_their_argument() {
    // A parameter of class type initialized from a glvalue of its class is
    // copy- or move-constructed (`pair(piecewise_construct_t, tuple<_Args1...>,
    // tuple<_Args2...>)` given `std::forward<tuple<string&&>>(t)`): the
    // defaulted constructors of the instance are emitted, unless the class
    // is trivially copyable (`Pod<int>`).
    entities(
        "struct I { I(I&&) {} I(const I&) {} };\n\
         template<class T> struct Tup { I i; Tup(Tup&&) = default; Tup(const Tup&) = default; };\n\
         template<class T> struct Pod { T a; Pod() {} Pod(const Pod&) = default; };\n\
         void take(Tup<int> b) {}\n\
         void take2(Tup<long> b) {}\n\
         void take3(Pod<int> b) {}\n\
         void user(Tup<int>& x, Tup<long>& y, Pod<int>& z) { take(static_cast<Tup<int>&&>(x)); take2(y); take3(z); }\n",
        expect![[r#"
            _Z4take3TupIiE
            _Z4userR3TupIiERS_IlER3PodIiE
            _Z5take23TupIlE
            _Z5take33PodIiE
            _ZN1IC1EOS_
            _ZN1IC1ERKS_
            _ZN3TupIiEC1EOS0_
            _ZN3TupIlEC1ERKS0_
        "#]],
    );
}

#[test]
fn pod_comparator_of_a_nested_class_template() {
    // `_Rb_tree<…, less<string>>::_Rb_tree_impl<_Key_compare, bool =
    // __is_pod(_Key_compare)>`: `less<T>` derives from an empty
    // `binary_function`, which leaves it standard-layout and so a POD
    // (`Lb1`); the implicit destructor of the member is emitted too.
    entities(
        "template<class A> struct bf {};\n\
         template<class T> struct less : bf<T> { bool operator()(const T& a, const T& b) const { return a < b; } };\n\
         struct Alloc { Alloc() {} ~Alloc() {} };\n\
         template<class K, class C> struct Tree {\n\
           template<class KC, bool = __is_pod(KC)> struct Impl : Alloc { Impl() : Alloc() {} };\n\
           Impl<C> m;\n\
           Tree() = default;\n\
           ~Tree() {}\n\
         };\n\
         void user() { Tree<int, less<int>> t; }\n",
        expect![[r#"
            _Z4userv
            _ZN4TreeIi4lessIiEE4ImplIS1_Lb1EEC1Ev
            _ZN4TreeIi4lessIiEE4ImplIS1_Lb1EED1Ev
            _ZN4TreeIi4lessIiEEC1Ev
            _ZN4TreeIi4lessIiEED1Ev
            _ZN5AllocC1Ev
            _ZN5AllocD1Ev
        "#]],
    );
}

#[test]
fn standard_layout_classes_with_bases() {
    // [class.prop]/3: bases do not make a class non-standard-layout unless
    // two classes of the hierarchy declare data members or the first
    // member's type is a base (`K<P, N>` records each answer).
    entities(
        "struct E {}; struct D { int x; };\n\
         struct A : E { int a; };\n\
         struct B : D { int b; };\n\
         struct C : E { E e; int c; };\n\
         struct F : D {};\n\
         struct G : F, E {};\n\
         template<bool P, int N> struct K { K() {} };\n\
         void user() { K<__is_standard_layout(A), 1> a; K<__is_standard_layout(B), 2> b; K<__is_standard_layout(C), 3> c; K<__is_standard_layout(F), 4> f; K<__is_pod(G), 5> g; }\n",
        expect![[r#"
            _Z4userv
            _ZN1KILb0ELi2EEC1Ev
            _ZN1KILb0ELi3EEC1Ev
            _ZN1KILb1ELi1EEC1Ev
            _ZN1KILb1ELi4EEC1Ev
            _ZN1KILb1ELi5EEC1Ev
        "#]],
    );
}

/// Partial ordering of member templates of a class template
/// specialization: a parameter of the class's type (`T&`, `T = int`) is
/// more specialized than a deduced one (`Op&`): CUB's
/// `BlockScan<int, …>::ExclusiveSum(T (&)[N], T (&)[N], T& aggregate)`
/// over `ExclusiveSum(…, BlockPrefixCallbackOp&)`. Names from g++ 12.
#[test]
fn partial_ordering_with_the_class_template_parameter_substituted() {
    check(
        "template<class T> struct BS {
           template<int N> void sum(T (&in)[N], T (&out)[N], T& agg) {}
           template<int N, class Op> void sum(T (&in)[N], T (&out)[N], Op& op) {}
           template<class Op> void scan2(T in, T& out, T init, Op op) {}
           template<class Op> void scan2(T in, T& out, Op op, T& agg) {}
         };
         void user() { BS<int> b; int in[4], out[4]; int agg; b.sum(in, out, agg); int o; b.scan2(1, o, 2, 3); }",
        "user",
        expect![[r#"
            _ZN2BSIiE3sumILi4EEEvRAT__iS3_Ri
            _ZN2BSIiE5scan2IiEEviRiiT_
        "#]],
    );
}

/// Partial ordering with array bounds that are value parameters: the
/// synthesized bound of one template deduces the other's (`T (&)[N]`
/// against `T (&)[N']`), so `h(T (&)[N], T (&)[N])` is more specialized
/// than `h(T (&)[N], U (&)[N])`, and CUB's `BlockScan<int>::ExclusiveSum(T
/// (&)[N], T (&)[N], T&)` than its `(…, BlockPrefixCallbackOp&)`. Names
/// from g++ 12.
#[test]
fn partial_ordering_through_value_parameter_array_bounds() {
    check(
        "template<class T, int N> void h(T (&a)[N], T (&b)[N]) {}
         template<class T, class U, int N> void h(T (&a)[N], U (&b)[N]) {}
         template<class T> struct BS {
           template<int N> void sum(T (&in)[N], T& agg) {}
           template<int N, class PrefixOp> void sum(T (&in)[N], PrefixOp& op) {}
         };
         void user() { int x[4], y[4]; h(x, y); BS<int> b; int agg; b.sum(x, agg); }",
        "user",
        expect![[r#"
            _Z1hIiLi4EEvRAT0__T_S2_
            _ZN2BSIiE3sumILi4EEEvRAT__iRi
        "#]],
    );
}
