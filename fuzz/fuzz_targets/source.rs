//! Whole source files (the bytes, as text) as a crate's root file, through gen-cli's
//! generators: they generate or report an error with a location. Seeded with the repository's
//! API sources, which libFuzzer mutates byte by byte.

#![no_main]

#[path = "../../gen-cli/tests/support/verdict.rs"]
mod verdict;

use std::path::PathBuf;
use std::sync::OnceLock;

fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("kubegen-fuzz-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir.join("lib.rs")
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    std::fs::write(root(), data).expect("the source is written");
    verdict::generates_or_locates(root());
});
