//! cufront-ide: editor features over cufront's salsa database, for CUDA as
//! nvcc sees it (rust-analyzer's `ide` crate is the model).
//!
//! - [`AnalysisHost`] owns the database and applies [`Change`]s (a unit's
//!   preprocessed text, the texts of the files it came from).
//! - [`Analysis`] is a snapshot: every method returns [`Cancellable`], and a
//!   change applied to the host cancels snapshots still computing (salsa's
//!   cancellation), so a reader never blocks a writer for long.
//! - Results are plain data in user-file coordinates ([`FileRange`],
//!   0-based lines and byte columns): the LSP layer converts them.
//!
//! A *unit* is one `.cu` file preprocessed for the host as nvcc does it
//! ([`preprocess`], flags from [`workspace`]), with its device view (nvcc's
//! device preprocessing, read only by the device pass's diagnostics);
//! every other file (headers) is
//! seen through a unit that includes it. Positions are mapped between
//! files and the unit by line markers and token alignment ([`lines`]). An
//! edit that touches no directive and no macro use is patched into the
//! unit's text in place ([`patch`]), in both views; anything else needs the
//! preprocessor again. Texts are set with `base_db::edit_text`, so an edit
//! inside a function body reparses that body only.
//!
//! Features: [`diagnostics`] (both passes as nvcc composes them), hover
//! (declaration, type, execution and memory space — implicit ones too —,
//! class layout, mangled name), goto definition, references, document and
//! workspace symbols, semantic tokens that tell kernels, device, host and
//! host-device functions and device/constant/shared/managed variables apart,
//! completion filtered by execution space, signature help (calls and `<<< >>>`),
//! inlay hints (template arguments deduced at kernel launches).
//!
//! Invariants:
//! - No I/O in [`Analysis`]: file texts come in through [`Change`]. The
//!   [`preprocess`] and [`workspace`] modules do I/O and are called by the
//!   driver (the LSP server), never by a query.
//! - A feature never guesses silently: an ambiguous name gives every
//!   candidate (navigation) or nothing (tokens).

mod completion;
pub mod diagnostics;
mod document_symbols;
mod hover;
mod inlay_hints;
pub mod lines;
mod navigation;
pub mod patch;
pub mod preprocess;
mod resolve;
mod semantic_tokens;
mod signature_help;
pub mod symbols;
pub mod user_parse;
pub mod workspace;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use cufront_base_db::{LangOptions, RootDatabase, Setter, TranslationUnit};
use rustc_hash::{FxHashMap, FxHashSet};

pub use crate::completion::CompletionItem;
pub use crate::diagnostics::{Diagnostic, Related, Severity};
pub use crate::document_symbols::StructureNode;
pub use crate::hover::HoverResult;
pub use crate::inlay_hints::InlayHint;
pub use crate::navigation::NavigationTarget;
pub use crate::semantic_tokens::{SemanticToken, TokenKind, TokenModifier};
pub use crate::signature_help::SignatureHelp;
pub use crate::symbols::DeclKind;
pub use salsa::Cancelled;

/// A result that a change may have cancelled.
pub type Cancellable<T> = Result<T, Cancelled>;

/// A position in a file: 0-based line, 0-based column in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// A range in a file (paths are absolute, as the unit's line markers name them).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileRange {
    pub file: String,
    pub start: LineCol,
    pub end: LineCol,
}

/// A position in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePosition {
    pub file: String,
    pub pos: LineCol,
}

/// One unit's preprocessed text and how it is read.
#[derive(Clone, Debug)]
pub struct UnitChange {
    /// The `.cu` file (absolute path): the unit's name.
    pub main: String,
    pub text: Arc<str>,
    pub lang: LangOptions,
    /// What nvcc's flags tell the checks (`--expt-relaxed-constexpr`,
    /// `--extended-lambda`, whole-program or separate compilation).
    pub checks: cufront_check::Options,
    /// What nvcc's flags say about which diagnostics are shown (`--diag_*`,
    /// `-w`, `--promote_warnings`, the error limit); the pragmas in the
    /// text are read with them.
    pub shown: cufront_diagnostics::ShownFlags,
    /// The macros defined at the end of preprocessing (what an edit must not
    /// use to be patched in place); `None` keeps the previous set.
    pub macros: Option<Arc<FxHashSet<String>>>,
    /// What the preprocessor printed (gcc's warnings: `missing terminating
    /// ' character`, `#warning`), shown as nvcc shows them.
    pub messages: Arc<str>,
    /// Folders whose files count as system headers besides those gcc marks
    /// (the toolkit's: nvcc includes it with `-I`, not `-isystem`).
    pub system_dirs: Vec<String>,
    /// The device view (what cicc's front end reads); `None` when nvcc
    /// runs no device front end for the unit (or it is not loaded).
    pub device: Option<DeviceChange>,
}

/// A unit's device view as nvcc makes it: its first device preprocessing
/// (`__CUDA_ARCH__` defined), read by cicc's front end, nvcc's second pass.
#[derive(Clone, Debug)]
pub enum DeviceChange {
    Unit {
        text: Arc<str>,
        /// As [`UnitChange::macros`], for the device preprocessing.
        macros: Option<Arc<FxHashSet<String>>>,
        /// As [`UnitChange::messages`], for the device preprocessing.
        messages: Arc<str>,
    },
    /// The device preprocessing failed: the compiler's messages (nvcc
    /// reports them when the host pass had no error).
    Failed(String),
}

/// What changed since the last [`AnalysisHost::apply_change`].
#[derive(Clone, Debug, Default)]
pub struct Change {
    /// New texts of files (user files as edited, headers as read).
    pub files: Vec<(String, Arc<str>)>,
    pub units: Vec<UnitChange>,
    pub removed_units: Vec<String>,
    /// New device views of units the host has (after `units`).
    pub devices: Vec<(String, Option<DeviceChange>)>,
}

/// A unit as the editor sees it: the translation unit and which folders
/// hold system headers (whose bodies stay unparsed, `user_parse`).
#[salsa::input(debug)]
pub struct UnitView {
    #[returns(copy)]
    pub tu: TranslationUnit,
    #[returns(ref)]
    pub system_dirs: Vec<String>,
}

/// A unit known to the host.
#[derive(Clone, Debug)]
pub struct Unit {
    pub tu: TranslationUnit,
    pub view: UnitView,
    pub checks: cufront_check::Options,
    pub shown: cufront_diagnostics::ShownFlags,
    pub macros: Arc<FxHashSet<String>>,
    pub messages: Arc<str>,
    pub system_dirs: Vec<String>,
    pub device: Option<DeviceUnit>,
}

/// The device view of a unit: its own translation unit (the device
/// preprocessing), or why there is none.
#[derive(Clone, Debug)]
pub enum DeviceUnit {
    Unit { tu: TranslationUnit, view: UnitView, macros: Arc<FxHashSet<String>>, messages: Arc<str> },
    Failed(String),
}

/// What the host knows besides the database: the units, the files' texts
/// and which unit sees each file. Shared with snapshots (copied on write).
#[derive(Clone, Debug, Default)]
struct State {
    units: FxHashMap<String, Unit>,
    texts: FxHashMap<String, Arc<FileText>>,
    /// File → the unit that sees it (its own unit for a `.cu` file, else
    /// the first unit whose markers name it: headers inherit its flags).
    owner: FxHashMap<String, String>,
}

/// Owns the database; the one writer.
pub struct AnalysisHost {
    db: RootDatabase,
    state: Arc<State>,
}

impl Default for AnalysisHost {
    /// The units of an editor share the trees of their common headers
    /// (`RootDatabase::with_green_pool`): ten units cost little more
    /// memory than one.
    fn default() -> AnalysisHost {
        AnalysisHost { db: RootDatabase::with_green_pool(), state: Arc::default() }
    }
}

impl AnalysisHost {
    pub fn new() -> AnalysisHost {
        AnalysisHost::default()
    }

    /// A snapshot for readers (any thread).
    pub fn analysis(&self) -> Analysis {
        Analysis { db: self.db.clone(), state: self.state.clone() }
    }

    /// Applies `change`, cancelling snapshots still computing.
    pub fn apply_change(&mut self, change: Change) {
        let state = Arc::make_mut(&mut self.state);
        for (path, text) in change.files {
            state.texts.insert(path, Arc::new(FileText::new(text)));
        }
        for main in change.removed_units {
            if let Some(unit) = state.units.remove(&main) {
                cufront_base_db::release_trees(&self.db, unit.tu);
                if let Some(DeviceUnit::Unit { tu, .. }) = unit.device {
                    cufront_base_db::release_trees(&self.db, tu);
                }
            }
            state.owner.retain(|_, m| *m != main);
        }
        for u in change.units {
            let same_files = u.macros.is_none();
            let lang_changed;
            let unit = match state.units.get_mut(&u.main) {
                Some(unit) => {
                    lang_changed = unit.tu.options(&self.db).lang(&self.db) != &u.lang;
                    if lang_changed {
                        let opts = unit.tu.options(&self.db);
                        opts.set_lang(&mut self.db).to(u.lang.clone());
                    }
                    if unit.tu.text(&self.db).as_ref() != u.text.as_ref() {
                        // An edit inside a function body reparses that body only.
                        cufront_base_db::edit_text(&mut self.db, unit.tu, u.text.clone());
                    }
                    unit.checks = u.checks;
                    unit.shown = u.shown.clone();
                    if unit.system_dirs != u.system_dirs {
                        unit.view.set_system_dirs(&mut self.db).to(u.system_dirs.clone());
                        unit.system_dirs = u.system_dirs.clone();
                    }
                    if let Some(m) = &u.macros {
                        unit.macros = m.clone();
                    }
                    unit.messages = u.messages.clone();
                    unit.device = device_unit(
                        &mut self.db,
                        unit.device.take(),
                        u.device.clone(),
                        &u.main,
                        &u.lang,
                        &u.system_dirs,
                    );
                    unit.clone()
                }
                None => {
                    let opts = cufront_base_db::new_options(&self.db, u.lang.clone());
                    let tu = cufront_base_db::new_translation_unit(&self.db, u.main.clone(), u.text.clone(), opts);
                    let view = UnitView::new(&self.db, tu, u.system_dirs.clone());
                    let device = device_unit(&mut self.db, None, u.device.clone(), &u.main, &u.lang, &u.system_dirs);
                    let unit = Unit {
                        tu,
                        view,
                        checks: u.checks,
                        shown: u.shown.clone(),
                        macros: u.macros.unwrap_or_default(),
                        messages: u.messages.clone(),
                        system_dirs: u.system_dirs.clone(),
                        device,
                    };
                    state.units.insert(u.main.clone(), unit.clone());
                    unit
                }
            };
            // Files the unit sees and no other unit claimed yet (a patch,
            // which keeps the macro set, names the same files as before).
            if same_files && state.owner.contains_key(&u.main) {
                continue;
            }
            let lines = lines::unit_lines(&self.db, unit.tu);
            for f in &lines.files {
                if f.starts_with('<') {
                    continue;
                }
                state.owner.entry(f.clone()).or_insert_with(|| u.main.clone());
            }
            state.owner.insert(u.main.clone(), u.main.clone());
        }
        for (main, device) in change.devices {
            if let Some(unit) = state.units.get_mut(&main) {
                let lang = unit.tu.options(&self.db).lang(&self.db).clone();
                unit.device = device_unit(&mut self.db, unit.device.take(), device, &main, &lang, &unit.system_dirs);
            }
        }
    }

    pub fn unit(&self, main: &str) -> Option<&Unit> {
        self.state.units.get(main)
    }

    /// The current text of `file`, if the host has it.
    pub fn file_text(&self, file: &str) -> Option<Arc<str>> {
        self.state.texts.get(file).map(|t| t.text.clone())
    }

    /// The unit text of `main` now.
    pub fn unit_text(&self, main: &str) -> Option<Arc<str>> {
        let u = self.state.units.get(main)?;
        Some(u.tu.text(&self.db).clone())
    }

    /// The change that patches `file`'s new text into the unit that sees it
    /// without the preprocessor (`patch`), with the file's text; an error
    /// says why the preprocessor is needed.
    pub fn patch_file(&self, file: &str, new_text: Arc<str>) -> Result<Change, patch::NotPatchable> {
        let main = self.state.owner.get(file).ok_or(patch::NotPatchable::UnknownFile)?;
        let unit = self.state.units.get(main).ok_or(patch::NotPatchable::UnknownFile)?;
        let old = self.state.texts.get(file).ok_or(patch::NotPatchable::UnknownFile)?;
        let lines = lines::unit_lines(&self.db, unit.tu);
        let text = unit.tu.text(&self.db);
        // Only the preprocessor tells whether its messages about the file
        // still hold (and where, once lines moved).
        let names_file =
            |messages: &str| preprocess::tool_messages(messages).iter().any(|m| lines::normalize(&m.file, "") == file);
        if names_file(&unit.messages) {
            return Err(patch::NotPatchable::PreprocessorMessages);
        }
        let patched = patch::patch(text, &lines, file, &old.text, &new_text, &unit.macros)?;
        // The device view is patched alike (its own lines and macros), or
        // the unit needs both preprocessings again.
        let device = match &unit.device {
            None => None,
            Some(DeviceUnit::Failed(_)) => return Err(patch::NotPatchable::DeviceFailed),
            Some(DeviceUnit::Unit { tu, macros, messages, .. }) => {
                if names_file(messages) {
                    return Err(patch::NotPatchable::PreprocessorMessages);
                }
                let lines = lines::unit_lines(&self.db, *tu);
                let text = tu.text(&self.db);
                // A file the device preprocessing did not include leaves it as is.
                let text = match lines.file_id(file) {
                    Some(_) => Arc::from(patch::patch(text, &lines, file, &old.text, &new_text, macros)?),
                    None => text.clone(),
                };
                Some(DeviceChange::Unit { text, macros: None, messages: messages.clone() })
            }
        };
        Ok(Change {
            files: vec![(file.to_string(), new_text)],
            units: vec![UnitChange {
                main: main.clone(),
                text: Arc::from(patched),
                lang: unit.tu.options(&self.db).lang(&self.db).clone(),
                checks: unit.checks,
                shown: unit.shown.clone(),
                macros: None,
                messages: unit.messages.clone(),
                system_dirs: unit.system_dirs.clone(),
                device,
            }],
            removed_units: Vec::new(),
            devices: Vec::new(),
        })
    }

    /// The unit that sees `file`.
    pub fn unit_of(&self, file: &str) -> Option<String> {
        self.state.owner.get(file).cloned()
    }

    /// Whether the host has a text for `file`.
    pub fn has_file(&self, file: &str) -> bool {
        self.state.texts.contains_key(file)
    }

    /// Lets tests and tools run queries directly.
    pub fn raw_database(&self) -> &RootDatabase {
        &self.db
    }
}

/// The device view after a change: `change` replaces `old` (its
/// translation unit is reused, so that an edit re-runs only what it must).
fn device_unit(
    db: &mut RootDatabase,
    old: Option<DeviceUnit>,
    change: Option<DeviceChange>,
    main: &str,
    lang: &LangOptions,
    system_dirs: &[String],
) -> Option<DeviceUnit> {
    let (text, macros, messages) = match change {
        Some(DeviceChange::Unit { text, macros, messages }) => (text, macros, messages),
        gone => {
            if let Some(DeviceUnit::Unit { tu, .. }) = old {
                cufront_base_db::release_trees(db, tu);
            }
            return match gone {
                Some(DeviceChange::Failed(e)) => Some(DeviceUnit::Failed(e)),
                _ => None,
            };
        }
    };
    match old {
        Some(DeviceUnit::Unit { tu, view, macros: old_macros, .. }) => {
            if tu.options(db).lang(db) != lang {
                tu.options(db).set_lang(db).to(lang.clone());
            }
            if tu.text(db).as_ref() != text.as_ref() {
                cufront_base_db::edit_text(db, tu, text);
            }
            if view.system_dirs(db).as_slice() != system_dirs {
                view.set_system_dirs(db).to(system_dirs.to_vec());
            }
            Some(DeviceUnit::Unit { tu, view, macros: macros.unwrap_or(old_macros), messages })
        }
        _ => {
            let opts = cufront_base_db::new_options(db, lang.clone());
            let tu = cufront_base_db::new_translation_unit(db, main.to_string(), text, opts);
            let view = UnitView::new(db, tu, system_dirs.to_vec());
            Some(DeviceUnit::Unit { tu, view, macros: macros.unwrap_or_default(), messages })
        }
    }
}

/// A snapshot of the world: cheap to clone, cancelled by the next change.
#[derive(Clone)]
pub struct Analysis {
    db: RootDatabase,
    state: Arc<State>,
}

impl Analysis {
    fn with_db<T>(&self, f: impl FnOnce(&Self) -> T) -> Cancellable<T> {
        Cancelled::catch(std::panic::AssertUnwindSafe(|| f(self)))
    }

    /// The unit through which `file` is seen.
    pub fn unit_of(&self, file: &str) -> Option<String> {
        self.state.owner.get(file).cloned()
    }

    /// Computes what most requests on `file` need first (the item split,
    /// the declarations' index, merged execution spaces, the scope graph),
    /// so that a hover after an edit does not pay for it.
    pub fn prime_caches(&self, file: &str) -> Cancellable<()> {
        self.with_db(|a| {
            if let Some(cx) = a.ctx(file) {
                let _ = cx.parse();
                let _ = symbols::item_starts(cx.db, cx.unit.tu);
                let _ = symbols::name_index(cx.db, cx.unit.tu);
                let _ = symbols::unit_spaces(cx.db, cx.unit.tu);
                let _ = cufront_hir::def_map(cx.db, cx.unit.tu);
            }
        })
    }

    /// Line `line` (0-based) of `file` as the host has it.
    pub fn file_line(&self, file: &str, line: u32) -> Option<String> {
        self.state.texts.get(file)?.line(line).map(str::to_string)
    }

    /// Files the host knows a unit for (the unit's own `.cu` files).
    pub fn units(&self) -> Vec<String> {
        let mut v: Vec<String> = self.state.units.keys().cloned().collect();
        v.sort();
        v
    }

    /// The diagnostics of both passes in `file`, as nvcc reports them.
    pub fn diagnostics(&self, file: &str) -> Cancellable<Vec<Diagnostic>> {
        self.with_db(|a| {
            let Some(cx) = a.ctx(file) else { return Vec::new() };
            std::thread::scope(|scope| {
                if let Some(DeviceUnit::Unit { tu, view, .. }) = &cx.unit.device {
                    // The device view's whole-unit queries on a second
                    // thread while the host pass runs (a change cancels it).
                    let (db, tu, view) = (a.db.clone(), *tu, *view);
                    scope.spawn(move || {
                        let _ = Cancelled::catch(|| {
                            let _ = user_parse::user_parse(&db, view);
                            let _ = lines::unit_lines(&db, tu);
                            let _ = cufront_base_db::source_map(&db, tu);
                            let _ = cufront_hir::def_map(&db, tu);
                        });
                    });
                }
                diagnostics::diagnostics(&cx, || a.device_ctx(&cx, file))
            })
        })
    }

    /// How the device pass sees `file` of `cx`'s unit.
    fn device_ctx<'a>(&'a self, cx: &Ctx<'a>, file: &str) -> Option<diagnostics::DeviceView<'a>> {
        match cx.unit.device.as_ref()? {
            DeviceUnit::Failed(m) => Some(diagnostics::DeviceView::Failed(m)),
            DeviceUnit::Unit { tu, view, .. } => {
                let lines = lines::unit_lines(&self.db, *tu);
                // A file the device preprocessing did not include has no
                // diagnostics of its own there.
                let file_id = lines.file_id(file)?;
                Some(diagnostics::DeviceView::Unit(Ctx {
                    db: &self.db,
                    unit: cx.unit,
                    tu: *tu,
                    view: *view,
                    lines,
                    file: file.to_string(),
                    file_id,
                    texts: &self.state.texts,
                }))
            }
        }
    }

    pub fn hover(&self, pos: &FilePosition) -> Cancellable<Option<HoverResult>> {
        self.with_db(|a| a.ctx(&pos.file).and_then(|cx| hover::hover(&cx, pos.pos)))
    }

    pub fn goto_definition(&self, pos: &FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|a| a.ctx(&pos.file).map(|cx| navigation::goto_definition(&cx, pos.pos)).unwrap_or_default())
    }

    pub fn references(&self, pos: &FilePosition) -> Cancellable<Vec<FileRange>> {
        self.with_db(|a| a.ctx(&pos.file).map(|cx| navigation::references(&cx, pos.pos)).unwrap_or_default())
    }

    pub fn document_symbols(&self, file: &str) -> Cancellable<Vec<StructureNode>> {
        self.with_db(|a| a.ctx(file).map(|cx| document_symbols::document_symbols(&cx)).unwrap_or_default())
    }

    /// Declarations of every unit whose name contains `query` (case
    /// insensitive), at most `limit`, user files first.
    pub fn workspace_symbols(&self, query: &str, limit: usize) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|a| {
            let mut out = Vec::new();
            for main in a.units() {
                if let Some(cx) = a.ctx(&main) {
                    navigation::workspace_symbols(&cx, query, limit, &mut out);
                }
            }
            out.sort_by(|x, y| (x.system, &x.name, &x.focus_range).cmp(&(y.system, &y.name, &y.focus_range)));
            out.dedup_by(|x, y| x.focus_range == y.focus_range);
            out.truncate(limit);
            out
        })
    }

    /// Names that fit at the cursor (members, scope names, locals, the
    /// unit's declarations), callable from the cursor's execution space.
    pub fn completions(&self, pos: &FilePosition) -> Cancellable<Vec<CompletionItem>> {
        self.with_db(|a| a.ctx(&pos.file).map(|cx| completion::completions(&cx, pos.pos)).unwrap_or_default())
    }

    /// Hints in `file`: deduced template arguments of kernel launches.
    pub fn inlay_hints(&self, file: &str) -> Cancellable<Vec<InlayHint>> {
        self.with_db(|a| a.ctx(file).map(|cx| inlay_hints::inlay_hints(&cx)).unwrap_or_default())
    }

    /// The signatures of the call (or `<<< >>>` launch configuration) at the cursor.
    pub fn signature_help(&self, pos: &FilePosition) -> Cancellable<Option<SignatureHelp>> {
        self.with_db(|a| a.ctx(&pos.file).and_then(|cx| signature_help::signature_help(&cx, pos.pos)))
    }

    pub fn semantic_tokens(&self, file: &str) -> Cancellable<Vec<SemanticToken>> {
        self.with_db(|a| a.ctx(file).map(|cx| semantic_tokens::semantic_tokens(&cx)).unwrap_or_default())
    }

    fn ctx(&self, file: &str) -> Option<Ctx<'_>> {
        let main = self.state.owner.get(file)?;
        let unit = self.state.units.get(main)?;
        let lines = lines::unit_lines(&self.db, unit.tu);
        let file_id = lines.file_id(file)?;
        Some(Ctx {
            db: &self.db,
            unit,
            tu: unit.tu,
            view: unit.view,
            lines,
            file: file.to_string(),
            file_id,
            texts: &self.state.texts,
        })
    }
}

/// What a feature works with: the unit that sees the file, the view of it
/// read (the host's, or for the device pass's diagnostics the device's),
/// that view's line table, and the file's identity in it.
pub(crate) struct Ctx<'a> {
    pub db: &'a RootDatabase,
    pub unit: &'a Unit,
    pub tu: TranslationUnit,
    pub view: UnitView,
    pub lines: Arc<lines::UnitLines>,
    pub file: String,
    pub file_id: u32,
    pub texts: &'a FxHashMap<String, Arc<FileText>>,
}

/// A file's text with its line starts.
#[derive(Clone, Debug)]
pub(crate) struct FileText {
    text: Arc<str>,
    starts: Vec<u32>,
}

impl FileText {
    fn new(text: Arc<str>) -> FileText {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1));
        FileText { text, starts }
    }
    fn line(&self, line: u32) -> Option<&str> {
        let s = *self.starts.get(line as usize)? as usize;
        let e = self.starts.get(line as usize + 1).map_or(self.text.len(), |&e| e as usize - 1);
        let l = &self.text[s..e.max(s)];
        Some(l.strip_suffix('\r').unwrap_or(l))
    }
}

impl Ctx<'_> {
    /// The unit's tree, user bodies parsed (`user_parse`).
    pub fn parse(&self) -> &cufront_syntax::Parse {
        user_parse::user_parse(self.db, self.view)
    }

    pub fn text(&self) -> &str {
        self.tu.text(self.db)
    }

    /// The unit's own `.cu` file.
    pub fn unit_main(&self) -> &str {
        self.unit.tu.name(self.db)
    }

    /// The source line `line` of `file`, if the host has the file's text.
    fn source_line(&self, file: &str, line: u32) -> Option<&str> {
        self.texts.get(file)?.line(line)
    }

    /// What the preprocessing of the context's unit printed.
    pub fn preprocessor_messages(&self) -> &str {
        match &self.unit.device {
            Some(DeviceUnit::Unit { tu, messages, .. }) if *tu == self.tu => messages,
            _ => &self.unit.messages,
        }
    }

    /// Offsets at or past this are EDG's "At end of source": only
    /// whitespace follows.
    pub fn end_of_source(&self) -> u32 {
        self.text().trim_end().len() as u32
    }

    /// Where the editor shows a diagnostic "At end of source": the last
    /// character of the unit's own file (the end of the unit is the end of
    /// its main file; what the preprocessing left of it may end earlier, as
    /// before a final `#endif`). `None` in another file, or without its text.
    pub fn end_of_file(&self) -> Option<FileRange> {
        if self.file != self.unit_main() {
            return None;
        }
        let text = self.texts.get(&self.file)?;
        let content = text.text.trim_end();
        let line = content.bytes().filter(|&b| b == b'\n').count() as u32;
        let col = self.source_line(&self.file, line)?.len() as u32;
        let start = LineCol { line, col: col.saturating_sub(1) };
        Some(FileRange { file: self.file.clone(), start, end: LineCol { line, col: col.max(1) } })
    }

    /// The unit offset of a position in the context's file.
    pub fn offset(&self, pos: LineCol) -> Option<u32> {
        let i = self.lines.unit_line(self.file_id, pos.line)?;
        let (start, end) = self.lines.line_range(self.text(), i);
        let unit_line = &self.text()[start as usize..end as usize];
        let col = match self.source_line(&self.file, pos.line) {
            Some(src) => lines::align_col(src, unit_line, pos.col),
            None => pos.col.min(end - start),
        };
        Some(start + col)
    }

    /// The file position of a unit offset.
    pub fn position(&self, offset: u32) -> (String, LineCol, bool) {
        let i = self.lines.line_at(offset);
        let l = self.lines.lines[i];
        let (start, end) = self.lines.line_range(self.text(), i);
        let file = &self.lines.files[l.file as usize];
        let unit_line = &self.text()[start as usize..end as usize];
        let col_in_unit = offset.saturating_sub(start).min(end - start);
        let col = match self.source_line(file, l.line) {
            Some(src) => lines::align_col(unit_line, src, col_in_unit),
            None => col_in_unit,
        };
        (file.clone(), LineCol { line: l.line, col }, self.is_system(offset))
    }

    /// A unit range as a file range (its start's file).
    pub fn file_range(&self, range: cufront_syntax::TextRange) -> FileRange {
        let (file, start, _) = self.position(range.start().into());
        let (efile, mut end, _) = self.position(range.end().into());
        if efile != file || end < start {
            end = start;
        }
        FileRange { file, start, end }
    }

    /// Whether the unit offset is in a system header: marked so by gcc, or
    /// under one of the unit's system folders.
    pub fn is_system(&self, offset: u32) -> bool {
        let l = self.lines.lines[self.lines.line_at(offset)];
        l.system || {
            let file = &self.lines.files[l.file as usize];
            self.unit.system_dirs.iter().any(|d| file.starts_with(d.as_str()))
        }
    }

    /// Whether the unit offset is in the context's file.
    pub fn in_file(&self, offset: u32) -> bool {
        let l = self.lines.lines[self.lines.line_at(offset)];
        l.file == self.file_id && !l.marker
    }
}
