/// When a shutdown hook runs (``EngineRuntime/atShutdown(_:_:)``): the sessions close first, so
/// that the views they give back are let go of with the others after them.
enum ShutdownStage: CaseIterable, Sendable {
    /// Every running session ends with ``WebAuthenticationError/engineShutDown`` and closes its window.
    case sessions
    /// The views kept for later sessions (prewarmed, a pool's) are let go of.
    case keptViews
}
