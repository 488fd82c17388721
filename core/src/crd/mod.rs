//! CustomResourceDefinition assembly: names, versions, the root schema.
