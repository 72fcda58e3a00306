/// What a command of `webauth-tokens` throws when it needs the engine after all (the
/// Kubernetes plugin that must sign in): `webauth-tokens` then executes `webauth-engine` with the same
/// arguments and the environment it started with, which runs the command again, whole.
package struct EngineRequired: Error {
    package init() {}
}
