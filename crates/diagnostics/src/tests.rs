//! Unit tests. Expected texts were taken from cudafe++ 13.0.88 on the inputs
//! named in each test (run by hand; see the crate docs).

use expect_test::{Expect, expect};

use crate::*;

fn tu_engine(opts: EngineOptions, pragmas: Vec<(u32, DiagPragma)>) -> DiagnosticEngine<Vec<u8>> {
    let mut e = DiagnosticEngine::new(opts, Vec::new());
    e.set_pragmas(PragmaTimeline::new(pragmas));
    e
}

fn finish(e: DiagnosticEngine<Vec<u8>>) -> (Outcome, String) {
    let (o, bytes) = e.finish();
    (o, String::from_utf8(bytes).unwrap())
}

fn nvcc_opts() -> EngineOptions {
    let mut o = EngineOptions::default();
    o.text.display_error_number = true;
    o
}

fn entity(kind: EntityKind, name: &str) -> Arg {
    Arg::Entity(Entity::new(kind, name))
}

/// `int fN() { }` at line `line`: warning 940 with the caret on the `}`.
fn missing_return(line: u32, name: &str) -> Diagnostic {
    Diagnostic::new(DiagId(940), Severity::Warning).with_arg(entity(EntityKind::Function, name)).at(Location::new(
        "x.ii", line, 12,
    )
    .with_source_line(format!("int {name}() {{ }}"))
    .with_offset(line * 100))
}

fn check_text(d: &Diagnostic, opts: &TextOptions, expect: Expect) {
    expect.assert_eq(&render_text(d, opts));
}

// ---------------------------------------------------------------- numbering

#[test]
fn display_numbers() {
    assert_eq!(DiagId(940).display(), 940);
    assert_eq!(DiagId(3456).display(), 3456);
    assert_eq!(DiagId(3457).display(), 20000);
    assert_eq!(DiagId(3548).display(), 20091);
    assert_eq!(DiagId(3794).display(), 20337);
    assert_eq!(DiagId::from_user_number(20091), Some(DiagId(3548)));
    assert_eq!(DiagId::from_user_number(3548), Some(DiagId(3548)));
    assert_eq!(DiagId::from_user_number(0), None);
    assert_eq!(DiagId::from_user_number(3795), None);
    assert_eq!(DiagId::from_user_number(19999), None);
    assert_eq!(DiagId::from_user_number(20338), None);
}

#[test]
fn diag_lists() {
    // Checked with `cudafe++ --diag_suppress=…`.
    assert_eq!(
        parse_diag_list("940, 177 ,20091,device_var_read_in_host"),
        Ok(vec![DiagId(940), DiagId(177), DiagId(3548), DiagId(3548)])
    );
    assert_eq!(parse_diag_list("00940"), Ok(vec![DiagId(940)]));
    let err = |s: &str| parse_diag_list(s).unwrap_err().to_string();
    expect![[r#"invalid error number in diagnostic control option: 99999"#]].assert_eq(&err("99999"));
    expect![[r#"invalid error number in diagnostic control option: 0"#]].assert_eq(&err("0"));
    expect![[r#"invalid error tag in diagnostic control option: bogus_tag"#]].assert_eq(&err("940,bogus_tag"));
    expect![[r#"invalid error tag in diagnostic control option: "#]].assert_eq(&err("940,"));
    expect![[r#"invalid error tag in diagnostic control option: -1"#]].assert_eq(&err("-1"));
    expect![[r#"invalid number: 12abc"#]].assert_eq(&err("177,12abc"));
    expect![[r#"invalid number: 99999999999999999999"#]].assert_eq(&err("99999999999999999999"));
    assert_eq!(parse_diag_list("x").unwrap_err().id(), DiagId(613));
    assert_eq!(parse_diag_list("1").map(|v| v.len()), Ok(1));
}

// ---------------------------------------------------------------- catalog

#[test]
fn catalog_lookups() {
    assert_eq!(catalog::by_tag("implicit_return_from_non_void_function"), Some(DiagId(940)));
    assert_eq!(catalog::by_tag("device_var_read_in_host"), Some(DiagId(3548)));
    assert_eq!(catalog::by_tag("vfunc_incompat_exec_h_d"), Some(DiagId(20085 - 16543)));
    assert_eq!(catalog::by_tag("d_h_illegal_call"), Some(DiagId(20007 - 16543)));
    assert_eq!(catalog::by_tag("Implicit_return_from_non_void_function"), None);
    assert_eq!(catalog::by_text("expected a \";\""), Some(DiagId(65)));
    assert_eq!(catalog::by_text("expected an expression"), Some(DiagId(29)));
    assert_eq!(catalog::by_text("expected an identifier").map(|d| d.display()), Some(40));
    assert_eq!(catalog::by_display(20091).map(|e| e.id), Some(DiagId(3548)));
    assert_eq!(catalog::by_display(3548), None, "3548 is not a display number");
    let e = catalog::entry(DiagId(3548)).unwrap();
    assert_eq!(e.template, "a %s1 %n1 cannot be directly read in a host function");
    assert_eq!(e.severity, Some(Severity::Warning));
    assert_eq!(catalog::entry(DiagId(65)).unwrap().default_severity(), Severity::HardError);
    assert_eq!(catalog::entry(DiagId(175)).unwrap().default_severity(), Severity::Remark);
    // Significant whitespace survives (spec 60 §9.1).
    assert_eq!(catalog::template(DiagId(3510)), "initializer not allowed for %s variable %s2");
    assert_eq!(catalog::entries().count(), 3552);
    assert_eq!(catalog::entries().filter(|e| e.tag.is_some()).count(), 3372);
}

#[test]
fn every_template_expands_without_panicking() {
    for e in catalog::entries() {
        let _ = message::render_plain(e.template, &[], None);
    }
}

// ---------------------------------------------------------------- fill-ins

#[test]
fn fill_ins() {
    let t = |tmpl: &str, args: Vec<Arg>| message::render_plain(tmpl, &args, Some("a.cu"));
    let f = Entity {
        with_params: Some("f(int)".into()),
        declared_at: Some(Pos::At { file: "a.cu".into(), line: 1 }),
        ..Entity::new(EntityKind::Function, "f")
    };
    expect![[r#"function "f(int)" (declared at line 1)"#]].assert_eq(&t("%npd", vec![Arg::Entity(f.clone())]));
    expect![[r#""f""#]].assert_eq(&t("%no", vec![Arg::Entity(f.clone())]));
    expect![[r#"function "f""#]].assert_eq(&t("%n", vec![Arg::Entity(f)]));
    expect![[r#"a __device__ variable "dv13" cannot be directly read in a host function"#]].assert_eq(&t(
        catalog::template(DiagId(3548)),
        vec![Arg::Str("__device__".into()), entity(EntityKind::Variable, "dv13")],
    ));
    expect![[r#"calling a __host__ function("hfun()") from a __host__ __device__ function("hd") is not allowed"#]]
        .assert_eq(&t(
            "calling a __host__ function(%sq1) from a __host__ __device__ function(%sq2) is not allowed",
            vec![Arg::Str("hfun()".into()), Arg::Str("hd".into())],
        ));
    expect![[r#"initializer not allowed for __shared__ variable "#]]
        .assert_eq(&t(catalog::template(DiagId(3510)), vec![Arg::Str("__shared__".into()), Arg::Str("".into())]));
    expect![[r#"a value of type "double" cannot be used to initialize an entity of type "int *""#]].assert_eq(&t(
        "a value of type %t1 cannot be used to initialize an entity of type %t2",
        vec![Arg::Type { spelling: "double".into(), aka: None }, Arg::Type { spelling: "int *".into(), aka: None }],
    ));
    expect![[r#""P" (aka "int *")"#]]
        .assert_eq(&t("%t", vec![Arg::Type { spelling: "P".into(), aka: Some("int *".into()) }]));
    expect![[r#""int""#]].assert_eq(&t("%t", vec![Arg::Type { spelling: "int".into(), aka: Some("int".into()) }]));
    expect![[r#"at line 5 / at line 74 / at line 3 of b.h"#]].assert_eq(&t(
        "%p / %p2 / %p3",
        vec![
            Arg::Pos(Pos::At { file: "a.cu".into(), line: 5 }),
            Arg::Pos(Pos::At { file: "a.cu".into(), line: 74 }),
            Arg::Pos(Pos::At { file: "b.h".into(), line: 3 }),
        ],
    ));
    expect![[r#"right operand of "%" is zero; 7 -3 "<int, float>""#]].assert_eq(&t(
        "right operand of \"%%\" is zero; %u %d %T",
        vec![Arg::UInt(7), Arg::Int(-3), Arg::TemplateArgs("int, float".into())],
    ));
    expect![[r#"a managed class cannot be local"#]].assert_eq(&t(catalog::template(DiagId(1970)), vec![]));
    // A missing fill-in renders as nothing.
    expect![[r#"expected  here"#]].assert_eq(&t("expected %sq here", vec![]));
}

#[test]
fn fill_in_checks() {
    let tmpl = catalog::template(DiagId(3548));
    assert_eq!(check_args(tmpl, &[Arg::Str("__device__".into()), entity(EntityKind::Variable, "v")]), Ok(()));
    assert!(check_args(tmpl, &[Arg::Str("__device__".into())]).is_err());
    assert!(check_args("expected a \";\"", &[Arg::Int(1)]).is_err());
}

// ---------------------------------------------------------------- text renderer

#[test]
fn text_overload_with_continuation_and_note() {
    // n1.ii: void f(int); void f(double); void f(char*); void g() { f(1L); }
    let fun = |p: &str, line: u32| {
        Arg::Entity(Entity {
            declared_at: Some(Pos::At { file: "n1.ii".into(), line }),
            ..Entity::new(EntityKind::Function, p)
        })
    };
    let d = Diagnostic::new(DiagId(308), Severity::HardError)
        .with_arg(Arg::Entity(Entity::new(EntityKind::OverloadedFunction, "f")))
        .at(Location::new("n1.ii", 4, 12).with_source_line("void g() { f(1L); }"))
        // 547 is `%nd`, the candidate-list line.
        .with_continuation(Message::Template { id: DiagId(547), args: vec![fun("f(int)", 1)] })
        .with_continuation(Message::Template { id: DiagId(547), args: vec![fun("f(double)", 2)] })
        .with_continuation(Message::Template { id: DiagId(739), args: vec![Arg::Str("long".into())] })
        .with_note(
            Diagnostic::new(DiagId(3326), Severity::Note)
                .with_args(vec![entity(EntityKind::Function, "f(char *)"), Arg::Int(1)])
                .at(Location::new("n1.ii", 3, 6).with_source_line("void f(char*);")),
        );
    check_text(
        &d,
        &TextOptions { display_error_number: true, ..TextOptions::default() },
        expect![[r#"
        n1.ii(4): error: more than one instance of overloaded function "f" matches the argument list:
                    function "f(int)" (declared at line 1)
                    function "f(double)" (declared at line 2)
                    argument types are: (long)
          void g() { f(1L); }
                     ^
        n1.ii(3): note #3326-D: function "f(char *)" does not match because argument #1 does not match parameter
          void f(char*);
               ^

    "#]],
    );
    check_text(
        &d,
        &TextOptions { display_error_number: true, brief: true, ..TextOptions::default() },
        expect![[r#"
        n1.ii(4): error: more than one instance of overloaded function "f" matches the argument list:
                    function "f(int)" (declared at line 1)
                    function "f(double)" (declared at line 2)
                    argument types are: (long)
        n1.ii(3): note #3326-D: function "f(char *)" does not match because argument #1 does not match parameter
    "#]],
    );
}

#[test]
fn text_locations_and_caret() {
    let opts = TextOptions { display_error_number: true, ..TextOptions::default() };
    let eos = Diagnostic::new(DiagId(29), Severity::HardError)
        .at(Location { kind: LocationKind::EndOfSource, ..Location::new("eos.ii", 2, 0) });
    check_text(
        &eos,
        &opts,
        expect![[r#"
        At end of source: error: expected an expression

    "#]],
    );
    let stdin = Diagnostic::new(DiagId(65), Severity::HardError)
        .at(Location { kind: LocationKind::Stdin, ..Location::new("-", 3, 5).with_source_line("int x") });
    check_text(
        &stdin,
        &opts,
        expect![[r#"
        Line 3: error: expected a ";"
          int x
              ^

    "#]],
    );
    // Tabs are copied into the caret line; columns count code points.
    let tabs =
        Diagnostic::new(DiagId(65), Severity::HardError).at(Location::new("t.cu", 1, 7).with_source_line("\t\"éé\" x"));
    check_text(
        &tabs,
        &opts,
        expect![[r#"
        t.cu(1): error: expected a ";"
          	"éé" x
          	     ^

    "#]],
    );
    let cl = Diagnostic::command_line_error(DiagId(571), vec![Arg::Str("--bogus".into())]);
    check_text(
        &cl,
        &opts,
        expect![[r#"
        Command-line error: invalid option: --bogus

    "#]],
    );
}

fn q_context(n: i32, line: u32) -> ContextEntry {
    ContextEntry {
        kind: ContextKind::Instantiation,
        entity: Entity {
            with_template_args: Some(format!("Q<N> [with N={n}]")),
            ..Entity::new(EntityKind::Class, format!("Q<{n}>"))
        },
        at: Pos::At { file: "ctx.ii".into(), line },
    }
}

#[test]
fn text_instantiation_context() {
    // ctx2.ii: template<class T> struct One { T x = 1.0; int *p = x; }; One<int> o;
    let mut d = Diagnostic::new(DiagId(144), Severity::HardError)
        .with_args(vec![
            Arg::Type { spelling: "int".into(), aka: None },
            Arg::Type { spelling: "int *".into(), aka: None },
        ])
        .at(Location::new("ctx2.ii", 1, 52)
            .with_source_line("template<class T> struct One { T x = 1.0; int *p = x; };"))
        .with_context(ContextEntry {
            kind: ContextKind::ImplicitGeneration,
            entity: Entity {
                kind: None,
                name: "One<T>::One".into(),
                with_template_args: Some("One<T>::One() [with T=int]".into()),
                ..Entity::default()
            },
            at: Pos::At { file: "ctx2.ii".into(), line: 2 },
        });
    let opts = TextOptions::default();
    check_text(
        &d,
        &opts,
        expect![[r#"
        ctx2.ii(1): error: a value of type "int" cannot be used to initialize an entity of type "int *"
          template<class T> struct One { T x = 1.0; int *p = x; };
                                                             ^
                  detected during implicit generation of "One<T>::One() [with T=int]" at line 2

    "#]],
    );
    d.context.push(ContextEntry {
        kind: ContextKind::Instantiation,
        entity: Entity {
            with_template_args: Some("One<T> [with T=int]".into()),
            ..Entity::new(EntityKind::Class, "One<int>")
        },
        at: Pos::At { file: "ctx2.ii".into(), line: 2 },
    });
    check_text(
        &d,
        &opts,
        expect![[r#"
        ctx2.ii(1): error: a value of type "int" cannot be used to initialize an entity of type "int *"
          template<class T> struct One { T x = 1.0; int *p = x; };
                                                             ^
                  detected during:
                    implicit generation of "One<T>::One() [with T=int]" at line 2
                    instantiation of class "One<T> [with T=int]" at line 2

    "#]],
    );
    check_text(
        &d,
        &TextOptions { brief: true, ..TextOptions::default() },
        expect![[r#"
        ctx2.ii(1): error: a value of type "int" cannot be used to initialize an entity of type "int *"
                  detected during:
                    implicit generation of "One<T>::One() [with T=int]" at line 2
                    instantiation of class "One<T> [with T=int]" at line 2
    "#]],
    );
}

#[test]
fn text_context_after_notes() {
    // instantiation_error.cu: the operator's notes, then `detected during`.
    let src = "template <class T> T add_one(T x) { return x + 1; }";
    let note = |cand: &str| {
        Diagnostic::new(DiagId(3328), Severity::Note)
            .with_args(vec![Arg::Str(cand.into()), Arg::Int(1)])
            .at(Location::new("i.cu", 2, 46).with_source_line(src))
    };
    let d = Diagnostic::new(DiagId(349), Severity::Error)
        .with_arg(Arg::Str("+".into()))
        .at(Location::new("i.cu", 2, 46).with_source_line(src))
        .with_continuation(Message::Template { id: DiagId(740), args: vec![Arg::Str("S + int".into())] })
        .with_note(note("+(<promoted arithmetic>, <promoted arithmetic>)"))
        .with_note(note("+(<pointer to object>, <ptrdiff_t>)"))
        .with_context(ContextEntry {
            kind: ContextKind::Instantiation,
            entity: Entity {
                kind: None,
                name: "T add_one(T) [with T=S]".into(),
                with_template_args: Some("T add_one(T) [with T=S]".into()),
                ..Entity::default()
            },
            at: Pos::At { file: "i.cu".into(), line: 4 },
        });
    check_text(
        &d,
        &TextOptions { display_error_number: true, ..TextOptions::default() },
        expect![[r#"
            i.cu(2): error: no operator "+" matches these operands
                        operand types are: S + int
              template <class T> T add_one(T x) { return x + 1; }
                                                           ^
            i.cu(2): note #3328-D: built-in operator+(<promoted arithmetic>, <promoted arithmetic>) does not match because argument #1 does not match parameter
              template <class T> T add_one(T x) { return x + 1; }
                                                           ^
            i.cu(2): note #3328-D: built-in operator+(<pointer to object>, <ptrdiff_t>) does not match because argument #1 does not match parameter
              template <class T> T add_one(T x) { return x + 1; }
                                                           ^
                      detected during instantiation of "T add_one(T) [with T=S]" at line 4

        "#]],
    );
}

#[test]
fn text_context_limit() {
    // ctx.ii: 200 nested instantiations of Q<N>, N = -185 … 14.
    let mut d = Diagnostic::new(DiagId(456), Severity::HardError)
        .with_arg(entity(EntityKind::Class, "Q<-186>"))
        .at(Location::new("ctx.ii", 5, 1));
    for n in -185..=14 {
        d.context.push(q_context(n, if n == 14 { 6 } else { 5 }));
    }
    let render = |limit| render_text(&d, &TextOptions { brief: true, context_limit: limit, ..TextOptions::default() });
    expect![[r#"
        ctx.ii(5): error: excessive recursion at instantiation of class "Q<-186>"
                  detected during:
                    instantiation of class "Q<N> [with N=-185]" at line 5
                    instantiation of class "Q<N> [with N=-184]" at line 5
                    [ 196 instantiation contexts not shown ]
                    instantiation of class "Q<N> [with N=13]" at line 5
                    instantiation of class "Q<N> [with N=14]" at line 6
    "#]]
    .assert_eq(&render(4));
    assert_eq!(render(5), render(4), "odd limits round down");
    expect![[r#"
        ctx.ii(5): error: excessive recursion at instantiation of class "Q<-186>"
                  detected during:
                    instantiation of class "Q<N> [with N=-185]" at line 5
                    [ 198 instantiation contexts not shown ]
                    instantiation of class "Q<N> [with N=14]" at line 6
    "#]]
    .assert_eq(&render(1));
    assert_eq!(render(10).lines().count(), 2 + 5 + 1 + 5);
    assert_eq!(render(0).lines().count(), 2 + 200, "0 = no limit");
}

#[test]
fn text_wrap() {
    // wrap.ii with --wrap_diagnostics.
    let long = "averyveryverylongfunctionnamethatisverylong_abcdefghijklmnop";
    let fun = |p: &str, line: u32| {
        Arg::Entity(Entity {
            declared_at: Some(Pos::At { file: "wrap.ii".into(), line }),
            ..Entity::new(EntityKind::Function, p)
        })
    };
    let d = Diagnostic::new(DiagId(308), Severity::HardError)
        .with_arg(Arg::Entity(Entity::new(EntityKind::OverloadedFunction, long)))
        .at(Location::new("wrap.ii", 3, 12).with_source_line(format!("void g() {{ {long}(1L); }}")));
    let d = Diagnostic {
        continuation: vec![
            Message::Template { id: DiagId(547), args: vec![fun(&format!("{long}(int)"), 1)] },
            Message::Template { id: DiagId(547), args: vec![fun(&format!("{long}(double)"), 2)] },
            Message::Template { id: DiagId(739), args: vec![Arg::Str("long".into())] },
        ],
        ..d
    };
    let opts = TextOptions { wrap: true, display_error_number: true, ..TextOptions::default() };
    check_text(
        &d,
        &opts,
        expect![[r#"
        wrap.ii(3): error: more than one instance of overloaded function
                  "averyveryverylongfunctionnamethatisverylong_abcdefghijklmnop"
                  matches the argument list:
                    function
                              "averyveryverylongfunctionnamethatisverylong_abcdefghijkl
                              mnop(int)" (declared at line 1)
                    function
                              "averyveryverylongfunctionnamethatisverylong_abcdefghijkl
                              mnop(double)" (declared at line 2)
                    argument types are: (long)
          void g() { averyveryverylongfunctionnamethatisverylong_abcdefghijklmnop(1L); }
                     ^

    "#]],
    );
    // With colours (cudafe++ on a terminal), escapes move around line breaks.
    let colored = TextOptions { palette: Some(Palette::parse(render::palette::DEFAULT_PALETTE)), ..opts.clone() };
    expect![[r#"
        \e[01m\e[0m\e[01mwrap.ii(3)\e[0m: \e[01;31merror\e[0m: more than one instance of overloaded function
        \e[01m\e[0m          \e[01m"averyveryverylongfunctionnamethatisverylong_abcdefghijklmnop"\e[0m
                  matches the argument list:
                    function
        \e[01m\e[0m                      \e[01m"averyveryverylongfunctionnamethatisverylong_abcdefghijkl
        \e[0m                      \e[01mmnop(int)"\e[0m\e[32m (declared at line 1)\e[0m
                    function
        \e[01m\e[0m                      \e[01m"averyveryverylongfunctionnamethatisverylong_abcdefghijkl
        \e[0m                      \e[01mmnop(double)"\e[0m\e[32m (declared at line 2)\e[0m
                    argument types are: (long)
          void g() { averyveryverylongfunctionnamethatisverylong_abcdefghijklmnop(1L); }
                     ^

    "#]]
    .assert_eq(&render_text(&d, &colored).replace('\x1b', "\\e"));
    let mut w = missing_return(4, "f1");
    w.location.as_mut().unwrap().file = "wrap.ii".into();
    check_text(
        &w,
        &opts,
        expect![[r#"
        wrap.ii(4): warning #940-D: missing return statement at end of non-void
                  function "f1"
          int f1() { }
                     ^

    "#]],
    );
    expect![[r#"
        \e[01m\e[0m\e[01mwrap.ii(4)\e[0m: \e[01;35mwarning\e[0m #940-D: missing return statement at end of non-void
                  function \e[01m"f1"\e[0m
          int f1() { }
                     ^

    "#]]
    .assert_eq(&render_text(&w, &colored).replace('\x1b', "\\e"));
}

#[test]
fn text_colors() {
    let palette = Palette::detect(false, true, |v| (v == "TERM").then(|| "xterm".to_owned()));
    assert_eq!(palette, Some(Palette::parse(render::palette::DEFAULT_PALETTE)));
    assert_eq!(Palette::detect(false, false, |_| None), None, "not a tty");
    assert_eq!(Palette::detect(true, true, |_| None), None, "--no_colors");
    assert_eq!(Palette::detect(false, true, |v| (v == "NOCOLOR").then(String::new)), None);
    assert_eq!(Palette::detect(false, true, |v| (v == "TERM").then(|| "dumb".to_owned())), None);
    let gcc = Palette::detect(false, true, |v| (v == "GCC_COLORS").then(|| "error=01;32".to_owned())).unwrap();
    assert_eq!((gcc.error.as_deref(), gcc.warning.as_deref()), (Some("01;32"), None));

    let opts = TextOptions { display_error_number: true, palette, ..TextOptions::default() };
    let f = Arg::Entity(Entity {
        declared_at: Some(Pos::At { file: "n1.ii".into(), line: 1 }),
        ..Entity::new(EntityKind::Function, "f(int)")
    });
    let d = Diagnostic::new(DiagId(308), Severity::HardError)
        .with_arg(Arg::Entity(Entity::new(EntityKind::OverloadedFunction, "f")))
        .at(Location::new("n1.ii", 4, 12).with_source_line("void g() { f(1L); }"))
        .with_continuation(Message::Template { id: DiagId(547), args: vec![f] });
    let mut out = render_text(&d, &opts);
    out.push_str(&render_text(&missing_return(7, "f1"), &opts));
    out.push_str(&render_text(&Diagnostic::new(HINT_REMARK, Severity::Remark), &opts));
    expect![[r#"
        \e[01m\e[0m\e[01mn1.ii(4)\e[0m: \e[01;31merror\e[0m: more than one instance of overloaded function \e[01m"f"\e[0m matches the argument list:
                    function \e[01m"f(int)"\e[0m\e[32m (declared at line 1)\e[0m
          void g() { f(1L); }
                     ^

        \e[01m\e[0m\e[01mx.ii(7)\e[0m: \e[01;35mwarning\e[0m #940-D: missing return statement at end of non-void function \e[01m"f1"\e[0m
          int f1() { }
                     ^

        \e[01;36m\e[0m\e[01;36mRemark\e[0m: The warnings can be suppressed with "-diag-suppress <warning-number>"

    "#]]
    .assert_eq(&out.replace('\x1b', "\\e"));
    let cl = Diagnostic::command_line_error(DiagId(571), vec![Arg::Str("--bogus".into())]);
    expect![[r#"
        Command-line error: invalid option: --bogus

    "#]]
    .assert_eq(&render_text(&cl, &opts));
}

// ---------------------------------------------------------------- control

#[test]
fn overrides_in_command_line_order() {
    let mut o = Overrides::default();
    o.apply(Action::Error, &[DiagId(177)]);
    o.apply(Action::Warning, &[DiagId(177)]);
    assert_eq!(o.level(DiagId(177)), Some(Level::Severity(Severity::Warning)));
    o.apply(Action::Suppress, &[DiagId(177), DiagId(940)]);
    assert_eq!(o.level(DiagId(940)), Some(Level::Suppressed));
    assert!(!o.once(DiagId(940)));
    o.apply(Action::Once, &[DiagId(940)]);
    assert!(o.once(DiagId(940)));
}

#[test]
fn pragma_timeline_push_pop() {
    use DiagPragma::*;
    let n = DiagId(940);
    let t = PragmaTimeline::new(vec![
        (10, Set(Action::Suppress, vec![n])),
        (20, Push),
        (30, Set(Action::Error, vec![n])),
        (40, Push),
        (50, Set(Action::Remark, vec![n])),
        (60, Pop),
        (70, Pop),
        (80, Pop), // unmatched: ignored (warning 3185)
        (90, Set(Action::Default, vec![n])),
        (100, Set(Action::Warning, vec![DiagId(177)])),
    ]);
    let at = |o| t.level_at(n, o);
    assert_eq!(at(5), None);
    assert_eq!(at(10), None, "a pragma applies after its own position");
    assert_eq!(at(15), Some(PragmaLevel::Set(Level::Suppressed)));
    assert_eq!(at(25), Some(PragmaLevel::Set(Level::Suppressed)));
    assert_eq!(at(35), Some(PragmaLevel::Set(Level::Severity(Severity::Error))));
    assert_eq!(at(55), Some(PragmaLevel::Set(Level::Severity(Severity::Remark))));
    assert_eq!(at(65), Some(PragmaLevel::Set(Level::Severity(Severity::Error))));
    assert_eq!(at(75), Some(PragmaLevel::Set(Level::Suppressed)));
    assert_eq!(at(85), Some(PragmaLevel::Set(Level::Suppressed)));
    assert_eq!(at(95), Some(PragmaLevel::Default));
    assert_eq!(at(200), Some(PragmaLevel::Default));
    assert_eq!(t.level_at(DiagId(177), 200), Some(PragmaLevel::Set(Level::Severity(Severity::Warning))));
    assert_eq!(t.unmatched_pops().collect::<Vec<_>>(), vec![80]);
}

#[test]
fn pragma_parsing() {
    // Problems and caret columns as cudafe++ reports them (prag.ii).
    let p = |line: &str| {
        let (pragma, problems) = parse_pragma(line)?;
        let probs: Vec<String> = problems.iter().map(|p| format!("{}@{}", p.id.display(), p.offset + 1)).collect();
        Some(format!("{pragma:?} {}", probs.join(" ")))
    };
    let mut out = String::new();
    for line in [
        "#pragma nv_diag_suppress 99999",
        "#pragma nv_diag_suppress bogus_tag",
        "#pragma nv_diag_suppress 940 177",
        "#pragma nv_diag_suppress",
        "#pragma nv_diagnostic",
        "#pragma nv_diagnostic bogus",
        "#pragma nv_diag_warning 12abc",
        "#pragma nv_diag_warning (940)",
        "#pragma nv_diag_warning 940,",
        "#pragma nv_diag_warning \"940\"",
        "#pragma nv_diag_suppress 99999, 940",
        "#pragma nv_diag_suppress (940), 940",
        "#pragma   nv_diag_suppress   implicit_return_from_non_void_function   ",
        "#pragma nv_diag_once 20091",
        "#pragma nv_diag_default 940",
        "#pragma nv_diagnostic push extra",
        "#pragma nv_diagnostic pop",
        "# pragma nv_diag_error 940",
        "#pragma diag_suppress 940",
        "#pragma GCC diagnostic push",
        "#pragma nv_diag_bogus 940",
        "#define X",
    ] {
        out.push_str(&format!("{line:<70} => {:?}\n", p(line)));
    }
    expect![[r#"
        #pragma nv_diag_suppress 99999                                         => Some("Set(Suppress, []) 1222@26")
        #pragma nv_diag_suppress bogus_tag                                     => Some("Set(Suppress, []) 1223@26")
        #pragma nv_diag_suppress 940 177                                       => Some("Set(Suppress, [DiagId(940)]) 253@30")
        #pragma nv_diag_suppress                                               => Some("Set(Suppress, []) 1224@25 253@25")
        #pragma nv_diagnostic                                                  => Some("Set(Default, []) 3184@22")
        #pragma nv_diagnostic bogus                                            => Some("Set(Default, []) 3184@23")
        #pragma nv_diag_warning 12abc                                          => Some("Set(Warning, []) 1224@25")
        #pragma nv_diag_warning (940)                                          => Some("Set(Warning, []) 1224@25 253@26")
        #pragma nv_diag_warning 940,                                           => Some("Set(Warning, [DiagId(940)]) 1224@29 253@29")
        #pragma nv_diag_warning "940"                                          => Some("Set(Warning, []) 1224@25")
        #pragma nv_diag_suppress 99999, 940                                    => Some("Set(Suppress, [DiagId(940)]) 1222@26")
        #pragma nv_diag_suppress (940), 940                                    => Some("Set(Suppress, []) 1224@26 253@27")
        #pragma   nv_diag_suppress   implicit_return_from_non_void_function    => Some("Set(Suppress, [DiagId(940)]) ")
        #pragma nv_diag_once 20091                                             => Some("Set(Once, [DiagId(3548)]) ")
        #pragma nv_diag_default 940                                            => Some("Set(Default, [DiagId(940)]) ")
        #pragma nv_diagnostic push extra                                       => Some("Push ")
        #pragma nv_diagnostic pop                                              => Some("Pop ")
        # pragma nv_diag_error 940                                             => Some("Set(Error, [DiagId(940)]) ")
        #pragma diag_suppress 940                                              => None
        #pragma GCC diagnostic push                                            => None
        #pragma nv_diag_bogus 940                                              => None
        #define X                                                              => None
    "#]]
    .assert_eq(&out);
}

// ---------------------------------------------------------------- engine

#[test]
fn engine_suppression_by_flags_and_pragmas() {
    let mut opts = nvcc_opts();
    opts.text.brief = true;
    opts.overrides.apply(Action::Error, &[DiagId(940)]);
    opts.source_name = Some("x.cu".into());
    let (p1, _) = parse_pragma("#pragma nv_diag_suppress implicit_return_from_non_void_function").unwrap();
    let (p2, _) = parse_pragma("#pragma nv_diag_default 940").unwrap();
    let (p3, _) = parse_pragma("#pragma nv_diagnostic push").unwrap();
    let (p4, _) = parse_pragma("#pragma nv_diag_warning 940").unwrap();
    let (p5, _) = parse_pragma("#pragma nv_diagnostic pop").unwrap();
    let mut e = tu_engine(opts, vec![(150, p1), (250, p2), (350, p3), (360, p4), (450, p5)]);
    for line in 1..=5 {
        assert_eq!(e.emit(&missing_return(line, &format!("f{line}"))), Flow::Continue);
    }
    // Hard errors ignore every override.
    let hard = Diagnostic::new(DiagId(65), Severity::HardError).at(Location::new("x.ii", 6, 1).with_offset(600));
    let mut with_suppress = nvcc_opts();
    with_suppress.overrides.apply(Action::Suppress, &[DiagId(65)]);
    assert_eq!(e.emit(&hard), Flow::Continue);
    let (o, text) = finish(e);
    expect![[r#"
        x.ii(1): error: missing return statement at end of non-void function "f1"
        x.ii(3): error: missing return statement at end of non-void function "f3"
        x.ii(4): warning #940-D: missing return statement at end of non-void function "f4"
        Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
        x.ii(5): error: missing return statement at end of non-void function "f5"
        x.ii(6): error: expected a ";"
        4 errors detected in the compilation of "x.cu".
    "#]]
    .assert_eq(&text);
    assert_eq!((o.errors, o.warnings, o.exit_code), (4, 1, 2));
    let mut e = tu_engine(with_suppress, vec![]);
    assert_eq!(e.emit(&hard), Flow::Continue);
    assert_eq!(finish(e).0.errors, 1, "--diag_suppress cannot touch a hard error");
}

#[test]
fn engine_filters() {
    let remark = |line| {
        Diagnostic::new(DiagId(177), Severity::Remark)
            .with_arg(entity(EntityKind::Function, "h"))
            .at(Location::new("x.ii", line, 13).with_offset(line * 100))
    };
    let run = |opts: EngineOptions, diags: &[Diagnostic]| {
        let mut e = tu_engine(EngineOptions { text: TextOptions { brief: true, ..opts.text.clone() }, ..opts }, vec![]);
        for d in diags {
            e.emit(d);
        }
        finish(e)
    };
    let diags = [remark(1), missing_return(2, "f2"), missing_return(3, "f3")];
    let (o, text) = run(nvcc_opts(), &diags);
    expect![[r#"
        x.ii(2): warning #940-D: missing return statement at end of non-void function "f2"
        Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
        x.ii(3): warning #940-D: missing return statement at end of non-void function "f3"
    "#]]
    .assert_eq(&text);
    assert_eq!((o.exit_code, o.warnings), (0, 2));
    let (_, text) = run(EngineOptions { remarks: true, ..nvcc_opts() }, &diags);
    expect![[r#"
        x.ii(1): remark #177-D: function "h" was declared but never referenced
        x.ii(2): warning #940-D: missing return statement at end of non-void function "f2"
        Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
        x.ii(3): warning #940-D: missing return statement at end of non-void function "f3"
    "#]]
    .assert_eq(&text);
    let (o, text) = run(EngineOptions { no_warnings: true, remarks: true, ..nvcc_opts() }, &diags);
    assert_eq!((text.as_str(), o.exit_code), ("", 0), "-w drops warnings, remarks and the hint");
    let (o, text) = run(EngineOptions { promote_warnings: true, ..nvcc_opts() }, &diags);
    expect![[r#"
        x.ii(2): error #940-D: missing return statement at end of non-void function "f2"
        Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
        x.ii(3): error #940-D: missing return statement at end of non-void function "f3"
        2 errors detected in this compilation.
    "#]]
    .assert_eq(&text);
    assert_eq!(o.exit_code, 2);
    let (_, text) = run(EngineOptions::default(), &diags);
    expect![[r#"
        x.ii(2): warning: missing return statement at end of non-void function "f2"
        x.ii(3): warning: missing return statement at end of non-void function "f3"
    "#]]
    .assert_eq(&text);
    // System headers show hard errors only.
    let mut sys = missing_return(4, "f4");
    sys.location.as_mut().unwrap().system_header = true;
    let mut sys_err = Diagnostic::new(DiagId(65), Severity::HardError).at(Location::new("s.h", 9, 1));
    sys_err.location.as_mut().unwrap().system_header = true;
    let (_, text) = run(nvcc_opts(), &[sys, sys_err]);
    expect![[r#"
        s.h(9): error: expected a ";"
        1 error detected in this compilation.
    "#]]
    .assert_eq(&text);
}

#[test]
fn engine_once() {
    // once4.ii: f1; push; once 940; f2; f3; pop; f4 → only f1 (pop does not undo once).
    let (push, _) = parse_pragma("#pragma nv_diagnostic push").unwrap();
    let (once, _) = parse_pragma("#pragma nv_diag_once 940").unwrap();
    let (pop, _) = parse_pragma("#pragma nv_diagnostic pop").unwrap();
    let mut opts = nvcc_opts();
    opts.text.brief = true;
    let mut e = tu_engine(opts.clone(), vec![(150, push), (160, once), (350, pop)]);
    for line in 1..=4 {
        e.emit(&missing_return(line, &format!("f{line}")));
    }
    expect![[r#"
        x.ii(1): warning #940-D: missing return statement at end of non-void function "f1"
        Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
    "#]]
    .assert_eq(&finish(e).1);
    // once7.ii: a `once` at the end of the file governs diagnostics emitted
    // after the file was read, whatever their position.
    let (once, _) = parse_pragma("#pragma nv_diag_once 177").unwrap();
    let mut e = tu_engine(EngineOptions { remarks: true, ..opts.clone() }, vec![(300, once)]);
    for (line, name) in [(1, "h1"), (2, "h2")] {
        let mut d = Diagnostic::new(DiagId(177), Severity::Remark)
            .with_arg(entity(EntityKind::Function, name))
            .at(Location::new("once7.ii", line, 13).with_offset(line * 100));
        d.deferred = true;
        e.emit(&d);
    }
    expect![[r#"
        once7.ii(1): remark #177-D: function "h1" was declared but never referenced
    "#]]
    .assert_eq(&finish(e).1);
    // --diag_once with --diag_error: shown once, as an error.
    let mut o = opts;
    o.overrides.apply(Action::Once, &[DiagId(940)]);
    o.overrides.apply(Action::Error, &[DiagId(940)]);
    let mut e = tu_engine(o, vec![]);
    e.emit(&missing_return(1, "f2"));
    e.emit(&missing_return(2, "f3"));
    expect![[r#"
        x.ii(1): error: missing return statement at end of non-void function "f2"
        1 error detected in this compilation.
    "#]]
    .assert_eq(&finish(e).1);
}

#[test]
fn engine_error_limit() {
    let err = |line| Diagnostic::new(DiagId(65), Severity::HardError).at(Location::new("-", line, 1));
    let mut opts = EngineOptions { error_limit: 2, ..nvcc_opts() };
    opts.text.brief = true;
    let mut e = tu_engine(opts, vec![]);
    assert_eq!(e.emit(&missing_return(1, "f1")), Flow::Continue, "warnings do not count");
    assert_eq!(e.emit(&err(2)), Flow::Continue);
    assert_eq!(e.emit(&err(3)), Flow::Stop);
    assert!(e.is_stopped());
    assert_eq!(e.emit(&err(4)), Flow::Stop);
    let (o, text) = finish(e);
    expect![[r#"
        x.ii(1): warning #940-D: missing return statement at end of non-void function "f1"
        Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"
        -(2): error: expected a ";"
        -(3): error: expected a ";"
        Error limit reached.
        2 errors detected in this compilation.
        Compilation terminated.
    "#]]
    .assert_eq(&text);
    assert_eq!(o.exit_code, 4);
}

#[test]
fn engine_catastrophic_and_command_line() {
    let mut e = tu_engine(EngineOptions::default(), vec![]);
    let err = DiagListError::InvalidTag("foo".into());
    assert_eq!(e.emit(&Diagnostic::command_line_error(err.id(), vec![Arg::Str(err.item().into())])), Flow::Stop);
    let (o, text) = finish(e);
    expect![[r#"
        Command-line error: invalid error tag in diagnostic control option: foo

        1 catastrophic error detected in this compilation.
        Compilation terminated.
    "#]]
    .assert_eq(&text);
    assert_eq!((o.exit_code, o.catastrophic), (4, 1));

    let mut e = tu_engine(EngineOptions { source_name: Some("cat.cu".into()), ..EngineOptions::default() }, vec![]);
    e.emit(&Diagnostic::new(DiagId(65), Severity::HardError).at(Location::new("cat.cu", 1, 1)));
    let open = Diagnostic::new(DiagId(1696), Severity::Catastrophic)
        .with_args(vec![Arg::Str("source".into()), Arg::Str("x.h".into())])
        .at(Location::new("cat.cu", 2, 10).with_source_line("#include \"x.h\""));
    assert_eq!(e.emit(&open), Flow::Stop);
    let (o, text) = finish(e);
    expect![[r#"
        cat.cu(1): error: expected a ";"

        cat.cu(2): catastrophic error: cannot open source file "x.h"
          #include "x.h"
                   ^

        1 error and 1 catastrophic error detected in the compilation of "cat.cu".
        Compilation terminated.
    "#]]
    .assert_eq(&text);
    assert_eq!(o.exit_code, 4);

    let mut e = tu_engine(EngineOptions::default(), vec![]);
    let ice = Diagnostic::new(DiagId(2656), Severity::Internal)
        .with_arg(Arg::Str("assertion failed at: \"pragma.c\", line 1237 in process_immediate_pragmas\n".into()));
    assert_eq!(e.emit(&ice), Flow::Stop);
    let (o, text) = finish(e);
    expect![[r#"
        Internal error: assertion failed at: "pragma.c", line 1237 in process_immediate_pragmas


        1 catastrophic error detected in this compilation.
        Compilation aborted.
    "#]]
    .assert_eq(&text);
    assert_eq!(o.exit_code, 134);
}

#[test]
fn trailers() {
    let t = |e, c, n| trailer(e, c, n).unwrap_or_default();
    expect![[r#"1 error detected in the compilation of "one.cu"."#]].assert_eq(&t(1, 0, Some("one.cu")));
    expect![[r#"4 errors detected in the compilation of "sub/bad.ii"."#]].assert_eq(&t(4, 0, Some("sub/bad.ii")));
    expect![[r#"1 error and 1 catastrophic error detected in the compilation of "cat.cu"."#]].assert_eq(&t(
        1,
        1,
        Some("cat.cu"),
    ));
    expect![[r#"2 errors and 3 catastrophic errors detected in this compilation."#]].assert_eq(&t(2, 3, None));
    expect![[r#"1 catastrophic error detected in this compilation."#]].assert_eq(&t(0, 1, None));
    assert_eq!(trailer(0, 0, Some("x.cu")), None);
}

#[test]
fn exit_codes() {
    let code = |diags: &[Diagnostic]| {
        let mut e = tu_engine(EngineOptions::default(), vec![]);
        for d in diags {
            e.emit(d);
        }
        finish(e).0.exit_code
    };
    let warn = missing_return(1, "f");
    let err = Diagnostic::new(DiagId(65), Severity::HardError);
    let disc = Diagnostic::new(DiagId(3505), Severity::Error);
    let cat = Diagnostic::new(DiagId(35), Severity::Catastrophic).with_arg(Arg::Str("x".into()));
    assert_eq!(code(&[]), 0);
    assert_eq!(code(std::slice::from_ref(&warn)), 0);
    assert_eq!(code(&[warn.clone(), err.clone()]), 2);
    assert_eq!(code(&[disc]), 2);
    assert_eq!(code(&[err, cat]), 4);
}

// ---------------------------------------------------------------- SARIF

#[test]
fn sarif_is_valid_and_matches_cudafe_fields() {
    let mut opts = EngineOptions { mode: OutputMode::Sarif, cwd: "/src".into(), ..nvcc_opts() };
    opts.source_name = Some("x.cu".into());
    let mut e = tu_engine(opts, vec![]);
    let mut w = missing_return(1, "f1");
    w.location.as_mut().unwrap().file = "sub/../x.cu".into();
    e.emit(&w);
    e.emit(
        &Diagnostic::new(DiagId(3505), Severity::Error).at(Location::new("x.cu", 2, 24)).with_note(
            Diagnostic::new(DiagId(3326), Severity::Note)
                .with_args(vec![entity(EntityKind::Function, "f(char *)"), Arg::Int(1)])
                .at(Location::new("/inc/h.h", 3, 6)),
        ),
    );
    e.emit(
        &Diagnostic::new(DiagId(29), Severity::HardError)
            .at(Location { kind: LocationKind::EndOfSource, ..Location::new("x.cu", 2, 0) }),
    );
    e.emit(&Diagnostic::new(DiagId(2656), Severity::Internal).with_arg(Arg::Str("tab\there \"q\" \\ \n".into())));
    let (o, text) = finish(e);
    assert_eq!(o.exit_code, 134);
    let pretty = text.replace("{\"ruleId\"", "\n{\"ruleId\"");
    expect![[r#"
        {"version":"2.1.0","$schema":"https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json","runs":[{"tool":{"driver":{"name":"EDG CPFE","version":"6.6","organization":"Edison Design Group","fullName":"Edison Design Group C/C++ Front End - 6.6","informationUri":"https://edg.com/c"}},"columnKind":"unicodeCodePoints","results":[
        {"ruleId":"EC940","level":"warning","message":{"text":"missing return statement at end of non-void function \"f1\""},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///src/x.cu"},"region":{"startLine":1,"startColumn":12}}}]},
        {"ruleId":"EC3709","level":"remark","message":{"text":"The warnings can be suppressed with \"-diag-suppress <warning-number>\""}},
        {"ruleId":"EC3505","level":"error","message":{"text":"a __global__ function must have a void return type"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///src/x.cu"},"region":{"startLine":2,"startColumn":24}}}],"relatedLocations":[{"message":{"text":"function \"f(char *)\" does not match because argument #1 does not match parameter"},"physicalLocation":{"artifactLocation":{"uri":"file:///inc/h.h"},"region":{"startLine":3,"startColumn":6}}}]},
        {"ruleId":"EC29","level":"error","message":{"text":"expected an expression"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"file:///src/x.cu"},"region":{"startLine":2}}}]},
        {"ruleId":"EC2656","level":"internal_error","message":{"text":"tab\there \"q\" \\ \n"}}]}]}
    "#]]
    .assert_eq(&pretty);
    json_check(&text).unwrap();
}

#[test]
fn sarif_clean_compile() {
    let e = tu_engine(EngineOptions { mode: OutputMode::Sarif, ..EngineOptions::default() }, vec![]);
    let (o, text) = finish(e);
    assert_eq!(o.exit_code, 0);
    assert!(text.ends_with("\"results\":[]}]}\n"));
    json_check(&text).unwrap();
}

/// A small JSON validator (the workspace has no JSON crate): Ok if `s` is one
/// JSON value followed by whitespace.
fn json_check(s: &str) -> Result<(), String> {
    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }
    fn value(b: &[u8], i: &mut usize) -> Result<(), String> {
        ws(b, i);
        match b.get(*i) {
            Some(b'{') => {
                *i += 1;
                ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return Ok(());
                }
                loop {
                    ws(b, i);
                    string(b, i)?;
                    ws(b, i);
                    if b.get(*i) != Some(&b':') {
                        return Err(format!("expected : at {i}"));
                    }
                    *i += 1;
                    value(b, i)?;
                    ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b'}') => {
                            *i += 1;
                            return Ok(());
                        }
                        _ => return Err(format!("expected , or }} at {i}")),
                    }
                }
            }
            Some(b'[') => {
                *i += 1;
                ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return Ok(());
                }
                loop {
                    value(b, i)?;
                    ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b']') => {
                            *i += 1;
                            return Ok(());
                        }
                        _ => return Err(format!("expected , or ] at {i}")),
                    }
                }
            }
            Some(b'"') => string(b, i),
            Some(c) if c.is_ascii_digit() || *c == b'-' => {
                while *i < b.len() && (b[*i].is_ascii_digit() || b"-+.eE".contains(&b[*i])) {
                    *i += 1;
                }
                Ok(())
            }
            _ => {
                for lit in ["true", "false", "null"] {
                    if b[*i..].starts_with(lit.as_bytes()) {
                        *i += lit.len();
                        return Ok(());
                    }
                }
                Err(format!("unexpected byte at {i}"))
            }
        }
    }
    fn string(b: &[u8], i: &mut usize) -> Result<(), String> {
        if b.get(*i) != Some(&b'"') {
            return Err(format!("expected string at {i}"));
        }
        *i += 1;
        while let Some(&c) = b.get(*i) {
            match c {
                b'"' => {
                    *i += 1;
                    return Ok(());
                }
                b'\\' => *i += 2,
                c if c < 0x20 => return Err(format!("raw control character at {i}")),
                _ => *i += 1,
            }
        }
        Err("unterminated string".into())
    }
    let b = s.as_bytes();
    let mut i = 0;
    value(b, &mut i)?;
    ws(b, &mut i);
    if i == b.len() { Ok(()) } else { Err(format!("trailing data at {i}")) }
}

// ---------------------------------------------------------------- rich

#[test]
fn rich_output() {
    let mut e = tu_engine(EngineOptions { mode: OutputMode::Rich, ..nvcc_opts() }, vec![]);
    e.emit(
        &Diagnostic::new(DiagId(3548), Severity::Warning)
            .with_args(vec![Arg::Str("__device__".into()), entity(EntityKind::Variable, "dv13")])
            .at(Location::new("t13.cu", 2, 19).with_source_line("int main(){return dv13;}")),
    );
    let (_, text) = finish(e);
    expect![[r#"
        warning[20091]: a __device__ variable "dv13" cannot be directly read in a host function
          ┌─ t13.cu:2:19
          │
        2 │ int main(){return dv13;}
          │                   ^

        help[20252]: The warnings can be suppressed with "-diag-suppress <warning-number>"

    "#]]
    .assert_eq(&text);
}

#[test]
fn scanning_a_translation_unit_for_pragmas() {
    let text = "int a;\r\n  #pragma nv_diagnostic push\n# 3 \"x.cu\"\n#pragma nv_diag_suppress 940 177\n\
                #pragma nv_diagnostic pop\n\t#pragma nv_diagnostic pop\nint b;\n#pragma GCC diagnostic pop\n";
    let (timeline, problems) = scan_pragmas(text);
    let at = |needle: &str| text.find(needle).unwrap() as u32;
    assert_eq!(problems, vec![(at("177"), DiagId(253)), (at("\nint b"), DiagId(3185))]);
    assert_eq!(
        timeline.level_at(DiagId(940), at("#pragma nv_diagnostic pop")),
        Some(PragmaLevel::Set(Level::Suppressed))
    );
    assert_eq!(timeline.level_at(DiagId(940), at("int b")), None);
    assert_eq!(timeline.unmatched_pops().collect::<Vec<_>>(), vec![at("\t#pragma nv_diagnostic pop")]);
}

#[test]
fn text_wrap_context_lines() {
    // wctx.ii with --wrap_diagnostics: context entries wrap 10 columns deeper.
    let t = "TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT";
    let one = "OneWithAVeryLongNameIndeedYesVeryLong";
    let src = format!("template<class {t}> struct {one} {{ {t} x = 1.0; int *p = x; }};");
    let d = Diagnostic::new(DiagId(144), Severity::HardError)
        .with_args(vec![
            Arg::Type { spelling: "int".into(), aka: None },
            Arg::Type { spelling: "int *".into(), aka: None },
        ])
        .at(Location::new("wctx.ii", 1, 152).with_source_line(src))
        .with_context(ContextEntry {
            kind: ContextKind::ImplicitGeneration,
            entity: Entity {
                kind: None,
                with_template_args: Some(format!("{one}<{t}>::{one}() [with {t}=int]")),
                ..Entity::default()
            },
            at: Pos::At { file: "wctx.ii".into(), line: 2 },
        })
        .with_context(ContextEntry {
            kind: ContextKind::Instantiation,
            entity: Entity {
                with_template_args: Some(format!("{one}<{t}> [with {t}=int]")),
                ..Entity::new(EntityKind::Class, format!("{one}<int>"))
            },
            at: Pos::At { file: "wctx.ii".into(), line: 2 },
        });
    let opts = TextOptions { wrap: true, brief: true, ..TextOptions::default() };
    check_text(
        &d,
        &opts,
        expect![[r#"
        wctx.ii(1): error: a value of type "int" cannot be used to initialize an entity
                  of type "int *"
                  detected during:
                    implicit generation of
                              "OneWithAVeryLongNameIndeedYesVeryLong<TTTTTTTTTTTTTTTTTT
                              TTTTTTTTTTTTTTT>::OneWithAVeryLongNameIndeedYesVeryLong()
                              [with TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT=int]" at line 2
                    instantiation of class
                              "OneWithAVeryLongNameIndeedYesVeryLong<TTTTTTTTTTTTTTTTTT
                              TTTTTTTTTTTTTTT> [with
                              TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT=int]" at line 2
    "#]],
    );
}

/// Arbitrary text never panics the pragma reader, the template expander or
/// the wrapping text renderer (deterministic pseudo-random inputs).
#[test]
fn no_panics_on_arbitrary_text() {
    let alphabet: Vec<char> =
        "#pragma nv_diag_suppress diagnostic push pop 0123456789,()\"'\\%[]snpdtTuqo é\t\n\r".chars().collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let wrap = TextOptions {
        wrap: true,
        palette: Some(Palette::parse(render::palette::DEFAULT_PALETTE)),
        ..TextOptions::default()
    };
    for _ in 0..3000 {
        let len = (next() % 60) as usize;
        let s: String = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
        let _ = parse_pragma(&s);
        let _ = scan_pragmas(&s);
        let args = [Arg::Str(s.clone()), entity(EntityKind::Function, &s), Arg::Int(1)];
        let _ = message::render_plain(&s, &args, Some("x"));
        let d = Diagnostic::new(DiagId(1538), Severity::Warning).with_arg(Arg::Str(s.repeat(3))).at(Location::new(
            "x",
            1,
            (next() % 200) as u32,
        )
        .with_source_line(s.clone()));
        let _ = render_text(&d, &wrap);
        let _ = parse_diag_list(&s);
    }
}

#[test]
fn shown_flags_from_a_front_end_command_line() {
    // As nvcc writes cudafe++'s line for `-diag-suppress 177,550 -diag-error
    // 940 -w -Werror all-warnings` (other options skipped, values too).
    let args: Vec<String> = [
        "--c++17",
        "--orig_src_file_name",
        "/w/a.cu",
        "--promote_warnings",
        "-w",
        "--diag_suppress",
        "177,550",
        "--diag_error=940",
        "--error_limit",
        "7",
        "--diag_suppress",
        "not-a-number",
        "--display_error_number",
        "a.cpp4.ii",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let flags = ShownFlags::from_args(&args);
    assert!(flags.no_warnings && flags.promote_warnings);
    assert_eq!(flags.error_limit, 7);
    assert_eq!(flags.overrides.level(DiagId(177)), Some(Level::Suppressed));
    assert_eq!(flags.overrides.level(DiagId(550)), Some(Level::Suppressed));
    assert_eq!(flags.overrides.level(DiagId(940)), Some(Level::Severity(Severity::Error)));
    assert_eq!(flags.overrides.level(DiagId(68)), None);
    assert_eq!(ShownFlags::from_args(&[]), ShownFlags::default());
}
