//! The root schema of one version: `apiVersion`, `kind`, `metadata`, `spec`, `status`, as
//! controller-gen writes them.

use crate::model::{ResourceDef, Schema};
use crate::schema::{Builder, Site};

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
pub(super) fn root_schema(def: &ResourceDef, b: &mut Builder) -> Schema {
    let m = &def.markers;
    let site = Site::new(m.kind.clone(), m.loc.as_ref());
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
    root.properties
        .insert("spec".into(), b.shape(&def.spec, &site));
    if let Some(status) = &def.status {
        root.properties
            .insert("status".into(), b.shape(status, &site));
    }
    root
}
