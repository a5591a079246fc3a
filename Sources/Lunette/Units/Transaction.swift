/// A transaction as the scheduler carries it (ui.withAnimation,
/// ui.withTransaction): the animation its changes render with, and its id,
/// by which C finds the transaction's keys for `view:transaction(fn)`.
struct Transaction {
    var animation: String?
    var id: Int32
}
