//! One kind, its markers, and the CRD they make: `cargo run --example crd_basic` prints the
//! YAML `kubegen manifests` would write to `config/crd/bases/`.

// ANCHOR: kind
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// GuestbookSpec defines the desired state of Guestbook.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube_marker(group = "webapp.my.domain", version = "v1", kind = "Guestbook")]
#[kube_marker(status = "GuestbookStatus", short_names = "gb")]
#[kube_marker(printcolumn(name = "Size", json_path = ".spec.size"))]
#[serde(rename_all = "camelCase")]
pub struct GuestbookSpec {
    /// How many front ends to run.
    #[kube_marker(minimum = 1, maximum = 10, default = 1)]
    #[serde(default = "one")]
    pub size: i32,
    /// The page's title.
    #[kube_marker(max_length = 64)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

fn one() -> i32 {
    1
}

/// GuestbookStatus defines the observed state of Guestbook.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GuestbookStatus {
    /// How many front ends are ready.
    #[serde(default)]
    pub ready: i32,
}
// ANCHOR_END: kind

fn main() {
    // ANCHOR: print
    use kube::CustomResourceExt;
    print!("{}", kubegen::to_yaml(&Guestbook::crd()));
    // ANCHOR_END: print
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::CustomResourceExt;

    #[test]
    fn the_markers_are_in_the_crd() {
        let crd = Guestbook::crd();
        assert_eq!(
            crd.metadata.name.as_deref(),
            Some("guestbooks.webapp.my.domain")
        );
        assert_eq!(crd.spec.names.short_names, Some(vec!["gb".to_string()]));
        let version = &crd.spec.versions[0];
        assert!(version.subresources.as_ref().unwrap().status.is_some());
        let schema = serde_json::to_value(&version.schema).unwrap();
        let size = &schema["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"];
        assert_eq!(size["minimum"], 1.0);
        assert_eq!(size["maximum"], 10.0);
        assert_eq!(size["default"], 1);
        assert!(kubegen::to_yaml(&crd).contains("maxLength: 64"));
    }
}
