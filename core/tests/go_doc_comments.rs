//! Doc comments against controller-gen's own output: each struct field's Go doc comment in
//! Gateway API's types (`gateway-api/apis/*/*.go` of the golden folder), written as the `///`
//! lines a port has, must become a description that controller-gen wrote into Gateway API's
//! CRDs (`gateway-api/config/crd/*/*.yaml`, made with controller-gen v0.21). Marker lines among
//! the text, blank lines, code fences and HTTPRoute's `replacePrefixMatch` (its table, cut at a
//! `---` line) are all there.

#![cfg(feature = "parse")]

use std::collections::BTreeSet;
use std::path::Path;

use kubegen_core::parse::docs::doc;
use serde_json::Value;

/// Every `description` in a YAML document.
fn descriptions(value: &Value, into: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(d)) = map.get("description") {
                into.insert(d.clone());
            }
            map.values().for_each(|v| descriptions(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| descriptions(v, into)),
        _ => {}
    }
}

/// The files of `dir`'s subfolders ending in `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|sub| std::fs::read_dir(sub.unwrap().path()).into_iter().flatten())
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    found.sort();
    found
}

/// A struct field of a Go file with its doc comment: (field line, the comment's lines, each
/// the text after `//`).
fn documented_fields(go: &str) -> Vec<(String, Vec<String>)> {
    let mut fields = Vec::new();
    let mut comment: Vec<String> = Vec::new();
    for line in go.lines() {
        let trimmed = line.trim();
        if let Some(text) = trimmed.strip_prefix("//") {
            comment.push(text.to_string());
            continue;
        }
        if line.starts_with('\t') && trimmed.contains("json:\"") && !comment.is_empty() {
            fields.push((trimmed.to_string(), std::mem::take(&mut comment)));
        }
        comment.clear();
    }
    fields
}

/// The description kubegen makes of a Rust item documented by `lines` (`///` each).
fn described(lines: &[String]) -> Option<String> {
    let source: String = lines.iter().map(|l| format!("///{l}\n")).collect();
    let item: syn::ItemStruct = syn::parse_str(&format!("{source}struct S;")).unwrap();
    doc(&item.attrs)
}

#[test]
fn each_field_comment_becomes_the_description_controller_gen_wrote() {
    let Some(root) = fixture_parity::golden_path("gateway-api") else {
        return;
    };
    let mut written = BTreeSet::new();
    for file in files(&root.join("config/crd"), "yaml") {
        let text = std::fs::read_to_string(&file).unwrap();
        for document in serde_saphyr::from_multiple::<Value>(&text).unwrap() {
            descriptions(&document, &mut written);
        }
    }
    let (mut compared, mut missing) = (0, Vec::new());
    for file in files(&root.join("apis"), "go") {
        let go = std::fs::read_to_string(&file).unwrap();
        for (field, comment) in documented_fields(&go) {
            // An embedded struct's comment is nowhere in a CRD: its fields are inlined.
            // Gateway API's own tool rewrites comments with channel tags before controller-gen.
            if field.contains("json:\",inline\"") || comment.iter().any(|l| l.contains("<gateway:"))
            {
                continue;
            }
            let Some(description) = described(&comment) else {
                continue;
            };
            compared += 1;
            if !written.contains(&description) {
                let name = file.file_name().unwrap().to_string_lossy();
                missing.push(format!("{name}: {field}:\n{description}"));
            }
        }
    }
    eprintln!(
        "{compared} field comments compared, {} not found",
        missing.len()
    );
    // `NamespacedPolicyTargetReference.Namespace` (v1 `policy_types.go`): no CRD of Gateway
    // API uses that type.
    assert_eq!(
        missing.len(),
        1,
        "descriptions controller-gen did not write:\n{}",
        missing.join("\n\n")
    );
    assert!(
        missing[0].starts_with("policy_types.go: Namespace *Namespace"),
        "{missing:?}"
    );
    assert!(compared > 200, "{compared}");
}
