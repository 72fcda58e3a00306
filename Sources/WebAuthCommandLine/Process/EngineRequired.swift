/// What a command of the light `webauth` throws when it needs the engine after all (the
/// Kubernetes plugin that must sign in): the front then executes `webauth-engine` with the same
/// arguments and the environment it started with, which runs the command again, whole.
package struct EngineRequired: Error {
    package init() {}
}
