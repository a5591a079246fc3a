/// The mounted apps, and how views are numbered within them.
struct Mounting {
    var appsByID: [Int32: App] = [:]
    var nextAppID: Int32 = 1
    /// While `reload` runs: the apps its mounts replace, in order.
    var reloading: [App]?
    /// How many views of each type (or rows, key -1) were made: "BookView#3".
    var viewOrdinals: [Int32: Int] = [:]
}

/// Names that labels and messages use.
struct Labels {
    /// View type names by id (output.view_type), and the id of each name.
    var viewTypeNames: [String] = []
    var viewTypeIDs: [String: Int32] = [:]
    /// The key of each environment entry's node.
    var environmentKeys: [Int32: String] = [:]
}
