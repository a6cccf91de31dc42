//! Robustness: no input panics the parser, every tree is lossless, and trees
//! stay shallow enough for recursive consumers (rowan's drop, tree walks).
//!
//! These run on the default test thread stack on purpose: `Parser::nested`
//! must bound the recursion whatever the input.

use crate::{LexOptions, MAX_TREE_DEPTH, Parse, ParseOptions, SyntaxKind, SyntaxNode, parse};

/// Deepest node nesting in the tree (iterative walk).
fn tree_depth(node: &SyntaxNode) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for ev in node.preorder() {
        match ev {
            rowan::WalkEvent::Enter(_) => {
                depth += 1;
                max = max.max(depth);
            }
            rowan::WalkEvent::Leave(_) => depth -= 1,
        }
    }
    max
}

fn opts(cxx20: bool, lazy_bodies: bool) -> ParseOptions {
    ParseOptions { lex: LexOptions { cxx20, ..LexOptions::default() }, lazy_bodies }
}

/// Parses `text` both ways and checks the invariants; with `compare_bodies`,
/// also that each lazy body parsed on demand is the body the full parse has.
fn check(text: &str, cxx20: bool, compare_bodies: bool) -> Parse {
    let full = parse(text, opts(cxx20, false));
    let root = full.syntax_node();
    assert_eq!(root.text().to_string(), text, "full parse is not lossless");
    let depth = tree_depth(&root);
    assert!(depth <= MAX_TREE_DEPTH, "tree depth {depth} exceeds {MAX_TREE_DEPTH}");
    assert!(!root.descendants().any(|n| n.kind() == SyntaxKind::LAZY_BODY), "a body was left lazy");

    let lazy = parse(text, opts(cxx20, true));
    let lazy_root = lazy.syntax_node();
    assert_eq!(lazy_root.text().to_string(), text, "lazy parse is not lossless");
    // Every lazy body parsed in place gives the full parse's tree and errors.
    let ranges: Vec<_> = lazy.lazy_body_ranges().collect();
    let nodes: Vec<_> =
        lazy_root.descendants().filter(|n| n.kind() == SyntaxKind::LAZY_BODY).map(|n| n.text_range()).collect();
    assert!(nodes.iter().all(|r| ranges.contains(r)), "a LAZY_BODY node whose range is not recorded");
    let spliced = lazy.with_bodies_parsed(&ranges);
    assert_eq!(spliced.green().clone(), full.green().clone(), "bodies parsed in place differ from the full parse");
    let key = |p: &Parse| {
        let mut e: Vec<_> = p.errors().iter().map(|e| (e.range.start(), e.range.end(), e.msg.clone())).collect();
        e.sort();
        e
    };
    assert_eq!(key(&spliced), key(&full), "errors of bodies parsed in place differ from the full parse");
    if !compare_bodies {
        return full;
    }
    // Parsing a lazy body on demand gives exactly the tree the full parse spliced in.
    let full_bodies: Vec<SyntaxNode> = root.descendants().filter(|n| n.kind() == SyntaxKind::FUNCTION_BODY).collect();
    for body in lazy_root.descendants().filter(|n| n.kind() == SyntaxKind::LAZY_BODY) {
        let parsed = lazy.parse_body(&body).expect("a lazy body of this parse");
        assert_eq!(parsed.syntax_node().text().to_string(), body.text().to_string());
        let spliced = full_bodies.iter().find(|b| b.text_range() == body.text_range());
        let spliced = spliced.expect("the full parse has a body where the lazy parse has one");
        assert_eq!(spliced.green().into_owned(), parsed.green().clone(), "on-demand body differs from the full parse");
    }
    full
}

// ---- (a) randomized inputs, seeded

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "int",
    "x",
    "y",
    "T",
    "f",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ">>",
    ">=",
    ";",
    ",",
    "::",
    ":",
    "...",
    "=",
    "+",
    "-",
    "*",
    "&",
    "&&",
    "~",
    "!",
    "?",
    ".",
    "->",
    "0",
    "1.5e3",
    "0x1p3",
    "1'000",
    "'c'",
    "\"s\"",
    "R\"(raw)\"",
    "template",
    "typename",
    "class",
    "struct",
    "union",
    "enum",
    "namespace",
    "using",
    "typedef",
    "auto",
    "const",
    "static",
    "inline",
    "virtual",
    "operator",
    "decltype",
    "sizeof",
    "alignof",
    "new",
    "delete",
    "this",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "goto",
    "try",
    "catch",
    "throw",
    "asm",
    "volatile",
    "__label__",
    "__extension__",
    "__attribute__((unused))",
    "[[likely]]",
    "co_return",
    "co_await",
    "requires",
    "concept",
    "consteval",
    "<<<",
    ">>>",
    "void f() {",
    "int g(int a) {",
    "struct S {",
    "template <class U>",
    "[](int v) { return v; }",
    "({ 1; })",
    "\n",
    " ",
    "/* c */",
    "// c\n",
    "\n# 12 \"f.h\" 3\n",
    "\n#pragma once\n",
    "\\",
    "@",
    "`",
    "\u{e9}",
    "\"unterminated",
    "'",
];

fn random_bytes(rng: &mut XorShift) -> String {
    const ALPHABET: &[u8] = b"abxyzT_019 \n\r\t(){}[]<>;:,.+-*/%&|^!~?=#'\"\\@$";
    let len = rng.below(120);
    (0..len)
        .map(|_| match rng.below(40) {
            0 => char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'),
            _ => ALPHABET[rng.below(ALPHABET.len())] as char,
        })
        .collect()
}

fn token_soup(rng: &mut XorShift) -> String {
    let n = rng.below(60);
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(FRAGMENTS[rng.below(FRAGMENTS.len())]);
        if rng.below(3) != 0 {
            s.push(' ');
        }
    }
    s
}

#[test]
fn random_inputs_do_not_panic() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for i in 0..3000 {
        let text = if i % 2 == 0 { random_bytes(&mut rng) } else { token_soup(&mut rng) };
        let cxx20 = i % 3 == 0;
        let r = std::panic::catch_unwind(|| {
            check(&text, cxx20, true);
        });
        assert!(r.is_ok(), "input #{i} (cxx20: {cxx20}) failed: {text:?}");
    }
}

/// Inputs that once broke an invariant (found by the fuzz target).
#[test]
fn regressions() {
    // A backslash before a lone carriage return made the lexer loop without progress.
    for text in ["\\\r", "\\\rx", "\r\r\\\r\u{7}\u{7}\n", "\\\r\n", "int x; \\\r"] {
        check(text, false, true);
    }
}

/// Every reproducer in `fuzz/regressions/` (hangs and crashes the fuzz target
/// found) parses, both ways, within a generous time limit. A hang must fail
/// the test rather than stall it, so each file is parsed on its own thread.
#[test]
fn fuzz_regressions_finish() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("fuzz/regressions exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no reproducers in {}", dir.display());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let ok = std::panic::catch_unwind(|| {
                check(&text, false, true);
                check(&text, true, true);
            })
            .is_ok();
            let _ = tx.send(ok);
        });
        match rx.recv_timeout(std::time::Duration::from_secs(10)) {
            Ok(true) => {}
            Ok(false) => panic!("{}: an invariant failed", path.display()),
            // The stuck thread is left behind; the test process ends with the failure.
            Err(_) => panic!("{}: parsing did not finish within 10 s", path.display()),
        }
    }
}

// ---- (b) deep nesting, 100 000 levels

const DEEP: usize = 100_000;
/// For shapes beyond the ones above (statements, bodies in local classes),
/// which cost more per level: still 50 times `MAX_NESTING`.
const DEEP_EXTRA: usize = 20_000;

fn deep(prefix: &str, open: &str, middle: &str, close: &str, suffix: &str) -> String {
    deep_n(DEEP, prefix, open, middle, close, suffix)
}

fn deep_n(n: usize, prefix: &str, open: &str, middle: &str, close: &str, suffix: &str) -> String {
    let mut s = String::with_capacity(prefix.len() + n * (open.len() + close.len()) + suffix.len() + 16);
    s.push_str(prefix);
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(middle);
    for _ in 0..n {
        s.push_str(close);
    }
    s.push_str(suffix);
    s
}

/// Counts what a debug dump writes (the dump of a deep tree is big).
struct CountingSink(usize);

impl std::fmt::Write for CountingSink {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

fn check_deep(text: &str) {
    let parse = check(text, true, false);
    // A debug dump walks the whole tree without recursion.
    let mut sink = CountingSink(0);
    crate::debug_tree_to(&parse.syntax_node(), &mut sink).unwrap();
    assert!(sink.0 >= text.len());
    // Dropping the tree (rowan drops recursively) happens here, on this thread's stack.
    drop(parse);
}

#[test]
fn deep_parens() {
    check_deep(&deep("int x = ", "(", "1", ")", ";"));
    check_deep(&deep("void f() { int x = ", "(", "1", ")", "; }"));
}

#[test]
fn deep_braces() {
    check_deep(&deep("int x = ", "{", "1", "}", ";"));
    check_deep(&deep("void f() ", "{", "", "}", ""));
}

#[test]
fn deep_brackets() {
    check_deep(&deep("int a[1]; void f() { int x = ", "a[", "0", "]", "; }"));
    check_deep(&deep("void f() { ", "[", "", "]", "; }"));
}

#[test]
fn deep_template_args() {
    check_deep(&deep("template <class T> struct a {}; ", "a<", "int", ">", " x;"));
    check_deep(&deep("template <class T> struct a {}; void f() { ", "a<", "int", "> ", " x; }"));
    // `a` a value: a chain of comparisons.
    check_deep(&deep("int a; void f() { bool b = ", "a<", "a", "", "; }"));
}

#[test]
fn deep_unary() {
    check_deep(&deep("int x; void f() { int y = ", "-", "x", "", "; }"));
    check_deep(&deep("int x; void f() { int y = ", "!", "x", "", "; }"));
    check_deep(&deep("int x; void f() { int y = ", "(int)", "x", "", "; }"));
    check_deep(&deep("void f() { int x = ", "*&", "x", "", "; }"));
}

#[test]
fn deep_statements() {
    check_deep(&deep_n(DEEP_EXTRA, "void f(int x) { ", "if (x) ", "x++;", "", " }"));
    check_deep(&deep_n(DEEP_EXTRA, "void f(int x) { ", "if (x) x++; else ", "x--;", "", " }"));
    check_deep(&deep_n(DEEP_EXTRA, "void f(int x) { ", "l: ", ";", "", " }"));
    check_deep(&deep_n(DEEP_EXTRA, "void f(int x) { ", "x = ", "1", "", "; }"));
    check_deep(&deep_n(DEEP_EXTRA, "void f() { ", "[]{ ", "", "}", " }"));
}

#[test]
fn deep_classes_and_namespaces() {
    check_deep(&deep("", "struct A { ", "int x;", "}; ", ""));
    check_deep(&deep("", "namespace a { ", "int x;", "} ", ""));
    // Bodies in local classes in bodies …: each level is a lazy body of the one outside.
    check_deep(&deep_n(DEEP_EXTRA, "", "struct A { void f() { ", "", "} }; ", ""));
}

#[test]
fn unclosed_openers() {
    for open in ["(", "{", "[", "a<", "struct A { ", "namespace a { ", "void f() { ", "if (1) "] {
        let text: String = std::iter::repeat_n(open, DEEP).collect();
        check(&text, false, false);
    }
}

/// A speculation that went through a braced group and found an error is
/// not parsed again another way (`Parser::must_keep`), and a type-id that
/// starts with a class key is parsed once: rewound, each group (holding all
/// the lines after it) was parsed again per nesting level, two to six times
/// per line (a fuzz target's timeout: 14 lines of the first shape took 10 s).
#[test]
fn speculations_over_braced_groups_stay_linear() {
    for line in [
        "int x = sizeof(struct B {",
        "int f() noexcept(sizeof(struct B {= 2);",
        "int y = (struct C {",
        "void *p = new (struct D {",
        "bool b = __is_same(union E {, int);",
        "int z = alignof(enum F {",
        "int x = sizeof(typename T::template V<struct A {",
        "int x = sizeof(V<decltype([]{",
        "void f() { T (*p)[sizeof(struct C {",
        "void f() { T (g)(T (*)(struct D {",
        "int x = __typeof__(V<decltype([]{",
        "void f() { if (T x{[]{",
        "void f() { for (T x{[]{",
        "void f() { switch (T x{[]{",
    ] {
        let text =
            format!("struct T {{ int a; }}; template <class U> struct V {{}};\n{}", format!("{line}\n").repeat(2_000));
        check(&text, false, false);
    }
}

/// A condition or init-statement is read as a declaration, then another
/// declaration or an expression, each reading parsing the lambda and class
/// bodies in it and the conditions inside those again: twice per level of
/// nesting, on valid code too (18 levels took 0.75 s, 20 levels of broken
/// code 3.5 s). A failed reading is not tried again at the same tokens
/// (`Parser::failed_before`); here 60 levels would be 2^60 readings.
#[test]
fn nested_conditions_are_read_once_per_reading() {
    const LEVELS: usize = 60;
    for open in ["if (auto x = [] { ", "for (auto x = [] { ", "switch (auto x = [] { ", "while (struct { void f() { "] {
        check(&format!("void f() {{ {}", open.repeat(LEVELS)), true, true);
    }
    // Valid: every condition is a declaration whose initializer calls a
    // lambda holding the next one (the init-statement reading fails at each).
    let valid = format!(
        "void f() {{ {}return 1; {}}}",
        "if (auto x = [] { ".repeat(LEVELS),
        "}()) {} return 1; ".repeat(LEVELS)
    );
    let parse = check(&valid, true, true);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let conditions = parse.syntax_node().descendants().filter(|n| n.kind() == SyntaxKind::CONDITION);
    let declared = conditions.filter(|c| c.children().any(|d| d.kind() == SyntaxKind::SIMPLE_DECL)).count();
    assert_eq!(declared, LEVELS, "each condition is a declaration");
}

/// A `for` header without `;` is read as a range-based for, then as an
/// init-statement, then as an expression; a class body in it holding a
/// function holding the next `for (` was parsed twice per level (the
/// fuzzer's `for (struct { f(M {` repeated: 20 levels took 1.7 s). Each
/// reading is tried once per position (`Parser::failed_before`), and past the
/// rewind budget an erroneous one stands (`Parser::budget_spent`), so a
/// region nested in many readings is not parsed once per enclosing reading.
#[test]
fn range_for_readings_through_class_bodies_stay_linear() {
    let min = include_str!("../../fuzz/regressions/timeout-range-for-reading-through-class-bodies.cpp");
    for open in ["for (struct P { void g() { ", "for (struct P { int x, y; void f(M m, int (&a)[3]) { "] {
        check(&format!("void f() {{ {}", open.repeat(60)), true, true);
        check(&format!("void f() {{ {}", open.repeat(3_000)), false, false);
    }
    check(&min.repeat(40), false, true);
    // Valid range-based fors, with and without an init-statement, nested in
    // class bodies of for headers, are still read as such.
    let valid = "void f(int (&a)[3]) { for (struct P { void g(int (&a)[3]) { for (int& x : a) x = 0; for (int i = 0; int& y : a) y = i; } } p; ;) {} }";
    let parse = check(valid, true, true);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    let range_fors = parse.syntax_node().descendants().filter(|n| n.kind() == SyntaxKind::RANGE_FOR_STMT).count();
    assert_eq!(range_fors, 2);
}

/// Readings that fail deep inside nested parentheses, with no braced group
/// to cut them (the fuzzer's `(int(o(int((i%(int(…`: each group read as a
/// type-id or a declarator's parameters and then as an expression): past
/// the rewind budget, an erroneous speculation stands (`Parser::must_keep`).
#[test]
fn speculations_over_parenthesized_groups_stay_linear() {
    let input = include_str!("../../fuzz/regressions/timeout-nested-paren-type-id-speculation.cpp");
    for text in [
        input.to_string(),
        input.repeat(50),
        format!("void f() {{ {} }}", input.repeat(20)),
        format!("int x = {};", "(int(o(int((i%(int(".repeat(40)),
        format!("void g() {{ T (p)[sizeof({}", "int(o(i[t((int(".repeat(40)),
    ] {
        check(&text, true, false);
    }
}
