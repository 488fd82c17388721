//! Invariant 7 (ARCHITECTURE.md): every value serde writes for a type is accepted by that type's
//! schema, and nothing of it is silently pruned.
//!
//! For each type: random JSON guided by its schema but broader ([`values`]) is read by serde;
//! when serde accepts it, what serde writes back must be admitted by the apiserver's rules
//! (`check::value::admit`, strict). Covered: the fixtures' and the bundled operator's kinds
//! (whole objects against their CRD), and every serde tagging of an enum × held plainly,
//! optionally, in a list, flattened, flattened optionally, flattened beside a catch-all map,
//! flattened twice.

mod values;

use std::cell::Cell;
use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::{CustomResourceExt, Resource};
use kubegen::{CustomResource, KubeSchema, crd_for};
use kubegen_core::check::structural::violations;
use kubegen_core::check::value::{Admission, admit};
use kubegen_core::model::Schema;
use kubegen_core::schema::{Builder, Site};
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// At least this share of the generated values must be read by serde, or the test proves little.
const MIN_ACCEPTED: f64 = 0.05;

/// Runs the property for `T` against `schema`, on values from `strategy`.
fn roundtrip<T: Serialize + DeserializeOwned>(
    schema: &Schema,
    strategy: impl Strategy<Value = Value>,
    how: Admission,
) {
    let name = std::any::type_name::<T>();
    assert_eq!(violations(schema), Vec::<String>::new(), "{name}");
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let config = Config {
        // Reproducible unless PROPTEST_RNG_SEED asks for another seed.
        rng_seed: match config.rng_seed {
            RngSeed::Random => RngSeed::Fixed(7),
            fixed => fixed,
        },
        ..config
    };
    let cases = config.cases;
    let accepted = Cell::new(0u32);
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&strategy, |json| {
        // Not strict (a catch-all map keeps what it reads): only inputs the apiserver takes.
        if !how.strict && admit(schema, &json, how).is_err() {
            return Ok(());
        }
        let Ok(typed) = serde_json::from_value::<T>(json) else {
            return Ok(());
        };
        accepted.set(accepted.get() + 1);
        let written = serde_json::to_value(&typed).expect("serde writes what it read");
        match admit(schema, &written, how) {
            Ok(_) => Ok(()),
            Err(why) => Err(TestCaseError::fail(format!(
                "serde wrote {written}, and the apiserver would not take it: {why}"
            ))),
        }
    });
    if let Err(e) = outcome {
        panic!("{name}: {e}");
    }
    let share = f64::from(accepted.get()) / f64::from(cases);
    assert!(
        share >= MIN_ACCEPTED,
        "{name}: serde read only {} of {cases} generated values",
        accepted.get()
    );
}

/// A kind, as whole objects against its version's `openAPIV3Schema` in `crd`. `opaque` gives, by
/// JSON pointer, the fields of objects whose schema keeps them unknown (a type with its own serde
/// form), merged into every generated value; every object has `metadata`, as in a cluster.
fn kind<K: Resource<DynamicType = ()> + Serialize + DeserializeOwned>(
    crd: &CustomResourceDefinition,
    opaque: &[(&'static str, Value)],
) {
    let version = crd
        .spec
        .versions
        .iter()
        .find(|v| v.name == K::version(&()))
        .expect("the CRD has the kind's version");
    let root = version.schema.as_ref().unwrap().open_api_v3_schema.as_ref();
    let schema: Schema = serde_json::from_value(serde_json::to_value(root).unwrap()).unwrap();
    let mut opaque = opaque.to_vec();
    opaque.push(("", json!({"metadata": {"name": "n"}})));
    let strategy = values::values(&schema, 0).prop_map(move |mut object| {
        for (pointer, fields) in &opaque {
            if let Some(Value::Object(at)) = object.pointer_mut(pointer) {
                at.extend(fields.as_object().unwrap().clone());
            }
        }
        object
    });
    let how = Admission {
        root: true,
        strict: true,
    };
    roundtrip::<K>(&schema, strategy, how);
}

/// A type deriving `KubeSchema`, against the schema the engine builds for it; `strict` unless
/// pruning is expected (see `FlatBesideMap`).
fn typed<T: KubeSchema + Serialize + DeserializeOwned>(strict: bool) {
    let mut builder = Builder::new();
    let schema = builder.shape(&T::shape(), &Site::default());
    builder.finish().expect("the type has a schema");
    let how = Admission {
        root: false,
        strict,
    };
    roundtrip::<T>(&schema, values::values(&schema, 0), how);
}

#[test]
fn fixture_and_operator_kinds() {
    use fixture_cronjob::{v1, v1beta1, v1beta2};
    use fixture_multiversion as multi;

    let cronjobs = crd_for(&[
        v1::CronJob::resource(),
        v1beta1::CronJob::resource(),
        v1beta2::CronJob::resource(),
    ])
    .unwrap();
    let concrete = || json!({"concreteField": "x"});
    kind::<v1::CronJob>(
        &cronjobs,
        &[
            ("/spec/unprunedFomType", concrete()),
            ("/spec/unprunedFomTypeAndField", concrete()),
        ],
    );
    kind::<v1beta1::CronJob>(&cronjobs, &[]);
    kind::<v1beta2::CronJob>(&cronjobs, &[]);
    let versioned = crd_for(&[
        multi::v1beta1::VersionedResource::resource(),
        multi::v1beta2::VersionedResource::resource(),
    ])
    .unwrap();
    kind::<multi::v1beta1::VersionedResource>(&versioned, &[]);
    kind::<multi::v1beta2::VersionedResource>(&versioned, &[]);
    kind::<fixture_gen::foo::Foo>(&fixture_gen::foo::Foo::crd(), &[]);
    kind::<fixture_gen::zoo::Zoo>(&fixture_gen::zoo::Zoo::crd(), &[]);
    kind::<fixture_plural::TestQuota>(&fixture_plural::TestQuota::crd(), &[]);
    use memcached_operator::api as memcached;
    let memcacheds = crd_for(&[
        memcached::v1alpha1::Memcached::resource(),
        memcached::v1beta1::Memcached::resource(),
    ])
    .unwrap();
    kind::<memcached::v1alpha1::Memcached>(&memcacheds, &[]);
    kind::<memcached::v1beta1::Memcached>(&memcacheds, &[]);
}

/// The enums below, and the ways a struct can hold one.
mod enums {
    use std::collections::BTreeMap;

    use kubegen::KubeSchema;
    use serde::{Deserialize, Serialize};

    /// A newtype variant's value.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    pub struct Payload {
        pub a: i32,
        pub b: Option<String>,
        #[serde(default)]
        pub n: Vec<i32>,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(rename_all = "camelCase")]
    pub enum External {
        Newtype(Payload),
        Scalar(i32),
        Maybe(Option<String>),
        Map(BTreeMap<String, i32>),
        Struct {
            a: i32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            c: Option<bool>,
        },
        Empty {},
    }

    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(tag = "kind")]
    pub enum Internal {
        Unit,
        Newtype(Payload),
        Struct { a: i32, c: Option<bool> },
    }

    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        Unit,
        Newtype(Payload),
        Struct { a: i32, c: Option<bool> },
    }

    /// Every variant has a required field; `Pair`'s fields include `Single`'s.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Untagged {
        Pair { a: i32, b: String },
        Single { a: i32 },
        Newtype(Payload),
        Other { z: bool },
    }

    /// A variant without required fields: any object is one.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(untagged)]
    pub enum UntaggedLoose {
        Struct { a: i32, c: Option<bool> },
        Loose { d: Option<String> },
    }

    /// A variant holding a map: its entries sit beside the tag.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(tag = "kind")]
    pub enum InternalMap {
        Unit,
        Map(BTreeMap<String, String>),
    }

    /// A variant holding a map, as the content.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum AdjacentMap {
        Named { a: i32 },
        Map(BTreeMap<String, String>),
        Maybe(Option<Payload>),
    }

    /// Any object of strings that is not `Named`.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(untagged)]
    pub enum UntaggedMap {
        Named { a: i32 },
        Map(BTreeMap<String, String>),
    }

    /// Strings.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    pub enum Units {
        Red,
        #[serde(rename = "green-ish")]
        Green,
    }

    /// Int or string.
    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    #[serde(untagged)]
    pub enum IntOrName {
        Int(i32),
        Name(String),
    }
}

/// Structs holding an enum `$e` in every way; `flatten` only for enums that write objects.
macro_rules! holders {
    ($($module:ident: $e:ty $(, $flat:ident)?;)*) => {$(
        mod $module {
            use super::*;
            use kubegen::KubeSchema;
            use serde::{Deserialize, Serialize};

            #[derive(KubeSchema, Serialize, Deserialize, Debug)]
            pub struct Plain {
                pub e: $e,
                pub other: Option<i32>,
            }

            #[derive(KubeSchema, Serialize, Deserialize, Debug)]
            pub struct Optional {
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub e: Option<$e>,
            }

            #[derive(KubeSchema, Serialize, Deserialize, Debug)]
            pub struct List {
                pub e: Vec<$e>,
            }

            holders!(@flat $e $(, $flat)?);

            #[test]
            fn every_holder() {
                typed::<Plain>(true);
                typed::<Optional>(true);
                typed::<List>(true);
                holders!(@test $($flat)?);
            }
        }
    )*};
    (@flat $e:ty) => {};
    (@flat $e:ty, flat) => {
        #[derive(KubeSchema, Serialize, Deserialize, Debug)]
        pub struct Flat {
            pub other: Option<i32>,
            #[serde(flatten)]
            pub e: $e,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Debug)]
        pub struct FlatOptional {
            pub other: Option<i32>,
            #[serde(flatten)]
            pub e: Option<$e>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Debug)]
        pub struct FlatBesideMap {
            #[serde(flatten)]
            pub e: $e,
            #[serde(flatten)]
            pub rest: BTreeMap<String, Value>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Debug)]
        pub struct FlatTwice {
            #[serde(flatten)]
            pub flat: Flat,
        }
    };
    (@test) => {};
    (@test flat) => {
        typed::<Flat>(true);
        typed::<FlatOptional>(true);
        // The map keeps the keys the enum leaves, another variant's among them, with whatever
        // they held: the apiserver validates (and prunes) them as that variant's, as it did when
        // they came in.
        typed::<FlatBesideMap>(false);
        typed::<FlatTwice>(true);
    };
}

holders! {
    external: enums::External, flat;
    internal: enums::Internal, flat;
    adjacent: enums::Adjacent, flat;
    untagged: enums::Untagged, flat;
    untagged_loose: enums::UntaggedLoose, flat;
    internal_map: enums::InternalMap, flat;
    adjacent_map: enums::AdjacentMap, flat;
    untagged_map: enums::UntaggedMap, flat;
    units: enums::Units;
    int_or_name: enums::IntOrName;
}

/// Collections whose entries may be `None`: serde writes `null` for them.
mod nullable_entries {
    use std::collections::BTreeMap;

    use super::*;
    use kubegen::KubeSchema;
    use serde::{Deserialize, Serialize};

    #[derive(KubeSchema, Serialize, Deserialize, Debug)]
    pub struct Collections {
        pub list: Vec<Option<String>>,
        pub map: BTreeMap<String, Option<i32>>,
        pub nested: Vec<BTreeMap<String, Option<bool>>>,
    }

    #[test]
    fn null_entries_are_kept() {
        typed::<Collections>(true);
    }
}
