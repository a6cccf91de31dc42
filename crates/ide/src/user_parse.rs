//! The unit's tree with the function bodies of user files parsed.
//!
//! Units are parsed with lazy bodies (`LangOptions::lazy_bodies`): the
//! thousands of inline function bodies of the standard library and the
//! toolkit are never parsed unless `hir` asks for one. The editor needs the
//! bodies of the user's files (their syntax errors, locals, tokens), so
//! this query parses exactly those in place (`Parse::with_bodies_parsed`):
//! the bodies whose first line is in a file that is neither marked a
//! system header nor under the unit's system folders.

use cufront_base_db::SourceDatabase;
use cufront_syntax::Parse;

use crate::UnitView;
use crate::lines;

#[salsa::tracked(returns(ref))]
pub fn user_parse(db: &dyn SourceDatabase, view: UnitView) -> Parse {
    let tu = view.tu(db);
    let base = cufront_base_db::parse(db, tu);
    let lines = lines::unit_lines(db, tu);
    let dirs = view.system_dirs(db);
    let user: Vec<u32> =
        lines.files.iter().map(|f| u32::from(!dirs.iter().any(|d| f.starts_with(d.as_str())))).collect();
    let ranges: Vec<_> = base
        .lazy_body_ranges()
        .filter(|r| {
            let l = lines.lines[lines.line_at(r.start().into())];
            !l.system && user[l.file as usize] == 1
        })
        .collect();
    base.with_bodies_parsed(&ranges)
}
