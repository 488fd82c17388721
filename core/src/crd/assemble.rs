//! The CustomResourceDefinition object (k8s-openapi types) for one kind.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as ext;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::versions::{self, Merged};
use super::{descriptions, object_meta, root::root_schema};
use crate::check::cel;
use crate::check::paths;
use crate::known::Kubernetes;
use crate::model::{Conversion, Error, Errors, ResourceDef, Schema, Warning};
use crate::schema::Builder;

/// The annotation naming the generator and its version, set on every CRD.
pub const VERSION_ANNOTATION: &str = "kubegen.io/version";

/// Options of the CRD generator.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// controller-gen's `maxDescLen`: shorten descriptions to this many bytes (0 removes them).
    pub max_desc_len: Option<usize>,
    /// controller-gen's default (no `crd:generateEmbeddedObjectMeta`): an `ObjectMeta` below
    /// the root is `{type: object}` instead of its embedded form.
    pub plain_object_meta: bool,
    /// The Kubernetes version k8s-openapi types are built for (by default the compiled one).
    pub kubernetes: Kubernetes,
}

/// A CRD, and what its types are warned about (see [`crate::schema::defaults`]).
#[derive(Clone, Debug)]
pub struct Built {
    /// The CRD.
    pub crd: ext::CustomResourceDefinition,
    /// Problems that do not stop generation, each at its type or field.
    pub warnings: Vec<Warning>,
}

/// The `openAPIV3Schema` of one version alone, as [`build`] makes it (to admit its objects).
pub fn version_schema(def: &ResourceDef, options: &Options) -> Result<Schema, Errors> {
    let mut builder = Builder::for_kubernetes(options.kubernetes.clone());
    let schema = version_root(def, &mut builder, options);
    builder.finish().map(|_| schema)
}

/// The root schema of one version, with the options that shape it.
fn version_root(def: &ResourceDef, builder: &mut Builder, options: &Options) -> Schema {
    let mut schema = root_schema(def, builder);
    if options.plain_object_meta {
        object_meta::plain(&mut schema);
    }
    schema
}

/// The CRD for the versions of one kind (one entry per spec struct).
pub fn build(defs: &[ResourceDef], options: &Options) -> Result<Built, Errors> {
    let merged = versions::merge(defs)?;
    let mut errors = Errors::default();
    let mut builder = Builder::for_kubernetes(options.kubernetes.clone());
    let mut versions = Vec::new();
    let mut cel_warnings = Vec::new();
    for (def, storage) in &merged.versions {
        let mut schema = version_root(def, &mut builder, options);
        if let Err(e) = paths::check(def, &schema, paths::View::Whole) {
            errors.0.extend(e.0);
        }
        let context = format!("{} {}", def.markers.kind, def.markers.version);
        let scope = cel::Scope {
            resource: true,
            lenient: false,
        };
        let report = cel::check(&schema, scope);
        for problem in report.errors {
            // At the rule (the total: at the rules that contribute), with the kind's context.
            let loc = problem.place(problem.loc.as_ref());
            let error = Error::new(
                loc.as_ref().or(def.markers.loc.as_ref()),
                &context,
                problem.to_string(),
            );
            errors.push(problem.annotate(error));
        }
        for problem in report.warnings {
            // A rule's read of an optional field is about the rule: said once, at the rule,
            // for every kind and version whose schema has it.
            let warning = match (problem.class, &problem.loc) {
                (cel::Class::NoSuchKey, Some(loc)) => {
                    Warning::warning(Some(loc), "", problem.message)
                }
                _ => Warning::warning(def.markers.loc.as_ref(), &context, problem.to_string()),
            };
            cel_warnings.push(warning);
        }
        for problem in crate::check::structural::violations(&schema) {
            errors.push(Error::new(
                def.markers.loc.as_ref(),
                format!("{} {}", def.markers.kind, def.markers.version),
                format!("the schema is not structural, the apiserver would reject it: {problem}"),
            ));
        }
        if let Some(max) = options.max_desc_len {
            descriptions::truncate(&mut schema, max);
        }
        versions.push(version(def, *storage, schema));
    }
    let mut warnings = builder.finish().unwrap_or_else(|e| {
        errors.0.extend(e.0);
        Vec::new()
    });
    warnings.extend(cel_warnings);
    errors.into_result(Built {
        crd: crd(&merged, versions),
        warnings,
    })
}

/// [`build`], then the [size guard](super::size) on the CRD as written: every check
/// `kubegen manifests` makes of one kind. Returns the CRD's JSON form with it.
pub fn checked(
    defs: &[ResourceDef],
    options: &Options,
) -> Result<(Built, serde_json::Value), Errors> {
    let mut built = build(defs, options)?;
    let value = serde_json::to_value(&built.crd).expect("a CRD serializes to JSON");
    let loc = defs.first().and_then(|d| d.markers.loc.as_ref());
    if let Some(warning) = super::size::check(&value, loc, &built.crd.spec.names.kind)? {
        built.warnings.push(warning);
    }
    Ok((built, value))
}

fn crd(
    m: &Merged,
    versions: Vec<ext::CustomResourceDefinitionVersion>,
) -> ext::CustomResourceDefinition {
    let mut annotations: BTreeMap<String, String> =
        m.annotations.iter().flatten().cloned().collect();
    annotations.insert(VERSION_ANNOTATION.into(), env!("CARGO_PKG_VERSION").into());
    let labels: BTreeMap<String, String> = m.labels.iter().flatten().cloned().collect();
    ext::CustomResourceDefinition {
        metadata: ObjectMeta {
            name: Some(format!("{}.{}", m.plural, m.group)),
            annotations: Some(annotations),
            labels: (!labels.is_empty()).then_some(labels),
            ..ObjectMeta::default()
        },
        spec: ext::CustomResourceDefinitionSpec {
            group: m.group.clone(),
            names: ext::CustomResourceDefinitionNames {
                kind: m.kind.clone(),
                list_kind: Some(format!("{}List", m.kind)),
                plural: m.plural.clone(),
                singular: Some(m.singular.clone()),
                short_names: m.short_names.clone().filter(|v| !v.is_empty()),
                categories: m.categories.clone().filter(|v| !v.is_empty()),
            },
            scope: m.scope.as_str().to_string(),
            versions,
            conversion: m.conversion.as_ref().map(conversion),
            ..ext::CustomResourceDefinitionSpec::default()
        },
        status: None,
    }
}

/// `spec.conversion` for a conversion webhook: the service (path default `/convert`) or the URL.
fn conversion(c: &Conversion) -> ext::CustomResourceConversion {
    let service = c.url.is_none().then(|| ext::ServiceReference {
        name: c
            .service_name
            .clone()
            .unwrap_or(crate::webhook::DEFAULT_SERVICE.into()),
        namespace: c
            .service_namespace
            .clone()
            .unwrap_or(crate::webhook::DEFAULT_NAMESPACE.into()),
        path: Some(c.path.clone().unwrap_or(Conversion::DEFAULT_PATH.into())),
        port: c.service_port,
    });
    ext::CustomResourceConversion {
        strategy: "Webhook".into(),
        webhook: Some(ext::WebhookConversion {
            client_config: Some(ext::WebhookClientConfig {
                service,
                url: c.url.clone(),
                ca_bundle: None,
            }),
            conversion_review_versions: c.review_versions.clone(),
        }),
    }
}

fn version(
    def: &ResourceDef,
    storage: bool,
    schema: Schema,
) -> ext::CustomResourceDefinitionVersion {
    let m = &def.markers;
    let columns: Vec<ext::CustomResourceColumnDefinition> = m
        .printcolumns
        .iter()
        .map(|c| ext::CustomResourceColumnDefinition {
            name: c.name.clone(),
            type_: paths::column_type(&schema, c),
            json_path: c.json_path.clone(),
            description: c.description.clone(),
            format: c.format.clone(),
            priority: c.priority.filter(|p| *p != 0),
        })
        .collect();
    let subresources = ext::CustomResourceSubresources {
        status: m
            .has_status_subresource()
            .then(|| ext::CustomResourceSubresourceStatus(serde_json::json!({}))),
        scale: m
            .scale
            .as_ref()
            .map(|s| ext::CustomResourceSubresourceScale {
                spec_replicas_path: s.spec_path.clone(),
                status_replicas_path: s.status_path.clone(),
                label_selector_path: s.selector_path.clone(),
            }),
    };
    let has_subresources = subresources.status.is_some() || subresources.scale.is_some();
    ext::CustomResourceDefinitionVersion {
        name: m.version.clone(),
        served: m.served.unwrap_or(true),
        storage,
        deprecated: m.deprecated.as_ref().map(|_| true),
        deprecation_warning: m.deprecated.as_ref().and_then(|d| d.warning.clone()),
        schema: Some(ext::CustomResourceValidation {
            open_api_v3_schema: Some(to_props(&schema)),
        }),
        subresources: has_subresources.then_some(subresources),
        additional_printer_columns: (!columns.is_empty()).then_some(columns),
        selectable_fields: (!m.selectable_fields.is_empty()).then(|| {
            m.selectable_fields
                .iter()
                .map(|f| ext::SelectableField {
                    json_path: f.json_path.clone(),
                })
                .collect()
        }),
    }
}

/// Our schema as apiextensions' `JSONSchemaProps` (same JSON names, so through JSON).
pub fn to_props(schema: &Schema) -> ext::JSONSchemaProps {
    serde_json::to_value(schema)
        .and_then(serde_json::from_value)
        .expect("Schema and JSONSchemaProps share their JSON form")
}
