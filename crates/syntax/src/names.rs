//! The name-kind oracle: what the declarations seen so far say an identifier
//! is (type, template, namespace, value). C++ cannot be parsed without it
//! (`a<b>(c)`, `T * x;`).
//!
//! Every mutation is journaled so that the parser can rewind a tentative
//! parse exactly (`journal_len` / `rewind`).

use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    Type,
    /// Any template (class, alias, function, variable): `<` after it opens arguments.
    Template,
    Namespace,
    Value,
    Concept,
}

#[derive(Default, Debug, Clone)]
pub struct Names {
    map: FxHashMap<String, NameKind>,
    journal: Vec<(String, Option<NameKind>)>,
}

impl Names {
    pub fn new() -> Names {
        Names::default()
    }

    pub fn journal_len(&self) -> usize {
        self.journal.len()
    }

    pub fn rewind(&mut self, len: usize) {
        while self.journal.len() > len {
            let (name, old) = self.journal.pop().unwrap();
            match old {
                Some(k) => self.map.insert(name, k),
                None => self.map.remove(&name),
            };
        }
    }

    pub fn declare(&mut self, name: &str, kind: NameKind) {
        let old = self.map.insert(name.to_string(), kind);
        self.journal.push((name.to_string(), old));
    }

    pub fn lookup(&self, name: &str) -> Option<NameKind> {
        self.map.get(name).copied()
    }
}
