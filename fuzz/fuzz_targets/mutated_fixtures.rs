//! The repository's API crates mutated token by token (tokens deleted, duplicated, swapped;
//! the edits come from the fuzzer's bytes), through gen-cli's generators: they generate or
//! report an error with a location.

#![no_main]

// `fixtures.rs` names its siblings `super::mutate` and `super::verdict`: here, the crate's.
#[path = "../../gen-cli/tests/support/fixtures.rs"]
mod fixtures;
#[path = "../../gen-cli/tests/support/mutate.rs"]
mod mutate;
#[path = "../../gen-cli/tests/support/verdict.rs"]
mod verdict;

use std::path::Path;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use fixtures::{Copied, copy_all};
use mutate::Edit;

#[derive(Arbitrary, Debug)]
struct Input {
    krate: u8,
    file: u8,
    edits: Vec<(u8, u16, u16)>,
}

fn copies() -> &'static [Copied] {
    static COPIES: OnceLock<Vec<Copied>> = OnceLock::new();
    COPIES.get_or_init(|| {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = std::env::temp_dir().join(format!("kubegen-fuzz-fixtures-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        copy_all(&repo, &dir)
    })
}

libfuzzer_sys::fuzz_target!(|input: Input| {
    let copies = copies();
    let edits: Vec<Edit> = input
        .edits
        .iter()
        .take(8)
        .map(|&(kind, i, j)| match kind % 3 {
            0 => Edit::Delete(i.into()),
            1 => Edit::Duplicate(i.into()),
            _ => Edit::Swap(i.into(), j.into()),
        })
        .collect();
    let copy = &copies[usize::from(input.krate) % copies.len()];
    copy.check_mutant(input.file.into(), &edits);
});
