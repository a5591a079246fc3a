/// How one Swift class appears in Lua: its name and the properties Lua sees.
///
/// The runtime knows nothing else about the class. `LunetteBridge` builds
/// these from key paths for `@Observable` classes; any host can build one by
/// hand for other kinds of objects.
public struct HostType {
    /// One property visible to Lua.
    public struct Property {
        /// The name Lua uses: `object.name`.
        public let name: String
        /// Reads the property of an instance.
        public let get: (AnyObject) -> LuaValue
        /// Writes it; nil for a read-only property. Throws `LuaConversionError`.
        public let set: ((AnyObject, LuaValue) throws -> Void)?
        /// Calls `onChange` once, the next time the property (or anything its
        /// getter reads) is about to change. May be called on any thread.
        public let observe: (AnyObject, @escaping @Sendable () -> Void) -> Void
        /// For an array property: its count and one element, read without
        /// building the whole array (so `ipairs` over it is linear). Nil:
        /// `get` is used.
        public let elements: Elements?

        /// Reading an array property's elements one at a time.
        public struct Elements {
            /// How many elements an instance's array holds now.
            public let count: (AnyObject) -> Int
            /// The element at a 0-based index, nil past the end: another
            /// thread may have shrunk the array since `count` was read.
            public let element: (AnyObject, Int) -> AnyObject?

            /// Reads an array property's elements one at a time (`count`, then `element(i)`).
            public init(count: @escaping (AnyObject) -> Int, element: @escaping (AnyObject, Int) -> AnyObject?) {
                self.count = count
                self.element = element
            }
        }

        /// A property: `get` reads it, `set` writes it (nil: Lua may only read it),
        /// `observe` registers one change callback (any thread), `elements` reads an
        /// array of objects one at a time.
        public init(name: String,
                    get: @escaping (AnyObject) -> LuaValue,
                    set: ((AnyObject, LuaValue) throws -> Void)?,
                    observe: @escaping (AnyObject, @escaping @Sendable () -> Void) -> Void,
                    elements: Elements? = nil) {
            self.name = name
            self.get = get
            self.set = set
            self.observe = observe
            self.elements = elements
        }
    }

    /// One method visible to Lua: `library:add(book)`.
    public struct Method {
        /// The name Lua calls: `object:name(...)`.
        public let name: String
        /// Calls it on an instance with Lua's arguments (converted); throws
        /// `LuaConversionError` (or any error) to fail the call with its message.
        public let call: (AnyObject, [LuaValue]) throws -> LuaValue
        /// How many arguments it takes, if it says (`register` refuses more
        /// than `LunetteRuntime.mostMethodArguments`: Lua could never call it).
        public let arity: Int?

        /// A method: `call` gets the instance and Lua's arguments, converted; it runs
        /// on the runtime's thread while Lua waits, and what it throws fails the Lua
        /// call with the error's description. `arity`: how many it takes, if fixed.
        public init(name: String, arity: Int? = nil, call: @escaping (AnyObject, [LuaValue]) throws -> LuaValue) {
            self.name = name
            self.arity = arity
            self.call = call
        }
    }

    /// Whether Lua's handles keep an instance alive.
    public enum Lifetime: Sendable {
        /// Lua keeps the objects it holds alive, as a SwiftUI view keeps its
        /// model (the default).
        case retained
        /// The host owns its objects: Lua holds them weakly, and a handle
        /// whose object Swift has destroyed answers "object destroyed" (R9).
        /// Objects Lua makes (`ui.types.<name>()`) are still Lua's to keep.
        case borrowed
    }

    /// The name Lua uses: `ui.types.<name>`, `Book#3`, environment keys.
    public let name: String
    /// The Swift class this describes.
    public let swiftType: AnyObject.Type
    /// The properties Lua sees, in the order they were given (`pairs` does
    /// not walk a Swift object: its properties are read by name).
    public let properties: [Property]
    /// Methods Lua may call (`obj:name(...)`).
    public let methods: [Method]
    /// Makes a new instance when Lua calls `ui.types.<name>()`; nil if Lua may not.
    public let make: (() -> AnyObject)?
    /// For ObservableObject-style classes: subscribes `onChange` to every
    /// change of the object (its objectWillChange) and returns how to cancel.
    /// Lua views holding such an object (observedObject, stateObject,
    /// environmentObject) re-render on any change; property reads are not
    /// tracked one by one. Nil for `@Observable` classes.
    public let observeObject: ((AnyObject, @escaping @Sendable () -> Void) -> (() -> Void))?
    /// Whether Lua's handles keep instances alive (`.retained` by default).
    public let lifetime: Lifetime

    /// A type as Lua sees it; register it with `LunetteRuntime.register(_:)`.
    /// Thread: build it anywhere; it is used on the runtime's thread.
    public init(name: String, swiftType: AnyObject.Type, properties: [Property], methods: [Method] = [],
                make: (() -> AnyObject)?,
                observeObject: ((AnyObject, @escaping @Sendable () -> Void) -> (() -> Void))? = nil,
                lifetime: Lifetime = .retained) {
        self.lifetime = lifetime
        self.name = name
        self.swiftType = swiftType
        self.properties = properties
        self.methods = methods
        self.make = make
        self.observeObject = observeObject
    }
}
