//! Every type deriving a schema, built and checked on its own.

use super::Builder;
use crate::check::types::cel_problems;
use crate::known::Kubernetes;
use crate::model::{Errors, Shape};

/// The problems of each named shape's schema, built alone (with a shared cache) for the
/// Kubernetes version `kubernetes`, including its CEL rules'.
pub fn each(types: &[Shape], kubernetes: &Kubernetes) -> Result<(), Errors> {
    let mut builder = Builder::for_kubernetes(kubernetes.clone());
    let mut errors = Errors::default();
    for shape in types {
        let Shape::Named(named) = shape else { continue };
        let Ok(def) = (named.load)() else { continue };
        let schema = builder.shape(shape, &Default::default());
        errors.0.extend(cel_problems(&def, &schema, false));
    }
    if let Err(e) = builder.finish() {
        errors.0.splice(0..0, e.0);
    }
    errors.into_result(())
}
