//! Semantic tokens: what each identifier of a file names, with the CUDA
//! execution space of functions (kernel, device, host, host-device) and
//! the memory space of variables (device, constant, shared, managed) as
//! modifiers.
//!
//! Names are resolved without inference first (declarations, locals, the
//! name index); where the candidates disagree (overloads in different
//! spaces), `hir`'s resolution decides, and where it cannot, the token is
//! left out rather than guessed.

use cufront_cuda::{ExecSpace, MemSpace};
use cufront_syntax::{SyntaxKind as K, SyntaxToken, TextSize};

use crate::resolve::{self, Resolved, Target};
use crate::symbols::{self, DeclKind};
use crate::{Ctx, LineCol};

/// The kind of a token (LSP's standard token types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Namespace,
    Class,
    Struct,
    Enum,
    EnumMember,
    Type,
    Function,
    Method,
    Variable,
    Parameter,
    Property,
    Concept,
}

/// Modifiers, as bits of [`SemanticToken::modifiers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenModifier {
    Declaration = 0,
    Definition = 1,
    /// A `__global__` function.
    Kernel = 2,
    /// A `__device__`-only function.
    Device = 3,
    /// A host function, annotated or not.
    Host = 4,
    /// `__host__ __device__` (written, or implied by `--expt-relaxed-constexpr`).
    HostDevice = 5,
    DeviceMemory = 6,
    ConstantMemory = 7,
    SharedMemory = 8,
    ManagedMemory = 9,
}

impl TokenModifier {
    pub const ALL: [TokenModifier; 10] = [
        TokenModifier::Declaration,
        TokenModifier::Definition,
        TokenModifier::Kernel,
        TokenModifier::Device,
        TokenModifier::Host,
        TokenModifier::HostDevice,
        TokenModifier::DeviceMemory,
        TokenModifier::ConstantMemory,
        TokenModifier::SharedMemory,
        TokenModifier::ManagedMemory,
    ];
    pub fn name(self) -> &'static str {
        match self {
            TokenModifier::Declaration => "declaration",
            TokenModifier::Definition => "definition",
            TokenModifier::Kernel => "kernel",
            TokenModifier::Device => "device",
            TokenModifier::Host => "host",
            TokenModifier::HostDevice => "hostDevice",
            TokenModifier::DeviceMemory => "deviceMemory",
            TokenModifier::ConstantMemory => "constantMemory",
            TokenModifier::SharedMemory => "sharedMemory",
            TokenModifier::ManagedMemory => "managedMemory",
        }
    }
}

/// One token: a range on one line of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub start: LineCol,
    /// In bytes.
    pub len: u32,
    pub kind: TokenKind,
    /// Bits `1 << TokenModifier as u32`.
    pub modifiers: u32,
}

impl SemanticToken {
    pub fn has(&self, m: TokenModifier) -> bool {
        self.modifiers & (1 << m as u32) != 0
    }
}

pub(crate) fn semantic_tokens(cx: &Ctx<'_>) -> Vec<SemanticToken> {
    let root = cx.parse().syntax_node();
    let spaces = symbols::unit_spaces(cx.db, cx.unit.tu);
    let mut out = Vec::new();
    for (start, end) in segments(cx) {
        let Some(mut tok) = cufront_syntax::green::token_at(&root, TextSize::from(start)) else {
            continue;
        };
        loop {
            if tok.text_range().start() >= TextSize::from(end) {
                break;
            }
            if tok.kind() == K::IDENT
                && let Some(t) = classify(cx, &spaces, tok.clone())
            {
                out.push(t);
            }
            match tok.next_token() {
                Some(n) => tok = n,
                None => break,
            }
        }
    }
    out.sort_by_key(|t| t.start);
    out.dedup_by_key(|t| t.start);
    out
}

/// The unit ranges that hold the context file's lines (runs of consecutive lines).
fn segments(cx: &Ctx<'_>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut prev: Option<usize> = None;
    for i in cx.lines.lines_of(cx.file_id) {
        let (s, e) = cx.lines.line_range(cx.text(), i);
        match (prev, out.last_mut()) {
            (Some(p), Some(last)) if p + 1 == i => last.1 = e,
            _ => out.push((s, e)),
        }
        prev = Some(i);
    }
    out
}

fn classify(cx: &Ctx<'_>, spaces: &symbols::UnitSpaces, tok: SyntaxToken) -> Option<SemanticToken> {
    let res = resolve::resolve_token(cx, tok.clone(), false)?;
    let mut kinds = kinds_of(cx, spaces, &res);
    kinds.dedup();
    if kinds.len() != 1 {
        // Overloads that differ: ask inference.
        let res = resolve::resolve_token(cx, tok.clone(), true)?;
        res.entity?;
        kinds = kinds_of(cx, spaces, &res);
        kinds.dedup();
    }
    let [(kind, mut modifiers)] = kinds[..] else {
        return None;
    };
    if res.is_declaration {
        modifiers |= 1 << TokenModifier::Declaration as u32;
        if res.targets.first().and_then(|t| t.decl(cx.db)).is_none_or(|(d, _)| d.definition) {
            modifiers |= 1 << TokenModifier::Definition as u32;
        }
    }
    let (_, start, _) = cx.position(tok.text_range().start().into());
    let (_, end, _) = cx.position(tok.text_range().end().into());
    // A macro use spells the name differently in the file: the file's extent counts.
    let len = if end.line == start.line && end.col > start.col { end.col - start.col } else { tok.text().len() as u32 };
    Some(SemanticToken { start, len, kind, modifiers })
}

fn kinds_of(cx: &Ctx<'_>, spaces: &symbols::UnitSpaces, res: &Resolved) -> Vec<(TokenKind, u32)> {
    let mut v: Vec<(TokenKind, u32)> = res
        .targets
        .iter()
        .map(|t| match t {
            Target::Local { decl, .. } => {
                let text = &cx.text()[*decl];
                let _ = text;
                let param = cx.parse().syntax_node().covering_element(*decl).ancestors().any(|a| a.kind() == K::PARAM);
                (if param { TokenKind::Parameter } else { TokenKind::Variable }, 0)
            }
            Target::Decl { .. } => {
                let (d, _) = t.decl(cx.db).expect("a Decl target has a declaration");
                let bit = |m: TokenModifier| 1u32 << m as u32;
                match d.kind {
                    DeclKind::Function => {
                        let info = symbols::exec_space(spaces, &d, cx.unit.checks.relaxed_constexpr);
                        let m = match info.space {
                            ExecSpace::Global => bit(TokenModifier::Kernel),
                            ExecSpace::Device => bit(TokenModifier::Device),
                            ExecSpace::HostDevice => bit(TokenModifier::HostDevice),
                            ExecSpace::Host | ExecSpace::ImplicitHost => bit(TokenModifier::Host),
                        };
                        (if d.member { TokenKind::Method } else { TokenKind::Function }, m)
                    }
                    DeclKind::Variable | DeclKind::Field => {
                        let m = match d.mem_space() {
                            Some(MemSpace::Device) => bit(TokenModifier::DeviceMemory),
                            Some(MemSpace::Constant) => bit(TokenModifier::ConstantMemory),
                            Some(MemSpace::Shared) => bit(TokenModifier::SharedMemory),
                            Some(MemSpace::Managed) => bit(TokenModifier::ManagedMemory),
                            _ => 0,
                        };
                        (if d.kind == DeclKind::Field { TokenKind::Property } else { TokenKind::Variable }, m)
                    }
                    DeclKind::Namespace => (TokenKind::Namespace, 0),
                    DeclKind::Class | DeclKind::Union => (TokenKind::Class, 0),
                    DeclKind::Struct => (TokenKind::Struct, 0),
                    DeclKind::Enum => (TokenKind::Enum, 0),
                    DeclKind::Enumerator => (TokenKind::EnumMember, 0),
                    DeclKind::Typedef => (TokenKind::Type, 0),
                    DeclKind::Concept => (TokenKind::Concept, 0),
                }
            }
        })
        .collect();
    v.sort_by_key(|(k, m)| (*k as u32, *m));
    v
}
