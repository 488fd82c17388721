//! `conversion(webhook(...))` on one version's spec struct gives the CRD of all versions its
//! `spec.conversion`; on a kind with a single version it is an error naming the kind.

use kubegen::{CustomResource, crd_for};
use serde::{Deserialize, Serialize};
use serde_json::json;

mod v1 {
    use super::*;

    /// A widget, first version.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v1", kind = "Widget")]
    #[kube_marker(conversion(webhook(service_port = 9443, review_versions = "v1;v1beta1")))]
    pub struct WidgetSpec {
        /// Size.
        pub size: i32,
    }
}

mod v2 {
    use super::*;

    /// A widget, second version.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(
        group = "example.com",
        version = "v2",
        kind = "Widget",
        storage_version
    )]
    pub struct WidgetSpec {
        /// Replicas.
        pub replicas: i32,
    }

    /// A gadget with a conversion URL and a single version.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube_marker(group = "example.com", version = "v2", kind = "Gadget")]
    #[kube_marker(conversion(webhook(url = "https://convert.example.com/gadgets")))]
    pub struct GadgetSpec {
        /// Size.
        pub size: i32,
    }
}

#[test]
fn the_crd_of_all_versions_converts_through_the_service() {
    use kubegen::CustomResource as _;
    let crd = crd_for(&[v1::Widget::resource(), v2::Widget::resource()]).expect("a CRD");
    let conversion = serde_json::to_value(crd.spec.conversion).unwrap();
    assert_eq!(
        conversion,
        json!({
            "strategy": "Webhook",
            "webhook": {
                "clientConfig": {"service": {
                    "name": "webhook-service", "namespace": "system",
                    "path": "/convert", "port": 9443,
                }},
                "conversionReviewVersions": ["v1", "v1beta1"],
            },
        })
    );
}

#[test]
fn one_version_alone_cannot_convert() {
    use kubegen::CustomResource as _;
    let e = crd_for(&[v2::Gadget::resource()]).unwrap_err().to_string();
    assert!(e.contains("Gadget has only version v2"), "{e}");
    let plain = crd_for(&[v2::Widget::resource()]).expect("a CRD");
    assert_eq!(
        plain.spec.conversion, None,
        "no conversion key, nothing written"
    );
}
