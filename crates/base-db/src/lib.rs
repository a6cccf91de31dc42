//! cufront-base-db: the salsa inputs of cufront and the first derived queries.
//!
//! Inputs (set by a driver; nothing here does I/O):
//! - [`Options`]: the language options that change how a translation unit is
//!   read (standard, GNU/Clang compatibility, parse toggles). Set with
//!   [`Durability::HIGH`]: a build or an editor session changes them rarely,
//!   so salsa can skip re-validating everything that only depends on them.
//! - [`TranslationUnit`]: one preprocessed `.ii` (its name as given on the
//!   command line and its text) plus the [`Options`] it is read with. The text
//!   is [`Durability::LOW`]: it is what users edit.
//!
//! Queries so far: `parse_options(options)` → `parse(tu)` (the lossless tree
//! plus syntax errors) and `source_map(tu)` (line markers → original
//! positions). `parse_options` gives an early cutoff: an option change that
//! does not change how the text is parsed (e.g. `--gnu_version`) does not
//! re-run `parse`.
//!
//! A database may hold a [`GreenPool`] ([`RootDatabase::with_green_pool`]:
//! the editor, which holds many units over the same headers): `parse`
//! shares each top-level item's tree with the other units that have an
//! equal one, and `hir` shares what it lowers from such an item.
//!
//! Invariants:
//! - No I/O, no global state: every fact is an input or a query. The green
//!   pool is no fact: it decides which allocation holds a tree, never what
//!   the tree is (`green_pool`'s invariants).
//! - Query results are cheap to compare (green nodes compare structurally,
//!   errors are a short list), so an unchanged result cuts off its readers.
//!
//! Per-segment durability (planned, see `docs/architecture.md`): the driver
//! will split the `.ii` at line markers into segments, one input each,
//! system-header/toolkit segments with HIGH durability and user segments with
//! LOW, and re-set only the segments whose text changed.

mod green_pool;

use std::sync::{Arc, Mutex};

pub use crate::green_pool::{Derived, GreenPool, Owner, PoolStats};
pub use salsa::{self, Durability, Setter};

use cufront_syntax::source_map::{FileId, SourceMap};
use cufront_syntax::{LexOptions, Parse, ParseOptions};

/// The language a translation unit is written in, with its standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LangStandard {
    C89,
    C99,
    C11,
    C17,
    C23,
    Cxx03,
    Cxx11,
    /// Also the effective default of cudafe++ when no standard flag is given.
    Cxx14,
    Cxx17,
    Cxx20,
    Cxx23,
}

impl LangStandard {
    pub fn is_cxx(self) -> bool {
        self >= LangStandard::Cxx03
    }
}

/// Which compiler's dialect the input is in (it was preprocessed by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostCompiler {
    /// GNU mode at a version `major*10000 + minor*100 + patch`.
    Gnu(u32),
    /// Clang mode at a version `major*10000 + minor*100`.
    Clang(u32),
    /// Neither `--g++`/`--gcc` nor `--clang` (`--no_g++`).
    None,
}

/// The options that change how a translation unit is read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LangOptions {
    pub standard: LangStandard,
    pub host: HostCompiler,
    /// `--digit_separators` / `--no_digit_separators`; `None` = by standard.
    pub digit_separators: Option<bool>,
    /// Keep function bodies as unparsed token ranges.
    pub lazy_bodies: bool,
    /// The unit is the device preprocessing cicc compiles (`x.cpp1.ii`):
    /// extended lambdas keep their closure types there (cudafe++ replaces
    /// them by wrapper objects only in the host file, spec 30 §5).
    pub device_view: bool,
}

impl Default for LangOptions {
    /// cudafe++'s defaults: C++14 behaviour, GNU mode at 8.1.0.
    fn default() -> Self {
        LangOptions {
            standard: LangStandard::Cxx14,
            host: HostCompiler::Gnu(80100),
            digit_separators: None,
            lazy_bodies: false,
            device_view: false,
        }
    }
}

#[salsa::input(debug)]
pub struct Options {
    #[returns(ref)]
    pub lang: LangOptions,
}

#[salsa::input(debug)]
pub struct TranslationUnit {
    /// The input path as given (diagnostics print it verbatim).
    #[returns(ref)]
    pub name: String,
    #[returns(ref)]
    pub text: Arc<str>,
    #[returns(copy)]
    pub options: Options,
    /// The text before the last edit and its parse, set by an editor with
    /// the new text: `parse` reparses only the edited function body when it
    /// can (`Parse::reparse`, equal to a full parse). A value, never read
    /// for anything else.
    #[default]
    #[returns(ref)]
    pub previous: Option<Previous>,
}

/// A translation unit's text and parse before an edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Previous {
    pub text: Arc<str>,
    pub parse: Parse,
    /// The old text's source map, which an edit between line markers
    /// patches ([`SourceMap::edited`]) instead of scanning the unit again.
    pub map: SourceMap,
}

/// The databases that can answer the queries of this crate.
#[salsa::db]
pub trait SourceDatabase: salsa::Database {
    /// The pool that shares trees across this database's units (and
    /// maybe other databases'), if any.
    fn green_pool(&self) -> Option<&GreenPool>;

    /// How the pool names `tu` of this database.
    fn pool_owner(&self, tu: TranslationUnit) -> Owner;
}

/// Creates the options input with HIGH durability.
pub fn new_options(db: &dyn SourceDatabase, lang: LangOptions) -> Options {
    Options::builder(lang).lang_durability(Durability::HIGH).new(db)
}

/// Creates a translation unit input; its text has LOW durability.
pub fn new_translation_unit(
    db: &dyn SourceDatabase,
    name: String,
    text: Arc<str>,
    options: Options,
) -> TranslationUnit {
    TranslationUnit::builder(name, text, options)
        .name_durability(Durability::LOW)
        .text_durability(Durability::LOW)
        .options_durability(Durability::HIGH)
        .new(db)
}

/// How the syntax crate must read text under `options`.
#[salsa::tracked(returns(copy))]
pub fn parse_options(db: &dyn SourceDatabase, options: Options) -> ParseOptions {
    let lang = options.lang(db);
    let cxx = lang.standard.is_cxx();
    ParseOptions {
        lex: LexOptions {
            cxx20: lang.standard >= LangStandard::Cxx20,
            digit_separators: lang.digit_separators.unwrap_or(cxx && lang.standard >= LangStandard::Cxx14),
        },
        lazy_bodies: lang.lazy_bodies,
    }
}

/// The lossless tree of a translation unit and its syntax errors.
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn SourceDatabase, tu: TranslationUnit) -> Parse {
    let opts = parse_options(db, tu.options(db));
    let text = tu.text(db);
    if let Some(prev) = tu.previous(db)
        && prev.parse.options() == opts
        && let Some(p) = prev.parse.reparse(&prev.text, text)
    {
        return p;
    }
    let p = cufront_syntax::parse(text, opts);
    match db.green_pool() {
        Some(pool) => {
            let green = pool.share(db.pool_owner(tu), p.green());
            p.with_equal_green(green)
        }
        None => p,
    }
}

/// Tells the database's green pool that `tu` is gone (its trees are no
/// longer a reason to keep pooled ones).
pub fn release_trees(db: &dyn SourceDatabase, tu: TranslationUnit) {
    if let Some(pool) = db.green_pool() {
        pool.release(db.pool_owner(tu));
    }
}

/// Sets `tu`'s text to `text` after an edit, keeping the current parse for
/// `parse` to start from (computed now if it is not yet).
pub fn edit_text(db: &mut dyn SourceDatabase, tu: TranslationUnit, text: Arc<str>) {
    let old = tu.text(db).clone();
    let parse = parse(db, tu).clone();
    let map = source_map(db, tu).clone();
    tu.set_text(db).to(text);
    tu.set_previous(db).to(Some(Previous { text: old, parse, map }));
}

/// Where each offset of the translation unit came from (gcc line markers).
#[salsa::tracked(returns(ref))]
pub fn source_map(db: &dyn SourceDatabase, tu: TranslationUnit) -> SourceMap {
    let (text, name) = (tu.text(db), tu.name(db));
    if let Some(prev) = tu.previous(db)
        && prev.map.file_name(FileId(0)) == name
        && let Some(map) = prev.map.edited(&prev.text, text)
    {
        return map;
    }
    SourceMap::new(text, name)
}

/// Receives salsa events (e.g. to record which queries executed).
pub type EventSink = Arc<Mutex<Vec<String>>>;

/// The concrete database of the batch driver (higher layers will add their
/// own database types that implement more traits).
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    /// Shared by the database's clones (snapshots), with the database's
    /// owner space in it.
    pool: Option<(Arc<GreenPool>, u64)>,
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl SourceDatabase for RootDatabase {
    fn green_pool(&self) -> Option<&GreenPool> {
        self.pool.as_ref().map(|(p, _)| &**p)
    }

    fn pool_owner(&self, tu: TranslationUnit) -> Owner {
        (self.pool.as_ref().map_or(0, |(_, space)| *space), salsa::plumbing::AsId::as_id(&tu).as_bits())
    }
}

impl RootDatabase {
    pub fn new() -> RootDatabase {
        RootDatabase::default()
    }

    /// A database that appends the name of every executed query to `sink`
    /// (`"parse(Id(..))"`), for incrementality tests.
    pub fn with_execution_log(sink: EventSink) -> RootDatabase {
        let callback = move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind
                && let Ok(mut log) = sink.lock()
            {
                log.push(format!("{database_key:?}"));
            }
        };
        RootDatabase { storage: salsa::Storage::new(Some(Box::new(callback))), pool: None }
    }

    /// A database whose units share equal trees ([`GreenPool`]): for a
    /// driver that holds many units over the same headers (the editor).
    pub fn with_green_pool() -> RootDatabase {
        RootDatabase::sharing(Arc::new(GreenPool::new()))
    }

    /// A database whose units share equal trees with each other and with
    /// the other databases of `pool` (the daemon's: one database per unit).
    pub fn sharing(pool: Arc<GreenPool>) -> RootDatabase {
        let space = pool.new_space();
        RootDatabase { pool: Some((pool, space)), ..RootDatabase::default() }
    }
}

#[cfg(test)]
mod tests;
