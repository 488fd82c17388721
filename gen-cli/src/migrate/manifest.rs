//! The package's `Cargo.toml` migrated, its formatting and comments kept (toml_edit): kubegen
//! added as `kubegen init` adds it (the scaffold's dependency writer gives its keys), kube's
//! `derive` feature dropped, and the kube-derive and schemars dependencies dropped when no
//! source names them any more.

use toml_edit::{DocumentMut, Item, Value};

use crate::workspace::KUBEGEN_PACKAGE;

/// `manifest` migrated; `dependency` holds the keys of `[dependencies.kubegen]`, `sources`
/// the package's migrated sources. A manifest that already depends on kubegen keeps that.
pub fn migrate(manifest: &str, dependency: &str, sources: &[&str]) -> Result<String, String> {
    let mut doc: DocumentMut = manifest
        .parse()
        .map_err(|e| format!("Cargo.toml is not valid TOML: {e}"))?;
    let named = |name: &str| sources.iter().any(|s| s.contains(name));
    // A table added goes after every table there is.
    let last = doc
        .as_table()
        .iter()
        .filter_map(|(_, item)| item.as_table())
        .flat_map(|t| {
            std::iter::once(t.position()).chain(
                t.iter()
                    .filter_map(|(_, i)| i.as_table().map(|t| t.position())),
            )
        })
        .flatten()
        .max()
        .unwrap_or(0);
    let Some(deps) = doc
        .get_mut("dependencies")
        .and_then(Item::as_table_like_mut)
    else {
        return Err("Cargo.toml has no [dependencies]".into());
    };
    if let Some(kube) = deps.get_mut("kube").and_then(Item::as_table_like_mut)
        && let Some(features) = kube.get_mut("features").and_then(|f| f.as_array_mut())
    {
        features.retain(|f| f.as_str() != Some("derive"));
    }
    for (krate, path) in [("kube-derive", "kube_derive"), ("schemars", "schemars")] {
        if !named(path) {
            deps.remove(krate);
        }
    }
    let has_kubegen = deps.iter().any(|(name, item)| {
        name == "kubegen"
            || item
                .as_table_like()
                .and_then(|t| t.get("package"))
                .and_then(Item::as_str)
                == Some(KUBEGEN_PACKAGE)
    });
    if !has_kubegen {
        let table: DocumentMut = format!("[dependencies.kubegen]\n{dependency}\n")
            .parse()
            .map_err(|e| format!("kubegen's dependency is not valid TOML: {e}"))?;
        let kubegen = table["dependencies"]["kubegen"].clone();
        match deps.get("kube") {
            // An inline table beside the others when they are written so.
            Some(Item::Value(_)) => {
                let inline = kubegen
                    .as_table()
                    .map(|t| t.clone().into_inline_table())
                    .ok_or("kubegen's dependency is not a table")?;
                deps.insert("kubegen", Item::Value(Value::InlineTable(inline)));
            }
            _ => {
                let mut table = kubegen
                    .into_table()
                    .map_err(|_| "kubegen's dependency is not a table")?;
                table.set_position(Some(last + 1));
                table.decor_mut().set_prefix("\n");
                deps.insert("kubegen", Item::Table(table));
            }
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPENDENCY: &str = "package = \"kubegen-rs\"\nversion = \"0.1.0\"";

    #[test]
    fn kube_derive_and_schemars_go_and_kubegen_comes() {
        let before = "[package]\nname = \"a\" # mine\n\n[dependencies]\n# The client.\nkube = { version = \"1\", features = [\"runtime\", \"derive\"] }\nschemars = \"0.8\"\nserde = \"1\"\n";
        let after = migrate(before, DEPENDENCY, &["use kubegen::CustomResource;"]).unwrap();
        assert_eq!(
            after,
            "[package]\nname = \"a\" # mine\n\n[dependencies]\n# The client.\nkube = { version = \"1\", features = [\"runtime\"] }\nserde = \"1\"\nkubegen = { package = \"kubegen-rs\", version = \"0.1.0\" }\n"
        );
        assert_eq!(migrate(&after, DEPENDENCY, &[]).unwrap(), after);
    }

    #[test]
    fn schemars_stays_while_a_source_names_it() {
        let before = "[dependencies]\nschemars = \"1\"\n\n[dependencies.kube]\nversion = \"1\"\nfeatures = [\"derive\"]\n";
        let after = migrate(before, DEPENDENCY, &["impl schemars::JsonSchema for A {}"]).unwrap();
        assert!(after.contains("schemars = \"1\""), "{after}");
        assert!(after.contains("features = []"), "{after}");
        assert!(
            after.ends_with(
                "[dependencies.kubegen]\npackage = \"kubegen-rs\"\nversion = \"0.1.0\"\n"
            ),
            "{after}"
        );
    }
}
