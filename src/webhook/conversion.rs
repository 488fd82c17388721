//! Conversion through a hub version, over kube's `ConversionReview`.

use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};

use kube::Resource;
use kube::core::Status;
use kube::core::conversion::{ConversionRequest, ConversionResponse, ConversionReview};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::admission::{Reply, panic_message};
use crate::CustomResource;

/// How one version reaches the hub and back.
struct Version<H> {
    api_version: String,
    conversion: Option<kubegen_core::model::Conversion>,
    to_hub: fn(Value) -> Result<H, String>,
    from_hub: fn(H) -> Result<Value, String>,
}

/// The conversion webhook of one kind: every version converts to the hub `H` (a version type
/// you choose, usually the storage version) and from it, with `From`/`TryFrom` (`TryFrom`
/// errors are `Display`ed in the failed review). The API server asks for any pair; kubegen
/// goes through the hub.
///
/// The converted object keeps the original's `metadata` (the API server allows no other
/// change), and its `apiVersion` is the one asked for.
pub struct Conversion<H> {
    versions: Vec<Version<H>>,
}

impl<H> Conversion<H>
where
    H: CustomResource + Resource<DynamicType = ()> + DeserializeOwned + Serialize + 'static,
{
    /// A conversion through `H`, which converts to itself.
    pub fn through() -> Self {
        Conversion {
            versions: vec![Version {
                api_version: H::api_version(&()).into_owned(),
                conversion: H::resource().markers.conversion,
                to_hub: |v| read::<H>(v),
                from_hub: |h| write(&h),
            }],
        }
    }

    /// Adds the version `V`, converted with `H: TryFrom<V>` and `V: TryFrom<H>` (a `From`
    /// implementation gives both).
    #[must_use]
    pub fn version<V>(mut self) -> Self
    where
        V: CustomResource + Resource<DynamicType = ()> + DeserializeOwned + Serialize,
        H: TryFrom<V>,
        <H as TryFrom<V>>::Error: Display,
        V: TryFrom<H>,
        <V as TryFrom<H>>::Error: Display,
    {
        self.versions.push(Version {
            api_version: V::api_version(&()).into_owned(),
            conversion: V::resource().markers.conversion,
            to_hub: |v| H::try_from(read::<V>(v)?).map_err(|e| e.to_string()),
            from_hub: |h| write(&V::try_from(h).map_err(|e| e.to_string())?),
        });
        self
    }

    /// The path the API server calls: the one of the `conversion(webhook(...))` key on any of
    /// the versions (its `path`, the path of its `url`, else `/convert`), as in the CRD.
    pub fn path(&self) -> String {
        let conversion = self.versions.iter().find_map(|v| v.conversion.as_ref());
        let Some(conversion) = conversion else {
            return kubegen_core::model::Conversion::DEFAULT_PATH.into();
        };
        if let Some(path) = &conversion.path {
            return path.clone();
        }
        match &conversion.url {
            Some(url) => super::server::url_path(url),
            None => kubegen_core::model::Conversion::DEFAULT_PATH.into(),
        }
    }

    fn find(&self, api_version: &str) -> Result<&Version<H>, String> {
        self.versions
            .iter()
            .find(|v| v.api_version == api_version)
            .ok_or_else(|| {
                let known: Vec<_> = self
                    .versions
                    .iter()
                    .map(|v| v.api_version.as_str())
                    .collect();
                format!(
                    "{} has no version {api_version} (it converts {})",
                    H::kind(&()),
                    known.join(", ")
                )
            })
    }

    /// One object converted to `desired`.
    fn convert(&self, object: Value, desired: &Version<H>) -> Result<Value, String> {
        let api_version = object
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        let kind = object.get("kind").and_then(Value::as_str).unwrap_or("");
        if kind != H::kind(&()) {
            return Err(format!(
                "this webhook converts {}, not `{kind}`",
                H::kind(&())
            ));
        }
        let from = self.find(api_version)?;
        let metadata = object.get("metadata").cloned();
        let hub = (from.to_hub)(object)?;
        let mut converted = (desired.from_hub)(hub)?;
        let Some(fields) = converted.as_object_mut() else {
            return Err("the converted object is not a JSON object".into());
        };
        fields.insert("apiVersion".into(), desired.api_version.clone().into());
        fields.insert("kind".into(), H::kind(&()).into_owned().into());
        if let Some(metadata) = metadata {
            fields.insert("metadata".into(), metadata);
        }
        Ok(converted)
    }

    /// Answers a `ConversionReview` body.
    pub(super) fn review(&self, body: &[u8]) -> Reply {
        let review: ConversionReview = match serde_json::from_slice(body) {
            Ok(review) => review,
            Err(e) => return Reply::BadRequest(format!("not a ConversionReview: {e}")),
        };
        let request = match ConversionRequest::try_from(review) {
            Ok(request) => request,
            Err(e) => return Reply::BadRequest(e.to_string()),
        };
        let objects = request.objects.clone();
        let desired = request.desired_api_version.clone();
        let response = ConversionResponse::for_request(request);
        let converted = catch_unwind(AssertUnwindSafe(|| {
            let desired = self.find(&desired)?;
            objects
                .into_iter()
                .map(|o| self.convert(o, desired))
                .collect::<Result<Vec<_>, _>>()
        }))
        .unwrap_or_else(|payload| {
            Err(format!(
                "the conversion failed: {}",
                panic_message(&*payload)
            ))
        });
        let response = match converted {
            Ok(objects) => response.success(objects),
            Err(message) => response.failure(Status::failure(&message, "ConversionFailed")),
        };
        Reply::Review(serde_json::to_vec(&response.into_review()).expect("a review serializes"))
    }
}

/// `value` as a `K`.
fn read<K: Resource<DynamicType = ()> + DeserializeOwned>(value: Value) -> Result<K, String> {
    serde_json::from_value(value).map_err(|e| format!("not a valid {}: {e}", K::api_version(&())))
}

/// `object` as JSON.
fn write<K: Serialize>(object: &K) -> Result<Value, String> {
    serde_json::to_value(object).map_err(|e| e.to_string())
}
