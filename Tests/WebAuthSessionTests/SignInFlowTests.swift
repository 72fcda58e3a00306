import CWebKitGTK
import OpenIDConnect
import Testing
@testable import WebAuthSession

/// The sign-in flow alone, without WebKit or GLib: WebKit's signals as plain events, the
/// page's and the session's decisions as plain values.
@Suite("Sign-in flow")
struct SignInFlowTests {
    func flow(_ redirect: String = "com.example:/cb", markers: [String] = [],
              idleLimit: Duration? = nil, now: ContinuousClock.Instant = .now) throws -> SignInFlow {
        SignInFlow(policy: NavigationPolicy(redirectURI: try RedirectURI(redirect)),
                   refusalMarkers: markers, idleLimit: idleLimit, now: now)
    }

    func navigation(_ url: String, trigger: NavigationRequest.Trigger = .link, method: String? = nil) -> SignInFlow.Event {
        .navigationRequested(NavigationRequest(url: url, method: method, trigger: trigger, isRedirect: false, opensNewWindow: false))
    }

    @Test("a page loads, the redirect is captured before any request, and the flow ends with its callback")
    func capture() throws {
        var flow = try flow()
        let load = flow.handle(navigation("https://login.example.com/authorize"))
        #expect(load.policy == .use)
        #expect(load.decision == NavigationDecision(url: "https://login.example.com/authorize", verdict: .allowed))
        #expect(load.outcome == nil && !flow.hasEnded)

        let redirect = flow.handle(navigation("com.example:/cb?code=abc&state=xyz"))
        #expect(redirect.policy == .ignore)
        #expect(redirect.decision?.verdict == .captured)
        #expect(redirect.decision?.url.contains("abc") == false, "the decision's URL is redacted")
        let callback = try #require(try redirect.outcome?.get())
        #expect(callback["code"] == "abc" && callback["state"] == "xyz")
        #expect(flow.hasEnded)
    }

    @Test("a sign-in goes through its states: the start page, the provider's pages, the redirect let through, the end")
    func states() throws {
        var flow = try flow()
        #expect(flow.state == .loadingStartPage && !flow.hasCommittedLoad)
        _ = flow.handle(.loadCommitted(errorStatus: nil))
        #expect(flow.state == .showingPages && flow.hasCommittedLoad)
        _ = flow.handle(navigation("com.example:/cb", trigger: .formSubmission, method: "POST"))
        #expect(flow.state == .receivingRedirect(.schemeHandler(url: "com.example:/cb")))
        _ = flow.handle(.loadCommitted(errorStatus: 500))
        #expect(flow.state == .receivingRedirect(.schemeHandler(url: "com.example:/cb")), "a later page's status is not the start page's")
        #expect(flow.handle(.schemeRequested(url: "com.example:/cb")).followUp == .readSchemeRequest)
        #expect(flow.state == .showingPages, "the submission is let through once")
        let outcome = try #require(flow.handle(.redirectReceived(url: "com.example:/cb", formBody: "code=fp")).outcome)
        #expect(flow.state == .ended(outcome, committed: true))

        var failing = try self.flow()
        _ = failing.handle(.loadCommitted(errorStatus: 503))
        #expect(failing.state == .startPageFailed(status: 503))
        #expect(failing.handle(.loadFinished).followUp == .readErrorPage(status: 503))
        #expect(failing.state == .showingPages)
    }

    @Test("an ended sign-in still knows whether a page had been shown: its failure report reads the page only then")
    func endedKeepsCommit() throws {
        var shown = try flow()
        _ = shown.handle(.loadCommitted(errorStatus: nil))
        _ = shown.handle(.failed(.timedOut(after: .seconds(5), lastURL: nil)))
        #expect(shown.hasEnded && shown.hasCommittedLoad)

        var blank = try flow()
        _ = blank.handle(.failed(.timedOut(after: .seconds(5), lastURL: nil)))
        #expect(blank.hasEnded && !blank.hasCommittedLoad)
    }

    @Test("once it has ended, every navigation is ignored and no second outcome comes out")
    func endsOnce() throws {
        var flow = try flow()
        #expect(flow.handle(.windowClosed).outcome == .failure(.closedByUser))
        let late = flow.handle(navigation("com.example:/cb?code=late"))
        #expect(late.policy == .ignore && late.outcome == nil && late.decision == nil)
        #expect(flow.handle(.failed(.cancelled)).outcome == nil)
        #expect(flow.outcome == .failure(.closedByUser))
    }

    @Test("the window's fates: closed by the person, destroyed by the host, the web process gone", arguments: [
        (SignInFlow.Event.windowClosed, WebAuthenticationError.closedByUser),
        (.windowDestroyed, .cancelled),
        (.webProcessTerminated(.crashed), .webProcessTerminated(.crashed)),
        (.failed(.timedOut(after: .seconds(5), lastURL: nil)), .timedOut(after: .seconds(5), lastURL: nil)),
    ])
    func endings(event: SignInFlow.Event, error: WebAuthenticationError) throws {
        var flow = try flow()
        #expect(flow.handle(event).outcome == .failure(error))
    }

    @Test("refusals are reported and the wait goes on")
    func refusals() throws {
        var flow = try flow()
        let lookalike = flow.handle(navigation("com.example:/cbx?code=1"))
        #expect(lookalike.policy == .ignore)
        #expect(lookalike.decision?.verdict == .refused(.redirectLookalike))
        let download = flow.handle(.responseReceived(NavigationResponse(url: "https://x.example/f.zip", canShowMIMEType: true,
                                                                        contentDisposition: "attachment")))
        #expect(download.policy == .ignore && download.decision?.verdict == .refused(.download))
        #expect(flow.handle(.downloadStarted(url: "https://x.example/g.zip")).decision?.verdict == .refused(.download))
        #expect(!flow.hasEnded)
    }

    @Test("a form post to the custom scheme is let through to the scheme handler once; other requests there are resources")
    func schemeHandler() throws {
        var flow = try flow()
        #expect(flow.handle(.schemeRequested(url: "com.example:/cb")).decision?.verdict == .refused(.redirectSubresource))
        let post = flow.handle(navigation("com.example:/cb", trigger: .formSubmission, method: "POST"))
        #expect(post.policy == .use && post.decision?.verdict == .captured)
        #expect(flow.handle(.schemeRequested(url: "com.example:/cb")).followUp == .readSchemeRequest)
        let outcome = try #require(flow.handle(.redirectReceived(url: "com.example:/cb", formBody: "code=fp&state=s")).outcome)
        #expect(try outcome.get()["code"] == "fp")
    }

    @Test("a form post to a loopback redirect URI has the listener bound on its port, and its body is the answer")
    func loopbackFormPost() throws {
        var flow = try flow("http://127.0.0.1:8765/cb")
        let post = flow.handle(navigation("http://127.0.0.1:8765/cb", trigger: .formSubmission, method: "POST"))
        #expect(post.policy == .use && post.followUp == .listenForFormPost(port: 8765))
        let received = flow.handle(.formPostReceived(body: "code=lb"))
        #expect(received.policy == .use)
        #expect(try received.outcome?.get()["code"] == "lb")
    }

    @Test("a redirect that cannot be read ends the embedded flow")
    func unreadableRedirects() throws {
        var embedded = try flow()
        #expect(embedded.handle(.redirectReceived(url: "com.example:/cb?code=%ZZ", formBody: nil)).outcome
                == .failure(.invalidCallback(.malformedEncoding(.query))))
    }

    @Test("what ended a load, as WebKit's error tells: the policy (WebKit's cancelled, interrupted), a cancelled request (GIO's), or a failure")
    func loadFailureCauses() throws {
        func failure(_ domain: GQuark, _ code: Int32) -> LoadFailure {
            let error = g_error_new_literal(domain, code, "as WebKit reports it")!
            defer { g_error_free(error) }
            return LoadFailure(url: "https://a.example/", error: GLibError(error))
        }
        #expect(failure(webkit_network_error_quark(), Int32(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)).cause == .stoppedByPolicy)
        #expect(failure(webkit_policy_error_quark(), Int32(WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE.rawValue)).cause == .stoppedByPolicy)
        #expect(failure(g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)).cause == .requestCancelled)
        #expect(failure(g_io_error_quark(), Int32(G_IO_ERROR_CONNECTION_REFUSED.rawValue)).cause == .failed)
        #expect(LoadFailure(url: "https://a.example/", error: nil).cause == .failed)
    }

    @Test("load failures end the flow unless the engine's policy stopped the load; TLS failures name the host")
    func loadFailures() throws {
        var flow = try flow()
        let stopped = LoadFailure(url: "https://a.example/", domain: "WebKitPolicyError", code: 102, message: "interrupted", cause: .stoppedByPolicy)
        #expect(flow.ignores(stopped) && flow.handle(.loadFailed(stopped)).outcome == nil)
        let refused = LoadFailure(url: "https://a.example/?code=1", domain: "g-io-error-quark", code: 39, message: "refused", cause: .failed)
        #expect(!flow.ignores(refused))
        #expect(flow.handle(.loadFailed(refused)).outcome
                == .failure(.loadFailed(url: URLRedaction.redactingValues(refused.url), domain: "g-io-error-quark", code: 39, message: "refused")))

        var tls = try self.flow()
        #expect(tls.handle(.tlsFailed(url: "https://bad.example/login", errors: .expired)).outcome
                == .failure(.tlsFailure(url: "https://bad.example/login", host: "bad.example", errors: .expired)))
    }

    @Test("a cancelled request is ignored for a load the page left (another address, or once for each reload after the CA file vouched), and otherwise ends the sign-in at once instead of leaving it waiting")
    func cancelledRequests() throws {
        let cancelled = LoadFailure(url: "https://a.example/authorize", domain: "g-io-error-quark", code: 19, message: "Operation was cancelled",
                                    cause: .requestCancelled)
        var unexplained = try flow()
        #expect(!unexplained.ignores(cancelled))
        #expect(unexplained.handle(.loadFailed(cancelled)).outcome
                == .failure(.loadFailed(url: "https://a.example/authorize", domain: "g-io-error-quark", code: 19, message: "Operation was cancelled")))

        var reloaded = try flow()
        _ = reloaded.handle(.loadSuperseded)
        #expect(reloaded.ignores(cancelled))
        #expect(reloaded.handle(.loadFailed(cancelled)).outcome == nil, "the replaced load's own cancellation, reported late")
        #expect(reloaded.handle(.loadCommitted(errorStatus: nil)).outcome == nil)
        #expect(!reloaded.ignores(cancelled))
        #expect(reloaded.handle(.loadFailed(cancelled)).outcome != nil, "a second one is not accounted for")

        var movedOn = try flow()
        _ = movedOn.handle(.loadStarted(url: "https://a.example/authorize"))
        #expect(!movedOn.ignores(cancelled), "the load under way")
        _ = movedOn.handle(.loadStarted(url: "https://a.example/login"))
        #expect(movedOn.ignores(cancelled), "a load the page has left (it went on to another address)")
        #expect(movedOn.handle(.loadFailed(cancelled)).outcome == nil)
        let current = LoadFailure(url: "https://a.example/login", domain: "g-io-error-quark", code: 19, message: "Operation was cancelled",
                                  cause: .requestCancelled)
        #expect(movedOn.handle(.loadFailed(current)).outcome != nil, "the load under way, cancelled by nobody known")
    }

    @Test("a finished page is checked for the refusal markers, then for the start page's error status")
    func finishedPageChecks() throws {
        var flow = try flow(markers: ["disallowed_useragent"])
        #expect(flow.handle(.loadCommitted(errorStatus: 400)).outcome == nil)
        #expect(flow.hasCommittedLoad)
        #expect(flow.handle(.loadFinished).followUp == .checkEmbeddedViewRefusal(["disallowed_useragent"]))
        #expect(flow.handle(.embeddedViewAccepted).followUp == .readErrorPage(status: 400))
        #expect(flow.handle(.embeddedViewAccepted).followUp == nil, "the error page is read once")

        var later = try self.flow()
        _ = later.handle(.loadCommitted(errorStatus: nil))
        _ = later.handle(.loadCommitted(errorStatus: 401))
        #expect(later.handle(.loadFinished).followUp == nil, "only the start page's status counts (a wrong password's 401 does not)")
    }

    @Test("a load that ended before committing a page (a certificate the CA file then vouched for) is not read for refusal markers")
    func finishWithoutCommit() throws {
        var flow = try flow(markers: ["disallowed_useragent"])
        #expect(flow.handle(.loadFinished).followUp == nil, "no page committed: nothing to read while the page loads again")
        _ = flow.handle(.loadCommitted(errorStatus: nil))
        #expect(flow.handle(.loadFinished).followUp == .checkEmbeddedViewRefusal(["disallowed_useragent"]))
        #expect(flow.handle(.loadFinished).followUp == nil, "a second finish with no new commit has no new page")
    }

    @Test("a kiosk page is abandoned after its idle limit without input, and input starts the limit again")
    func idleness() throws {
        let start = ContinuousClock.now
        var flow = try flow(idleLimit: .seconds(120), now: start)
        #expect(flow.idleDeadline == start + .seconds(120))
        _ = flow.handle(.input(at: start + .seconds(100)))
        #expect(flow.handle(.idleCheck(at: start + .seconds(120))).outcome == nil)
        #expect(flow.idleDeadline == start + .seconds(220))
        #expect(flow.handle(.idleCheck(at: start + .seconds(220))).outcome == .failure(.abandoned(after: .seconds(120))))
        #expect(flow.idleDeadline == nil)
        #expect(try self.flow().idleDeadline == nil, "no limit outside a kiosk")
    }

    @Test("a watched page settles after its quiet time without activity, not while loading nor after new activity")
    func settling() throws {
        let start = ContinuousClock.now
        var flow = try flow(now: start)
        #expect(flow.settleDeadline == nil)
        flow.failWhenSettled(after: .seconds(3), now: start)
        #expect(flow.handle(.settleCheck(at: start + .seconds(1), isLoading: false)).followUp == nil)
        #expect(flow.handle(.settleCheck(at: start + .seconds(3), isLoading: true)).followUp == .waitForPageChange)
        let read = flow.handle(.settleCheck(at: start + .seconds(3), isLoading: false))
        #expect(read.followUp == .readSettledPage(activitySeen: start))
        let page = PageSummary(url: "https://login.example.com/", title: "Sign in", message: "Wrong password")

        _ = flow.handle(.activity(at: start + .seconds(4)))
        #expect(flow.handle(.settledPageRead(page, activitySeen: start)).outcome == nil, "the page did something meanwhile")
        #expect(flow.settleDeadline == start + .seconds(7))
        #expect(flow.handle(.settledPageRead(page, activitySeen: start + .seconds(4))).outcome
                == .failure(.pageSettled(page, after: .seconds(3))))
    }
}
