//! Records a real kube-apiserver's verdict on every case of the CEL corpus
//! (`core/tests/cel/corpus.yaml`) or of the CRD validation corpus (`core/tests/crd/variants.json`,
//! whose cases are whole CRDs): each case becomes a CRD created with `dryRun=All` (nothing is
//! persisted), and the answer (accepted, or rejected with each cause's message normalized to a
//! class) is written to the verdicts file. Cases with `objects` (`core/tests/cel/runtime.yaml`)
//! are judged at run time instead: the CRD is created for real, each object is created with
//! `dryRun=All`, the server's answer on each is recorded, and the CRD is deleted.
//!
//! ```text
//! KUBECONFIG=/path/to/kubeconfig KUBEGEN_CEL_SERVER_NOTE="kube-apiserver 1.36 (...)" \
//!     cargo run -p cel-record -- [corpus.yaml] [verdicts.json]
//! KUBECONFIG=/path/to/kubeconfig KUBEGEN_CEL_SERVER_NOTE="kube-apiserver 1.36 (...)" \
//!     cargo run -p cel-record -- core/tests/crd/variants.json core/tests/crd/verdicts.json
//! KUBECONFIG=/path/to/kubeconfig KUBEGEN_CEL_SERVER_NOTE="kube-apiserver 1.36 (...)" \
//!     cargo run -p cel-record -- core/tests/cel/runtime.yaml core/tests/cel/runtime-verdicts.json
//! ```
//!
//! `KUBEGEN_CEL_SERVER_NOTE` says which server it was, for builds whose `/version` is blank.

use std::error::Error;
use std::{env, fs};

use serde_json::{Map, Value, json};

/// Run from the workspace root; the paths are relative to it.
const CORPUS: &str = "core/tests/cel/corpus.yaml";
const VERDICTS: &str = "core/tests/cel/verdicts.json";
const GROUP: &str = "cel.kubegen.test";
/// The group of the run-time cases' CRDs, which are created for real (and deleted after).
const RUNTIME_GROUP: &str = "runtime.cel.kubegen.test";
/// The group of the admission cases' CRDs (created for real, deleted after).
const ADMIT_GROUP: &str = "admit.kubegen.test";

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = env::args().skip(1).collect();
    let corpus_path = args.first().map_or(CORPUS, String::as_str);
    let out_path = args.get(1).map_or(VERDICTS, String::as_str);
    let corpus: Value = serde_saphyr::from_str(&fs::read_to_string(corpus_path)?)?;
    let cases = corpus["cases"]
        .as_array()
        .ok_or("the corpus has no `cases` list")?;

    // A local etcd and kube-apiserver (`kubegen::testing`) when their binaries are given and
    // no cluster is; it stops when the recording ends.
    let local =
        if env::var_os("KUBECONFIG").is_none() && env::var_os("KUBEBUILDER_ASSETS").is_some() {
            Some(kubegen::testing::ControlPlane::start().await?)
        } else {
            None
        };
    let client = match &local {
        Some(cp) => cp.client(),
        None => kube::Client::try_default().await?,
    };
    let version = client.apiserver_version().await?;
    let mut verdicts = Map::new();
    for (index, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().ok_or("a case without a `name`")?;
        if case.get("admission").is_some() {
            // A case the server cannot take (its CRD refused) is reported and left without
            // verdicts, which the corpus test refuses.
            let verdict = match admission(&client, index, case).await {
                Ok(verdict) => verdict,
                Err(e) => {
                    eprintln!("{index:3} {name}: not recorded: {e}");
                    continue;
                }
            };
            eprintln!(
                "{index:3} {name}: {} objects",
                verdict.as_object().map_or(0, Map::len)
            );
            verdicts.insert(name.to_string(), verdict);
            continue;
        }
        if case.get("objects").is_some() {
            let verdict = objects(&client, index, case).await?;
            eprintln!("{index:3} {name}: {verdict}");
            verdicts.insert(name.to_string(), verdict);
            continue;
        }
        // A CRD corpus case is the whole CRD; a CEL case is a schema and rules.
        let crd = match case.get("crd") {
            Some(crd) => crd.clone(),
            None => crd(index, case, GROUP)?,
        };
        let request = http::Request::post(
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All&fieldManager=cel-record",
        )
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(kube::client::Body::from(serde_json::to_vec(&crd)?))?;
        // A request the server fails to answer (it panicked on it) is recorded, not fatal.
        let response = match client.send(request).await {
            Ok(response) => response,
            Err(e) => {
                let verdict = json!({"verdict": "error", "error": e.to_string()});
                eprintln!("{index:3} {name}: no answer: {e}");
                verdicts.insert(name.to_string(), verdict);
                continue;
            }
        };
        let status = response.status();
        let warnings: Vec<String> = response
            .headers()
            .get_all("warning")
            .iter()
            .filter_map(|w| w.to_str().ok().map(str::to_string))
            .collect();
        let body: Value = serde_json::from_slice(&response.into_body().collect_bytes().await?)?;
        let verdict = if status.is_success() {
            json!({"verdict": "accepted", "warnings": warnings})
        } else {
            rejected(status.as_u16(), &body, warnings)
        };
        eprintln!("{index:3} {name}: {}", summary(&verdict));
        if verdicts.insert(name.to_string(), verdict).is_some() {
            return Err(format!("two cases are named `{name}`").into());
        }
    }

    let note = env::var("KUBEGEN_CEL_SERVER_NOTE").unwrap_or_default();
    let command = format!(
        "KUBECONFIG=<kubeconfig> KUBEGEN_CEL_SERVER_NOTE={note:?} \
         cargo run -p cel-record -- {corpus_path} {out_path}"
    );
    let file = json!({
        "server": {
            "major": version.major,
            "minor": version.minor,
            "gitVersion": version.git_version,
            "platform": version.platform,
            "note": note,
        },
        "recorded": today(),
        "command": command,
        "verdicts": verdicts,
    });
    fs::write(out_path, serde_json::to_string_pretty(&file)? + "\n")?;
    eprintln!("wrote {} verdicts to {out_path}", cases.len());
    Ok(())
}

/// What the server says of each object of a run-time case: the case's CRD is created (after
/// deleting one left by an earlier run), and once it is served each object is created with
/// `dryRun=All`; the CRD is deleted after.
async fn objects(
    client: &kube::Client,
    index: usize,
    case: &Value,
) -> Result<Value, Box<dyn Error>> {
    let (crd, name) = install(client, crd(index, case, RUNTIME_GROUP)?).await?;
    let plural = crd["spec"]["names"]["plural"].as_str().unwrap_or_default();
    let kind = crd["spec"]["names"]["kind"].clone();
    let objects_uri = format!(
        "/apis/{RUNTIME_GROUP}/v1/namespaces/default/{plural}?dryRun=All&fieldManager=cel-record"
    );
    let mut verdicts = Map::new();
    for (object, spec) in case["objects"].as_object().into_iter().flatten() {
        let body = json!({
            "apiVersion": format!("{RUNTIME_GROUP}/v1"),
            "kind": kind,
            "metadata": {"name": object},
            "spec": spec,
        });
        let (status, answer_body, _) =
            served(client, http::Method::POST, &objects_uri, &body).await?;
        let verdict = if status.is_success() {
            json!({"verdict": "accepted"})
        } else {
            json!({
                "verdict": object_class(answer_body["message"].as_str().unwrap_or_default()),
                "code": status.as_u16(),
                "message": answer_body["message"],
            })
        };
        verdicts.insert(object.clone(), verdict);
    }
    remove(client, &name).await?;
    Ok(Value::Object(verdicts))
}

/// What the server says of each object of an admission case (`core/tests/admit/corpus.yaml`):
/// the case's CRD is created for real, each object created with `dryRun=All`, or, with an
/// `old` object, `old` created and the object written over it with `dryRun=All` (then `old`
/// deleted). A case with an `old_schema` (ratcheting) is created with that schema first, every
/// `old` object created under it, and the CRD then changed to the case's schema before the
/// updates. Recorded: the HTTP status, every cause (field, message, type), the warnings, and
/// the `spec` the server would store.
async fn admission(
    client: &kube::Client,
    index: usize,
    case: &Value,
) -> Result<Value, Box<dyn Error>> {
    let old_schema = case.get("old_schema");
    let mut first = case.clone();
    if let Some(schema) = old_schema {
        first["schema"] = schema.clone();
    }
    let strict = crd(index, case, ADMIT_GROUP)?;
    let (crd, name) = install(client, crd(index, &first, ADMIT_GROUP)?).await?;
    let plural = crd["spec"]["names"]["plural"].as_str().unwrap_or_default();
    let collection = format!("/apis/{ADMIT_GROUP}/v1/namespaces/default/{plural}");
    let dry = "dryRun=All&fieldManager=cel-record";
    let body = |object: &str, spec: &Value| {
        json!({
            "apiVersion": format!("{ADMIT_GROUP}/v1"),
            "kind": crd["spec"]["names"]["kind"],
            "metadata": {"name": object},
            "spec": spec,
        })
    };
    let entries = case["admission"].as_object().cloned().unwrap_or_default();
    // Ratcheting: the old objects, created under the old schema, by key.
    let mut stored = Map::new();
    if old_schema.is_some() {
        for (key, entry) in &entries {
            if let Some(old) = entry.get("old") {
                let object = entry["name"].as_str().unwrap_or(key);
                let created = create(client, &collection, &body(object, old)).await?;
                stored.insert(key.clone(), created["metadata"]["resourceVersion"].clone());
            }
        }
        switch(client, &name, strict).await?;
    }
    let mut verdicts = Map::new();
    for (key, entry) in &entries {
        let object = entry["name"].as_str().unwrap_or(key);
        let body = |spec: &Value| body(object, spec);
        let (status, answer_body, warnings) = match entry.get("old") {
            Some(_) if stored.contains_key(key) => {
                let mut new = body(&entry["spec"]);
                new["metadata"]["resourceVersion"] = stored[key].clone();
                let uri = format!("{collection}/{object}?{dry}");
                served(client, http::Method::PUT, &uri, &new).await?
            }
            None => {
                served(
                    client,
                    http::Method::POST,
                    &format!("{collection}?{dry}"),
                    &body(&entry["spec"]),
                )
                .await?
            }
            Some(old) => {
                let created = create(client, &collection, &body(old)).await?;
                let mut new = body(&entry["spec"]);
                new["metadata"]["resourceVersion"] = created["metadata"]["resourceVersion"].clone();
                let uri = format!("{collection}/{object}");
                let answer =
                    served(client, http::Method::PUT, &format!("{uri}?{dry}"), &new).await?;
                send_json(client, http::Method::DELETE, &uri, None).await?;
                gone(client, &uri).await?;
                answer
            }
        };
        let causes: Vec<Value> = answer_body["details"]["causes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| json!({"field": c["field"], "message": c["message"], "reason": c["reason"]}))
            .collect();
        let verdict = if status.is_success() {
            json!({"verdict": "accepted", "code": status.as_u16(), "warnings": warnings, "spec": answer_body["spec"]})
        } else {
            json!({
                "verdict": "refused",
                "code": status.as_u16(),
                "message": answer_body["message"],
                "causes": causes,
                "warnings": warnings,
            })
        };
        verdicts.insert(key.clone(), verdict);
    }
    remove(client, &name).await?;
    Ok(Value::Object(verdicts))
}

/// Creates `object` in `collection` for real; the object the server stored.
async fn create(
    client: &kube::Client,
    collection: &str,
    object: &Value,
) -> Result<Value, Box<dyn Error>> {
    let uri = format!("{collection}?fieldManager=cel-record");
    let (status, created, _) = served(client, http::Method::POST, &uri, object).await?;
    if !status.is_success() {
        return Err(format!(
            "old object {} was refused: {created}",
            object["metadata"]["name"]
        )
        .into());
    }
    Ok(created)
}

/// Replaces the CRD `name` with `crd`, and gives the server time to serve its new schema.
async fn switch(client: &kube::Client, name: &str, mut crd: Value) -> Result<(), Box<dyn Error>> {
    let uri = format!("{CRDS}/{name}");
    let (_, current, _) = send_json(client, http::Method::GET, &uri, None).await?;
    crd["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"].clone();
    let (status, body, _) = send_json(client, http::Method::PUT, &uri, Some(&crd)).await?;
    if !status.is_success() {
        return Err(format!("{name}: the new schema was refused: {body}").into());
    }
    // The API server rebuilds a CRD's handler when it changes; it has no status saying when.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    Ok(())
}

/// The CRDs' collection.
const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/// Creates `crd` for real, after deleting one left by an earlier run; the CRD and its name.
async fn install(client: &kube::Client, crd: Value) -> Result<(Value, String), Box<dyn Error>> {
    let name = crd["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    remove(client, &name).await?;
    let (status, body, _) = send_json(client, http::Method::POST, CRDS, Some(&crd)).await?;
    if !status.is_success() {
        return Err(format!("{name}: the CRD was refused: {body}").into());
    }
    Ok((crd, name))
}

/// Deletes the CRD `name` (if there is one) and waits until it is gone.
async fn remove(client: &kube::Client, name: &str) -> Result<(), Box<dyn Error>> {
    let by_name = format!("{CRDS}/{name}");
    send_json(client, http::Method::DELETE, &by_name, None).await?;
    gone(client, &by_name).await
}

/// A JSON request's status, body and warnings.
async fn send_json(
    client: &kube::Client,
    method: http::Method,
    uri: &str,
    body: Option<&Value>,
) -> Result<(http::StatusCode, Value, Vec<String>), Box<dyn Error>> {
    let body = body.map_or_else(Vec::new, |b| serde_json::to_vec(b).unwrap_or_default());
    let request = http::Request::builder()
        .method(method)
        .uri(uri)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(kube::client::Body::from(body))?;
    let response = client.send(request).await?;
    let status = response.status();
    let warnings = response
        .headers()
        .get_all("warning")
        .iter()
        .filter_map(|w| w.to_str().ok().map(str::to_string))
        .collect();
    let body = response.into_body().collect_bytes().await?;
    Ok((
        status,
        serde_json::from_slice(&body).unwrap_or(Value::Null),
        warnings,
    ))
}

/// [`send_json`], again while the answer is 404 (a new CRD not yet served).
async fn served(
    client: &kube::Client,
    method: http::Method,
    uri: &str,
    body: &Value,
) -> Result<(http::StatusCode, Value, Vec<String>), Box<dyn Error>> {
    for _ in 0..100 {
        let answer = send_json(client, method.clone(), uri, Some(body)).await?;
        if answer.0 != http::StatusCode::NOT_FOUND {
            return Ok(answer);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Err(format!("{uri} is not served").into())
}

/// Waits until `uri` answers 404.
async fn gone(client: &kube::Client, uri: &str) -> Result<(), Box<dyn Error>> {
    for _ in 0..100 {
        if send_json(client, http::Method::GET, uri, None).await?.0 == http::StatusCode::NOT_FOUND {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    Err(format!("{uri} is still there").into())
}

/// `no-such-key` (the rule failed reading an absent field), `refused` (the rule is false: the
/// run-time cases set no `message`, so the server says "failed rule") or `other`.
fn object_class(message: &str) -> &'static str {
    if message.contains("no such key") {
        "no-such-key"
    } else if message.contains("failed rule") {
        "refused"
    } else {
        "other"
    }
}

/// The CRD for case `index`: group `group`, plural `c<index>`, the case's schema as `spec`, its
/// rules added to the node at `at` (a JSON pointer into the schema, root if absent).
fn crd(index: usize, case: &Value, group: &str) -> Result<Value, Box<dyn Error>> {
    let mut spec = case["schema"].clone();
    let at = case["at"].as_str().unwrap_or("");
    let node = spec
        .pointer_mut(at)
        .ok_or_else(|| format!("case {index}: no node at `{at}`"))?;
    let rules = match (case.get("rules"), case.get("rule")) {
        (Some(Value::Array(rules)), _) => rules.clone(),
        (_, Some(_)) => vec![case.clone()],
        _ => Vec::new(),
    };
    let mut validations = node["x-kubernetes-validations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for rule in rules {
        let mut v = Map::new();
        for key in [
            "rule",
            "message",
            "messageExpression",
            "optionalOldSelf",
            "fieldPath",
            "reason",
        ] {
            if let Some(value) = rule.get(key) {
                v.insert(key.to_string(), value.clone());
            }
        }
        validations.push(Value::Object(v));
    }
    if !validations.is_empty() {
        node["x-kubernetes-validations"] = Value::Array(validations);
    }
    let plural = format!("c{index}");
    Ok(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.{group}")},
        "spec": {
            "group": group,
            "scope": "Namespaced",
            "names": {"plural": plural, "singular": plural, "kind": format!("C{index}"), "listKind": format!("C{index}List")},
            "versions": [{
                "name": "v1",
                "served": true,
                "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
            }],
        },
    }))
}

/// A rejection: every cause of the `Status`, classified.
fn rejected(code: u16, body: &Value, warnings: Vec<String>) -> Value {
    let mut causes: Vec<Value> = body["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let field = c["field"].as_str().unwrap_or("");
            let message = c["message"].as_str().unwrap_or("");
            cause(field, message)
        })
        .collect();
    if causes.is_empty() {
        causes.push(cause("", body["message"].as_str().unwrap_or("")));
    }
    let mut classes: Vec<Value> = Vec::new();
    for c in &causes {
        if !classes.contains(&c["class"]) {
            classes.push(c["class"].clone());
        }
    }
    json!({
        "verdict": "rejected",
        "code": code,
        "class": causes[0]["class"],
        "classes": classes,
        "causes": causes,
        "warnings": warnings,
    })
}

fn cause(field: &str, message: &str) -> Value {
    let factor = message.split_once("by factor of ").map(|(_, rest)| {
        rest.split(" (")
            .next()
            .unwrap_or(rest)
            .trim_end_matches('.')
    });
    json!({
        "class": class(message),
        "field": field,
        "message": message,
        "factor": factor,
    })
}

/// `type`, `cost-rule`, `cost-message`, `cost-total` or `other`.
fn class(message: &str) -> &'static str {
    if message.contains("estimated rule cost exceeds budget") {
        "cost-rule"
    } else if message.contains("estimated messageExpression cost exceeds budget") {
        "cost-message"
    } else if message.contains("cost total") {
        "cost-total"
    } else if [
        "compilation failed",
        "no matching overload",
        "undeclared reference",
        "no such key",
        "must evaluate to",
    ]
    .iter()
    .any(|m| message.contains(m))
    {
        "type"
    } else {
        "other"
    }
}

fn summary(verdict: &Value) -> String {
    match verdict["verdict"].as_str() {
        Some("rejected") => format!(
            "rejected {} ({})",
            verdict["class"].as_str().unwrap_or(""),
            verdict["causes"][0]["message"].as_str().unwrap_or("")
        ),
        other => other.unwrap_or("").to_string(),
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days since 1970-01-01 to a civil date, in 400-year eras of 146097 days from 0000-03-01.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
