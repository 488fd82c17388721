//! The keys of `#[kube_marker]`: the resource keys and the schema keys.

use super::{Entry, Goes, Value, resource, schema};

/// The resource keys, in the reference's order.
pub(super) const RESOURCE: &[Entry] = &[
    Entry {
        keys: &[resource("group", Value::String)],
        form: "`group = \"...\"`",
        marker: "`+groupName`",
        emits: "`spec.group`",
        notes: "required; a lowercase DNS subdomain; a group of the Kubernetes project (`k8s.io`, \
            `kubernetes.io` and their subdomains) needs the `api-approved.kubernetes.io` \
            annotation (see `annotations`)",
        examples: &[r#"#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]"#],
    },
    Entry {
        keys: &[resource("version", Value::String)],
        form: "`version = \"...\"`",
        marker: "the package's version (`+versionName`)",
        emits: "`spec.versions[].name`",
        notes: "required; a DNS label starting with a letter (`v1alpha1`)",
        examples: &[r#"#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]"#],
    },
    Entry {
        keys: &[resource("kind", Value::String)],
        form: "`kind = \"...\"`",
        marker: "the Go type's name",
        emits: "`spec.names.kind`, `listKind: <Kind>List`",
        notes: "required; CamelCase",
        examples: &[r#"#[kube_marker(group = "example.com", version = "v1", kind = "Widget")]"#],
    },
    Entry {
        keys: &[resource("plural", Value::String)],
        form: "`plural = \"...\"`",
        marker: "`+kubebuilder:resource:path`",
        emits: "`spec.names.plural`, the CRD's name `<plural>.<group>`",
        notes: "default: the kind lowercased and pluralized as controller-gen does (flect)",
        examples: &[r#"#[kube_marker(plural = "widgets")]"#],
    },
    Entry {
        keys: &[resource("singular", Value::String)],
        form: "`singular = \"...\"`",
        marker: "`+kubebuilder:resource:singular`",
        emits: "`spec.names.singular`",
        notes: "default: the kind lowercased",
        examples: &[r#"#[kube_marker(singular = "widget")]"#],
    },
    Entry {
        keys: &[
            resource("scope", Value::Word),
            resource("namespaced", Value::Flag),
        ],
        form: "`scope = \"Namespaced\" | \"Cluster\"`, or `namespaced`",
        marker: "`+kubebuilder:resource:scope`",
        emits: "`spec.scope`",
        notes: "default `Namespaced`; `namespaced = false` is `Cluster`",
        examples: &[
            r#"#[kube_marker(scope = "Cluster")]"#,
            "#[kube_marker(namespaced = false)]",
        ],
    },
    Entry {
        keys: &[resource("short_names", Value::List)],
        form: "`short_names = \"...\"`",
        marker: "`+kubebuilder:resource:shortName`",
        emits: "`spec.names.shortNames`",
        notes: "list of DNS labels",
        examples: &[r#"#[kube_marker(short_names = "wd;wdg")]"#],
    },
    Entry {
        keys: &[resource("categories", Value::List)],
        form: "`categories = \"...\"`",
        marker: "`+kubebuilder:resource:categories`",
        emits: "`spec.names.categories`",
        notes: "list of DNS labels",
        examples: &[r#"#[kube_marker(categories = "all")]"#],
    },
    Entry {
        keys: &[resource("status", Value::TypePath)],
        form: "`status = \"TypePath\"`",
        marker: "`+kubebuilder:subresource:status`",
        emits: "the `status` property, and `subresources.status: {}` (unless \
            `status_subresource = false`)",
        notes: "adds `status: Option<TypePath>` to the root type and `HasStatus`",
        examples: &[r#"#[kube_marker(status = "WidgetStatus")]"#],
    },
    Entry {
        keys: &[resource("status_subresource", Value::Flag)],
        form: "`status_subresource`, `status_subresource = false`",
        marker: "`+kubebuilder:subresource:status`",
        emits: "`subresources.status: {}`, or not",
        notes: "default: when `status` is given; `status = \"T\", status_subresource = false` is a \
            `status` property the main resource writes (Go's `Status` field without the marker), \
            `status_subresource` alone the subresource without a `status` property (nor a \
            `status` field in the root type)",
        examples: &[
            r#"#[kube_marker(status = "WidgetStatus", status_subresource = false)]"#,
            "#[kube_marker(status_subresource)]",
        ],
    },
    Entry {
        keys: &[resource("scale", Value::Nested)],
        form: "`scale(spec_path, status_path, selector_path)`",
        marker: "`+kubebuilder:subresource:scale`",
        emits: "`subresources.scale` (`specReplicasPath`, `statusReplicasPath`, \
            `labelSelectorPath`)",
        notes: "`selector_path` optional",
        examples: &[
            r#"#[kube_marker(scale(spec_path = ".spec.replicas", status_path = ".status.replicas"))]"#,
        ],
    },
    Entry {
        keys: &[resource("printcolumn", Value::Nested).repeatable()],
        form: "`printcolumn(name, type, json_path, description, format, priority)`",
        marker: "`+kubebuilder:printcolumn`",
        emits: "`additionalPrinterColumns`",
        notes: "repeatable, order kept; `type_` also accepted; `type` is one of `integer`, \
            `number`, `string`, `boolean`, `date`, and when left out it is read from the schema at \
            `json_path` (a `date-time` string is a `date`; `string` where the schema does not \
            say); `priority` 0 or more",
        examples: &[r#"#[kube_marker(printcolumn(name = "Size", json_path = ".spec.size"))]"#],
    },
    Entry {
        keys: &[resource("storage_version", Value::Flag)],
        form: "`storage_version`",
        marker: "`+kubebuilder:storageversion`",
        emits: "`storage: true`",
        notes: "exactly one version stores when there are several",
        examples: &["#[kube_marker(storage_version)]"],
    },
    Entry {
        keys: &[resource("served", Value::Flag)],
        form: "`served = false`",
        marker: "`+kubebuilder:unservedversion`",
        emits: "`served: false`",
        notes: "at least one version of a kind is served",
        examples: &["#[kube_marker(served = false)]"],
    },
    Entry {
        keys: &[resource("skip_version", Value::Flag)],
        form: "`skip_version`",
        marker: "`+kubebuilder:skipversion`",
        emits: "nothing: the version is left out",
        notes: "",
        examples: &["#[kube_marker(skip_version)]"],
    },
    Entry {
        keys: &[resource("deprecated", Value::FlagOrNested)],
        form: "`deprecated`, `deprecated(warning = \"...\")`",
        marker: "`+kubebuilder:deprecatedversion`",
        emits: "`deprecated: true`, `deprecationWarning`",
        notes: "",
        examples: &[
            "#[kube_marker(deprecated)]",
            r#"#[kube_marker(deprecated(warning = "use v1"))]"#,
        ],
    },
    Entry {
        keys: &[resource("selectable_field", Value::Nested).repeatable()],
        form: "`selectable_field(json_path = \"...\")`",
        marker: "`+kubebuilder:selectablefield`",
        emits: "`selectableFields`",
        notes: "repeatable",
        examples: &[r#"#[kube_marker(selectable_field(json_path = ".spec.color"))]"#],
    },
    Entry {
        keys: &[resource("annotations", Value::Pairs)],
        form: "`annotations = \"k=v;...\"`",
        marker: "`+kubebuilder:metadata:annotations`",
        emits: "the CRD's `metadata.annotations`",
        notes: "`key=value` entries; in a protected group (`*.k8s.io`, `*.kubernetes.io`) each \
            version gives `api-approved.kubernetes.io`, the URL of the API review's pull request \
            or a reason starting with `unapproved`, as the API server requires",
        examples: &[r#"#[kube_marker(annotations = "owner=team-a")]"#],
    },
    Entry {
        keys: &[resource("labels", Value::Pairs)],
        form: "`labels = \"k=v;...\"`",
        marker: "`+kubebuilder:metadata:labels`",
        emits: "the CRD's `metadata.labels`",
        notes: "`key=value` entries",
        examples: &[r#"#[kube_marker(labels = "tier=api")]"#],
    },
    Entry {
        keys: &[resource("doc", Value::String)],
        form: "`doc = \"...\"`",
        marker: "the root type's doc comment",
        emits: "the root schema's `description`, and the root type's Rust doc",
        notes: "none when absent",
        examples: &[r#"#[kube_marker(doc = "A widget.")]"#],
    },
    Entry {
        keys: &[resource("derive", Value::TraitPaths)],
        form: "`derive = [\"PartialEq\"]`",
        marker: "",
        emits: "extra derives on the generated root type",
        notes: "the spec and status types must implement them too",
        examples: &[r#"#[kube_marker(derive = ["PartialEq"])]"#],
    },
    Entry {
        keys: &[resource("conversion", Value::Nested)],
        form: "`conversion(webhook(path, service_name, service_namespace, service_port, url, \
            review_versions))`",
        marker: "none: kubebuilder patches it in with kustomize \
            (`config/crd/patches/webhook_in_<kind>.yaml`)",
        emits: "`spec.conversion`: `strategy: Webhook`, its `clientConfig` and \
            `conversionReviewVersions`",
        notes: "CRD-wide, on one version's spec struct; every argument optional (service \
            `webhook-service` in `system`, path `/convert`, review versions `v1`; `url` instead of \
            the service); a kind with one version cannot convert",
        examples: &[
            r#"#[kube_marker(conversion(webhook(service_name = "hooks", service_port = 9443)))]"#,
        ],
    },
];

/// What holds between the resource keys.
pub(super) const RESOURCE_RULES: &[&str] = &[
    "Every [schema key](#schema-keys) is also valid on the spec struct and applies to the `spec` \
    schema. The `spec` property's description is the spec struct's doc comment, the `status` \
    property's the status type's.",
    "The paths of `printcolumn`, `scale` and `selectable_field` must name fields of the schema \
    (paths under `.metadata`, and into nodes that keep unknown fields, are not checked).",
];

/// The schema keys, in the reference's order.
pub(super) const SCHEMA: &[Entry] = &[
    Entry {
        keys: &[
            schema("minimum", Value::Number),
            schema("maximum", Value::Number),
            schema("multiple_of", Value::Number),
        ],
        form: "`minimum`, `maximum`, `multiple_of`",
        marker: "`+kubebuilder:validation:Minimum`, `Maximum`, `MultipleOf`",
        emits: "the same keywords; numbers only, whole on integers",
        notes: "",
        examples: &["#[kube_marker(minimum = 1, maximum = 10, multiple_of = 2)]"],
    },
    Entry {
        keys: &[
            schema("exclusive_minimum", Value::Flag),
            schema("exclusive_maximum", Value::Flag),
        ],
        form: "`exclusive_minimum`, `exclusive_maximum` (flags)",
        marker: "`+kubebuilder:validation:ExclusiveMinimum`, `ExclusiveMaximum`",
        emits: "`exclusiveMinimum: true` (needs `minimum`), `exclusiveMaximum: true` (needs \
            `maximum`)",
        notes: "",
        examples: &[
            "#[kube_marker(minimum = 0, exclusive_minimum, maximum = 1, exclusive_maximum)]",
        ],
    },
    Entry {
        keys: &[
            schema("min_length", Value::Count),
            schema("max_length", Value::Count),
            schema("pattern", Value::String),
        ],
        form: "`min_length`, `max_length`, `pattern`",
        marker: "`+kubebuilder:validation:MinLength`, `MaxLength`, `Pattern`",
        emits: "`minLength`, `maxLength`, `pattern`; strings only; `pattern` must be a Go (RE2) \
            regular expression, as the API server compiles it: no lookaround, backreferences or \
            possessive repetition",
        notes: "",
        examples: &[r#"#[kube_marker(min_length = 1, max_length = 63, pattern = r"^[a-z]+$")]"#],
    },
    Entry {
        keys: &[schema("format", Value::String)],
        form: "`format = \"...\"`",
        marker: "`+kubebuilder:validation:Format`",
        emits: "`format`",
        notes: "",
        examples: &[r#"#[kube_marker(format = "date-time")]"#],
    },
    Entry {
        keys: &[schema("enum_values", Value::JsonValues)],
        form: "`enum_values = [...]`",
        marker: "`+kubebuilder:validation:Enum`",
        emits: "`enum`; each value of the field's type",
        notes: "",
        examples: &[r#"#[kube_marker(enum_values = ["http", "grpc"])]"#],
    },
    Entry {
        keys: &[
            schema("min_items", Value::Count),
            schema("max_items", Value::Count),
        ],
        form: "`min_items`, `max_items`",
        marker: "`+kubebuilder:validation:MinItems`, `MaxItems`",
        emits: "`minItems`, `maxItems`; arrays only",
        notes: "",
        examples: &["#[kube_marker(min_items = 1, max_items = 10)]"],
    },
    Entry {
        keys: &[
            schema("min_properties", Value::Count),
            schema("max_properties", Value::Count),
        ],
        form: "`min_properties`, `max_properties`",
        marker: "`+kubebuilder:validation:MinProperties`, `MaxProperties`",
        emits: "`minProperties`, `maxProperties`; objects only",
        notes: "",
        examples: &["#[kube_marker(min_properties = 1, max_properties = 8)]"],
    },
    Entry {
        keys: &[schema("unique_items", Value::Flag)],
        form: "`unique_items`",
        marker: "`+kubebuilder:validation:UniqueItems`",
        emits: "an error: the apiserver rejects `uniqueItems: true`; use `list_type = \"set\"`",
        notes: "",
        examples: &["#[kube_marker(unique_items)]"],
    },
    Entry {
        keys: &[schema("schema_type", Value::Word)],
        form: "`schema_type = \"...\"`",
        marker: "`+kubebuilder:validation:Type`",
        emits: "replaces the inferred `type` (`string`, `integer`, `number`, `boolean`, `array`, \
            `object`); the field's Rust type is not looked into",
        notes: "",
        examples: &[r#"#[kube_marker(schema_type = "object")]"#],
    },
    Entry {
        keys: &[schema("items", Value::Schema)],
        form: "`items(...)`",
        marker: "`+kubebuilder:validation:items:...`",
        emits: "any schema key, applied to the array's `items`",
        notes: "",
        examples: &["#[kube_marker(items(max_length = 63))]"],
    },
    Entry {
        keys: &[schema("x_validation", Value::Nested).repeatable()],
        form: "`x_validation(rule, message, message_expression, reason, field_path, \
            optional_old_self)`",
        marker: "`+kubebuilder:validation:XValidation`",
        emits: "an entry of `x-kubernetes-validations`; repeatable; `reason` is one of \
            `FieldValueInvalid`, `FieldValueRequired`, `FieldValueForbidden`, \
            `FieldValueDuplicate`; `field_path` is relative to the node the rule is on, made of \
            `.field` and `['key']` steps that exist there (no list index)",
        notes: "",
        examples: &[
            r#"#[kube_marker(x_validation(rule = "self.min <= self.max", message = "min must not exceed max"))]"#,
        ],
    },
    Entry {
        keys: &[schema("at_most_one_of", Value::FieldNames)
            .on(Goes::Struct)
            .repeatable()],
        form: "`at_most_one_of = [...]`",
        marker: "`+kubebuilder:validation:AtMostOneOf`",
        emits: "a CEL rule on the struct: at most one of the named fields is set",
        notes: "",
        examples: &[r#"#[kube_marker(at_most_one_of = ["image", "digest"])]"#],
    },
    Entry {
        keys: &[schema("exactly_one_of", Value::FieldNames)
            .on(Goes::Struct)
            .repeatable()],
        form: "`exactly_one_of = [...]`",
        marker: "`+kubebuilder:validation:ExactlyOneOf`",
        emits: "a CEL rule on the struct: exactly one is set",
        notes: "",
        examples: &[r#"#[kube_marker(exactly_one_of = ["url", "git"])]"#],
    },
    Entry {
        keys: &[schema("at_least_one_of", Value::FieldNames)
            .on(Goes::Struct)
            .repeatable()],
        form: "`at_least_one_of = [...]`",
        marker: "`+kubebuilder:validation:AtLeastOneOf`",
        emits: "a CEL rule on the struct: at least one is set",
        notes: "",
        examples: &[r#"#[kube_marker(at_least_one_of = ["cpu", "memory"])]"#],
    },
    Entry {
        keys: &[schema("immutable", Value::Flag)],
        form: "`immutable`",
        marker: "",
        emits: "the rule `self == oldSelf` (\"field is immutable\"); on an optional field, also a \
            rule on the parent that it cannot be removed once set",
        notes: "",
        examples: &["#[kube_marker(immutable)]"],
    },
    Entry {
        keys: &[schema("embedded_resource", Value::Flag)],
        form: "`embedded_resource`",
        marker: "`+kubebuilder:validation:EmbeddedResource`",
        emits: "`x-kubernetes-embedded-resource: true`; objects only (a `serde_json::Value` field \
            needs `schema_type = \"object\"`)",
        notes: "",
        examples: &["#[kube_marker(embedded_resource)]"],
    },
    Entry {
        keys: &[schema("int_or_string", Value::Flag)],
        form: "`int_or_string`",
        marker: "`+kubebuilder:validation:XIntOrString`",
        emits: "`x-kubernetes-int-or-string: true` with `anyOf: [integer, string]`",
        notes: "",
        examples: &["#[kube_marker(int_or_string)]"],
    },
    Entry {
        keys: &[schema("preserve_unknown_fields", Value::Flag)],
        form: "`preserve_unknown_fields`",
        marker: "`+kubebuilder:pruning:PreserveUnknownFields`",
        emits: "`x-kubernetes-preserve-unknown-fields: true`",
        notes: "",
        examples: &["#[kube_marker(preserve_unknown_fields)]"],
    },
    Entry {
        keys: &[schema("schemaless", Value::Flag)],
        form: "`schemaless`",
        marker: "`+kubebuilder:validation:Schemaless`",
        emits: "no schema below this point; the field's Rust type is not looked into; with \
            `preserve_unknown_fields` (or a `schema_type`), as a structural schema needs a type or \
            that flag",
        notes: "",
        examples: &["#[kube_marker(schemaless, preserve_unknown_fields)]"],
    },
    Entry {
        keys: &[schema("list_type", Value::Word)],
        form: "`list_type = \"atomic\" | \"set\" | \"map\"`",
        marker: "`+listType`",
        emits: "`x-kubernetes-list-type`; `set` needs scalar (or atomic) items that are not \
            `nullable`",
        notes: "",
        examples: &[r#"#[kube_marker(list_type = "set")]"#],
    },
    Entry {
        keys: &[schema("list_map_keys", Value::FieldNames)],
        form: "`list_map_keys = \"...\"`",
        marker: "`+listMapKey`",
        emits: "`x-kubernetes-list-map-keys`; needs `list_type = \"map\"`; each key named once, a \
            scalar field of the items, required or defaulted, not `nullable`",
        notes: "",
        examples: &[r#"#[kube_marker(list_type = "map", list_map_keys = "name")]"#],
    },
    Entry {
        keys: &[
            schema("map_type", Value::Word),
            schema("struct_type", Value::Word),
        ],
        form: "`map_type`, `struct_type` = `\"atomic\" | \"granular\"`",
        marker: "`+mapType`, `+structType`",
        emits: "`x-kubernetes-map-type`; objects only",
        notes: "",
        examples: &[
            r#"#[kube_marker(map_type = "atomic")]"#,
            r#"#[kube_marker(struct_type = "granular")]"#,
        ],
    },
    Entry {
        keys: &[
            schema("optional", Value::Flag).on(Goes::Property),
            schema("required", Value::Flag).on(Goes::Field),
        ],
        form: "`optional`, `required`",
        marker: "`+optional`, `+required` (`+kubebuilder:validation:Optional`, `Required`)",
        emits: "whether the field is in its parent's `required` (`required` wins, even on an \
            `Option`); `optional` on the spec struct leaves `spec` out of the root's `required` \
            (Go's `Spec T json:\"spec,omitempty\"`), and the root type's `spec` is an `Option`",
        notes: "",
        examples: &["#[kube_marker(optional)]", "#[kube_marker(required)]"],
    },
    Entry {
        keys: &[schema("nullable", Value::Flag)],
        form: "`nullable`",
        marker: "`+nullable`",
        emits: "`nullable: true`",
        notes: "",
        examples: &["#[kube_marker(nullable)]"],
    },
    Entry {
        keys: &[
            schema("default", Value::Json),
            schema("default_json", Value::JsonText),
        ],
        form: "`default = ...`, `default_json = \"...\"`",
        marker: "`+kubebuilder:default`, `+default`",
        emits: "`default`; must fit the schema; the field stays required unless it is optional (an \
            `Option`, `#[serde(default)]`, `skip_serializing_if`, or the `optional` key)",
        notes: "",
        examples: &[
            "#[kube_marker(default = 3)]",
            r##"#[kube_marker(default_json = r#"{"tier": "web"}"#)]"##,
        ],
    },
    Entry {
        keys: &[
            schema("example", Value::Json),
            schema("example_json", Value::JsonText),
        ],
        form: "`example = ...`, `example_json = \"...\"`",
        marker: "`+kubebuilder:example`",
        emits: "`example`; must fit the schema",
        notes: "",
        examples: &[
            r#"#[kube_marker(example = "web-1")]"#,
            r##"#[kube_marker(example_json = r#"["a", "b"]"#)]"##,
        ],
    },
    Entry {
        keys: &[schema("title", Value::String)],
        form: "`title = \"...\"`",
        marker: "`+kubebuilder:title`",
        emits: "`title`",
        notes: "",
        examples: &[r#"#[kube_marker(title = "Replicas")]"#],
    },
    Entry {
        keys: &[schema("description", Value::String)],
        form: "`description = \"...\"`",
        marker: "the doc comment",
        emits: "`description`, replacing the doc comment",
        notes: "",
        examples: &[r#"#[kube_marker(description = "How many pods to run.")]"#],
    },
    Entry {
        keys: &[schema("external_docs", Value::Nested)],
        form: "`external_docs(url, description)`",
        marker: "`+kubebuilder:externalDocs`",
        emits: "`externalDocs`; `url` absolute",
        notes: "",
        examples: &[
            r#"#[kube_marker(external_docs(url = "https://example.com/docs", description = "The guide"))]"#,
        ],
    },
    Entry {
        keys: &[
            schema("one_of", Value::Branch).repeatable(),
            schema("any_of", Value::Branch).repeatable(),
            schema("all_of", Value::Branch).repeatable(),
            schema("not", Value::Branch),
        ],
        form: "`one_of(...)`, `any_of(...)`, `all_of(...)`, `not(...)`",
        marker: "none (written by hand or by generators, as Gateway API's addresses)",
        emits: "`oneOf`, `anyOf`, `allOf` (one branch per key, in order), `not`; a branch holds \
            value validations only, as a structural schema requires: `required = [...]` (property \
            names), `enum_values`, `pattern`, `format`, `minimum`, `maximum`, `multiple_of`, \
            `exclusive_minimum`, `exclusive_maximum`, `min_length`, `max_length`, `min_items`, \
            `max_items`, `min_properties`, `max_properties`, the junctors again, \
            `property(name = \"...\", ...)` for a property and `items(...)` for the items, which \
            must exist outside the junctor (not `metadata`); no `description`, `default`, type, \
            `nullable`, `title` or `x_*` key. Where the type already has one (a data enum's \
            `oneOf`), the key's goes in `allOf`",
        notes: "",
        examples: &[
            r#"#[kube_marker(one_of(required = ["url"]), one_of(required = ["git"]))]"#,
            r#"#[kube_marker(any_of(required = ["cpu"]), any_of(required = ["memory"]))]"#,
            r#"#[kube_marker(one_of(property(name = "value", any_of(format = "ipv4"), any_of(format = "ipv6"))))]"#,
            r#"#[kube_marker(not(property(name = "type", enum_values = ["IPAddress"])))]"#,
            r#"#[kube_marker(all_of(min_length = 1))]"#,
        ],
    },
    Entry {
        keys: &[schema("accept_change", Value::RuleNames).on(Goes::FieldOrSpec)],
        form: "`accept_change = \"...\"`",
        marker: "(crdify has none)",
        emits: "nothing in the schema: `kubegen diff` reports a breaking change of these rules at \
            this field (or, on the spec struct, at the kind) as accepted, and does not fail; \
            remove it once the change has shipped",
        notes: "",
        examples: &[r#"#[kube_marker(accept_change = "maximum")]"#],
    },
    Entry {
        keys: &[schema("crate", Value::Path).on(Goes::Deriving)],
        form: "`crate = \"path\"`",
        marker: "(as serde's `#[serde(crate = \"...\")]`)",
        emits: "nothing in the schema: the path the derive's generated code names kubegen by \
            (default `::kubegen`), for a crate that uses kubegen through another that re-exports \
            it (`pub use kubegen;`); `#[webhook(crate = \"...\")]` is its handler's",
        notes: "",
        examples: &[r#"#[kube_marker(crate = "my_sdk::kubegen")]"#],
    },
];

/// What holds between the schema keys.
pub(super) const SCHEMA_RULES: &[&str] = &[
    "A key that does not fit the type (`min_length` on an integer), a contradiction (`maximum` \
    below `minimum`), an invalid `pattern`, a `default` outside the schema and a `list_map_keys` \
    key that is not a required scalar field are compile errors (and `gen-cli` errors), at the \
    field. What only a type behind another type shows (the fields of a list's item type) is \
    checked when `crd()` runs (`kubegen::try_crd` returns it) and always by `gen-cli`. \
    `x_validation` rules and message expressions are checked as the API server checks them (types \
    in the Kubernetes CEL environment, estimated cost against its limits, with the bounds to add: \
    see the book's \"CEL rules and what kubegen checks\") at compile time and by `crd()` with the `cel` feature, and \
    always by `gen-cli`. A rule that reads an optional field (not required, no `default`) with no \
    `has()` guard is a warning: the API server accepts the rule, then refuses every object without \
    the field (\"no such key\"); guard it (`!has(self.f) || ...`), read it as `self.?f`, or give \
    the field a `default`.",
    "When a field and its type set the same validation keyword differently, both apply (as `allOf: \
    [type's, field's]`, as controller-gen writes it); the field's documentation keys \
    (`description`, `title`, `default`, ...) replace the type's; the field's `x_validation` rules \
    come first. `list_type` and `list_map_keys` cannot differ between a field and its type.",
];
