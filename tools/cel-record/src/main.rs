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

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = env::args().skip(1).collect();
    let corpus_path = args.first().map_or(CORPUS, String::as_str);
    let out_path = args.get(1).map_or(VERDICTS, String::as_str);
    let corpus: Value = serde_saphyr::from_str(&fs::read_to_string(corpus_path)?)?;
    let cases = corpus["cases"]
        .as_array()
        .ok_or("the corpus has no `cases` list")?;

    let client = kube::Client::try_default().await?;
    let version = client.apiserver_version().await?;
    let mut verdicts = Map::new();
    for (index, case) in cases.iter().enumerate() {
        let name = case["name"].as_str().ok_or("a case without a `name`")?;
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
    let crd = crd(index, case, RUNTIME_GROUP)?;
    let name = crd["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    let by_name = format!("{crds}/{name}");
    let send = |method: http::Method, uri: &str, body: Option<&Value>| {
        let request = http::Request::builder()
            .method(method)
            .uri(uri)
            .header(http::header::CONTENT_TYPE, "application/json");
        let body = body.map_or_else(Vec::new, |b| serde_json::to_vec(b).unwrap_or_default());
        request.body(kube::client::Body::from(body))
    };
    let answer = |response: http::Response<kube::client::Body>| async move {
        let status = response.status();
        let body = response.into_body().collect_bytes().await?;
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        Ok::<_, Box<dyn Error>>((status, body))
    };
    let gone = |client: kube::Client, uri: String| async move {
        for _ in 0..100 {
            let (status, _) =
                answer(client.send(send(http::Method::GET, &uri, None)?).await?).await?;
            if status == http::StatusCode::NOT_FOUND {
                return Ok(());
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        Err::<(), Box<dyn Error>>(format!("{uri} is still there").into())
    };
    answer(
        client
            .send(send(http::Method::DELETE, &by_name, None)?)
            .await?,
    )
    .await?;
    gone(client.clone(), by_name.clone()).await?;
    let (status, body) = answer(
        client
            .send(send(http::Method::POST, crds, Some(&crd))?)
            .await?,
    )
    .await?;
    if !status.is_success() {
        return Err(format!("case {index}: the CRD was refused: {body}").into());
    }
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
        // Until the new CRD is served, the server answers 404.
        let mut tries = 0;
        let (status, answer_body) = loop {
            let request = send(http::Method::POST, &objects_uri, Some(&body))?;
            let (status, answer_body) = answer(client.send(request).await?).await?;
            tries += 1;
            if status != http::StatusCode::NOT_FOUND || tries == 100 {
                break (status, answer_body);
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
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
    answer(
        client
            .send(send(http::Method::DELETE, &by_name, None)?)
            .await?,
    )
    .await?;
    gone(client.clone(), by_name).await?;
    Ok(Value::Object(verdicts))
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
    let rules = match case.get("rules") {
        Some(Value::Array(rules)) => rules.clone(),
        _ => vec![case.clone()],
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
    node["x-kubernetes-validations"] = Value::Array(validations);
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
