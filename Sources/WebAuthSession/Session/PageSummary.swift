import OpenIDConnect

/// What a page that ended a sign-in showed, in a line a person can act on: its title, its
/// address with every value redacted (`URLRedaction`), and its error message. Never a field's
/// value, so it can be shown or logged.
public struct PageSummary: Sendable, Hashable, CustomStringConvertible {
    /// The page's address, its values redacted.
    public let url: String
    /// The page's title.
    public let title: String
    /// The page's error message: the text of the first non-empty `[role=alert]` or
    /// `[aria-live]` element, else of an element whose class or ID says "error", else the text
    /// beside the form, else the page's first words (headings left out). Empty when the page
    /// shows no text.
    public let message: String

    /// A summary of a page at `url` (its values redacted here) showing `message` (anything in it
    /// that looks like a token, a code or a `state` hidden here: a page may echo its own address).
    public init(url: String, title: String, message: String) {
        self.url = URLRedaction.redactingValues(url)
        self.title = title
        self.message = TextRedaction.hidingTokenLikeRuns(in: message)
    }

    public var description: String {
        "'\(title)' (\(url))" + (message.isEmpty ? " shows no message" : " says \"\(message)\"")
    }

    /// JavaScript (for the engine's isolated world) that reads `{url, title, message}`.
    static let script = """
        (() => {
            const text = (element) => (element && element.innerText ? element.innerText : '').replace(/\\s+/g, ' ').trim();
            const firstText = (elements) => elements.map(text).find((found) => found.length > 0) || '';
            const all = (selector) => [...document.querySelectorAll(selector)];
            const form = document.querySelector('form');
            const besideForm = form ? [form.previousElementSibling, form.nextElementSibling]
                .filter((element) => element && !/^(H[1-6]|FORM|LABEL|SCRIPT|STYLE)$/.test(element.tagName)) : [];
            const bodyText = document.body ? [...document.body.children]
                .filter((element) => !/^(H[1-6]|SCRIPT|STYLE|NOSCRIPT)$/.test(element.tagName)).map(text).join(' ').trim() : '';
            const message = firstText(all('[role=alert]')) || firstText(all('[aria-live]:not([aria-live=off])'))
                || firstText(all('[class*=error i], [id*=error i]')) || firstText(besideForm) || bodyText || text(document.body);
            return { url: location.href, title: document.title, message: message.slice(0, 300) };
        })()
        """

    /// The summary in `result`, the answer of ``script``.
    init?(_ result: JSONValue) {
        guard let url = result["url"]?.stringValue else { return nil }
        self.init(url: url, title: result["title"]?.stringValue ?? "", message: result["message"]?.stringValue ?? "")
    }
}
