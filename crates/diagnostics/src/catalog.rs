//! The message table: number, tag, usual severity and template of every
//! diagnostic cudafe++ 13.0 knows (spec 60 §12).
//!
//! `catalog.tsv` is a copy of `spec/diagnostics-catalog.tsv` (tab separated,
//! no quoting, no field holds a tab or newline). It is embedded and parsed once,
//! on first use, so the crate needs nothing outside itself at run time.

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::number::{DiagId, TABLE_SIZE};
use crate::severity::Severity;

const TSV: &str = include_str!("../catalog.tsv");

/// One used slot of the message table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: DiagId,
    /// Usual severity where it was observed or documented. The real severity
    /// is chosen at each emission site; this is a default for callers.
    pub severity: Option<Severity>,
    /// `Some(true)` when observed to be changeable by options/pragmas.
    pub discretionary: Option<bool>,
    /// Symbolic name accepted by `--diag_*` and the pragmas.
    pub tag: Option<&'static str>,
    /// Wiki category (`EDG`, `text-fragment`, CUDA categories …).
    pub category: &'static str,
    /// Template, byte-exact (spec 60 §9).
    pub template: &'static str,
}

impl Entry {
    /// Severity to use when the emission site has no better knowledge.
    /// Unknown rows default to a hard error: the safe choice for messages
    /// whose level was never observed.
    pub fn default_severity(&self) -> Severity {
        self.severity.unwrap_or(Severity::HardError)
    }
}

struct Catalog {
    slots: Vec<Option<Entry>>,
    by_tag: FxHashMap<&'static str, DiagId>,
    by_text: FxHashMap<&'static str, DiagId>,
}

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(parse_tsv)
}

fn parse_tsv() -> Catalog {
    let mut slots: Vec<Option<Entry>> = vec![None; TABLE_SIZE as usize];
    let mut by_tag = FxHashMap::default();
    let mut by_text = FxHashMap::default();
    for line in TSV.lines().skip(1) {
        let cols: Vec<&'static str> = line.split('\t').collect();
        let col = |i: usize| cols.get(i).copied().unwrap_or("");
        // Wiki rows that match no slot have an empty `internal` column.
        let Ok(index) = col(1).parse::<u16>() else {
            continue;
        };
        if index >= TABLE_SIZE {
            continue;
        }
        let discretionary = match col(3) {
            "yes" => Some(true),
            "no" => Some(false),
            _ => None,
        };
        let mut severity = Severity::from_catalog(col(2), discretionary);
        // Spec 10 §8.3: cudafe++ lowers these to remarks before user flags apply.
        if matches!(index, 175 | 185) {
            severity = Some(Severity::Remark);
        }
        let tag = Some(col(5)).filter(|t| !t.is_empty());
        let id = DiagId(index);
        let entry = Entry { id, severity, discretionary, tag, category: col(6), template: col(7) };
        if let Some(tag) = tag {
            by_tag.entry(tag).or_insert(id);
        }
        // Lowest index wins for texts that occur twice (fragments and duplicates).
        by_text.entry(entry.template).or_insert(id);
        slots[index as usize] = Some(entry);
    }
    Catalog { slots, by_tag, by_text }
}

/// The entry of a table slot; `None` for unused slots.
pub fn entry(id: DiagId) -> Option<&'static Entry> {
    catalog().slots.get(id.0 as usize)?.as_ref()
}

/// Template text of a slot (`""` for unused slots).
pub fn template(id: DiagId) -> &'static str {
    entry(id).map_or("", |e| e.template)
}

/// The slot shown to users as `display` (e.g. 20091 → index 3548).
pub fn by_display(display: u32) -> Option<&'static Entry> {
    let id = DiagId::from_user_number(display as u64)?;
    // A value ≤ 19999 is taken as an index by `from_user_number`; a display
    // number must be ≤ 3456 there.
    if display < 20000 && display >= crate::number::FIRST_CUDA_INDEX as u32 {
        return None;
    }
    entry(id)
}

/// Exact tag lookup (`device_var_read_in_host` → 3548).
pub fn by_tag(tag: &str) -> Option<DiagId> {
    catalog().by_tag.get(tag).copied()
}

/// Reverse lookup by message text: the slot whose template is exactly `text`
/// (templates with fill-ins match only their raw form). Used to number the
/// parser's EDG texts such as `expected a ";"`.
pub fn by_text(text: &str) -> Option<DiagId> {
    catalog().by_text.get(text).copied()
}

/// All used slots, in index order.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    catalog().slots.iter().flatten()
}
