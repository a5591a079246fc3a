/// Messages kept for a host, a test or a script to read — effects' failures,
/// an app's warnings, its events' errors: the first `MessageLog.limit`, then
/// one line saying that more came and were not kept. Bounded, as all a
/// script makes is, and never silently short.
struct MessageLog {
    /// How many messages a log keeps.
    static let limit = 1000
    /// The messages kept, oldest first; past the limit, the line that says so last.
    private(set) var messages: [String] = []
    /// What the line past the limit says (e.g. "effect: more than 1000 effects failed").
    private let overflow: String

    init(overflow: String) {
        self.overflow = overflow
    }

    mutating func append(_ message: String) {
        guard messages.count < Self.limit else {
            if messages.count == Self.limit { messages.append("\(overflow): the rest are not kept") }
            return
        }
        messages.append(message)
    }
}
