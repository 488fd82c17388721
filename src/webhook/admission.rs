//! Typed admission handlers over kube's `AdmissionReview`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use kube::Resource;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Denied;

/// What a webhook answers: a review (HTTP 200) or a malformed request (HTTP 400).
#[derive(Debug)]
pub(super) enum Reply {
    /// A JSON review.
    Review(Vec<u8>),
    /// Not a review: the reason.
    BadRequest(String),
}

impl Reply {
    /// The review of `response`, its patch in base64 as Kubernetes writes `[]byte` (kube
    /// writes a list of numbers).
    fn admission(response: AdmissionResponse) -> Self {
        use base64::Engine as _;
        let patch = response.patch.clone();
        let mut review = serde_json::to_value(response.into_review()).expect("a review serializes");
        if let Some(patch) = patch {
            let encoded = base64::engine::general_purpose::STANDARD.encode(patch);
            review["response"]["patch"] = Value::String(encoded);
        }
        Reply::Review(serde_json::to_vec(&review).expect("a review serializes"))
    }
}

/// The message of a panic's payload.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// The request of an `AdmissionReview` body.
fn request(body: &[u8]) -> Result<AdmissionRequest<DynamicObject>, Reply> {
    let review: AdmissionReview<DynamicObject> = serde_json::from_slice(body)
        .map_err(|e| Reply::BadRequest(format!("not an AdmissionReview: {e}")))?;
    review
        .try_into()
        .map_err(|_| Reply::BadRequest("the AdmissionReview has no request".into()))
}

/// `object` as a `K`, or why not.
fn typed<K: Resource<DynamicType = ()> + DeserializeOwned>(object: &Value) -> Result<K, String> {
    serde_json::from_value(object.clone())
        .map_err(|e| format!("the object is not a valid {}: {e}", K::kind(&())))
}

/// Checks that the request is about `K`; the denial otherwise.
fn check_kind<K: Resource<DynamicType = ()>>(
    req: &AdmissionRequest<DynamicObject>,
) -> Result<(), String> {
    let k = &req.kind;
    let (group, version, kind) = (K::group(&()), K::version(&()), K::kind(&()));
    if k.group == group && k.version == version && k.kind == kind {
        return Ok(());
    }
    Err(format!(
        "this webhook admits {kind} of {}, not {} of {}",
        K::api_version(&()),
        k.kind,
        kubegen_core::names::api_version(&k.group, &k.version)
    ))
}

/// The request's object and old object as JSON.
fn objects(req: &AdmissionRequest<DynamicObject>) -> (Option<Value>, Option<Value>) {
    let json = |o: &Option<DynamicObject>| {
        o.as_ref()
            .map(|o| serde_json::to_value(o).expect("an object serializes"))
    };
    (json(&req.object), json(&req.old_object))
}

/// A denial of `req` with `message` and `code`.
fn deny(req: &AdmissionRequest<DynamicObject>, message: String, code: u16) -> Reply {
    let mut response = AdmissionResponse::from(req).deny(message);
    response.result.code = code;
    Reply::admission(response)
}

/// Runs a validating handler on a review body. Requests without an object (`DELETE`) are
/// allowed.
pub(super) fn validate<K, F>(body: &[u8], handler: &F) -> Reply
where
    K: Resource<DynamicType = ()> + DeserializeOwned,
    F: Fn(&K, Option<&K>) -> Result<(), Denied>,
{
    let req = match request(body) {
        Ok(req) => req,
        Err(reply) => return reply,
    };
    if let Err(message) = check_kind::<K>(&req) {
        return deny(&req, message, 400);
    }
    let (object, old) = objects(&req);
    let Some(object) = object else {
        return Reply::admission(AdmissionResponse::from(&req));
    };
    let read = typed::<K>(&object).and_then(|new| {
        let old = old.as_ref().map(typed::<K>).transpose()?;
        Ok((new, old))
    });
    let (new, old) = match read {
        Ok(objects) => objects,
        Err(message) => return deny(&req, message, 400),
    };
    match catch_unwind(AssertUnwindSafe(|| handler(&new, old.as_ref()))) {
        Ok(Ok(())) => Reply::admission(AdmissionResponse::from(&req)),
        Ok(Err(denied)) => deny(&req, denied.message, denied.code),
        Err(payload) => {
            let message = format!("the webhook failed: {}", panic_message(&*payload));
            deny(&req, message, 500)
        }
    }
}

/// Runs a defaulting handler on a review body: the response patches the object into what the
/// handler made of it. Requests without an object are allowed unchanged.
pub(super) fn mutate<K, F>(body: &[u8], handler: &F) -> Reply
where
    K: Resource<DynamicType = ()> + DeserializeOwned + Serialize,
    F: Fn(&mut K),
{
    let req = match request(body) {
        Ok(req) => req,
        Err(reply) => return reply,
    };
    if let Err(message) = check_kind::<K>(&req) {
        return deny(&req, message, 400);
    }
    let (Some(original), _) = objects(&req) else {
        return Reply::admission(AdmissionResponse::from(&req));
    };
    let mut object = match typed::<K>(&original) {
        Ok(object) => object,
        Err(message) => return deny(&req, message, 400),
    };
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| handler(&mut object))) {
        let message = format!("the webhook failed: {}", panic_message(&*payload));
        return deny(&req, message, 500);
    }
    let mutated = match serde_json::to_value(&object) {
        Ok(mutated) => mutated,
        Err(e) => return deny(&req, format!("the defaulted object: {e}"), 500),
    };
    let patch = super::patch::diff(&original, &mutated);
    let response = AdmissionResponse::from(&req);
    if patch.0.is_empty() {
        return Reply::admission(response);
    }
    match response.with_patch(patch) {
        Ok(response) => Reply::admission(response),
        Err(e) => deny(&req, e.to_string(), 500),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::core::v1::ConfigMap;
    use serde_json::json;

    fn review(kind: &str, object: Value, old: Value) -> Vec<u8> {
        let review = json!({
            "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {
                "uid": "u", "operation": "UPDATE", "userInfo": {},
                "kind": {"group": "", "version": "v1", "kind": kind},
                "resource": {"group": "", "version": "v1", "resource": "configmaps"},
                "object": object, "oldObject": old
            }
        });
        serde_json::to_vec(&review).unwrap()
    }

    fn config_map(data: Value) -> Value {
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": data})
    }

    fn response(reply: Reply) -> Value {
        match reply {
            Reply::Review(bytes) => {
                serde_json::from_slice::<Value>(&bytes).unwrap()["response"].clone()
            }
            Reply::BadRequest(message) => panic!("bad request: {message}"),
        }
    }

    fn check(new: &ConfigMap, old: Option<&ConfigMap>) -> Result<(), Denied> {
        let value = |c: &ConfigMap| c.data.as_ref().and_then(|d| d.get("k").cloned());
        match (value(new).as_deref(), old.map(value)) {
            (Some("panic"), _) => panic!("{}", "handler bug"),
            (Some("bad"), _) => Err(Denied::new("k must not be bad").with_code(422)),
            (_, Some(None)) => Err("the old object had no k".into()),
            _ => Ok(()),
        }
    }

    #[test]
    fn denials_carry_the_handlers_message_and_code() {
        let old = config_map(json!({"k": "a"}));
        let ok = response(validate(
            &review("ConfigMap", config_map(json!({"k": "b"})), old.clone()),
            &check,
        ));
        assert_eq!(
            (ok["allowed"].clone(), ok["uid"].clone()),
            (json!(true), json!("u"))
        );

        let denied = response(validate(
            &review("ConfigMap", config_map(json!({"k": "bad"})), old.clone()),
            &check,
        ));
        assert_eq!(denied["allowed"], false);
        assert_eq!(denied["status"]["message"], "k must not be bad");
        assert_eq!(denied["status"]["code"], 422);

        let denied = response(validate(
            &review("ConfigMap", config_map(json!({})), config_map(json!({}))),
            &check,
        ));
        assert_eq!(denied["status"]["message"], "the old object had no k");
        assert_eq!(denied["status"]["code"], 403);
    }

    #[test]
    fn panics_wrong_kinds_and_unreadable_objects_are_denials() {
        let old = config_map(json!({}));
        let panicked = response(validate(
            &review("ConfigMap", config_map(json!({"k": "panic"})), old.clone()),
            &check,
        ));
        assert_eq!(panicked["status"]["code"], 500);
        assert_eq!(
            panicked["status"]["message"],
            "the webhook failed: handler bug"
        );

        let other = response(validate(
            &review("Secret", config_map(json!({})), old.clone()),
            &check,
        ));
        assert_eq!(other["allowed"], false);
        assert_eq!(
            other["status"]["message"],
            "this webhook admits ConfigMap of v1, not Secret of v1"
        );

        let unreadable = response(validate(
            &review("ConfigMap", config_map(json!(["x"])), old),
            &check,
        ));
        assert_eq!(unreadable["allowed"], false);
        assert!(
            unreadable["status"]["message"]
                .as_str()
                .unwrap()
                .starts_with("the object is not a valid ConfigMap")
        );
    }

    #[test]
    fn malformed_bodies_are_bad_requests() {
        for body in [
            &b"{"[..],
            b"[]",
            br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}"#,
        ] {
            assert!(matches!(validate(body, &check), Reply::BadRequest(_)));
            assert!(matches!(
                mutate::<ConfigMap, _>(body, &|_| {}),
                Reply::BadRequest(_)
            ));
        }
    }

    #[test]
    fn defaulting_answers_the_patch_in_base64() {
        use base64::Engine as _;
        let original = config_map(json!({"k": "a"}));
        let reply = mutate(
            &review("ConfigMap", original.clone(), Value::Null),
            &|c: &mut ConfigMap| {
                c.data
                    .get_or_insert_default()
                    .insert("added".into(), "1".into());
            },
        );
        let response = response(reply);
        assert_eq!(response["patchType"], "JSONPatch");
        let patch = base64::engine::general_purpose::STANDARD
            .decode(response["patch"].as_str().unwrap())
            .unwrap();
        let patch: json_patch::Patch = serde_json::from_slice(&patch).unwrap();
        let mut patched = original;
        json_patch::patch(&mut patched, &patch).unwrap();
        assert_eq!(patched["data"], json!({"k": "a", "added": "1"}));
    }
}
