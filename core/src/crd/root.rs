//! The root schema of one version: `apiVersion`, `kind`, `metadata`, `spec`, `status`, as
//! controller-gen writes them.

use crate::model::{ResourceMarkers, Schema};
#[cfg(feature = "k8s")]
use crate::{
    model::ResourceDef,
    schema::{Builder, Site},
};

/// `apiVersion`'s description (apimachinery's `TypeMeta` doc, as controller-gen emits it).
const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object.\n\
Servers should convert recognized schemas to the latest internal value, and\n\
may reject unrecognized values.\n\
More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";

/// `kind`'s description (apimachinery's `TypeMeta` doc, as controller-gen emits it).
const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents.\n\
Servers may infer this from the endpoint the client submits requests to.\n\
Cannot be updated.\n\
In CamelCase.\n\
More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The `openAPIV3Schema` of one version. The spec is required unless the spec struct says
/// `optional` (then the generated root type's `spec` is an `Option`).
#[cfg(feature = "k8s")]
pub(super) fn root_schema(def: &ResourceDef, b: &mut Builder) -> Schema {
    let site = Site::new(def.markers.kind.clone(), def.markers.loc.as_ref());
    let spec = b.shape(&def.spec, &site);
    let status = def.status.as_ref().map(|status| b.shape(status, &site));
    root_around(&def.markers, spec, status)
}

/// The root schema as the derive sees it from the spec struct alone: the spec's schema, and the
/// status (when there is one) untyped, so that paths into it are checked later, through the
/// status type. The derive checks printer column, scale and selectable field paths against it.
pub fn root_of_spec(m: &ResourceMarkers, spec: Schema) -> Schema {
    root_around(m, spec, m.status.as_ref().map(|_| Schema::default()))
}

/// The root schema of a version whose spec and status have these schemas.
fn root_around(m: &ResourceMarkers, spec: Schema, status: Option<Schema>) -> Schema {
    let mut root = Schema {
        description: m.doc.clone(),
        required: if m.spec_optional {
            Vec::new()
        } else {
            vec!["spec".to_string()]
        },
        ..Schema::typed("object")
    };
    let text = |doc: &str| Schema {
        description: Some(doc.to_string()),
        ..Schema::typed("string")
    };
    root.properties
        .insert("apiVersion".into(), text(API_VERSION_DOC));
    root.properties.insert("kind".into(), text(KIND_DOC));
    root.properties
        .insert("metadata".into(), Schema::typed("object"));
    root.properties.insert("spec".into(), spec);
    if let Some(status) = status {
        root.properties.insert("status".into(), status);
    }
    root
}
