//! The device IL of small units (text form snapshots) and its binary form
//! (round trip, and hostile bytes refused without a panic).

use std::sync::Arc;

use cufront_base_db::{LangOptions, RootDatabase, new_options, new_translation_unit};
use cufront_device::il_binary::{self, DecodeError};
use cufront_device::{il, il_lower, keep};
use expect_test::{Expect, expect};

fn module(text: &str) -> il::Module {
    let db = RootDatabase::new();
    let lang = new_options(&db, LangOptions { device_view: true, ..LangOptions::default() });
    let tu = new_translation_unit(&db, "x.ii".into(), Arc::from(text), lang);
    il_lower::device_il(&db, tu, &keep::KeepOptions { module_id: "_0_4_x_cu_k".into(), ..Default::default() })
}

fn check(text: &str, want: Expect) {
    let m = module(text);
    want.assert_eq(&m.to_string());
    let bytes = il_binary::encode(&m);
    assert_eq!(il_binary::decode(&bytes), Ok(m), "the binary form reads back equal");
}

#[test]
fn kernel_with_launch_bounds_calls_and_conversions() {
    check(
        "# 1 \"x.cu\"\n\
         struct Pair { char tag; double value; };\n\
         __attribute__((constant)) float scale = 2;\n\
         __attribute__((device)) int table[3] = {1, 2 * 3};\n\
         __attribute__((device)) Pair origin = {'o', 0.5};\n\
         static __attribute__((device)) double widen(double x) { return x; }\n\
         __attribute__((global)) __attribute__((launch_bounds(256, 2))) void k(Pair *out, int n) {\n\
           __attribute__((shared)) float tile[32];\n\
           if (int i = n) { out[i].value = widen(n) * scale; }\n\
           tile[0] = n;\n\
         }\n",
        expect![[r#"
            ; cufront device IL v1
            class %_Z4Pair ; Pair
              size 16 align 8
              field tag: char @0
              field value: double @8
            var constant scale: float = (conv:float 2:int) ; value 2.0
            var device table: int[3] = {1:int, (mul:int 2:int 3:int)} ; value [1, 6, 0]
            var device origin: %_Z4Pair = {111:char, 0.5:double} ; value {.tag = 111, .value = 0.5}
            var shared _ZZ1kP4PairiE4tile: float[32]
            kernel _Z1kP4Pairi($0 out: %_Z4Pair*, $1 n: int) -> void launch_bounds(256, 2)
              local $2 tile: float[32] shared
              local $3 i: int
              {
                init $2
                {
                  init $3 = $1(n):int&
                  if $3(i):int&
                    {
                      (assign:double& (field:double& (index:%_Z4Pair& $0(out):%_Z4Pair*& $3(i):int&) .value) (mul:double (call:double _ZN20_INTERNAL_0_4_x_cu_k5widenEd [(conv:double $1(n):int&)]) (conv:double @scale:float&)))
                    }
                }
                (assign:float& (index:float& $2(tile):float[32]& 0:int) (conv:float $1(n):int&))
              }
            func _ZN20_INTERNAL_0_4_x_cu_k5widenEd($0 x: double) -> double
              {
                return $0(x):double&
              }
        "#]],
    );
}

#[test]
fn template_instances_constructors_and_enumerators() {
    check(
        "# 1 \"x.cu\"\n\
         enum Mode { Fast = 3, Slow = 7 };\n\
         struct V { int a, b; __attribute__((device)) V(int x) : a(x), b(x + 1) {} \
           __attribute__((device)) int sum() const { return a + b; } };\n\
         template <int B> struct Agent { enum { THREADS = B * 2, ITEMS }; \
           int base; __attribute__((device)) int run() const { return THREADS + ITEMS + base; } };\n\
         template <int N, class T> __attribute__((global)) void t(int *p) {\n\
           V v(N); p[0] = v.sum() + Slow; p[1] = sizeof(T); Agent<N> a; p[2] = a.run(); }\n\
         void launch(int *p) { t<4, double><<<1, 1>>>(p); }\n",
        expect![[r#"
            ; cufront device IL v1
            class %_Z1V ; V
              size 8 align 4
              field a: int @0
              field b: int @4
            class %_Z5AgentILi4EE ; Agent<4>
              size 4 align 4
              field base: int @0
            kernel _Z1tILi4EdEvPi($0 p: int*) -> void
              local $1 v: %_Z1V
              local $2 a: %_Z5AgentILi4EE
              {
                init $1 = construct _ZN1VC1Ei (4:int)
                (assign:int& (index:int& $0(p):int*& 0:int) (add:int (call:int _ZNK1V3sumEv [$1(v):%_Z1V&]) (conv:int 7:enum Mode:uint)))
                (assign:int& (index:int& $0(p):int*& 1:int) (conv:int 8:ulong))
                init $2
                (assign:int& (index:int& $0(p):int*& 2:int) (call:int _ZNK5AgentILi4EE3runEv [$2(a):%_Z5AgentILi4EE&]))
              }
            func _ZN1VC1Ei($0 x: int) -> void
              {
                meminit a = $0(x):int&
                meminit b = (add:int $0(x):int& 1:int)
              }
            func _ZN1VC2Ei($0 x: int) -> void
              {
                meminit a = $0(x):int&
                meminit b = (add:int $0(x):int& 1:int)
              }
            func _ZNK1V3sumEv() -> int
              {
                return (add:int (field:const int& this:const %_Z1V* ->a) (field:const int& this:const %_Z1V* ->b))
              }
            func _ZNK5AgentILi4EE3runEv() -> int
              {
                return (add:int (add:int (conv:int 8:enum (anonymous enum):uint) (conv:int 9:enum (anonymous enum):uint)) (field:const int& this:const %_Z5AgentILi4EE* ->base))
              }
        "#]],
    );
}

#[test]
fn lambdas_are_closure_objects_with_their_captures() {
    check(
        "# 1 \"x.cu\"\n\
         __attribute__((global)) void k(float *p, float a, int n) {\n\
           int base = 2;\n\
           auto scale = [=](int i) { return a * p[i] + base; };\n\
           auto bump = [&, a](int i) { int t = i; p[t] += a; n--; };\n\
           bump(0); p[1] = scale(1);\n\
         }\n",
        expect![[r#"
            ; cufront device IL v1
            kernel _Z1kPffi($0 p: float*, $1 a: float, $2 n: int) -> void
              local $3 base: int
              local $4 scale: closure _ZZ1kPffiEUliE_
              local $5 bump: closure _ZZ1kPffiEUliE0_
              {
                init $3 = 2:int
                init $4 = (closure:closure _ZZ1kPffiEUliE_ [a = $1(a):float&, p = $0(p):float*&, base = $3(base):int&])
                init $5 = (closure:closure _ZZ1kPffiEUliE0_ [a = $1(a):float&, &p = $0(p):float*&, &n = $2(n):int&])
                (call:void _ZZ1kPffiENKUliE0_clEi [$5(bump):closure _ZZ1kPffiEUliE0_&, 0:int])
                (assign:float& (index:float& $0(p):float*& 1:int) (call:float _ZZ1kPffiENKUliE_clEi [$4(scale):closure _ZZ1kPffiEUliE_&, 1:int]))
              }
            func _ZZ1kPffiENKUliE_clEi($0 i: int) -> float
              {
                return (add:float (mul:float (field:float& this:closure _ZZ1kPffiEUliE_* ->a) (index:float& (field:float*& this:closure _ZZ1kPffiEUliE_* ->p) $0(i):int&)) (conv:float (field:int& this:closure _ZZ1kPffiEUliE_* ->base)))
              }
            func _ZZ1kPffiENKUliE0_clEi($0 i: int) -> void
              local $1 t: int
              {
                init $1 = $0(i):int&
                (assign.add:float& (index:float& (field:float*& this:closure _ZZ1kPffiEUliE0_* ->p) $1(t):int&) (field:float& this:closure _ZZ1kPffiEUliE0_* ->a))
                (postdec:int (field:int& this:closure _ZZ1kPffiEUliE0_* ->n))
              }
        "#]],
    );
}

#[test]
fn range_based_for_over_an_array_and_a_range() {
    check(
        "# 1 \"x.cu\"\n\
         struct R { int *b, *e; __attribute__((device)) int *begin() const { return b; } \
           __attribute__((device)) int *end() const { return e; } };\n\
         __attribute__((global)) void k(int *p, R r) {\n\
           int a[4] = {1, 2, 3, 4};\n\
           for (int x : a) p[0] += x;\n\
           for (int &y : r) y = 0;\n\
         }\n",
        expect![[r#"
            ; cufront device IL v1
            class %_Z1R ; R
              size 16 align 8
              field b: int* @0
              field e: int* @8
            kernel _Z1kPi1R($0 p: int*, $1 r: %_Z1R) -> void
              local $2 a: int[4]
              local $3 x: int
              local $4 y: int&
              {
                init $2 = {1:int, 2:int, 3:int, 4:int}
                for $3 in $2(a):int[4]& []
                  (assign.add:int& (index:int& $0(p):int*& 0:int) $3(x):int&)
                for $4 in $1(r):%_Z1R& [_ZNK1R5beginEv, _ZNK1R3endEv]
                  (assign:int& $4(y):int& 0:int)
              }
            func _ZNK1R5beginEv() -> int*
              {
                return (field:const int*& this:const %_Z1R* ->b)
              }
            func _ZNK1R3endEv() -> int*
              {
                return (field:const int*& this:const %_Z1R* ->e)
              }
        "#]],
    );
}

#[test]
fn hostile_bytes_are_refused_without_a_panic() {
    let m = module(
        "# 1 \"x.cu\"\n\
         struct S { int x; };\n\
         __attribute__((device)) S g;\n\
         __attribute__((global)) void k(S *s, float f) { s->x = f; g.x = -1; }\n",
    );
    let bytes = il_binary::encode(&m);
    assert_eq!(il_binary::decode(b"ELF!"), Err(DecodeError::NotIl));
    let mut newer = b"CFIL".to_vec();
    newer.push(il::VERSION as u8 + 1);
    assert_eq!(il_binary::decode(&newer), Err(DecodeError::Version(il::VERSION + 1)));
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert_eq!(il_binary::decode(&trailing), Err(DecodeError::Trailing { at: bytes.len() }));
    // Every prefix is an error; every one-byte change is an error or a
    // module (never a panic or an allocation the file cannot back).
    for n in 0..bytes.len() {
        assert!(il_binary::decode(&bytes[..n]).is_err(), "prefix of {n} bytes");
    }
    for i in 4..bytes.len() {
        for v in [0x00, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            let _ = il_binary::decode(&b);
        }
    }
    // Nesting deeper than the reader allows: an error, not a stack overflow.
    let mut deep = b"CFIL".to_vec();
    deep.push(il::VERSION as u8);
    deep.extend([0, 1]); // no classes, one variable
    deep.extend([1, b'v']); // its name
    deep.extend(std::iter::repeat_n(1u8, 100_000)); // Type::Ptr(Type::Ptr(…
    assert!(il_binary::decode(&deep).is_err());
}
