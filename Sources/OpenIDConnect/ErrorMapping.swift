/// The value of `body`, or its error turned into the caller's error type by `wrap`: the one place
/// for the `do { … } catch { throw .someCase(error) }` that every step of a sign-in would repeat.
///
/// ```swift
/// let configuration = try await mapping(await providerConfiguration(), as: SignInError.openIDConnect)
/// ```
/// It runs on the caller's actor (`isolation`), so `body` may use the caller's state.
package func mapping<Value, Failure: Error, Mapped: Error>(_ body: @autoclosure () async throws(Failure) -> Value,
                                                           as wrap: (Failure) -> Mapped,
                                                           isolation: isolated (any Actor)? = #isolation) async throws(Mapped) -> Value {
    do { return try await body() } catch { throw wrap(error) }
}
