use super::*;
use crate::{ParseOptions, SyntaxKind, parse};

fn file(text: &str) -> SourceFile {
    let parse = parse(text, ParseOptions::default());
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    SourceFile::cast(parse.syntax_node()).unwrap()
}

fn first<N: AstNode>(root: &SourceFile) -> N {
    root.syntax().descendants().find_map(N::cast).expect("node not found")
}

#[test]
fn function_def_parts() {
    let f = file("struct A { int x; A(int v) : x(v) {} };\nint add(int a, int b) { return a + b; }\n");
    let defs: Vec<FunctionDef> = f.syntax().descendants().filter_map(FunctionDef::cast).collect();
    assert_eq!(defs.len(), 2);
    let add = &defs[1];
    let decl = add.declarator().unwrap();
    assert_eq!(decl.name().and_then(|n| n.text()).as_deref(), Some("add"));
    let params: Vec<Param> = decl.function_declarator().unwrap().params().unwrap().params().collect();
    assert_eq!(params.len(), 2);
    assert!(!add.body().unwrap().is_lazy());
    let stmts: Vec<Stmt> = add.compound().unwrap().statements().collect();
    assert_eq!(stmts.len(), 1);
    let Stmt::ReturnStmt(ret) = &stmts[0] else { panic!("{:?}", stmts[0]) };
    let Some(Expr::BinExpr(sum)) = ret.expr() else { panic!() };
    assert_eq!(sum.op_kind(), Some(SyntaxKind::PLUS));
    assert_eq!(sum.lhs().unwrap().to_string(), "a");
    assert_eq!(sum.rhs().unwrap().to_string(), "b");
    // The constructor's mem-initializers.
    let ctor = &defs[0];
    assert_eq!(ctor.ctor_initializer().unwrap().initializers().count(), 1);
}

#[test]
fn class_members() {
    let f = file("class C { public: int a; void f(); static const int n = 3; };");
    let class: ClassSpecifier = first(&f);
    let members: Vec<Decl> = class.members().collect();
    assert!(members.iter().any(|m| matches!(m, Decl::AccessSpecifier(_))), "{members:?}");
    let simple = members.iter().filter(|m| matches!(m, Decl::SimpleDecl(_))).count();
    assert_eq!(simple, 3, "{members:?}");
}

#[test]
fn call_and_launch() {
    let f = file("void k(int); void g(int, int); void h() { g(1, 2); k<<<1, 2>>>(3); }");
    let call: CallExpr = first(&f);
    assert_eq!(call.callee().unwrap().to_string(), "g");
    let args: Vec<String> = call.args().map(|a| a.to_string()).collect();
    assert_eq!(args, ["1", "2"]);
    let launch: KernelLaunch = first(&f);
    assert_eq!(launch.callee().unwrap().to_string(), "k");
    assert_eq!(launch.config().unwrap().args().count(), 2);
    assert_eq!(launch.args().count(), 1);
}

#[test]
fn statements() {
    let f = file(
        "int g(int);\nvoid f(int* p, int (&a)[2]) {\n  if constexpr (true) {} else ;\n  for (int x : a) g(x);\n  \
         for (int i = 0; i < 2; ++i) continue;\n  switch (g(1)) { case 1 ... 3: break; default: ; }\n  \
         goto *p;\n  lbl: try {} catch (int e) {} catch (...) {}\n}\n",
    );
    let if_stmt: IfStmt = first(&f);
    assert!(if_stmt.is_constexpr());
    assert!(matches!(if_stmt.then_branch(), Some(Stmt::CompoundStmt(_))));
    assert!(matches!(if_stmt.else_branch().unwrap().stmt(), Some(Stmt::NullStmt(_))));
    let range_for: RangeForStmt = first(&f);
    assert!(range_for.init().is_none());
    assert_eq!(range_for.decl().unwrap().to_string(), "int x");
    assert_eq!(range_for.range().unwrap().to_string(), "a");
    let for_stmt: ForStmt = first(&f);
    assert_eq!(for_stmt.init().unwrap().to_string(), "int i = 0;");
    assert_eq!(for_stmt.condition().unwrap().to_string(), "i < 2");
    assert_eq!(for_stmt.step().unwrap().to_string(), "++i");
    assert!(matches!(for_stmt.body(), Some(Stmt::ContinueStmt(_))));
    let case: CaseStmt = first(&f);
    assert_eq!(case.value().unwrap().to_string(), "1");
    assert_eq!(case.range_end().unwrap().to_string(), "3");
    let goto: GotoStmt = first(&f);
    assert!(goto.is_computed());
    let label: LabeledStmt = first(&f);
    assert_eq!(label.name().unwrap().text().as_deref(), Some("lbl"));
    let try_block = match label.stmt() {
        Some(Stmt::TryBlock(t)) => t,
        other => panic!("{other:?}"),
    };
    let handlers: Vec<Handler> = try_block.handlers().collect();
    assert_eq!(handlers.len(), 2);
    assert!(handlers[0].exception_decl().unwrap().param().is_some());
    assert!(handlers[1].exception_decl().unwrap().ellipsis().is_some());
}

#[test]
fn lazy_bodies_cast_and_parse_on_demand() {
    let text = "struct S { int f() { return g(); } int g() { return 1; } };";
    let parse = parse(text, ParseOptions { lazy_bodies: true, ..ParseOptions::default() });
    let root = SourceFile::cast(parse.syntax_node()).unwrap();
    let bodies: Vec<LazyBody> = root.syntax().descendants().filter_map(LazyBody::cast).collect();
    assert_eq!(bodies.len(), 2);
    let body = parse.parse_body(bodies[0].syntax()).unwrap();
    assert!(body.errors().is_empty(), "{:?}", body.errors());
    let fb = FunctionBody::cast(body.syntax_node()).unwrap();
    let ret = fb.compound().unwrap().statements().next().unwrap();
    // `g` is declared after `f`'s body, yet is known as a member: a call.
    let Stmt::ReturnStmt(ret) = ret else { panic!() };
    assert!(matches!(ret.expr(), Some(Expr::CallExpr(_))));
}

#[test]
fn cast_rejects_other_kinds() {
    let f = file("int x;");
    assert!(FunctionDef::cast(f.syntax().clone()).is_none());
    assert!(Decl::cast(f.syntax().clone()).is_none());
    let d: Decl = f.decls().next().unwrap();
    assert!(matches!(d, Decl::SimpleDecl(_)));
    assert!(Expr::can_cast(SyntaxKind::CALL_EXPR));
    assert!(!Expr::can_cast(SyntaxKind::IF_STMT));
}
