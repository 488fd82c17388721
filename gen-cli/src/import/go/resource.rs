//! The resource keys of a kind's markers (`+kubebuilder:resource`, `subresource:*`,
//! `printcolumn`, `storageversion`, ...), which go on its spec struct.

use serde_json::Value;

use super::super::model::{Marker, MarkerValue};
use super::keys::{Warn, key, renamed, string};
use super::markers::Marker as GoMarker;

/// The resource keys of a kind's markers (beside `group`, `version`, `kind` and `status`), and
/// whether they ask for the status subresource.
pub fn keys(markers: &[GoMarker], warn: Warn) -> (Vec<Marker>, bool) {
    let str = |s: &str| MarkerValue::Str(s.to_string());
    let mut keys = Vec::new();
    let mut has_status_subresource = false;
    for m in markers {
        let arg = |n: &str| m.arg(n).map(string);
        match m.name.as_str() {
            "kubebuilder:object:root"
            | "kubebuilder:object:generate"
            | "genclient"
            | "genclient:nonNamespaced"
            | "kubebuilder:ac:generate"
            | "k8s:deepcopy-gen" => {}
            "kubebuilder:subresource:status" => has_status_subresource = true,
            "kubebuilder:resource" => {
                for (n, v) in &m.args {
                    let list = || {
                        MarkerValue::List(match v {
                            Value::Array(a) => a.iter().map(string).collect(),
                            other => vec![string(other)],
                        })
                    };
                    match n.as_str() {
                        "path" => keys.push(key("plural", str(&string(v)))),
                        "singular" => keys.push(key("singular", str(&string(v)))),
                        "scope" if string(v) == "Cluster" => {
                            keys.push(key("namespaced", MarkerValue::False))
                        }
                        "scope" => {}
                        "shortName" => keys.push(key("short_names", list())),
                        "categories" => keys.push(key("categories", list())),
                        _ => {
                            let w = warn(&m.loc, &format!("unknown resource argument `{n}`"));
                            keys.push(w);
                        }
                    }
                }
            }
            "kubebuilder:subresource:scale" => {
                let args = renamed(
                    m,
                    &[
                        ("specpath", "spec_path"),
                        ("statuspath", "status_path"),
                        ("selectorpath", "selector_path"),
                    ],
                );
                keys.push(key("scale", MarkerValue::Nested(args)));
            }
            "kubebuilder:printcolumn" => {
                let mut args = renamed(
                    m,
                    &[
                        ("name", "name"),
                        ("type", "type"),
                        ("JSONPath", "json_path"),
                        ("description", "description"),
                        ("format", "format"),
                    ],
                );
                if let Some(p) = m.arg("priority").and_then(Value::as_i64) {
                    args.push(key("priority", MarkerValue::Count(p)));
                }
                keys.push(key("printcolumn", MarkerValue::Nested(args)));
            }
            "kubebuilder:storageversion" => keys.push(key("storage_version", MarkerValue::Flag)),
            "kubebuilder:unservedversion" => keys.push(key("served", MarkerValue::False)),
            "kubebuilder:skipversion" => keys.push(key("skip_version", MarkerValue::Flag)),
            "kubebuilder:deprecatedversion" => keys.push(match arg("warning") {
                Some(w) => key(
                    "deprecated",
                    MarkerValue::Nested(vec![key("warning", str(&w))]),
                ),
                None => key("deprecated", MarkerValue::Flag),
            }),
            "kubebuilder:selectablefield" => keys.push(key(
                "selectable_field",
                MarkerValue::Nested(vec![key(
                    "json_path",
                    str(&arg("JSONPath").unwrap_or_default()),
                )]),
            )),
            "kubebuilder:metadata:annotations" | "kubebuilder:metadata:labels" => {
                let values = match m.arg("") {
                    Some(Value::Array(a)) => a.iter().map(string).collect(),
                    Some(v) => vec![string(v)],
                    None => Vec::new(),
                };
                let k = if m.name.ends_with("labels") {
                    "labels"
                } else {
                    "annotations"
                };
                keys.push(key(k, MarkerValue::List(values)));
            }
            _ => {
                let w = warn(
                    &m.loc,
                    &format!(
                        "`+{}` on a root type: no key of the spec struct says it",
                        m.text
                    ),
                );
                keys.push(w);
            }
        }
    }
    (keys, has_status_subresource)
}
