import ArgumentParser
import Foundation
import WebAuthSession

/// `webauth record --one-off`: what becomes of a recorded screen that may not come back (a
/// consent, "stay signed in?"), which a replay must not wait for if the provider remembers it.
enum OneOffScreens: String, ExpressibleByArgument, CaseIterable {
    /// On a terminal, one question per such screen at the end; elsewhere as ``keep``.
    case ask
    /// Every such screen's step becomes `optional: true`.
    case optional
    /// The steps stay as recorded, each with its comment.
    case keep

    /// `recorded` with the one-off steps made optional as chosen.
    func apply(to recorded: RecordedScript) -> RecordedScript {
        let oneOff = recorded.steps.indices.filter { recorded.steps[$0].oneOff }
        switch self {
        case .keep: return recorded
        case .optional: return recorded.makingOptional(Set(oneOff))
        case .ask:
            guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return recorded }
            let chosen = oneOff.filter { index in
                FileHandle.standardError.write(Data("Was the screen of step \(index + 1) (\(recorded.steps[index].step)) shown only this once? [y/N] ".utf8))
                return readLine()?.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y") == true
            }
            return recorded.makingOptional(Set(chosen))
        }
    }
}
