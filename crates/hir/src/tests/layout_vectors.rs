//! Every layout vector of spec 50 §7 (EDG's values, measured with cudafe++
//! and cicc 13.0): the rendered layout must show them.

use expect_test::{Expect, expect};

use super::layouts;

fn check(text: &str, names: &[&str], want: Expect) {
    want.assert_eq(&layouts(text, names));
}

#[test]
fn primary_base_and_vptr() {
    // §7.1 step 2: P4 : P3, P1 → P1@0, P3@12, w@16, 24; Q2 → vptr@0, Q1@8; VN → NE@0, x@8, 16.
    check(
        "struct P1 { virtual void f(); int p; };
         struct P3 { int q; };
         struct P4 : P3, P1 { int w; };
         struct Q1 { int a; };
         struct Q2 : Q1 { virtual void f(); };
         struct NE { virtual void g(); };
         struct VN : virtual NE { int x; };",
        &["P4", "Q2", "VN"],
        expect![[r#"
            P4: size 24 align 8 [dynamic, non-pod]
              0: base P1 primary
              12: base P3
              16: w int
            Q2: size 16 align 8 [dynamic, non-pod]
              0: vptr
              8: base Q1
            VN: size 16 align 8 [dynamic, non-pod]
              0: base NE virtual primary
              8: x int
        "#]],
    );
}

#[test]
fn empty_bases() {
    // §7.1 step 3: D2 → E@0, e@1, x@4, 8; D8 → EA@0, EB@1, x@0, 4; D6 → d1@4.
    check(
        "struct E {};
         struct D2 : E { E e; int x; };
         struct EA : E {}; struct EB : E {};
         struct D8 : EA, EB { int x; };
         struct D1 : E { int y; };
         struct D6 : E { D1 d1; };",
        &["E", "D2", "D8", "D6"],
        expect![[r#"
            E: size 1 align 1 [empty]
            D2: size 8 align 4 [non-pod]
              0: base E
              1: e E
              4: x int
            D8: size 4 align 4 [non-pod]
              0: base EA
              1: base EB
              0: x int
            D6: size 8 align 4 [non-pod]
              0: base E
              4: d1 D1
        "#]],
    );
}

#[test]
fn virtual_bases() {
    // §7.1 step 4: V1 → a@8, V0@12, 16/8; VD → V1@0, V2@16, c@28, V0@32, 40/8;
    // VV → q@8, V1@16, V0@28, V2@32, 48/8.
    check(
        "struct V0 { int v; };
         struct V1 : virtual V0 { int a; };
         struct V2 : virtual V0 { int b; };
         struct VD : V1, V2 { int c; };
         struct VV : virtual V1, virtual V2 { char q; };",
        &["V1", "VD", "VV"],
        expect![[r#"
            V1: size 16 align 8 [dynamic, non-pod]
              0: vptr
              12: base V0 virtual
              8: a int
            VD: size 40 align 8 [dynamic, non-pod]
              0: base V1 primary
              16: base V2
              32: base V0 virtual
              28: c int
            VV: size 48 align 8 [dynamic, non-pod]
              0: vptr
              16: base V1 virtual
              28: base V0 virtual
              32: base V2 virtual
              8: q char
        "#]],
    );
}

#[test]
fn pod_for_layout_decides_tail_padding() {
    // §7.2: c@8 when the base is POD, c@5 when not; NPM (member of non-POD type) → c@8.
    check(
        "struct B0 { int a; char b; };
         struct C0 : B0 { char c; };
         struct B1 { int a; char b; B1(); };
         struct C1 : B1 { char c; };
         struct B2 { int a; char b = 1; };
         struct C2 : B2 { char c; };
         struct B3 { int a; char b; ~B3() = default; };
         struct C3 : B3 { char c; };
         struct B4 { int a; char b; B4& operator=(const B4&); };
         struct C4 : B4 { char c; };
         struct B5 { int a; private: char b; };
         struct C5 : B5 { char c; };
         struct B6 { int a; char b; static int s; const int k = 0; };
         struct NPM { B1 m; };
         struct C6 : NPM { char c; };",
        &["C0", "C1", "C2", "C3", "C4", "C5", "C6"],
        expect![[r#"
            C0: size 12 align 4 [non-pod]
              0: base B0
              8: c char
            C1: size 8 align 4 [non-pod]
              0: base B1
              5: c char
            C2: size 8 align 4 [non-pod]
              0: base B2
              5: c char
            C3: size 12 align 4 [non-pod]
              0: base B3
              8: c char
            C4: size 8 align 4 [non-pod]
              0: base B4
              5: c char
            C5: size 8 align 4 [non-pod]
              0: base B5
              5: c char
            C6: size 12 align 4 [non-pod]
              0: base NPM
              8: c char
        "#]],
    );
}

#[test]
fn bit_fields() {
    // §7.3, bit offsets as byte.bit.
    check(
        "struct F1 { char a; int b:3; int c:7; };
         struct F2 { int a:3; int :0; int b:4; };
         struct F3 { char a:4; char b:6; };
         struct F4 { long long a:40; int b:20; };
         struct F5 { char a; long long b:60; };
         struct F6 { short a:9; short b:9; };
         struct F7 { char a; int :0; char b; };
         struct F8 { char a; int :4; char b; };
         struct F9 { char a:7; int b:25; char c; };
         struct F10 { unsigned char a:3; unsigned short b:12; unsigned c:20; };
         struct F11 { long long a:1; char b; };
         enum class EC : unsigned char { x };
         struct F12 { EC e:3; char d; };
         struct __attribute__((packed)) F13 { char a; int b:31; };
         struct alignas(16) F14 { int a:3; };",
        &["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13", "F14"],
        expect![[r#"
            F1: size 4 align 4
              0: a char
              1.0:3: b int
              1.3:7: c int
            F2: size 8 align 4
              0.0:3: a int
              4.0:4: b int
            F3: size 2 align 1
              0.0:4: a char
              1.0:6: b char
            F4: size 8 align 8
              0.0:40: a long long
              5.0:20: b int
            F5: size 16 align 8
              0: a char
              8.0:60: b long long
            F6: size 4 align 2
              0.0:9: a short
              2.0:9: b short
            F7: size 5 align 1
              0: a char
              4: b char
            F8: size 3 align 1
              0: a char
              1.0:4: (anonymous) int
              2: b char
            F9: size 8 align 4
              0.0:7: a char
              0.7:25: b int
              4: c char
            F10: size 8 align 4
              0.0:3: a unsigned char
              0.3:12: b unsigned short
              4.0:20: c unsigned int
            F11: size 8 align 8
              0.0:1: a long long
              1: b char
            F12: size 2 align 1
              0.0:3: e EC
              1: d char
            F13: size 5 align 1
              0: a char
              1.0:31: b int
            F14: size 16 align 16
              0.0:3: a int
        "#]],
    );
}

#[test]
fn alignment_attributes_and_packing() {
    // §7.4.
    check(
        "struct A1 { alignas(16) char c; int x; };
         struct alignas(32) A2 { char c; };
         struct A3 { char c; __attribute__((aligned(8))) int x; };
         struct __attribute__((packed)) A4 { char c; int x; };
         struct __attribute__((packed)) A5 { char c; __attribute__((aligned(4))) int x; };
         #pragma pack(2)
         struct A6 { char c; int x; };
         #pragma pack(1)
         struct A7 { char c; double d; };
         #pragma pack(4)
         struct A8 { char c; double d; };
         #pragma pack()
         struct __attribute__((aligned(8))) A9 { char c; };
         struct A10 { char c; A9 a; };
         struct __attribute__((aligned(16))) A11 { char c; };
         struct __attribute__((packed)) A12 { char c; A11 inner; };
         union U1 { char c[5]; int i; };
         union U2 { char c; alignas(16) int i; };
         struct AU { char c; union { int i; char d; }; char e; };
         struct FX { int n; char data[]; };
         struct Z0 { int n; char z[0]; };
         struct MP { int MP::*pm; void (MP::*pmf)(); char c; };
         struct RM { int& r; };
         struct I128 { char c; __int128 i; };
         struct LD { char c; long double d; };",
        &[
            "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A12", "U1", "U2", "AU", "FX", "Z0", "MP",
            "RM", "I128", "LD",
        ],
        expect![[r#"
            A1: size 16 align 16
              0: c char
              4: x int
            A2: size 32 align 32
              0: c char
            A3: size 16 align 8
              0: c char
              8: x int
            A4: size 5 align 1
              0: c char
              1: x int
            A5: size 8 align 4
              0: c char
              4: x int
            A6: size 6 align 2
              0: c char
              2: x int
            A7: size 9 align 1
              0: c char
              1: d double
            A8: size 12 align 4
              0: c char
              4: d double
            A9: size 8 align 8
              0: c char
            A10: size 16 align 8
              0: c char
              8: a A9
            A12: size 17 align 1
              0: c char
              1: inner A11
            U1: size 8 align 4
              0: c char[5]
              0: i int
            U2: size 16 align 16
              0: c char
              0: i int
            AU: size 12 align 4
              0: c char
              4: (anonymous) AU::(anonymous)
                4: i int
                4: d char
              8: e char
            FX: size 4 align 4
              0: n int
              4: data char[]
            Z0: size 4 align 4
              0: n int
              4: z char[0]
            MP: size 32 align 8
              0: pm int MP::*
              8: pmf void() MP::*
              24: c char
            RM: size 8 align 8 [non-pod]
              0: r int&
            I128: size 32 align 16
              0: c char
              16: i __int128
            LD: size 32 align 16
              0: c char
              16: d long double
        "#]],
    );
}

#[test]
fn edg_deviation_no_unique_address() {
    // §7.6.1: EDG raises dsize to a non-zero offset of a [[no_unique_address]] empty member.
    check(
        "struct E {}; struct EA : E {};
         struct NU2 { [[no_unique_address]] E e1; [[no_unique_address]] E e2; int x; };
         struct NU3 : E { [[no_unique_address]] E e; int x; };
         struct NUA : E { [[no_unique_address]] EA ea; char c; };
         struct NU4 { [[no_unique_address]] E e; int x; };
         struct NU5 { int x; [[no_unique_address]] E e; [[no_unique_address]] E f; char c; };
         struct TN1 { int a; char b; TN1(); };
         struct NU6 { [[no_unique_address]] TN1 t; char c; };",
        &["NU2", "NU3", "NUA", "NU4", "NU5", "NU6"],
        expect![[r#"
            NU2: size 8 align 4 (edg: no-unique-address-raises-dsize)
              0: e1 E
              1: e2 E
              4: x int
            NU3: size 8 align 4 [non-pod] (edg: no-unique-address-raises-dsize)
              0: base E
              1: e E
              4: x int
            NUA: size 2 align 1 [non-pod] (edg: no-unique-address-raises-dsize)
              0: base E
              1: ea EA
              1: c char
            NU4: size 4 align 4
              0: e E
              0: x int
            NU5: size 8 align 4
              0: x int
              0: e E
              4: f E
              4: c char
            NU6: size 8 align 4 [non-pod]
              0: t TN1
              5: c char
        "#]],
    );
}

#[test]
fn edg_deviation_pack_does_not_cap_aligned() {
    // §7.6.2: pack(4) {char c; aligned(16) int x;} → EDG x@16, 32/16 (GCC x@4, 8/4).
    check(
        "#pragma pack(4)
         struct PK { char c; __attribute__((aligned(16))) int x; };
         #pragma pack()",
        &["PK"],
        expect![[r#"
            PK: size 32 align 16 (edg: pack-does-not-cap-aligned)
              0: c char
              16: x int
        "#]],
    );
}

#[test]
fn constant_expressions_in_layout() {
    check(
        "namespace n { constexpr int N = 3; enum { K = N * 2 + 1 }; }
         struct S { char a[n::K]; int b : sizeof(short) * 4; char c[alignof(long double) >> 2]; char d[(1 << 3) | 1]; char e[n::N > 2 ? 2 : 5]; char f[(unsigned char)258]; };
         typedef long T __attribute__((aligned(2*sizeof(long))));
         struct ST { char c; T t; };",
        &["S", "ST"],
        expect![[r#"
            S: size 28 align 4
              0: a char[7]
              7.0:8: b int
              8: c char[4]
              12: d char[9]
              21: e char[2]
              23: f char[2]
            ST: size 32 align 16
              0: c char
              16: t T
        "#]],
    );
}
