//! Go's predeclared and Kubernetes types as Rust types with the keys that give them
//! controller-gen's schema: the mapping table of the book's
//! "Coming from Go" (`docs/book/src/guides/import-go.md`).

use kubegen_core::known::{Kubernetes, lookup};

use super::super::model::{Marker, MarkerValue, Ty};

/// A Go type's Rust form: the type, and the keys its field carries.
pub type Mapped = (Ty, Vec<Marker>);

fn key(key: &'static str, value: &str) -> Marker {
    Marker {
        key,
        value: MarkerValue::Str(value.to_string()),
    }
}

/// A predeclared Go type (`int32`, `string`, `byte`); `None` for any other name.
pub fn predeclared(name: &str) -> Option<Mapped> {
    // controller-gen gives `int32` and `int64` their format, and no other integer or float one.
    let integer = || (Ty::Path("i64"), vec![key("schema_type", "integer")]);
    Some(match name {
        "string" => (Ty::Path("String"), Vec::new()),
        "bool" => (Ty::Path("bool"), Vec::new()),
        "int32" => (Ty::Path("i32"), Vec::new()),
        "int64" => (Ty::Path("i64"), Vec::new()),
        "int" | "int8" | "int16" | "uint" | "uint8" | "uint16" | "uint32" | "uint64" | "byte" => {
            integer()
        }
        "float32" | "float64" => (Ty::Path("f64"), vec![key("schema_type", "number")]),
        _ => return None,
    })
}

/// `[]byte`: a base64 string.
pub fn bytes() -> Mapped {
    (Ty::Extern("k8s_openapi::ByteString".into()), Vec::new())
}

/// What a type of an imported package is, by the package's path; `Err` says why it has no
/// Rust form (a package neither in the input nor in k8s-openapi).
pub fn qualified(package: &str, name: &str) -> Result<Mapped, String> {
    let extern_ = |path: String| Ok((Ty::Extern(path), Vec::new()));
    if STRING_TYPES.contains(&(package, name)) {
        return Ok((Ty::Path("String"), Vec::new()));
    }
    match (package, name) {
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration") => {
            return Ok((Ty::Path("String"), Vec::new()));
        }
        ("k8s.io/apimachinery/pkg/apis/meta/v1", _) => {
            return checked(format!(
                "k8s_openapi::apimachinery::pkg::apis::meta::v1::{name}"
            ));
        }
        ("k8s.io/apimachinery/pkg/api/resource", "Quantity") => {
            return extern_("k8s_openapi::apimachinery::pkg::api::resource::Quantity".into());
        }
        ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString") => {
            return extern_("k8s_openapi::apimachinery::pkg::util::intstr::IntOrString".into());
        }
        ("k8s.io/apimachinery/pkg/runtime", "RawExtension") => {
            return extern_("k8s_openapi::apimachinery::pkg::runtime::RawExtension".into());
        }
        ("k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1", _) => {
            return checked(format!(
                "k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{name}"
            ));
        }
        // Go's doc comment of `time.Duration`, which controller-gen writes where a field has none.
        ("time", "Duration") => {
            let doc = "A Duration represents the elapsed time between two instants\nas an int64 \
                       nanosecond count. The representation limits the\nlargest representable \
                       duration to approximately 290 years.";
            return Ok((Ty::Path("i64"), vec![key("description", doc)]));
        }
        _ => {}
    }
    if let Some(rest) = package.strip_prefix("k8s.io/api/") {
        let module = rest.replace('/', "::");
        let found = checked(format!("k8s_openapi::api::{module}::{name}"));
        // A beta version k8s-openapi no longer has: its GA type, where the type is the same
        // (`batch/v1beta1.JobTemplateSpec` holds a `batch/v1.JobSpec`).
        if found.is_err()
            && let Some((group, _)) = rest.split_once('/')
            && let Ok(ga) = checked(format!("k8s_openapi::api::{group}::v1::{name}"))
        {
            return Ok(ga);
        }
        return found;
    }
    Err(format!(
        "`{package}.{name}` is from a package that is neither in the input nor in k8s-openapi"
    ))
}

/// Named string types of `k8s.io/api` and apimachinery (`type Protocol string`), which
/// k8s-openapi writes as `String`.
const STRING_TYPES: &[(&str, &str)] = &[
    ("k8s.io/api/core/v1", "ConditionStatus"),
    ("k8s.io/api/core/v1", "DNSPolicy"),
    ("k8s.io/api/core/v1", "IPFamily"),
    ("k8s.io/api/core/v1", "IPFamilyPolicy"),
    ("k8s.io/api/core/v1", "IPFamilyPolicyType"),
    ("k8s.io/api/core/v1", "MountPropagationMode"),
    ("k8s.io/api/core/v1", "NodeSelectorOperator"),
    ("k8s.io/api/core/v1", "PersistentVolumeAccessMode"),
    ("k8s.io/api/core/v1", "PersistentVolumeReclaimPolicy"),
    ("k8s.io/api/core/v1", "PreemptionPolicy"),
    ("k8s.io/api/core/v1", "Protocol"),
    ("k8s.io/api/core/v1", "PullPolicy"),
    ("k8s.io/api/core/v1", "ResourceName"),
    ("k8s.io/api/core/v1", "RestartPolicy"),
    ("k8s.io/api/core/v1", "SecretType"),
    ("k8s.io/api/core/v1", "ServiceAffinity"),
    ("k8s.io/api/core/v1", "ServiceType"),
    ("k8s.io/api/core/v1", "TaintEffect"),
    ("k8s.io/api/core/v1", "TolerationOperator"),
    ("k8s.io/api/core/v1", "URIScheme"),
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "ConditionStatus"),
    (
        "k8s.io/apimachinery/pkg/apis/meta/v1",
        "DeletionPropagation",
    ),
    (
        "k8s.io/apimachinery/pkg/apis/meta/v1",
        "LabelSelectorOperator",
    ),
];

/// A k8s-openapi path, if the engine knows its schema.
fn checked(path: String) -> Result<Mapped, String> {
    match lookup(&path, Vec::new(), &Kubernetes::compiled()) {
        Some(Ok(_)) => Ok((Ty::Extern(path), Vec::new())),
        _ => Err(format!("`{path}` is not a k8s-openapi type kubegen knows")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubernetes_types_map_to_k8s_openapi_paths() {
        let path = |p: &str, n: &str| match qualified(p, n) {
            Ok((Ty::Extern(path), _)) => path,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            path("k8s.io/api/core/v1", "ObjectReference"),
            "k8s_openapi::api::core::v1::ObjectReference"
        );
        assert_eq!(
            path("k8s.io/apimachinery/pkg/apis/meta/v1", "Condition"),
            "k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition"
        );
        assert!(qualified("k8s.io/api/core/v1", "NoSuchType").is_err());
        assert!(qualified("sigs.k8s.io/gateway-api/apis/v1", "Gateway").is_err());
        assert_eq!(
            predeclared("int").unwrap().1[0].value,
            MarkerValue::Str("integer".into())
        );
    }
}
