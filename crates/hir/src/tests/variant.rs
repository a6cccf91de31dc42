//! libstdc++'s `variant` machinery, reduced: the converting constructor's
//! alternative chosen by overload resolution over imaginary functions
//! `FUN(Ti)` that exist only where `Ti x[] = {t}` does not narrow, and the
//! base chain picked by `__is_trivially_*` on the alternatives (names
//! checked against g++ 12 `nm`).

use expect_test::{Expect, expect};

use crate::infer::{InferOwner, infer, render_calls};
use crate::static_asserts::{Outcome, evaluate, unit_asserts};

fn check_calls(text: &str, name: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let f = super::body::fn_named(&db, tu, name).expect("function");
    let r = infer(&db, InferOwner::Fn(f));
    want.assert_eq(&render_calls(&db, &r));
}

/// Every assert of the unit must evaluate to true.
fn check_asserts_true(text: &str) {
    let (db, tu) = super::db_with(text);
    let all = unit_asserts(&db, tu);
    assert!(!all.is_empty());
    for a in all.iter() {
        let o = evaluate(&db, tu, a);
        assert!(matches!(o, Outcome::True), "assert at {} is {o:?}", a.offset);
    }
}

#[test]
fn narrowing_excludes_alternatives() {
    // `_Build_FUN<I, T, Ti>` gets its `_S_fun(Ti)` only when
    // `_Arr<Ti>{{declval<T>()}}` is well-formed: double → int and
    // double → bool narrow (not constant expressions), int → bool and
    // int → double too, bool → int does not. The using-declaration is a
    // pack expansion over the bases.
    check_calls(
        "namespace std {\n\
         template<class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template<typename...> using void_t = void;\n\
         template<class T> T&& declval() noexcept;\n\
         template<unsigned long... I> struct index_sequence {};\n\
         template<typename _Ti> struct _Arr { _Ti _M_x[1]; };\n\
         template<unsigned long _Ind, typename _Tp, typename _Ti, typename = void>\n\
         struct _Build_FUN { void _S_fun(); };\n\
         template<unsigned long _Ind, typename _Tp, typename _Ti>\n\
         struct _Build_FUN<_Ind, _Tp, _Ti, void_t<decltype(_Arr<_Ti>{{std::declval<_Tp>()}})>>\n\
         { static integral_constant<unsigned long, _Ind> _S_fun(_Ti); };\n\
         template<typename _Tp, typename _Seq, typename... _Ti> struct _Build_FUNs;\n\
         template<typename _Tp, unsigned long... _Ind, typename... _Ti>\n\
         struct _Build_FUNs<_Tp, index_sequence<_Ind...>, _Ti...> : _Build_FUN<_Ind, _Tp, _Ti>... {\n\
           using _Build_FUN<_Ind, _Tp, _Ti>::_S_fun...;\n\
         };\n\
         template<class... T> struct variant {\n\
           template<class U, class I = decltype(_Build_FUNs<U, index_sequence<0, 1, 2>, T...>::_S_fun(std::declval<U>()))>\n\
           variant(U&&, I = I()) {}\n\
         };\n\
         }\n\
         void user() { std::variant<int, double, bool> a(1.5), b(2), c(true); }",
        "user",
        expect![[r#"
            _ZNSt7variantIJidbEEC1IdSt17integral_constantImLm1EEEEOT_T0_
            _ZNSt7variantIJidbEEC1IiSt17integral_constantImLm0EEEEOT_T0_
            _ZNSt7variantIJidbEEC1IbSt17integral_constantImLm2EEEEOT_T0_
        "#]],
    );
}

#[test]
fn trivially_constructible_and_assignable_classes() {
    // The selected constructor or `operator=`: user-provided or a template
    // is not trivial; a defaulted one is when the bases' and members' are.
    check_asserts_true(
        "struct S { S(); S(const S&); S(S&&); ~S(); S& operator=(const S&); };\n\
         struct P { int a; S s; P(const P&) = default; P& operator=(const P&) = default; };\n\
         struct Q { int a; double b; Q(const Q&) = default; Q& operator=(const Q&); Q(int); };\n\
         template<class T> struct W { T t; W(const W&) = default; template<class U> W(U&&); };\n\
         static_assert(!__is_trivially_constructible(S, const S&));\n\
         static_assert(!__is_trivially_constructible(P, const P&));\n\
         static_assert(!__is_trivially_assignable(P&, const P&));\n\
         static_assert(__is_trivially_constructible(Q, const Q&));\n\
         static_assert(__is_trivially_constructible(Q, Q&&));\n\
         static_assert(!__is_trivially_assignable(Q&, const Q&));\n\
         static_assert(!__is_trivially_constructible(Q, int));\n\
         static_assert(__is_trivially_constructible(W<int>, const W<int>&));\n\
         static_assert(!__is_trivially_constructible(W<int>, W<int>&));\n\
         static_assert(!__is_trivially_constructible(W<S>, const W<S>&));\n",
    );
}

#[test]
fn reference_member_of_const_object() {
    // A reference member names its referee whatever the object's cv: a
    // non-const member function is callable through it from a const
    // member function (`_AllocNode::operator() const` calls
    // `_M_h._M_allocate_node(…)`), and through a const object.
    let text = "struct A { void g(); };\n\
                struct B { A& a; void h() const; };\n\
                void B::h() const { a.g(); }\n\
                void user(const B& b) { b.a.g(); }";
    check_calls(
        text,
        "h",
        expect![[r#"
        _ZN1A1gEv
    "#]],
    );
    check_calls(
        text,
        "user",
        expect![[r#"
        _ZN1A1gEv
    "#]],
    );
}

#[test]
fn void_alias_orders_partial_specializations() {
    // libstdc++'s `common_type<T1, T2, R...>` folds through
    // `__common_type_fold<CT, __common_type_pack<R...>, __void_t<typename CT::type>>`,
    // more specialized than `__common_type_fold<CT, R, void>`: the alias
    // names `void` whatever its argument, so partial ordering sees `void`.
    check_asserts_true(
        "template<typename...> using __void_t = void;\n\
         template<class T> struct id { typedef T type; };\n\
         template<typename...> struct common_type;\n\
         template<typename T1, typename T2> struct common_type<T1, T2> : id<T1> {};\n\
         template<typename...> struct __common_type_pack {};\n\
         template<typename, typename, typename = void> struct __common_type_fold;\n\
         template<typename _Tp1, typename _Tp2, typename... _Rp>\n\
         struct common_type<_Tp1, _Tp2, _Rp...> : public __common_type_fold<common_type<_Tp1, _Tp2>, __common_type_pack<_Rp...>> {};\n\
         template<typename _CTp, typename... _Rp>\n\
         struct __common_type_fold<_CTp, __common_type_pack<_Rp...>, __void_t<typename _CTp::type>> : public common_type<typename _CTp::type, _Rp...> {};\n\
         template<typename _CTp, typename _Rp>\n\
         struct __common_type_fold<_CTp, _Rp, void> {};\n\
         template<class A, class B> struct is_same { static constexpr bool value = false; };\n\
         template<class A> struct is_same<A, A> { static constexpr bool value = true; };\n\
         static_assert(is_same<common_type<long, long, long>::type, long>::value);\n",
    );
}

#[test]
fn gen_vtable_impl_picks_the_leaf_specialization() {
    // `__gen_vtable_impl<_Multi_array<R (*)(V, Vs...)>, …>` matches both
    // partial specializations (the first with `__dimensions...` empty):
    // the second, without the dimension pack, is more specialized and is
    // the one that declares `__visit_invoke`.
    check_calls(
        "namespace std {\n\
         template<unsigned long... I> struct index_sequence {};\n\
         template<typename _Tp, unsigned long... _Dims> struct _Multi_array { _Tp _M_data; };\n\
         template<typename _Ret, typename _Visitor, typename... _Variants, unsigned long __first, unsigned long... __rest>\n\
         struct _Multi_array<_Ret(*)(_Visitor, _Variants...), __first, __rest...> {\n\
           using _Tp = _Ret(*)(_Visitor, _Variants...);\n\
           _Multi_array<_Tp, __rest...> _M_arr[__first];\n\
         };\n\
         template<typename _Array_type, typename _Index_seq> struct __gen_vtable_impl;\n\
         template<typename _Result_type, typename _Visitor, unsigned long... __dimensions, typename... _Variants, unsigned long... __indices>\n\
         struct __gen_vtable_impl<_Multi_array<_Result_type (*)(_Visitor, _Variants...), __dimensions...>, std::index_sequence<__indices...>> {\n\
           static constexpr int _S_apply() { return 0; }\n\
         };\n\
         template<typename _Result_type, typename _Visitor, typename... _Variants, unsigned long... __indices>\n\
         struct __gen_vtable_impl<_Multi_array<_Result_type (*)(_Visitor, _Variants...)>, std::index_sequence<__indices...>> {\n\
           static _Result_type __visit_invoke(_Visitor&& __visitor, _Variants... __vars) { return __visitor(__vars...); }\n\
         };\n\
         }\n\
         struct P { void operator()(int) {} };\n\
         void user(int i) {\n\
           using _Ma = std::_Multi_array<void (*)(P&&, int&&)>;\n\
           std::__gen_vtable_impl<_Ma, std::index_sequence<0>>::__visit_invoke(P{}, static_cast<int&&>(i));\n\
         }",
        "user",
        expect![[r#"
            _ZNSt17__gen_vtable_implISt12_Multi_arrayIPFvO1POiEJEESt14index_sequenceIJLm0EEEE14__visit_invokeES2_S3_
        "#]],
    );
}

#[test]
fn block_scope_using_declaration_of_a_class_template() {
    // `std::__do_visit` writes `using __detail::__variant::__gen_vtable_impl;`
    // and then `__gen_vtable_impl<_Ma, …>::__visit_invoke(…)`: the bare
    // template name must find the template the using-declaration names.
    check_calls(
        "namespace std {\n\
         template<typename _Tp, _Tp... _Idx> struct integer_sequence {};\n\
         template<unsigned long... I> using index_sequence = integer_sequence<unsigned long, I...>;\n\
         namespace __detail { namespace __variant {\n\
         template<typename _Tp, unsigned long... _Dims> struct _Multi_array { _Tp _M_data; };\n\
         template<typename _Array_type, typename _Index_seq> struct __gen_vtable_impl;\n\
         template<typename _Result_type, typename _Visitor, typename... _Variants, unsigned long... __indices>\n\
         struct __gen_vtable_impl<_Multi_array<_Result_type (*)(_Visitor, _Variants...)>, std::index_sequence<__indices...>> {\n\
           static void __visit_invoke(_Visitor&& __visitor, _Variants... __vars) { }\n\
         };\n\
         }}\n\
         }\n\
         struct P { void operator()(int) {} };\n\
         void u2(int i) {\n\
           using std::__detail::__variant::_Multi_array;\n\
           using std::__detail::__variant::__gen_vtable_impl;\n\
           using _Ma = _Multi_array<void (*)(P&&, int&&)>;\n\
           __gen_vtable_impl<_Ma, std::index_sequence<0>>::__visit_invoke(P{}, static_cast<int&&>(i));\n\
         }",
        "u2",
        expect![[r#"
            _ZNSt8__detail9__variant17__gen_vtable_implINS0_12_Multi_arrayIPFvO1POiEJEEESt16integer_sequenceImJLm0EEEE14__visit_invokeES4_S5_
        "#]],
    );
}

#[test]
fn if_constexpr_on_pack_size_and_constant_locals() {
    // `std::__do_visit`: `if constexpr (sizeof...(_Variants) == 0)`, then
    // `if constexpr (sizeof...(_Variants) > 1 || __n > __max)` over two
    // `constexpr` locals (one `auto`, from a variable template): only the
    // selected branch is instantiated.
    super::closure(
        "template<class T> struct size_of { static constexpr unsigned long value = 4; };\n\
         template<class T> inline constexpr unsigned long size_v = size_of<T>::value;\n\
         template<class T> void many(T) {}\n\
         template<class T> void few(T) {}\n\
         template<class T> void none(T) {}\n\
         template<class F, class... Vs> void visit(F f, Vs... vs) {\n\
           if constexpr (sizeof...(Vs) == 0)\n\
             none(f);\n\
           else {\n\
             constexpr unsigned long __max = 11;\n\
             constexpr auto __n = size_v<F>;\n\
             if constexpr (sizeof...(Vs) > 1 || __n > __max)\n\
               many(f);\n\
             else\n\
               few(f);\n\
           }\n\
         }\n\
         void user() { visit(1, 2); }\n",
        expect![[r#"
            _Z4userv
            _Z5visitIiJiEEvT_DpT0_
            _Z6size_vIiE
            _Z3fewIiEvT_
        "#]],
    );
}

#[test]
fn decltype_auto_return_through_nested_if_constexpr() {
    // `std::__variant_cast<_Types...>(*this)` from a base's member: the
    // selected `return static_cast<variant<_Types...>&>(__rhs);` makes the
    // `decltype(auto)` return an lvalue reference, so `take` deduces `V&`.
    super::closure(
        "namespace std {\n\
         template<class T> inline constexpr bool is_lvalue_reference_v = false;\n\
         template<class T> inline constexpr bool is_lvalue_reference_v<T&> = true;\n\
         template<class T> inline constexpr bool is_const_v = false;\n\
         template<class T> inline constexpr bool is_const_v<const T> = true;\n\
         template<class T> struct remove_reference { using type = T; };\n\
         template<class T> struct remove_reference<T&> { using type = T; };\n\
         template<class T> using remove_reference_t = typename remove_reference<T>::type;\n\
         template<class... Ts> struct storage;\n\
         template<class... Ts> struct variant : storage<Ts...> { ~variant() {} };\n\
         template <typename... _Types, typename _Tp>\n\
         decltype(auto) __variant_cast(_Tp&& __rhs) {\n\
           if constexpr (is_lvalue_reference_v<_Tp>) {\n\
             if constexpr (is_const_v<remove_reference_t<_Tp>>)\n\
               return static_cast<const variant<_Types...>&>(__rhs);\n\
             else\n\
               return static_cast<variant<_Types...>&>(__rhs);\n\
           } else\n\
             return static_cast<variant<_Types...>&&>(__rhs);\n\
         }\n\
         template<class V> void take(V&&) {}\n\
         template<class... Ts> struct storage {\n\
           ~storage() {}\n\
           void reset() { take(__variant_cast<Ts...>(*this)); }\n\
         };\n\
         }\n\
         void user(std::storage<int, double>& s) { s.reset(); }\n",
        expect![[r#"
            _Z4userRSt7storageIJidEE
            _ZNSt7storageIJidEE5resetEv
            _ZSt14__variant_castIJidERSt7storageIJidEEEDcOT0_
            _ZSt4takeIRSt7variantIJidEEEvOT_
            _ZSt21is_lvalue_reference_vISt7storageIJidEEE
            _ZSt10is_const_vISt7storageIJidEEE
        "#]],
    );
}

#[test]
fn lambda_with_c_ellipsis() {
    // `std::__do_visit` picks its first variant with
    // `[](_V0& __v, ...) -> _V0& { return __v; }(__variants...)`: the
    // ellipsis is part of the closure's name and of its `operator()`'s
    // signature (`UlRS1_zE_clES7_z`), and takes the extra arguments.
    super::closure(
        "template<class T> struct box { T v; };\n\
         template<class V, class... Vs> int first(V& v, Vs&... vs) {\n\
           V& r = [](V& x, ...) -> V& { return x; }(v, vs...);\n\
           return r.v;\n\
         }\n\
         int user() { box<int> a{1}, b{2}; return first(a, b) + first(a); }\n",
        expect![[r#"
            _Z4userv
            _Z5firstI3boxIiEJS1_EEiRT_DpRT0_
            _Z5firstI3boxIiEJEEiRT_DpRT0_
            _ZZ5firstI3boxIiEJS1_EEiRT_DpRT0_ENKUlRS1_zE_clES7_z
            _ZZ5firstI3boxIiEJEEiRT_DpRT0_ENKUlRS1_zE_clES7_z
        "#]],
    );
}

#[test]
fn value_pack_in_a_functional_cast_pattern() {
    // `__visit_invoke` passes `integral_constant<size_t, __indices>()...`:
    // the pattern names the value pack only in a template argument of the
    // type it constructs.
    super::closure(
        "template<class T, T v> struct integral_constant { static constexpr T value = v; };\n\
         template<unsigned long... I> struct index_sequence {};\n\
         template<class... A> void sink(A&&...) {}\n\
         template<class S> struct gen;\n\
         template<unsigned long... I> struct gen<index_sequence<I...>> {\n\
           static void run() { sink(integral_constant<unsigned long, I>()...); }\n\
         };\n\
         void user() { gen<index_sequence<0, 2>>::run(); }\n",
        expect![[r#"
            _Z4userv
            _ZN3genI14index_sequenceIJLm0ELm2EEEE3runEv
            _Z4sinkIJ17integral_constantImLm0EES0_ImLm2EEEEvDpOT_
        "#]],
    );
}

#[test]
fn constexpr_local_from_a_class_parameter() {
    // `_Copy_ctor_base`'s visitor: `constexpr size_t __j = __rhs_index;`
    // converts an `integral_constant` parameter through its constexpr
    // conversion (which reads none of the object), so `in_place_index<__j>`
    // and `if constexpr (__j != variant_npos)` are constants.
    super::closure(
        "template<class T, T v> struct integral_constant {\n\
           static constexpr T value = v;\n\
           constexpr operator T() const noexcept { return value; }\n\
         };\n\
         template<unsigned long N> struct in_place_index_t { explicit in_place_index_t() = default; };\n\
         template<unsigned long N> inline constexpr in_place_index_t<N> in_place_index{};\n\
         template<class T, class... A> void construct(T*, A&&...) {}\n\
         template<class F> void call(F f) { f(1, integral_constant<unsigned long, 2>()); }\n\
         struct U { int x; };\n\
         void user(U* u) {\n\
           call([u](auto&& m, auto idx) {\n\
             constexpr unsigned long j = idx;\n\
             if constexpr (j != 7)\n\
               construct(u, in_place_index<j>, m);\n\
           });\n\
         }\n",
        expect![[r#"
            _Z4userP1U
            _Z4callIZ4userP1UEUlOT_T0_E_EvS2_
            _ZZ4userP1UENKUlOT_T0_E_clIi17integral_constantImLm2EEEEDaS2_S3_
            _Z14in_place_indexILm2EE
            _Z9constructI1UJRK16in_place_index_tILm2EERiEEvPT_DpOT0_
        "#]],
    );
}

#[test]
fn type_pack_expansion_in_a_dependent_variable_template_id() {
    // `std::__invoke_r`'s return type
    // `enable_if<is_invocable_r_v<_Res, _Callable, _Args...>, _Res>::type`:
    // the expansion is spelled `Dp T1_` among the variable template's
    // arguments.
    super::closure(
        "template<bool B, class T = void> struct enable_if {};\n\
         template<class T> struct enable_if<true, T> { typedef T type; };\n\
         template<class R, class F, class... A> inline constexpr bool is_invocable_r_v = true;\n\
         template<typename _Res, typename _Callable, typename... _Args>\n\
         typename enable_if<is_invocable_r_v<_Res, _Callable, _Args...>, _Res>::type\n\
         invoke_r(_Callable&& f, _Args&&... a) { f(a...); }\n\
         void user() { invoke_r<void>([](int, double) {}, 1, 2.0); }\n",
        expect![[r#"
            _Z4userv
            _ZZ4uservENKUlidE_clEid
            _Z8invoke_rIvZ4uservEUlidE_JidEEN9enable_ifIX16is_invocable_r_vIT_T0_DpT1_EES2_E4typeEOS3_DpOS4_
            _Z16is_invocable_r_vIvZ4uservEUlidE_JidEE
        "#]],
    );
}
