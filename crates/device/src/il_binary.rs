//! The device IL's binary form (`docs/device-il.md`): the magic `CFIL`, the
//! version as a LEB128 number, then the module. Numbers are unsigned
//! LEB128, strings a length and UTF-8 bytes, lists a count and their
//! elements, options and sum types a tag byte then the fields in
//! declaration order. Reading checks everything and stops at the first
//! fault with a [`DecodeError`]; `decode(encode(m)) == m` for every module.

use crate::il::*;

const MAGIC: &[u8; 4] = b"CFIL";

/// Why bytes are not a device IL module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// No `CFIL` at the start.
    NotIl,
    /// Another version of the IL (this reader reads [`VERSION`]).
    Version(u32),
    /// The bytes end inside the module.
    Truncated,
    /// A tag byte no variant has, at this offset.
    BadTag { at: usize, tag: u64 },
    /// A string that is not UTF-8, at this offset.
    NotUtf8 { at: usize },
    /// A number too large for its field, at this offset.
    Overflow { at: usize },
    /// Bytes after the module.
    Trailing { at: usize },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::NotIl => f.write_str("not a cufront device IL file"),
            DecodeError::Version(v) => write!(f, "device IL version {v}, this reader reads version {VERSION}"),
            DecodeError::Truncated => f.write_str("the file ends inside the module"),
            DecodeError::BadTag { at, tag } => write!(f, "unknown tag {tag} at byte {at}"),
            DecodeError::NotUtf8 { at } => write!(f, "a string that is not UTF-8 at byte {at}"),
            DecodeError::Overflow { at } => write!(f, "a number out of range at byte {at}"),
            DecodeError::Trailing { at } => write!(f, "bytes after the module at byte {at}"),
        }
    }
}

pub fn encode(m: &Module) -> Vec<u8> {
    let mut w = Writer(MAGIC.to_vec());
    w.u(VERSION as u64);
    m.enc(&mut w);
    w.0
}

pub fn decode(bytes: &[u8]) -> Result<Module, DecodeError> {
    if bytes.get(..4) != Some(MAGIC.as_slice()) {
        return Err(DecodeError::NotIl);
    }
    let mut r = Reader { b: bytes, at: 4, depth: 0 };
    let v = r.u()?;
    if v != VERSION as u64 {
        return Err(DecodeError::Version(u32::try_from(v).unwrap_or(u32::MAX)));
    }
    let m = Module::dec(&mut r)?;
    if r.at != bytes.len() {
        return Err(DecodeError::Trailing { at: r.at });
    }
    Ok(m)
}

struct Writer(Vec<u8>);

impl Writer {
    fn u(&mut self, mut v: u64) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(byte);
                return;
            }
            self.0.push(byte | 0x80);
        }
    }
    fn s(&mut self, s: &str) {
        self.u(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    /// Nesting of the value being read: a hostile file cannot make the
    /// reader recurse without bound.
    depth: u32,
}

/// How deep types, expressions and statements may nest in a file.
const MAX_DEPTH: u32 = 4096;

impl Reader<'_> {
    fn u(&mut self) -> Result<u64, DecodeError> {
        let start = self.at;
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let byte = *self.b.get(self.at).ok_or(DecodeError::Truncated)?;
            self.at += 1;
            let bits = u64::from(byte & 0x7f);
            if shift == 63 && bits > 1 {
                return Err(DecodeError::Overflow { at: start });
            }
            v |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError::Overflow { at: start })
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        let at = self.at;
        u32::try_from(self.u()?).map_err(|_| DecodeError::Overflow { at })
    }
    fn len(&mut self) -> Result<usize, DecodeError> {
        let n = self.u()?;
        // Every element takes at least one byte: a count past the end is a
        // truncated file, not an allocation.
        if n > (self.b.len() - self.at) as u64 {
            return Err(DecodeError::Truncated);
        }
        Ok(n as usize)
    }
    fn s(&mut self) -> Result<String, DecodeError> {
        let n = self.len()?;
        let start = self.at;
        let bytes = &self.b[start..start + n];
        self.at += n;
        String::from_utf8(bytes.to_vec()).map_err(|_| DecodeError::NotUtf8 { at: start })
    }
    fn tag(&mut self) -> Result<(usize, u64), DecodeError> {
        let at = self.at;
        Ok((at, self.u()?))
    }
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, DecodeError>) -> Result<T, DecodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(DecodeError::Overflow { at: self.at });
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }
}

trait Codec: Sized {
    fn enc(&self, w: &mut Writer);
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

impl Codec for u64 {
    fn enc(&self, w: &mut Writer) {
        w.u(*self)
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.u()
    }
}

impl Codec for u32 {
    fn enc(&self, w: &mut Writer) {
        w.u(u64::from(*self))
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.u32()
    }
}

impl Codec for u128 {
    fn enc(&self, w: &mut Writer) {
        w.u(*self as u64);
        w.u((*self >> 64) as u64);
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let lo = r.u()?;
        let hi = r.u()?;
        Ok(u128::from(lo) | (u128::from(hi) << 64))
    }
}

impl Codec for i128 {
    fn enc(&self, w: &mut Writer) {
        (*self as u128).enc(w)
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        u128::dec(r).map(|v| v as i128)
    }
}

impl Codec for bool {
    fn enc(&self, w: &mut Writer) {
        w.u(u64::from(*self))
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            (_, 0) => Ok(false),
            (_, 1) => Ok(true),
            (at, tag) => Err(DecodeError::BadTag { at, tag }),
        }
    }
}

impl Codec for String {
    fn enc(&self, w: &mut Writer) {
        w.s(self)
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.s()
    }
}

impl<T: Codec> Codec for Vec<T> {
    fn enc(&self, w: &mut Writer) {
        w.u(self.len() as u64);
        for x in self {
            x.enc(w);
        }
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let n = r.len()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::dec(r)?);
        }
        Ok(v)
    }
}

impl<T: Codec> Codec for Option<T> {
    fn enc(&self, w: &mut Writer) {
        match self {
            None => w.u(0),
            Some(x) => {
                w.u(1);
                x.enc(w);
            }
        }
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            (_, 0) => Ok(None),
            (_, 1) => Ok(Some(T::dec(r)?)),
            (at, tag) => Err(DecodeError::BadTag { at, tag }),
        }
    }
}

impl<T: Codec> Codec for Box<T> {
    fn enc(&self, w: &mut Writer) {
        (**self).enc(w)
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.nested(|r| T::dec(r).map(Box::new))
    }
}

impl<A: Codec, B: Codec> Codec for (A, B) {
    fn enc(&self, w: &mut Writer) {
        self.0.enc(w);
        self.1.enc(w);
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok((A::dec(r)?, B::dec(r)?))
    }
}

impl<T: Codec> Codec for Result<T, String> {
    fn enc(&self, w: &mut Writer) {
        match self {
            Ok(x) => {
                w.u(0);
                x.enc(w);
            }
            Err(why) => {
                w.u(1);
                w.s(why);
            }
        }
    }
    fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match r.tag()? {
            (_, 0) => Ok(Ok(T::dec(r)?)),
            (_, 1) => Ok(Err(r.s()?)),
            (at, tag) => Err(DecodeError::BadTag { at, tag }),
        }
    }
}

/// Enums without fields, by their index in a table of all variants.
macro_rules! table_codec {
    ($t:ty, $table:expr) => {
        impl Codec for $t {
            fn enc(&self, w: &mut Writer) {
                let i = $table.iter().position(|x| x == self).expect("every variant is in the table");
                w.u(i as u64)
            }
            fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                let (at, tag) = r.tag()?;
                $table.get(tag as usize).copied().ok_or(DecodeError::BadTag { at, tag })
            }
        }
    };
}

table_codec!(Prim, PRIMS);
table_codec!(UnOp, UNOPS);
table_codec!(BinOp, BINOPS);
table_codec!(CastKind, CASTS);
table_codec!(Space, [Space::Device, Space::Constant, Space::Shared, Space::Managed, Space::Local]);
table_codec!(FuncKind, [FuncKind::Kernel, FuncKind::Device]);
table_codec!(Cat, [Cat::LValue, Cat::XValue, Cat::PRValue]);

/// Structs: every field in order.
macro_rules! struct_codec {
    ($t:ident { $($f:ident),* }) => {
        impl Codec for $t {
            fn enc(&self, w: &mut Writer) {
                $(self.$f.enc(w);)*
            }
            fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                Ok($t { $($f: Codec::dec(r)?),* })
            }
        }
    };
}

struct_codec!(Module { classes, vars, funcs });
struct_codec!(Class { mangled, name, layout });
struct_codec!(ClassLayout { size, align, bases, fields });
struct_codec!(Base { class, offset, is_virtual });
struct_codec!(Field { name, ty, offset_bits, bit_width });
struct_codec!(FnType { ret, params, variadic });
struct_codec!(Quals { c, v, r });
struct_codec!(Var { name, ty, space, external, init, value });
struct_codec!(Func { name, kind, ret, params, locals, attrs, body });
struct_codec!(Local { name, ty, space, is_static, grid_constant });
struct_codec!(KernelAttrs { launch_bounds, cluster_dims, maxnreg });
struct_codec!(Expr { ty, cat, kind });
struct_codec!(Capture { name, by_ref, value });

/// Sum types: a tag (the variant's index) and its fields in order.
macro_rules! sum_codec {
    ($t:ident { $($tag:literal => $v:ident $( ( $($p:ident),* ) )? $( { $($f:ident),* } )?),* $(,)? }) => {
        impl Codec for $t {
            #[allow(non_snake_case)]
            fn enc(&self, w: &mut Writer) {
                match self {
                    $($t::$v $( ( $($p),* ) )? $( { $($f),* } )? => {
                        w.u($tag);
                        $($( $p.enc(w); )*)?
                        $($( $f.enc(w); )*)?
                    })*
                }
            }
            fn dec(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                r.nested(|r| {
                    let (at, tag) = r.tag()?;
                    Ok(match tag {
                        $($tag => $t::$v $( ( $({ let $p = Codec::dec(r)?; $p }),* ) )? $( { $($f: Codec::dec(r)?),* } )?,)*
                        _ => return Err(DecodeError::BadTag { at, tag }),
                    })
                })
            }
        }
    };
}

sum_codec!(Type {
    0 => Prim(a),
    1 => Ptr(a),
    2 => LRef(a),
    3 => RRef(a),
    4 => Array(a, b),
    5 => Func(a),
    6 => Class(a),
    7 => Enum { name, underlying },
    8 => Qual(a, b),
    9 => Vector(a, b),
    10 => MemPtr { class, pointee },
    11 => Closure(a),
    12 => Unknown(a),
});

sum_codec!(Const {
    0 => Int(a),
    1 => Float(a),
    2 => Null,
    3 => Array(a),
    4 => Object(a),
});

sum_codec!(Init {
    0 => Expr(a),
    1 => Construct { ctor, args },
    2 => List(a),
});

sum_codec!(Callee {
    0 => Direct(a),
    1 => Indirect(a),
    2 => Builtin,
    3 => Unresolved(a),
    4 => Undeclared(a),
});

sum_codec!(ExprKind {
    0 => Int(a),
    1 => Float(a),
    2 => Str(a),
    3 => Nullptr,
    4 => Local(a),
    5 => Global(a),
    6 => This,
    7 => Field { base, arrow, name },
    8 => Call { callee, args },
    9 => Launch { callee, config, args },
    10 => Unary { op, expr },
    11 => Binary { op, lhs, rhs },
    12 => Assign { op, lhs, rhs },
    13 => Cond { cond, then, els },
    14 => Comma { lhs, rhs },
    15 => Cast { kind, expr },
    16 => Conv(a),
    17 => Index { base, index },
    18 => Construct { ctor, args },
    19 => InitList(a),
    20 => Size(a),
    21 => Unsupported(a),
    22 => Closure(a),
});

sum_codec!(Stmt {
    0 => Block(a),
    1 => Expr(a),
    2 => Decl(a),
    3 => If { cond, then, els },
    4 => Switch { cond, body },
    5 => Case { value, body },
    6 => Default(a),
    7 => While { cond, body },
    8 => DoWhile { body, cond },
    9 => For { init, cond, step, body },
    10 => Return(a),
    11 => Break,
    12 => Continue,
    13 => Label { name, body },
    14 => Goto(a),
    15 => Null,
    16 => Unsupported(a),
    17 => MemberInit { name, init },
    18 => RangeFor { init, var, range, iteration, body },
});
