//! The RBAC model: one attribute in ([`RbacRule`]), Roles out ([`Role`], [`PolicyRule`]).

use serde::{Deserialize, Serialize};

use crate::model::Loc;

/// One `#[rbac(...)]` attribute, as written (lists unsorted, `core` not yet rewritten).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RbacRule {
    /// API groups; `""` and `core` are the core group.
    pub groups: Vec<String>,
    /// Resources, subresources as `deployments/status`.
    pub resources: Vec<String>,
    /// Object names the rule is limited to; empty means every name.
    pub resource_names: Vec<String>,
    /// Verbs, `*` for all.
    pub verbs: Vec<String>,
    /// Non-resource URLs (ClusterRole only).
    pub urls: Vec<String>,
    /// The namespace of the `Role` this rule goes to; `None` puts it in the ClusterRole.
    pub namespace: Option<String>,
    /// The name of the role this rule goes to; `None` is the default role name.
    pub role_name: Option<String>,
    /// Where the attribute is, when the front end knows it (the CLI fills it).
    pub loc: Option<Loc>,
}

/// One generated ClusterRole (`namespace` is `None`) or Role.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Role {
    /// The Role's namespace; `None` for the ClusterRole.
    pub namespace: Option<String>,
    /// `metadata.name`.
    pub name: String,
    /// The merged rules, in controller-gen's order.
    pub rules: Vec<PolicyRule>,
}

/// One generated rule: every list sorted and deduplicated, the core group as `""`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyRule {
    /// `apiGroups`.
    pub api_groups: Vec<String>,
    /// `resources`.
    pub resources: Vec<String>,
    /// `resourceNames`.
    pub resource_names: Vec<String>,
    /// `nonResourceURLs`.
    pub non_resource_urls: Vec<String>,
    /// `verbs`; just `*` when `*` is among them.
    pub verbs: Vec<String>,
    /// Every attribute that contributed to the rule, sorted, without duplicates.
    pub sources: Vec<Loc>,
}
