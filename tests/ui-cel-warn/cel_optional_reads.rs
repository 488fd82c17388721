#![deny(deprecated)]
//! The derive's warnings are rustc's `deprecated` lint: denied here, so that the case fails to
//! compile and its `.stderr` shows them.

use kubegen::{CustomResource, KubeSchema};

#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Strategy {
    pub r#type: String,
}

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "w.example.com", version = "v1", kind = "Web")]
#[kube_marker(x_validation(rule = "self.strategy.type == 'RollingUpdate' || self.strategy.type == 'Recreate'", message = "unguarded"))]
#[kube_marker(x_validation(rule = "!has(self.strategy) || self.strategy.type == 'RollingUpdate'", message = "guarded"))]
#[kube_marker(x_validation(rule = "self.?paused.orValue(false) || self.replicas > 0", message = "optional, defaulted"))]
pub struct WebSpec {
    pub strategy: Option<Strategy>,
    #[kube_marker(default = 1)]
    pub replicas: Option<i32>,
    pub paused: Option<bool>,
}

fn main() {}
