import CLunette

/// One node of a rendered tree: a built-in view (Text, Button, ...), a
/// component (a `ui.View`), a list row, or an error that stands where a view
/// failed. Hosts read trees through `LunetteRuntime.trees` / `App.root`.
public final class RenderNode {
    /// The kind of view a node shows.
    public enum Kind: Int32, CaseIterable {
        case text = 1, button, toggle, textField, vStack, hStack, group, list
        case forEach, navigationStack, spacer, image, emptyView, component, row, error, sheet

        /// The name shown in trees and used by `app:find{ type = ... }`.
        public var name: String {
            switch self {
            case .text: return "Text"
            case .button: return "Button"
            case .toggle: return "Toggle"
            case .textField: return "TextField"
            case .vStack: return "VStack"
            case .hStack: return "HStack"
            case .group: return "Group"
            case .list: return "List"
            case .forEach: return "ForEach"
            case .navigationStack: return "NavigationStack"
            case .spacer: return "Spacer"
            case .image: return "Image"
            case .emptyView: return "EmptyView"
            case .component: return "View"
            case .row: return "Row"
            case .error: return "Error"
            case .sheet: return "Sheet"
            }
        }
    }

    /// A modifier as written in Lua, with its argument described.
    public struct Modifier: Equatable {
        public let name: String
        public let value: String
    }

    public let kind: Kind
    /// Text content, a Button/Toggle label, a TextField placeholder, an Image
    /// name, a component's view name, or an error message.
    public internal(set) var text: String?
    public internal(set) var modifiers: [Modifier] = []
    /// Other facts: a Toggle's "value" (on/off), a TextField's "value",
    /// "hiddenRows" of a lazy List, an error's "view" and "location".
    public var attributes: [(name: String, value: String)] { ownAttributes + (unit?.outputAttributes ?? []) }

    var ownAttributes: [(name: String, value: String)] = []

    var ownChildren: [RenderNode] = []
    /// The animation that applies to changes of this node in the run that built it.
    var animation: String?
    /// The unit this node hosts (component, list content, row); its output is this node's content.
    var unit: Unit?
    /// The unit whose output holds this node (its Lua values live in that unit's record).
    weak var owner: Unit?
    /// The owner's generation whose output this node is (older nodes are stale).
    var generation = 0
    /// Lua values kept for this node (action, binding, submit): slots in its unit's `out`.
    var slots: [(role: Int32, slot: Int32)] = []

    init(kind: Kind, text: String?) {
        self.kind = kind
        self.text = text
    }

    /// The name shown in trees: the view kind, or the component's name.
    public var typeName: String { kind == .component ? (text ?? "View") : kind.name }

    /// The node's children as rendered: a component's body, a list's rows.
    public var children: [RenderNode] { unit?.output ?? ownChildren }

    /// The value of an attribute, if set.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    func slot(for role: Int32) -> Int32? {
        slots.first { $0.role == role }?.slot
    }
}
