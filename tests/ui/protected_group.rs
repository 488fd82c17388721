use kubegen::CustomResource;

// `*.k8s.io` and `*.kubernetes.io` belong to the Kubernetes project: the API server refuses a CRD
// there without the approval annotation, or with one that is neither a URL nor a reason
// starting with `unapproved`.
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "gateway.networking.k8s.io", version = "v1", kind = "GatewayClass")]
pub struct GatewayClassSpec {
    pub controller_name: String,
}

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "policy.kubernetes.io", version = "v1", kind = "Audit")]
#[kube_marker(annotations = "api-approved.kubernetes.io=approved")]
pub struct AuditSpec {
    pub level: String,
}

// Accepted: an approval by URL, a bypass, and a group outside the protected domains.
#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "gateway.networking.k8s.io", version = "v1", kind = "Gateway")]
#[kube_marker(annotations = "api-approved.kubernetes.io=https://github.com/kubernetes-sigs/gateway-api/pull/3328")]
pub struct GatewaySpec {
    pub class: String,
}

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "k8s.io", version = "v1alpha1", kind = "Trial")]
#[kube_marker(annotations = "api-approved.kubernetes.io=unapproved, experimental-only")]
pub struct TrialSpec {
    pub name: String,
}

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube_marker(group = "gateway.networking.x-k8s.io", version = "v1alpha1", kind = "Mesh")]
pub struct MeshSpec {
    pub name: String,
}

fn main() {}
