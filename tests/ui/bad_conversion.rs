use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// Both a service path and a URL, and a port that is not one.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]
#[kube_marker(conversion(webhook(path = "/convert", url = "https://x.example.com", service_port = 70000)))]
pub struct WidgetSpec {
    pub size: i32,
}

/// A misspelled key inside `webhook(...)`.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Gadget")]
#[kube_marker(conversion(webhook(review_version = "v1")))]
pub struct GadgetSpec {
    pub size: i32,
}

fn main() {}
