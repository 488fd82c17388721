//! The operator's `config/` files, read as the tests need them.

use serde_json::Value;

/// The YAML documents of the file at `path` under `config/`, as JSON values (comments and
/// empty documents left out).
pub fn documents(path: &str) -> Vec<Value> {
    let full = format!("{}/config/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    serde_saphyr::from_multiple::<Value>(&text)
        .unwrap_or_else(|e| panic!("{full}: {e}"))
        .into_iter()
        .filter(|d| !d.is_null())
        .collect()
}
