//! The API types: one module per group and version (`kubegen create api` adds them). Their
//! markers are what `kubegen manifests` turns into `config/crd/bases/`.

pub mod batch_v1;
pub mod batch_v2;
// kubegen:scaffold:api

// ANCHOR: check
#[cfg(test)]
mod tests {
    /// Every kind's CRD, from all its versions, passes the checks `kubegen manifests` makes:
    /// what the derive cannot see from one type (printer column paths into the status,
    /// defaults against their schema, CEL rules over other types) fails here.
    #[test]
    fn every_crd_is_valid() {
        let versions: Vec<kubegen::ResourceDef> = vec![
            <super::batch_v1::CronJob as kubegen::CustomResource>::resource(),
            <super::batch_v2::CronJob as kubegen::CustomResource>::resource(),
            // kubegen:scaffold:crd-versions
        ];
        if let Err(errors) = kubegen::check_crds(&versions) {
            panic!("\n{}", errors.rendered());
        }
    }
}
// ANCHOR_END: check
