//! `--max-desc-len` is controller-gen's `crd:maxDescLen`: `kubegen crd --max-desc-len 50` on the
//! workspace member `fixture-gen` (controller-tools' `pkg/crd/testdata/gen`) against
//! controller-gen's golden `gen/bar.example.com_foos_maxdesclen.yaml`, compared as data with
//! fixture-parity: every remaining difference is listed with its reason, and a difference no
//! entry explains, or an entry whose count changes, fails the test.

use std::process::Command;

// The differences of `fixture-gen`'s foos CRD without `--max-desc-len`, and no other: every
// description is shortened as controller-gen shortens it.
use fixture_gen::parity::EXPECTED;

const GOLDEN: &str = "controller-tools/pkg/crd/testdata/gen/bar.example.com_foos_maxdesclen.yaml";

#[test]
fn max_desc_len_50_shortens_descriptions_as_controller_gen_does() {
    let Some(golden) = fixture_parity::golden_path(GOLDEN) else {
        return;
    };
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_kubegen"))
        .args([
            "crd",
            "-p",
            "fixture-gen",
            "--stdout",
            "--max-desc-len",
            "50",
        ])
        .args(["--manifest-path", manifest])
        .output()
        .expect("the kubegen binary runs");
    assert!(
        out.status.success(),
        "kubegen failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let docs = fixture_parity::documents(&String::from_utf8_lossy(&out.stdout));
    let names: Vec<&str> = docs
        .iter()
        .filter_map(|d| d.pointer("/metadata/name").and_then(|n| n.as_str()))
        .collect();
    assert_eq!(names, ["foos.bar.example.com", "zoos.bar.example.com"]);

    let golden = fixture_parity::read(&golden, "controller-gen's golden");
    fixture_parity::assert_parity("--max-desc-len 50 foos", &golden, &docs[0], EXPECTED);
}
