//! kubegen's verdict on a `pattern` is Go's: every pattern of `core/tests/patterns/verdicts.json`
//! (recorded with Go's own `regexp.Compile` by `tools/go-regexp-record`, never edited by hand)
//! is accepted by `check::re2` exactly when Go accepts it, and refused with Go's error message.

use kubegen_core::check::re2;
use serde_json::Value;

fn table() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/patterns/verdicts.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_pattern_gets_gos_verdict_and_error() {
    let table = table();
    let verdicts = table["verdicts"].as_array().unwrap();
    let mut wrong = Vec::new();
    for v in verdicts {
        let pattern = v["pattern"].as_str().unwrap();
        let go = match v["accepted"].as_bool().unwrap() {
            true => Ok(()),
            false => Err(v["error"].as_str().unwrap().to_string()),
        };
        let ours = re2::compile(pattern).map_err(|e| e.to_string());
        if ours != go {
            let shown: String = pattern.chars().take(60).collect();
            wrong.push(format!("{shown:?}: Go {go:?}, kubegen {ours:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} patterns differ from Go ({}):\n{}",
        wrong.len(),
        verdicts.len(),
        table["go"],
        wrong.join("\n")
    );
}

#[test]
fn the_table_covers_both_verdicts_and_every_error_code() {
    let table = table();
    let verdicts = table["verdicts"].as_array().unwrap();
    assert!(verdicts.len() >= 150, "{} patterns", verdicts.len());
    let accepted = verdicts.iter().filter(|v| v["accepted"] == true).count();
    assert!(
        accepted >= 50 && verdicts.len() - accepted >= 50,
        "{accepted} accepted"
    );
    for code in [
        "invalid character class range",
        "invalid escape sequence",
        "invalid named capture",
        "invalid or unsupported Perl syntax",
        "invalid nested repetition operator",
        "invalid repeat count",
        "missing closing ]",
        "missing closing )",
        "missing argument to repetition operator",
        "trailing backslash at end of expression",
        "unexpected )",
        "expression nests too deeply",
        "expression too large",
    ] {
        let prefix = format!("error parsing regexp: {code}: ");
        assert!(
            verdicts
                .iter()
                .any(|v| v["error"].as_str().is_some_and(|e| e.starts_with(&prefix))),
            "no pattern of the table gets `{code}`"
        );
    }
}
