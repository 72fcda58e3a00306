/// A pool's place that lends a session its kept web view (``WebAuthenticationOptions/reusableView``).
/// The page layer's ``ReusableView`` is the one kind there is: the options carry it under this
/// name so that they, below the page, never name the page's types.
protocol KeptViewPlace: AnyObject, Sendable {}
