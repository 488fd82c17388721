//! The keys of `#[webhook]` and `#[webhook_configuration]`.

use super::{Entry, Value, item};

/// The keys of `#[webhook]`, in the reference's order.
pub(super) const ENTRIES: &[Entry] = &[
    Entry {
        keys: &[item("mutating", Value::Bool)],
        form: "`mutating`",
        marker: "`+kubebuilder:webhook:mutating`",
        emits: "which configuration",
        notes: "required",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1")]"#,
        ],
    },
    Entry {
        keys: &[item("failure_policy", Value::Word)],
        form: "`failure_policy`",
        marker: "`+kubebuilder:webhook:failurePolicy`",
        emits: "`failurePolicy`",
        notes: "required; `fail` / `ignore`, any case",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "ignore", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1")]"#,
        ],
    },
    Entry {
        keys: &[item("match_policy", Value::Word)],
        form: "`match_policy`",
        marker: "`+kubebuilder:webhook:matchPolicy`",
        emits: "`matchPolicy`",
        notes: "`Exact` / `Equivalent`",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", match_policy = "Equivalent")]"#,
        ],
    },
    Entry {
        keys: &[item("side_effects", Value::Word)],
        form: "`side_effects`",
        marker: "`+kubebuilder:webhook:sideEffects`",
        emits: "`sideEffects`",
        notes: "required; `None` / `NoneOnDryRun`; `Some` and `Unknown` are errors \
            (admissionregistration v1)",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "NoneOnDryRun", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1")]"#,
        ],
    },
    Entry {
        keys: &[item("timeout_seconds", Value::Count)],
        form: "`timeout_seconds`",
        marker: "`+kubebuilder:webhook:timeoutSeconds`",
        emits: "`timeoutSeconds`",
        notes: "1 to 30",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", timeout_seconds = 10)]"#,
        ],
    },
    Entry {
        keys: &[
            item("groups", Value::List),
            item("resources", Value::List),
            item("verbs", Value::List),
            item("versions", Value::List),
        ],
        form: "`groups`, `resources`, `verbs`, `versions`",
        marker: "`+kubebuilder:webhook:groups`, `resources`, `verbs`, `versions`",
        emits: "`rules`",
        notes: "required; lists; verbs `create`, `update`, `delete`, `connect`, `*` (a near miss \
            gets a suggestion)",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1")]"#,
        ],
    },
    Entry {
        keys: &[item("name", Value::String)],
        form: "`name`",
        marker: "`+kubebuilder:webhook:name`",
        emits: "`name`",
        notes: "required; a DNS name of at least three labels; unique within its configuration \
            (the API server refuses repeats)",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1")]"#,
        ],
    },
    Entry {
        keys: &[item("path", Value::String)],
        form: "`path`",
        marker: "`+kubebuilder:webhook:path`",
        emits: "`clientConfig.service.path`",
        notes: "default `/mutate-<group, dots as dashes>-<version>-<kind>` or `/validate-...`, \
            from the first group, version and resource",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", path = "/mutate-pods")]"#,
        ],
    },
    Entry {
        keys: &[item("url", Value::String)],
        form: "`url`",
        marker: "`+kubebuilder:webhook:url`",
        emits: "`clientConfig.url`",
        notes: "instead of the service; not with `path` or `service_*`",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", url = "https://hooks.example.com/mutate-pods")]"#,
        ],
    },
    Entry {
        keys: &[
            item("service_name", Value::String),
            item("service_namespace", Value::String),
            item("service_port", Value::Count),
        ],
        form: "`service_name`, `service_namespace`, `service_port`",
        marker: "`+kubebuilder:webhook:serviceName`, `serviceNamespace`, `servicePort`",
        emits: "`clientConfig.service`",
        notes: "defaults `webhook-service`, `system`, 443",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", service_name = "hooks", service_namespace = "ops", service_port = 9443)]"#,
        ],
    },
    Entry {
        keys: &[item("admission_review_versions", Value::List)],
        form: "`admission_review_versions`",
        marker: "`+kubebuilder:webhook:admissionReviewVersions`",
        emits: "`admissionReviewVersions`",
        notes: "required",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1")]"#,
        ],
    },
    Entry {
        keys: &[item("reinvocation_policy", Value::Word)],
        form: "`reinvocation_policy`",
        marker: "`+kubebuilder:webhook:reinvocationPolicy`",
        emits: "`reinvocationPolicy`",
        notes: "`Never` / `IfNeeded`; mutating webhooks only",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", reinvocation_policy = "IfNeeded")]"#,
        ],
    },
    Entry {
        keys: &[item("patch", Value::JsonObjectText)],
        form: "`patch`",
        marker: "`+kubebuilder:webhook:patch`",
        emits: "merged into the entry",
        notes: "a JSON object (selectors, `matchConditions`)",
        examples: &[
            r##"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", patch = r#"{"namespaceSelector": {"matchLabels": {"hooks": "on"}}}"#)]"##,
        ],
    },
    Entry {
        keys: &[item("crate", Value::Path)],
        form: "`crate = \"path\"`",
        marker: "(as serde's `#[serde(crate = \"...\")]`)",
        emits: "nothing in the manifest: the path the handler's generated module names kubegen \
            by",
        notes: "default `::kubegen`; for a crate that uses kubegen through another that \
            re-exports it (`pub use kubegen;`); once per handler is enough, and an item's \
            `#[webhook]`s that give it give the same; it is read inside the handler's module, so \
            it starts with a crate's name (`my_sdk::kubegen`) or `crate::`",
        examples: &[
            r#"#[webhook(mutating = true, failure_policy = "fail", side_effects = "None", groups = "", resources = "pods", verbs = "create", versions = "v1", name = "mpod.example.com", admission_review_versions = "v1", crate = "my_sdk::kubegen")]"#,
        ],
    },
];

/// What holds between the keys of `#[webhook]`.
pub(super) const RULES: &[&str] = &[
    "A conversion webhook is not a `#[webhook]`: it is the [resource key](#resource-keys) \
    `conversion(webhook(...))` on one version's spec struct.",
];

/// The keys of `#[webhook_configuration]`.
pub(super) const CONFIGURATION_ENTRIES: &[Entry] = &[
    Entry {
        keys: &[item("mutating", Value::Bool)],
        form: "`mutating`",
        marker: "`+kubebuilder:webhookconfiguration:mutating`",
        emits: "which configuration is renamed",
        notes: "required",
        examples: &[r#"#[webhook_configuration(mutating = true, name = "memcached-defaulter")]"#],
    },
    Entry {
        keys: &[item("name", Value::String)],
        form: "`name`",
        marker: "`+kubebuilder:webhookconfiguration:name`",
        emits: "the configuration's `metadata.name`",
        notes: "required; a DNS subdomain; default `mutating-webhook-configuration`, \
            `validating-webhook-configuration`",
        examples: &[r#"#[webhook_configuration(mutating = false, name = "memcached-validator")]"#],
    },
];
