//! The YAML writer's output reads back as the value written: regression tests for what the
//! property tests (`no_panic.rs`) and the fuzz target `schema` found.

use kubegen_core::render::to_yaml;
use serde_json::{Value, json};

fn reads_back(value: Value) -> String {
    let yaml = to_yaml(&value);
    let back: Value = serde_saphyr::from_str(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert_eq!(back, value, "{yaml}");
    yaml
}

/// yaml.v2 writes the key `<<` plain, which every YAML 1.1 reader (yaml.v2 included) takes as
/// a merge key: the writer quotes it.
#[test]
fn a_merge_key_look_alike_is_quoted() {
    assert_eq!(reads_back(json!({"<<": null})), "\"<<\": null\n");
    assert_eq!(reads_back(json!({"a": "<<"})), "a: \"<<\"\n");
}

/// Found by the fuzz target `schema`: serde-saphyr reads `nO` as `false` (yaml.v2 does not, and
/// writes it plain as the writer does): the round trip reads booleans as YAML 1.2 does.
#[test]
fn yaml_11_words_in_other_cases_stay_plain_strings() {
    assert_eq!(to_yaml(&json!(["nO", "yES", "oN"])), "- nO\n- yES\n- oN\n");
    assert_eq!(
        to_yaml(&json!(["no", "Yes", "ON"])),
        "- \"no\"\n- \"Yes\"\n- \"ON\"\n"
    );
}

/// Found by the fuzz target `schema`: a string in float syntax beyond `f64`'s range is a
/// string to yaml.v2 (which writes it plain) but infinity to YAML 1.2 readers: it is quoted.
#[test]
fn out_of_range_floats_are_quoted() {
    for s in ["00182440e1111", "1e400", "-1.5E+999", ".5e999"] {
        assert_eq!(reads_back(json!(s)), format!("\"{s}\"\n"));
    }
    assert_eq!(reads_back(json!("1e300x")), "1e300x\n");
}

/// Found by the property test `the_yaml_written_reads_back_the_same` (the key `"\u{2028}0"`):
/// yaml.v2 writes a line or paragraph separator raw, in single quotes or a literal block, as a
/// line break followed by the indentation. YAML 1.2 readers do not take it for a break: they
/// read the indentation as text, or refuse the block. The writer escapes it instead.
#[test]
fn line_and_paragraph_separators_are_escaped() {
    assert_eq!(reads_back(json!("a\u{2028}b")), "\"a\\Lb\"\n");
    assert_eq!(reads_back(json!(["a\nb\u{2029}"])), "- \"a\\nb\\P\"\n");
    for s in [
        "\u{2028}0",
        "a\u{2029}\u{2029}b",
        "a\n\u{2028}b\n",
        "\u{2029}\n",
        "x: \u{2028}#",
    ] {
        for value in [json!(s), json!({ s: 1 }), json!({"k": [[s]]})] {
            reads_back(value);
        }
    }
}
