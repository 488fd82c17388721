//! Random API crates, valid Rust built by a structured generator from the fuzzer's bytes
//! (`gen-cli/tests/support/api_source.rs`: types, fields, serde attributes and markers drawn
//! from the catalog with valid, near-miss and wrong values), through gen-cli's generators: they
//! generate or report an error with a location.

#![no_main]

#[path = "../../gen-cli/tests/support/api_source.rs"]
mod api_source;
#[path = "../../gen-cli/tests/support/verdict.rs"]
mod verdict;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("kubegen-fuzz-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (root, _) = api_source::write_api_source(data, &dir);
    verdict::generates_or_locates(&root);
});
