import Testing

/// Every test that drives the real WebKitGTK engine lives in a suite nested in this one, so
/// they run one after another: the web-process crash test kills this process's web
/// processes, which would break sessions of tests running beside it.
@Suite("Engine (real WebKitGTK under a private Xvfb)", .serialized, .timeLimit(.minutes(3)))
struct EngineTests {}
