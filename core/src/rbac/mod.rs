//! RBAC: `#[rbac]` rules in, normalized Roles and ClusterRoles out.
//!
//! Each `#[rbac(...)]` attribute is one [`RbacRule`] (parsed by `parse::rbac` with the
//! `parse` feature). [`roles`] buckets, merges, deduplicates and sorts them the way
//! controller-gen's `GenerateRoles` does, without its merge hazard: the output grants
//! exactly what the attributes grant, never less and never more. [`explain`] lists every
//! generated rule with the attributes it came from, and `to_k8s` (feature `k8s`) builds the
//! `ClusterRole` and `Role` objects of `config/rbac/role.yaml`.

mod explain;
#[cfg(feature = "k8s")]
mod k8s;
mod model;
mod normalize;

pub use explain::explain;
#[cfg(feature = "k8s")]
pub use k8s::to_k8s;
pub use model::{PolicyRule, RbacRule, Role};
pub use normalize::roles;

/// The role name controller-gen users get from kubebuilder's scaffolding, used when the CLI
/// is given none.
pub const DEFAULT_ROLE: &str = "manager-role";

/// The wildcard verb: every verb.
pub const ALL_VERBS: &str = "*";

/// The verbs of resource requests, as the Kubernetes authorization documentation lists them
/// ("Determine the request verb"): what `kubectl` and controllers ask for.
pub const RESOURCE_VERBS: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
];

/// The special verbs Kubernetes documents, each checked on particular resources only:
///
/// - `bind` and `escalate`: `roles` and `clusterroles` in `rbac.authorization.k8s.io`
///   (RBAC privilege-escalation prevention);
/// - `impersonate`: `users`, `groups`, `serviceaccounts` and `uids` in the core group and
///   `userextras/*` in `authentication.k8s.io` (authentication, user impersonation);
/// - `approve`, `sign` and `attest`: `signers` in `certificates.k8s.io` (certificate signing
///   requests and cluster trust bundles);
/// - `use`: documented for PodSecurityPolicy (removed in Kubernetes 1.25) and still checked by
///   distributions for their own policy objects (OpenShift's `securitycontextconstraints`).
pub const SPECIAL_VERBS: &[&str] = &[
    "bind",
    "escalate",
    "impersonate",
    "approve",
    "sign",
    "attest",
    "use",
];

/// The verbs of non-resource requests (`urls`): the lowercased HTTP method.
pub const URL_VERBS: &[&str] = &["get", "post", "put", "patch", "delete", "head", "options"];

/// Why `name` cannot name a Role or ClusterRole, if it cannot. RBAC object names are path
/// segments: not empty, not `.` or `..`, without `/` or `%`.
pub fn role_name_problem(name: &str) -> Option<&'static str> {
    match name {
        "" => Some("it is empty"),
        "." | ".." => Some("`.` and `..` are not allowed"),
        _ if name.contains('/') => Some("it may not contain `/`"),
        _ if name.contains('%') => Some("it may not contain `%`"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_names_are_path_segments() {
        for good in [DEFAULT_ROLE, "system:controller:x", "a.b", "..."] {
            assert_eq!(role_name_problem(good), None, "{good}");
        }
        assert_eq!(role_name_problem(""), Some("it is empty"));
        assert_eq!(
            role_name_problem(".."),
            Some("`.` and `..` are not allowed")
        );
        assert_eq!(role_name_problem("a/b"), Some("it may not contain `/`"));
        assert_eq!(role_name_problem("50%"), Some("it may not contain `%`"));
    }
}
