/// A captcha a page shows: a test that only a person can pass, so a login script that meets one
/// stops at once (``PageScriptError/captchaRequired(kind:pageText:)``) instead of waiting out its step.
public enum CaptchaKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Google reCAPTCHA.
    case reCAPTCHA
    /// hCaptcha.
    case hCaptcha
    /// Cloudflare Turnstile.
    case turnstile

    public var description: String {
        switch self {
        case .reCAPTCHA: "reCAPTCHA"
        case .hCaptcha: "hCaptcha"
        case .turnstile: "Cloudflare Turnstile"
        }
    }

    /// A JavaScript expression (for the engine's isolated world) that is the ``rawValue`` of the
    /// captcha the page shows, or null. It reads the DOM only: the widget's container
    /// (`div.g-recaptcha`, `div.h-captcha`, `div.cf-turnstile`) or an iframe or script whose
    /// address has the provider's host or path (`google.com/recaptcha`, `/recaptcha/api2/`,
    /// `hcaptcha.com`, `/hcaptcha.html`, `challenges.cloudflare.com`, `/turnstile/v0/`), so it
    /// needs no network and sees a widget that has not loaded. Invisible widgets (reCAPTCHA v3's
    /// `render=KEY`, `size=invisible`, `data-size="invisible"`), which score a visitor without
    /// asking anything, do not count.
    static let detectionScript = """
        (() => {
            const invisible = /[?&#](size=invisible|render=(?!explicit|onload)[^&]+)/;
            const sources = [...document.querySelectorAll('iframe[src], script[src]')].map((element) => element.src)
                .filter((source) => !invisible.test(source));
            const containers = (selector) => [...document.querySelectorAll(selector)].filter((element) => element.dataset.size !== 'invisible');
            const shows = (container, address) => containers(container).length > 0 || sources.some((source) => address.test(source));
            if (shows('div.g-recaptcha', /(google\\.com|recaptcha\\.net)\\/recaptcha\\/|\\/recaptcha\\/(api2|enterprise)\\/|\\/recaptcha\\/api\\.js/)) return 'reCAPTCHA';
            if (shows('div.h-captcha', /(^|[\\/.])hcaptcha\\.com\\/|\\/hcaptcha\\.html/)) return 'hCaptcha';
            if (shows('div.cf-turnstile', /challenges\\.cloudflare\\.com\\/|\\/turnstile\\/v0\\//)) return 'turnstile';
            return null;
        })()
        """
}
