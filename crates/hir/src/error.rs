//! Typed semantic errors: why a type, a template argument, a specialization
//! or a deduction has no value.
//!
//! Semantics branch on the [`ErrorKind`] only: whether an error removes a
//! candidate under SFINAE ([temp.deduct.general]/8) or says that the model
//! stops short (where checks stay silent) is decided where the error is
//! made, not read back from its text. The text says why, for people (probe
//! and `inspect` output, test listings); nothing matches on it.

use std::fmt;

/// What kind of failure an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Substitution formed an invalid type or expression: a member that
    /// does not exist (`typename T::type` of `enable_if<false>`), a member
    /// of a non-class, a parameter whose type does not substitute. In a
    /// SFINAE context it removes the candidate; elsewhere the program is
    /// ill-formed.
    Substitution,
    /// A name that lookup did not find. Most often the model's lookup
    /// stops short (an unmodelled declaration), so an operand whose lookup
    /// failed is not taken as an invalid expression.
    NotFound,
    /// Past an implementation limit (instantiation depth): EDG gives up too.
    Limit,
    /// The model stops short: a construct it does not lower, a name it does
    /// not resolve. Says nothing about the program; no diagnostic and no
    /// SFINAE decision rests on it.
    Gap,
}

/// A semantic error: its kind and, for people, why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SemaError {
    kind: ErrorKind,
    why: Box<str>,
}

impl SemaError {
    pub fn new(kind: ErrorKind, why: impl Into<Box<str>>) -> SemaError {
        SemaError { kind, why: why.into() }
    }

    /// A gap of the model (see [`ErrorKind::Gap`]).
    pub fn gap(why: impl Into<Box<str>>) -> SemaError {
        SemaError::new(ErrorKind::Gap, why)
    }

    /// An invalid type or expression formed by substitution.
    pub fn substitution(why: impl Into<Box<str>>) -> SemaError {
        SemaError::new(ErrorKind::Substitution, why)
    }

    /// A name lookup that found nothing (see [`ErrorKind::NotFound`]).
    pub fn not_found(why: impl Into<Box<str>>) -> SemaError {
        SemaError::new(ErrorKind::NotFound, why)
    }

    /// An implementation limit reached.
    pub fn limit(why: impl Into<Box<str>>) -> SemaError {
        SemaError::new(ErrorKind::Limit, why)
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Whether this error is what substitution reports for an invalid type
    /// or expression, as opposed to a gap of the model or a limit.
    pub fn is_substitution_failure(&self) -> bool {
        self.kind == ErrorKind::Substitution
    }

    /// Why, for people.
    pub fn why(&self) -> &str {
        &self.why
    }

    /// The same failure seen from an enclosing construct (`what: why`): the
    /// kind is kept, so a substitution failure inside a template argument
    /// is one of the whole template-id.
    pub fn within(self, what: &str) -> SemaError {
        SemaError { kind: self.kind, why: format!("{what}: {}", self.why).into() }
    }
}

impl fmt::Display for SemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}

/// Builds a gap error from format arguments: `gap!("unresolved type `{p}`")`.
macro_rules! gap {
    ($($t:tt)*) => {
        $crate::error::SemaError::gap(format!($($t)*))
    };
}
pub(crate) use gap;

/// Builds a substitution failure from format arguments.
macro_rules! subst_failure {
    ($($t:tt)*) => {
        $crate::error::SemaError::substitution(format!($($t)*))
    };
}
pub(crate) use subst_failure;

/// A gap of the model, said in words (most errors are).
impl From<String> for SemaError {
    fn from(why: String) -> SemaError {
        SemaError::gap(why)
    }
}

impl From<&str> for SemaError {
    fn from(why: &str) -> SemaError {
        SemaError::gap(why)
    }
}

impl From<&String> for SemaError {
    fn from(why: &String) -> SemaError {
        SemaError::gap(why.as_str())
    }
}

/// For printers whose own errors are text for people (the device stub's
/// spelling): the error's words, its kind dropped.
impl From<SemaError> for String {
    fn from(e: SemaError) -> String {
        e.why.into()
    }
}
