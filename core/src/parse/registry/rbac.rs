//! The keys of `#[rbac]`.

use super::{Entry, Value, item};

/// The keys, in the reference's order.
pub(super) const ENTRIES: &[Entry] = &[
    Entry {
        keys: &[item("groups", Value::List)],
        form: "`groups`",
        marker: "`+kubebuilder:rbac:groups`",
        emits: "`apiGroups`",
        notes: "list; `\"\"` and `\"core\"` are the core group (`groups = \"\"` is the core group, \
            not an empty list); a stray empty part (`\"apps;\"`) is an error",
        examples: &[
            r#"#[rbac(groups = "apps", resources = "deployments", verbs = "get;list;watch")]"#,
        ],
    },
    Entry {
        keys: &[item("resources", Value::List)],
        form: "`resources`",
        marker: "`+kubebuilder:rbac:resources`",
        emits: "`resources`",
        notes: "list; subresources as `deployments/status`",
        examples: &[r#"#[rbac(groups = "apps", resources = "deployments/status", verbs = "get")]"#],
    },
    Entry {
        keys: &[item("resource_names", Value::List)],
        form: "`resource_names`",
        marker: "`+kubebuilder:rbac:resourceNames`",
        emits: "`resourceNames`",
        notes: "list; not with a wildcard resource",
        examples: &[
            r#"#[rbac(groups = "", resources = "configmaps", resource_names = "leader-lock", verbs = "get;update")]"#,
        ],
    },
    Entry {
        keys: &[item("verbs", Value::List)],
        form: "`verbs`",
        marker: "`+kubebuilder:rbac:verbs`",
        emits: "`verbs`",
        notes: "required, non-empty; `*`, or the verbs of resources (`get`, `list`, `watch`, \
            `create`, `update`, `patch`, `delete`, `deletecollection`, and `bind`, `escalate`, \
            `impersonate`, `approve`, `sign`, `attest`, `use`) or of `urls` (`get`, `post`, `put`, \
            `patch`, `delete`, `head`, `options`); a near miss (`lsit`) gets a suggestion",
        examples: &[r#"#[rbac(groups = "", resources = "events", verbs = ["create", "patch"])]"#],
    },
    Entry {
        keys: &[item("urls", Value::List)],
        form: "`urls`",
        marker: "`+kubebuilder:rbac:urls`",
        emits: "`nonResourceURLs`",
        notes: "paths starting with `/` (a `*` may end one); not with `groups`, `resources`, \
            `resource_names` or `namespace`",
        examples: &[r#"#[rbac(urls = "/metrics", verbs = "get")]"#],
    },
    Entry {
        keys: &[item("namespace", Value::String)],
        form: "`namespace`",
        marker: "`+kubebuilder:rbac:namespace`",
        emits: "a `Role` in that namespace instead of a `ClusterRole` rule",
        notes: "a DNS label",
        examples: &[
            r#"#[rbac(groups = "", resources = "secrets", verbs = "get", namespace = "system")]"#,
        ],
    },
    Entry {
        keys: &[item("role_name", Value::String)],
        form: "`role_name`",
        marker: "`+kubebuilder:rbac:roleName`",
        emits: "the role's name",
        notes: "default `manager-role`",
        examples: &[
            r#"#[rbac(groups = "", resources = "pods", verbs = "list", role_name = "pod-reader")]"#,
        ],
    },
];

/// What holds between the keys.
pub(super) const RULES: &[&str] = &[
    "A rule covers `resources` (with `groups`) or `urls`. Rules are merged, deduplicated and \
    sorted as controller-gen does, so the same markers give the same `role.yaml`; kubegen never \
    drops a permission where controller-gen's merge can.",
];
