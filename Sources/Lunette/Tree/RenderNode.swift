import CLunette

/// One node of a rendered tree: a built-in view (Text, Button, ...), a
/// component (a `ui.View`), a list row, or an error that stands where a view
/// failed. Hosts read trees through `LunetteRuntime.trees` / `App.root`.
public final class RenderNode {
    /// The kind of view a node shows. The kinds and their names are the C
    /// module's (`LUN_VIEW_KINDS` in clunette.h): one list for both languages.
    public struct Kind: Hashable, CaseIterable, CustomStringConvertible, Sendable {
        /// C's number for the kind (`LUN_VIEW_*` in clunette.h).
        public let rawValue: Int32

        /// The kind C numbered `rawValue`, or nil if C has no such kind.
        public init?(rawValue: Int32) {
            guard rawValue > 0, rawValue < Int32(LUN_VIEW_KIND_COUNT) else { return nil }
            self.rawValue = rawValue
        }

        private init(_ value: Int) { rawValue = Int32(value) }

        /// The built-in kinds, named as in trees and in `app:find{ type = ... }`.
        public static let text = Kind(LUN_VIEW_TEXT), button = Kind(LUN_VIEW_BUTTON)
        public static let toggle = Kind(LUN_VIEW_TOGGLE), textField = Kind(LUN_VIEW_TEXTFIELD)
        public static let vStack = Kind(LUN_VIEW_VSTACK), hStack = Kind(LUN_VIEW_HSTACK)
        public static let group = Kind(LUN_VIEW_GROUP), list = Kind(LUN_VIEW_LIST)
        public static let forEach = Kind(LUN_VIEW_FOREACH), alert = Kind(LUN_VIEW_ALERT)
        public static let spacer = Kind(LUN_VIEW_SPACER), image = Kind(LUN_VIEW_IMAGE)
        public static let emptyView = Kind(LUN_VIEW_EMPTY), component = Kind(LUN_VIEW_COMPONENT)
        public static let row = Kind(LUN_VIEW_ROW), error = Kind(LUN_VIEW_ERROR), sheet = Kind(LUN_VIEW_SHEET)
        /// The views people expect (issue 19): `ui.Label`, `ui.Divider`, `ui.ScrollView`,
        /// `ui.SecureField` (its value is one bullet per character) and `ui.DatePicker`.
        public static let label = Kind(LUN_VIEW_LABEL), divider = Kind(LUN_VIEW_DIVIDER)
        public static let scrollView = Kind(LUN_VIEW_SCROLLVIEW), secureField = Kind(LUN_VIEW_SECUREFIELD)
        public static let datePicker = Kind(LUN_VIEW_DATEPICKER)

        /// Every kind C defines, in C's order.
        public static let allCases: [Kind] = (1..<Int(LUN_VIEW_KIND_COUNT)).map { Kind($0) }

        private static let names: [String] = (0..<Int(LUN_VIEW_KIND_COUNT)).map { String(cString: lun_view_kind_name(Int32($0))) }

        /// The name shown in trees and used by `app:find{ type = ... }`.
        public var name: String { Kind.names[Int(rawValue)] }

        /// The kind's name: "Text", "Button".
        public var description: String { name }
    }

    /// A modifier as written in Lua, with its argument described.
    public struct Modifier: Equatable, Sendable {
        /// The modifier's name: "padding", "font".
        public let name: String
        /// Its argument as text: "8", "title".
        public let value: String
    }

    /// A presentation: a sheet (or cover, popover) or an alert (or dialog),
    /// standing under the view it was attached to.
    var isPresentation: Bool { kind == .sheet || kind == .alert }

    /// What kind of view the node shows.
    public let kind: Kind
    /// Text content, a Button/Toggle label, a TextField placeholder, an Image
    /// name, a component's view name, or an error message.
    public internal(set) var text: String?
    /// The modifiers applied to the node, in the order written.
    public internal(set) var modifiers: [Modifier] = []
    /// Other facts: a Toggle's "value" (on/off), a TextField's "value" (and
    /// "format" "number" when its binding holds a number, as
    /// `TextField(value:format:)`), "hiddenRows" of a lazy List, an error's
    /// "view" and "location".
    public var attributes: [(name: String, value: String)] { ownAttributes + (unit?.last.attributes ?? []) }

    var ownAttributes: [(name: String, value: String)] = []

    var ownChildren: [RenderNode] = []
    /// The animation that applies to changes of this node in the run that built it.
    var animation: String?
    /// The unit this node hosts (component, list content, row); its output is this node's content.
    var unit: Unit?
    /// The unit whose output holds this node (its Lua values live in that unit's record).
    /// Strong: its owner's `output` holding it is the cycle `dispose` breaks.
    var owner: Unit?
    /// The owner's generation whose output this node is (older nodes are stale).
    var generation = 0
    /// Lua values kept for this node (action, binding, submit): slots in its unit's `out`.
    var slots: [(role: Int32, slot: Int32)] = []

    init(kind: Kind, text: String?) {
        self.kind = kind
        self.text = text
    }

    /// For a component node, its view's type and identity: "BookView#2".
    public var viewLabel: String? { kind == .component ? unit?.label : nil }

    /// The unit the node hosts, as traces number its runs (`TracedRun.unit`):
    /// a component's view, a List's content, a row; nil for other nodes.
    public var hostedUnit: Int32? { unit?.id }

    /// For a component node, seconds its view's last render took (measured
    /// while tracing); nil for other nodes. Read from the node itself, so a
    /// tool walking a tree needs no lookup by label per view.
    public var lastRenderSeconds: Double? { kind == .component ? unit?.lastRenderSeconds : nil }

    /// A list row is transparent in trees (text, JSON, the preview, `find`):
    /// its content stands at its place. A row with attributes of its own —
    /// it shows a selection (`selected`, `tag`) or can be deleted or moved
    /// (`deletable`, `movable`, `index`) — is shown as a `Row` node.
    public var isTransparent: Bool { kind == .row && ownAttributes.isEmpty }

    /// The name shown in trees: the view kind, or the component's name.
    public var typeName: String { kind == .component ? (text ?? "View") : kind.name }

    /// The node's children as rendered: a component's body, a list's rows;
    /// then what its parent presented on it (a sheet, an alert).
    public var children: [RenderNode] {
        guard let unit else { return ownChildren }
        return ownChildren.isEmpty ? unit.output : unit.output + ownChildren
    }

    /// The value of an attribute, if set.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    func slot(for role: Int32) -> Int32? {
        slots.first { $0.role == role }?.slot
    }
}
