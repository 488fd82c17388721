//! Random API crates, valid Rust built by a structured generator from the fuzzer's bytes
//! (`gen-cli/tests/support/api_source.rs`: types, fields, serde attributes and markers drawn
//! from the catalog with valid, near-miss and wrong values), through gen-cli's generators: they
//! generate or report an error with a location.

#![no_main]

#[path = "../../gen-cli/tests/support/api_source.rs"]
mod api_source;
#[path = "../../gen-cli/tests/support/verdict.rs"]
mod verdict;

use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::Unstructured;

fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("kubegen-fuzz-api-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        dir.join("lib.rs")
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let source =
        api_source::api_source(&mut Unstructured::new(data)).expect("the generator never fails");
    if let Err(e) = syn::parse_file(&source) {
        panic!("the generated source does not parse ({e}):\n{source}");
    }
    std::fs::write(root(), &source).expect("the source is written");
    verdict::generates_or_locates(root());
});
