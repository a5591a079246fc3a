/// The mounted apps, and how views are numbered within them.
struct Mounting {
    var appsByID: [Int32: App] = [:]
    var nextAppID: Int32 = 1
    /// While `reload` runs: the apps its mounts replace, in order — those
    /// its script mounted before, never another script's.
    var reloading: [App]?
    /// While a script runs (`run`, `reload`): its chunk name ("@path"), given
    /// to the apps it mounts; a reload of that file replaces them alone.
    var running: String?
    /// The texts of the files that built views, for the next reload to move lines with their views,
    /// and, while a reload runs, what it moves at its first mount (before anything renders).
    var lines = ReloadLines()
    var lineMoves: ReloadLines.Moves?
    /// The apps that took this reload's lines so far, and those whose views
    /// ran in it before their mount.
    var movedApps: Set<Int32> = []
    var ranEarly: Set<Int32> = []
    /// How many views of each type (or rows, key -1) were made: "BookView#3".
    var viewOrdinals: [Int32: Int] = [:]
}

/// Names that labels and messages use.
struct Labels {
    /// View type names and their ids (output.view_type), shared with the apps.
    let viewTypes = ViewTypes()
    /// The key of each environment entry's node.
    var environmentKeys: [Int32: String] = [:]
}

/// View type names by id, one id per name: a script run again (:reload,
/// --watch) keeps its views' identities. A class, so that an app asks it
/// without holding its runtime (a weak reference to the runtime would give
/// it a side table and make every retain of it slow).
final class ViewTypes {
    private var names: [String] = []
    private var ids: [String: Int32] = [:]

    /// The id of `name`, numbering it if it is new.
    func id(for name: String) -> Int32 {
        if let id = ids[name] { return id }
        names.append(name)
        let id = Int32(names.count)
        ids[name] = id
        return id
    }

    /// The id of `name` if a view of that type was ever described.
    func existingID(for name: String) -> Int32? { ids[name] }

    /// The name numbered `id` ("View" for none).
    func name(of id: Int32) -> String {
        id >= 1 && Int(id) <= names.count ? names[Int(id) - 1] : "View"
    }
}
