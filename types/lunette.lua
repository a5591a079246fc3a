---@meta lunette
-- Type annotations for lua-language-server: completion and checking for
-- require("lunette"). Not loaded at run time. See README, "Editor set-up".

---@class ui
---@field version string
---@field types table<string, ui.Class> Swift classes the host registered (ui.types.Library)
---@field Animation ui.AnimationFactory
---@field Timer { publish: fun(interval: number): ui.Timer }
---@field clock ui.Clock
---@field Binding ui.BindingFactory
local ui = {}

-- Models ---------------------------------------------------------------------

---@class ui.Class
---@overload fun(init?: table): ui.Object
local Class = {}

---@class ui.Object
---@field objectWillChange ui.Subject only on ObservableObject instances

---@class ui.Marker

---Defines an @Observable class: each property is tracked on its own.
---A function default is a per-instance factory; a table default is copied.
---@param name string
---@param properties table<string, any|ui.Marker>
---@return ui.Class
function ui.Observable(name, properties) end

---Defines an ObservableObject class: a ui.Published change invalidates every holder.
---@param name string
---@param properties table<string, any|ui.Marker>
---@return ui.Class
function ui.ObservableObject(name, properties) end

---A @Published property of an ObservableObject.
---@param default any
---@return ui.Marker
function ui.Published(default) end

---A computed property: memoised, tracked through what `fn` reads.
---@param fn fun(self: ui.Object): any
---@return ui.Marker
function ui.computed(fn) end

---An @ObservationIgnored property: stored, never tracked.
---@param default any
---@return ui.Marker
function ui.ignored(default) end

---An optional environment entry: nil instead of an error when missing.
---@param type ui.Class
---@return ui.Marker
function ui.optional(type) end

---Declares a state or a property that starts nil, as `@State var library: Library?` does:
---`state = { library = ui.none }`.
---@type ui.Marker
ui.none = nil

---The stable identity of an object: "Book#3".
---@param object ui.Object
---@return string
function ui.id(object) end

-- Views ----------------------------------------------------------------------

---@class ui.ViewDefinition
---@field body fun(self: table): ui.ViewValue
---@field state? table<string, any> @State: function initials run once per identity, with self
---@field binding? string[] @Binding inputs
---@field bindable? string[] @Bindable inputs
---@field environment? table<string, ui.Class|string|ui.Marker> by type, by key, or ui.optional(Type)
---@field stateObject? table<string, fun(self: table): ui.Object> @StateObject factories
---@field observedObject? string[] @ObservedObject inputs
---@field environmentObject? table<string, ui.Class> @EnvironmentObject types
---@field properties? table<string, ui.DynamicProperty> DynamicProperty bundles, read as self.name
---@field focusState? table<any, string|false> @FocusState: names (nil when no field has focus), or `name = false` (a Bool one)
---@field appStorage? table<string, any> @AppStorage: name = default (stored under the name) or ui.AppStorage(key, default)
---@field sceneStorage? table<string, any> @SceneStorage: name = default, kept per scene (lunette run: per script)
---@field inputs? table plain inputs, as a memberwise initializer: { "book", count = 0 } — listed names required, name = default optional (ui.none: nil); with it, a name no input section declares is an error

---@class ui.DynamicProperty
---A reusable bundle of dynamic properties with an update hook (SwiftUI's
---DynamicProperty). Define methods on it: function Paged:next() ... end.

---@class ui.DynamicPropertyDefinition
---Any section a view has; appStorage and sceneStorage names are their store
---keys (not prefixed with the property's name). Its inputs (binding, bindable,
---observedObject) come from the caller of the view that includes it, under the
---property's name: Chooser { sel = { value = self["$picked"] } }. Properties
---nest (at most 8 deep): self.sel.inner.x; updates run innermost first.
---@field state? table<string, any> its own @State, per view identity
---@field environment? table<string, ui.Class|string|ui.Marker> its environment reads
---@field appStorage? table<string, any> @AppStorage: name = default (stored under the name) or ui.AppStorage(key, default)
---@field sceneStorage? table<string, any> @SceneStorage: name = default, kept per scene
---@field focusState? table<any, string|false> @FocusState names
---@field stateObject? table<string, fun(self: table): any> @StateObject factories
---@field environmentObject? table<string, ui.Class> @EnvironmentObject types
---@field binding? string[] @Binding inputs, passed under the property's name
---@field bindable? string[] @Bindable inputs, passed under the property's name
---@field observedObject? string[] @ObservedObject inputs, passed under the property's name
---@field properties? table<string, ui.DynamicProperty> properties it holds
---@field update? fun(p: table) runs before each body of a view that includes it

---@param name string
---@param definition ui.DynamicPropertyDefinition
---@return ui.DynamicProperty
function ui.DynamicProperty(name, definition) end

---@class ui.ViewType
---@overload fun(inputs?: table): ui.ViewValue
---@field name string

---Defines a view: a body function, or a definition with property-wrapper sections.
---@param name string
---@param definition ui.ViewDefinition|fun(self: table): ui.ViewValue
---@return ui.ViewType
function ui.View(name, definition) end

---A view description, as a body returns it. Modifiers return the view.
---@class ui.ViewValue
local View = {}
---@param objectOrKey any @an object (by its type) or a key declared with ui.EnvironmentKey
---@param value? any
---@return ui.ViewValue
function View:environment(objectOrKey, value) end
---@param object ui.Object an ObservableObject
---@return ui.ViewValue
function View:environmentObject(object) end
---A sheet over the whole screen (fullScreenCover(isPresented:onDismiss:content:),
---(item:onDismiss:content:)): as view:sheet, its node a Sheet with style="fullScreenCover".
---@param isPresented ui.Binding|{ item: ui.Binding, onDismiss?: fun() }
---@param content ui.ViewValue|fun(item?: any): ui.ViewValue
---@param options? { onDismiss: fun() }
---@return ui.ViewValue
function View:fullScreenCover(isPresented, content, options) end
---A popover (popover(isPresented:…), popover(item:…)): as view:sheet, its
---node a Sheet with style="popover".
---@param isPresented ui.Binding|{ item: ui.Binding, onDismiss?: fun() }
---@param content ui.ViewValue|fun(item?: any): ui.ViewValue
---@param options? { onDismiss: fun() }
---@return ui.ViewValue
function View:popover(isPresented, content, options) end
---A confirmation dialog (confirmationDialog(_:isPresented:titleVisibility:actions:message:)):
---as view:alert, its node an Alert with style="confirmationDialog", and a
---"Cancel" button (role cancel) unless one of the actions has that role.
---@param title string
---@param isPresented ui.Binding
---@param actions ui.ViewValue[] buttons (ui.Button(label, fn, { role = "destructive" }))
---@param message? string
---@return ui.ViewValue
function View:confirmationDialog(title, isPresented, actions, message) end
---Derives the subtree's value of a declared key from the one it inherits
---(SwiftUI's transformEnvironment(_:transform:)): fn gets the value (a plain
---table as a copy) and returns the new one; returning nothing keeps the
---copy as fn changed it (an inout parameter). A built-in value (colorScheme, …)
---must stay one the key can hold; isEnabled, isPresented and dismiss cannot be transformed.
---@param key string a key declared with ui.EnvironmentKey or ui.Entry, or a built-in one
---@param fn fun(value: any): any
---@return ui.ViewValue
function View:transformEnvironment(key, fn) end
---@param value any
---@param action fun(old: any, new: any)
---@param options? { initial: boolean }
---@return ui.ViewValue
function View:onChange(value, action, options) end
---@param publisher ui.Subject|ui.Timer
---@param action fun(value: any)
---@return ui.ViewValue
function View:onReceive(publisher, action) end
---@param fn fun() runs as a task from the clock's next tick: it may ui.sleep(s) and ui.await(publisher); cancelled when the view goes
---@param options? { id: any } with an id, the task is cancelled and started again when the id changes
---@return ui.ViewValue
function View:task(fn, options) end
---@param fn fun()
---@return ui.ViewValue
function View:onAppear(fn) end
---The field is focused while the binding holds value (true if omitted), as .focused($focus, equals:).
---The binding must reach a focusState name (self["$field"]); a plain state's is an error.
---@param binding ui.Binding
---@param value? any
---@return ui.ViewValue
function View:focused(binding, value) end
---A value for ancestors' :onPreferenceChange(key, fn).
---@param key string
---@param value any
---@return ui.ViewValue
function View:preference(key, value) end
---fn(value) after an update that changed the key's value, reduced over this view's subtree.
---@param key string
---@param fn fun(value: any)
---@return ui.ViewValue
function View:onPreferenceChange(key, fn) end
---@param fn fun()
---@return ui.ViewValue
function View:onDisappear(fn) end
---@param id any a changed id gives a new view (state anew)
---@return ui.ViewValue
function View:id(id) end
---One a view value. Written after its :transaction, it is outside it: fn sees (and may take
---away) the animation this inserts; written before, the transaction cannot take it away.
---@param animation ui.Animation|nil nil: the view's changes do not animate when value changes
---@param value any
---@return ui.ViewValue
function View:animation(animation, value) end
---Changes the transaction of every animation within this view, the bodies of views inside it included (an empty one when none); disablesAnimations stops implicit :animation(a, value) (withAnimation's animation stays; t.animation = nil removes it). One a view value.
---@param fn fun(t: ui.Transaction)
---@param options? { value: any } value: fn runs only in an update in which it changed (transaction(value:_:))
---@return ui.ViewValue
function View:transaction(fn, options) end
---Presents content while isPresented is true; or, given { item = binding }, content(item)
---while the binding holds a value (sheet(item:)); the sheet's `dismiss` sets it false / nil.
---onDismiss runs once each time the sheet goes ({ onDismiss = fn } third, or in the item table),
---and when the item changes to another (by id): that sheet is replaced by a fresh one.
---@param isPresented ui.Binding|{ item: ui.Binding, onDismiss?: fun() }
---@param content ui.ViewValue|fun(item?: any): ui.ViewValue
---@param options? { onDismiss?: fun() }
---@return ui.ViewValue
function View:sheet(isPresented, content, options) end
---ForEach's onDelete(perform:): fn(indices), the 1-based indices of the rows to delete
---(SwiftUI's IndexSet of offsets); node:delete() in tests. Only on a ForEach over data; nil: none.
---@param fn? fun(indices: integer[])
---@return ui.ViewValue
function View:onDelete(fn) end
---ForEach's onMove(perform:): fn(indices, to) — `to` is the position the rows go before,
---counted before they move (1 ... #data + 1: SwiftUI's destination offset + 1); node:move(to).
---While an editMode in the List's environment is "inactive", rows cannot move (no movable=).
---@param fn? fun(indices: integer[], to: integer)
---@return ui.ViewValue
function View:onMove(fn) end
---swipeActions(edge:allowsFullSwipe:content:): a SwipeActions node after the view's content.
---@param buttons ui.ViewValue[]
---@param options? { edge?: "trailing"|"leading", allowsFullSwipe?: boolean }
---@return ui.ViewValue
function View:swipeActions(buttons, options) end
---searchable(text:prompt:): a search field (a TextField with searchable=true) bound to text.
---@param text ui.Binding
---@param options? { prompt?: string }
---@return ui.ViewValue
function View:searchable(text, options) end
---refreshable(action:): node:refresh() runs fn as a task (it may ui.sleep, ui.await); the
---node shows refreshing=true until it ends; a refresh while one runs does nothing. It sets
---`refresh` in the environment of the views inside (a ui.RefreshAction): a List inside
---offers the refresh (refreshable=true), and a view reading "refresh" calls it.
---@param fn fun()
---@return ui.ViewValue
function View:refreshable(fn) end
---navigationDestination(for:destination:): a value of type T on the path of the stack around
---the view becomes fn(value)'s screen. T: a model class, a host type, or "string", "number",
---"boolean", "table"; ({ ["for"] = T }, fn) is the same.
---@param forType any|{ ["for"]: any }
---@param fn fun(value: any): ui.ViewValue
---@return ui.ViewValue
function View:navigationDestination(forType, fn) end
---toolbar(content:): a Toolbar node after the view's content, holding the items.
---@param items ui.ViewValue[]
---@param options? { placement?: string } automatic, primaryAction, confirmationAction, cancellationAction, destructiveAction, navigation, principal, status, bottomBar, topBarLeading, topBarTrailing
---@return ui.ViewValue
function View:toolbar(items, options) end
---Shows an Alert (title, then the buttons) while isPresented is true; any button dismisses it.
---@param title string
---@param isPresented ui.Binding
---@param actions? ui.ViewValue[] ui.Button values (default: one "OK")
---@param message? string shown under the title
---@return ui.ViewValue
function View:alert(title, isPresented, actions, message) end
---@param title string
---@return ui.ViewValue
function View:navigationTitle(title) end
---A Font's text style: "largeTitle", "title", "title2", "title3", "headline",
---"subheadline", "body", "callout", "footnote", "caption", "caption2".
---@param name "largeTitle"|"title"|"title2"|"title3"|"headline"|"subheadline"|"body"|"callout"|"footnote"|"caption"|"caption2"
---@return ui.ViewValue
function View:font(name) end
---A finite length (none: the default padding), or the edges it pads and
---then the length, as SwiftUI's padding(_:_:): `:padding("horizontal", 16)`,
---`:padding({ "top", "leading" }, 8)`.
---@alias ui.Edge "all"|"top"|"bottom"|"leading"|"trailing"|"horizontal"|"vertical"
---@param edgesOrLength? number|ui.Edge|ui.Edge[]
---@param length? number
---@return ui.ViewValue
function View:padding(edgesOrLength, length) end
---A colour: a SwiftUI Color's name ("red", "secondary", "accentColor", ...),
---"#rrggbb" (3, 4, 6 or 8 hex digits), "rgb(r, g, b)" or "rgba(r, g, b, a)".
---@param style string
---@return ui.ViewValue
function View:foregroundStyle(style) end
---@param style "automatic"|"plain"|"roundedBorder"
---@return ui.ViewValue
function View:textFieldStyle(style) end
---@param style "automatic"|"bordered"|"borderedProminent"|"borderless"|"plain"
---@return ui.ViewValue
function View:buttonStyle(style) end
---@param scale number
---@return ui.ViewValue
function View:scaleEffect(scale) end
---A colour, as :foregroundStyle takes it.
---@param color string
---@return ui.ViewValue
function View:background(color) end
---@param action fun()
---@return ui.ViewValue
function View:onSubmit(action) end
---From 0 (fully transparent) to 1 (fully opaque).
---@param value number
---@return ui.ViewValue
function View:opacity(value) end
---Recorded on the node: SwiftUI's two frame modifiers as one table — a fixed
---size, { width = 120, height = 44 }, or a flexible one, { minWidth, idealWidth,
---maxWidth, minHeight, idealHeight, maxHeight } (sizes from 0, min <= ideal <=
---max; a maximum may be math.huge) — and an `alignment`; not both kinds.
---@param size { width: number?, height: number?, minWidth: number?, idealWidth: number?, maxWidth: number?, minHeight: number?, idealHeight: number?, maxHeight: number?, alignment: string? }
---@return ui.ViewValue
function View:frame(size) end
---bold(_ isActive: Bool = true): false applies none.
---@param isActive? boolean
---@return ui.ViewValue
function View:bold(isActive) end
---italic(_ isActive: Bool = true): false applies none.
---@param isActive? boolean
---@return ui.ViewValue
function View:italic(isActive) end
---`.disabled(_:)`: with true, the view and every view inside it (across
---bodies) refuse taps, typing, toggling, stepping, picking and focus, with an
---error naming the node; `isEnabled` reads false inside (D09).
---@param disabled? boolean
---@return ui.ViewValue
function View:disabled(disabled) end
---The value a Picker option view picks (Text("Vanilla").tag(Flavor.vanilla)):
---ui.Picker("Flavor", self["$flavor"], { ui.Text("Vanilla"):tag("vanilla") }).
---@param value any
---@return ui.ViewValue
function View:tag(value) end

---@param text string|number
---@return ui.ViewValue
function ui.Text(text) end
---SwiftUI's ProgressView: indeterminate without a value; else value of total
---(1 by default), pinned to 0...total.
---@param label? string
---@param value? number
---@param total? number
---@return ui.ViewValue
function ui.ProgressView(label, value, total) end
---@param label string|ui.ViewValue a string, or a view (Button(action:label:): a tap on any node of it taps the button)
---@param action fun()
---@param options? { role?: "cancel"|"destructive" } Button(_:role:action:)
---@return ui.ViewValue
function ui.Button(label, action, options) end
---@param label string|ui.ViewValue a view as its label: Toggle(isOn:label:)
---@param isOn ui.Binding
---@return ui.ViewValue
function ui.Toggle(label, isOn) end
---@param placeholder string
---@param text ui.Binding
---@param prompt? string
---@return ui.ViewValue
function ui.TextField(placeholder, text, prompt) end
---@class ui.StackOptions
---@field spacing? number
---@field alignment? string VStack: leading|center|trailing; HStack: top|center|bottom|firstTextBaseline|lastTextBaseline

---ui.VStack{ … } or ui.VStack({ spacing = 8, alignment = "leading" }, { … }).
---@param optionsOrChildren ui.StackOptions|(ui.ViewValue|false|nil)[]
---@param children? (ui.ViewValue|false|nil)[]
---@return ui.ViewValue
function ui.VStack(optionsOrChildren, children) end
---ui.HStack{ … } or ui.HStack({ spacing = 8, alignment = "top" }, { … }).
---@param optionsOrChildren ui.StackOptions|(ui.ViewValue|false|nil)[]
---@param children? (ui.ViewValue|false|nil)[]
---@return ui.ViewValue
function ui.HStack(optionsOrChildren, children) end
---@param children (ui.ViewValue|false|nil)[]
---@return ui.ViewValue
function ui.Group(children) end
---A navigation stack: its content, then a screen per element of its path. With a path
---binding (NavigationStack(path:)), the path is yours; without one the stack keeps its own.
---A value in the path becomes a screen through destination(value) (navigationDestination).
---@overload fun(children: (ui.ViewValue|false|nil)[]): ui.ViewValue
---@param path ui.Binding a list
---@param children (ui.ViewValue|false|nil)[]
---@param destination? fun(value: any): ui.ViewValue
---@return ui.ViewValue
function ui.NavigationStack(path, children, destination) end
---A link that pushes destination onto the nearest stack's path (node:tapLink() in tests; a
---tap on any node of a view label follows it). A value is shown by the :navigationDestination
---for its type (or the stack's destination function). An explicit nil value disables the link.
---@param label string|ui.ViewValue a string, or a view (NavigationLink(destination:label:))
---@param destination ui.ViewValue|fun(): ui.ViewValue|any|nil a view, a function making one at the tap, or a value (nil: disabled)
---@return ui.ViewValue
function ui.NavigationLink(label, destination) end
---A lazy list: rows in their own scope, only a window realised. Or a static list of children.
---With a selection first, List(selection:): ui.List({ selection = self["$chosen"] }, data, row)
---or ui.List({ selection = … }, { … }); a row stands for its element's id (a child view: its
---:tag); the binding holds one value (or nil), or a set { [id] = true } for several. A selected
---row shows selected=true (a row of data on its Row node, a tagged child view on its own).
---@overload fun(options: { selection: ui.Binding }, data: table, row: fun(element: any, index: integer): ui.ViewValue): ui.ViewValue
---@overload fun(options: { selection: ui.Binding }, children: (ui.ViewValue|false|nil)[]): ui.ViewValue
---@param data table|ui.Object[]|(ui.ViewValue|false|nil)[] a list (a table of keys is an error)
---@param row? fun(element: any, index: integer): ui.ViewValue
---@return ui.ViewValue
function ui.List(data, row) end
---@param data table
---@param row fun(element: any, index: integer): ui.ViewValue
---@return ui.ViewValue
function ui.ForEach(data, row) end
---@param minLength? number
---@return ui.ViewValue
function ui.Spacer(minLength) end
---An image by its name, or a named symbol: ui.Image{ systemName = "star.fill" }
---(Image(systemName:); its node shows the name and systemName=true).
---@param nameOrSymbol string|{ systemName: string }
---@return ui.ViewValue
function ui.Image(nameOrSymbol) end
---Label(_:systemImage:): a title with a symbol (its node shows systemImage="…").
---@param title string|number
---@param systemImage string
---@return ui.ViewValue
function ui.Label(title, systemImage) end
---A line between other content (Divider()).
---@return ui.ViewValue
function ui.Divider() end
---ScrollView(_:showsIndicators:content:): ui.ScrollView{ … }, ui.ScrollView("horizontal", { … })
---or ui.ScrollView({ axes = { "horizontal", "vertical" }, showsIndicators = false }, { … }).
---@param axesOrOptionsOrChildren "vertical"|"horizontal"|{ axes?: string|string[], showsIndicators?: boolean }|ui.ViewValue[]
---@param children? ui.ViewValue[]
---@return ui.ViewValue
function ui.ScrollView(axesOrOptionsOrChildren, children) end
---A TextField whose text is never shown: its node's value is one bullet per character, and
---what its binding reaches is secret from then on (that instance and its declaration, the
---reads of a ui.Binding(get, set) included): :state, the preview's inspector, a Binding's
---and a model's tostring show it as those bullets.
---@param placeholder string
---@param text ui.Binding
---@param prompt? string
---@return ui.ViewValue
function ui.SecureField(placeholder, text, prompt) end
---DatePicker(_:selection:in:displayedComponents:): a date is a number of seconds since 1970
---(as the bridge carries a Swift Date); the node shows it as its value and, in UTC, as `date`;
---node:setValue(seconds) picks one within the range.
---@param label string
---@param selection ui.Binding a number: seconds since 1970
---@param options? { range?: number[], displayedComponents?: "date"|"hourAndMinute"|string[] }
---@return ui.ViewValue
function ui.DatePicker(label, selection, options) end
---@return ui.ViewValue
function ui.EmptyView() end
---ui.ZStack{ … } or ui.ZStack({ alignment = "bottomTrailing" }, { … }).
---@param optionsOrChildren { alignment?: string }|ui.ViewValue[]
---@param children? ui.ViewValue[]
---@return ui.ViewValue
function ui.ZStack(optionsOrChildren, children) end
---@param children ui.ViewValue[]
---@return ui.ViewValue
function ui.Form(children) end
---Section(_:content:footer:); `ui.Section(nil, children)` or `ui.Section(children)`
---has no header; the content is a list of views or one view.
---@param header string|ui.ViewValue[]|nil
---@param children? ui.ViewValue[]|ui.ViewValue
---@param footer? string
---@return ui.ViewValue
function ui.Section(header, children, footer) end
---Options are values, or views tagged with the value each picks (ui.Text("Vanilla"):tag("vanilla")),
---or a ui.ForEach over data whose rows are tagged with their elements' ids (a plain value: itself)
---unless a row has its own :tag: then the node shows `labels` beside `options`, and
---node:select takes the value.
---@param label string
---@param binding ui.Binding
---@param options any[]|ui.ViewValue[]
---@return ui.ViewValue
function ui.Picker(label, binding, options) end
---@param binding ui.Binding
---@param range? number[]|{ step: number } { low, high }, 0...1 if left out (the options may take its place)
---@param options? { step: number } step: the value lands on low, low + step, ... (Slider(value:in:step:))
---@return ui.ViewValue
function ui.Slider(binding, range, options) end
---@param label string
---@param binding ui.Binding
---@param range? number[]|{ step?: number } { low, high }; no bounds if left out (the options may take its place)
---@param options? { step?: number } step: by how much a tap moves it (1)
---@return ui.ViewValue
function ui.Stepper(label, binding, range, options) end

-- Environment ----------------------------------------------------------------

---Declares an environment key and its default (a function runs once, lazily).
---The built-in values need no declaration (and cannot be declared again):
---"colorScheme" ("light"|"dark"), "locale" ("en_US"), "scenePhase"
---("active"|"inactive"|"background"), "editMode" (nil or a Binding to
---"inactive"|"transient"|"active"), "isPresented" (read-only), "isEnabled",
---"dismiss" (read-only), "refresh" (a ui.RefreshAction inside :refreshable, else nil;
---read-only) and "openURL" (fun(url: string); set your own with
---:environment("openURL", function(url) return "handled"|"discarded"|"systemAction" end)).
---@param name string
---@param default any|fun(): any
---@return string
function ui.EnvironmentKey(name, default) end

---Declares a preference key: values children set with :preference reach
---ancestors' :onPreferenceChange after the update, reduced in tree order
---(reduce(acc, next) -> acc; without it the last value wins).
---@param name string
---@param default any
---@param reduce? fun(acc: any, next: any): any
---@return string
function ui.PreferenceKey(name, default, reduce) end

---A key transactions carry (SwiftUI's TransactionKey), read as t[name] in view:transaction.
---@param name string
---@param default any
---@return string
function ui.TransactionKey(name, default) end

---Runs fn in a transaction that carries key = value (and the current one's other fields).
---@param key string a TransactionKey, "animation" or "disablesAnimations"
---@param value any
---@param fn fun()
function ui.withTransaction(key, value, fn) end

---@class ui.Transaction
---@field animation ui.Animation|nil the animation its changes render with
---@field disablesAnimations boolean true: :animation(a, value) adds no animation (the transaction's own stays)
---Declared TransactionKeys read as fields (their default when not set).

---A value kept in app storage under `key` (@AppStorage("key")), for an appStorage section.
---@param key string
---@param default boolean|number|string|table|nil
---@return ui.Marker
function ui.AppStorage(key, default) end

---Declares an environment key with its default in one line, as @Entry does.
---@param name string
---@param default any|fun(): any
---@return string
function ui.Entry(name, default) end

---The environment's `refresh` inside :refreshable(fn) (RefreshAction): call it to start the
---refresh (fn as a task; once at a time). tostring: "RefreshAction".
---@class ui.RefreshAction
---@overload fun()

-- Bindings, animation, publishers ---------------------------------------------

---@class ui.Binding
local Binding = {}
---@return any
function Binding:get() end
---@param value any
function Binding:set(value) end
---@param animation? ui.Animation
---@return ui.Binding
function Binding:animation(animation) end

---@class ui.BindingFactory
---@overload fun(get: fun(): any, set: fun(value: any)): ui.Binding
local BindingFactory = {}
---@param value any
---@return ui.Binding
function BindingFactory.constant(value) end

---Bindings to an observable's properties: ui.Bindable(book).title
---@param object ui.Object
---@return table<string, ui.Binding>
function ui.Bindable(object) end

---@class ui.Animation

---@class ui.AnimationFactory
---@field default ui.Animation
local AnimationFactory = {}
---@param duration? number
---@return ui.Animation
function AnimationFactory.linear(duration) end
---@param duration? number
---@return ui.Animation
function AnimationFactory.easeIn(duration) end
---@param duration? number
---@return ui.Animation
function AnimationFactory.easeOut(duration) end
---@param duration? number
---@return ui.Animation
function AnimationFactory.easeInOut(duration) end
---@param response? number
---@param dampingFraction? number
---@param blendDuration? number
---@return ui.Animation
function AnimationFactory.spring(response, dampingFraction, blendDuration) end
---A spring with a base bounce of 0.3 (SwiftUI's bouncy(duration:extraBounce:)).
---@param duration? number 0.5 by default
---@param extraBounce? number added to the base bounce
---@return ui.Animation
function AnimationFactory.bouncy(duration, extraBounce) end
---A spring with no bounce (SwiftUI's smooth(duration:extraBounce:)).
---@param duration? number 0.5 by default
---@param extraBounce? number added to the base bounce
---@return ui.Animation
function AnimationFactory.smooth(duration, extraBounce) end
---A spring with a base bounce of 0.15 (SwiftUI's snappy(duration:extraBounce:)).
---@param duration? number 0.5 by default
---@param extraBounce? number added to the base bounce
---@return ui.Animation
function AnimationFactory.snappy(duration, extraBounce) end

---Changes made by fn are animated: recorded on the nodes they alter. The
---completion runs once when the animation is done by its completionCriteria
---(withAnimation(_:completionCriteria:_:completion:)): "logicallyComplete"
---(the default) after its duration on the runtime's clock; "removed" also
---after every later animation of what it changed; right after fn, before
---withAnimation returns, when fn changed nothing a view reads or the
---animation is nil (nothing animates). A nil animation runs fn with none.
---If fn raises, what it changed still animates and the completion still
---runs once; then the error is raised.
---@param animation ui.Animation|fun()|nil
---@param fn? fun()
---@param completion? fun()
---@param options? { completionCriteria: "logicallyComplete"|"removed" }
function ui.withAnimation(animation, fn, completion, options) end

---@class ui.Cancellable
local Cancellable = {}
function Cancellable:cancel() end

---@class ui.Subject
local Subject = {}
---@param value any
function Subject:send(value) end
---@param fn fun(value: any)
---@return ui.Cancellable
function Subject:sink(fn) end

---@return ui.Subject
function ui.Subject() end

---@class ui.Timer
local Timer = {}
---@return ui.Timer
function Timer:autoconnect() end
---@param fn fun(now: number)
---@return ui.Cancellable
function Timer:sink(fn) end

---Suspends the running task for `seconds` on the runtime's clock. Raises
---ui.CancellationError if the task is (or gets) cancelled.
---@param seconds number
function ui.sleep(seconds) end

---Suspends the running task until the publisher sends; returns the value.
---Raises ui.CancellationError if the task is (or gets) cancelled.
---@param publisher ui.Subject|ui.Timer
---@return any
function ui.await(publisher) end

---Inside a task: `for value in ui.observations(function() return book.title end) do ... end`
---(or over a sequence kept in a variable, by several loops): fn first runs at the first
---iteration, then after every flush in which what it read changed, each run a value, equal
---or not; a nil value arrives as ui.none (the loop goes on); no buffer (a slow loop gets the
---current value); an error fn raises ends the loops iterating then with it, and the sequence
---stays finished (a later loop ends at once, with no value); a cancelled task's loop ends
---normally, the others go on. As Swift's Observations (SE-0475, D04).
---@class ui.observations
---@overload fun(fn: fun(): any): (fun(_: any, control: any): any), nil, nil, table
ui.observations = {}

---SE-0475's `.finished`: what an untilFinished closure returns to end every loop normally.
ui.observations.finished = {}

---Observations.untilFinished: as ui.observations, but fn returns ui.observations.finished
---to end the sequence (every loop ends normally; a later loop ends at once); any other
---value, nil included (as ui.none), is the next value.
---@param fn fun(): any
---@return fun(_: any, control: any): any, nil, nil, table
function ui.observations.untilFinished(fn) end

---The error a cancelled task's ui.sleep/ui.await raise (compare with ==).
---@type userdata
ui.CancellationError = nil

---Whether the running task was cancelled (false outside a task), as Task.isCancelled.
---@return boolean
function ui.isCancelled() end

---@class ui.Clock
local Clock = {}
---@return number
function Clock.now() end
---Moves the virtual clock (lunette test), running what falls due.
---@param seconds number
function Clock.advance(seconds) end

-- Running and inspecting ------------------------------------------------------

---@class ui.App
local App = {}
---@return string
function App:tree() end
---@return string
function App:json() end
---The first node matching, in tree order; when none does, nil and — if lazy
---Lists hold rows outside their windows — why a match may still exist.
---@param query string|{ type?: string, text?: string, id?: any }
---@return ui.Node?
---@return string?
function App:find(query) end
---@param query string|{ type?: string, text?: string, id?: any }
---@return ui.Node[]
function App:findAll(query) end
---Body runs of a view type ("BookView") or of one instance ("BookView#2").
---@param viewName string
---@return integer
function App:renders(viewName) end
---Every render count back to 0.
function App:resetRenders() end
---@param view ui.Node|string
---@return string[]
function App:dependencies(view) end
---@return string[]
function App:warnings() end
---@return string[]
function App:trace() end
function App:unmount() end

---@class ui.Node
---@field type string
---@field text string?
---@field label string?
---@field value string?
local Node = {}
function Node:tap() end
---Follows a NavigationLink: pushes its destination onto the stack's path.
function Node:tapLink() end
---Flips a Toggle (any other node is an error naming it).
function Node:toggle() end
---Types into a TextField or a SecureField (any other node is an error naming it).
---@param text string
function Node:setText(text) end
function Node:submit() end
---@return string
function Node:tree() end
---Focuses a field that has :focused(binding, value), as a click would, then flushes.
function Node:focus() end
---Picks one of a Picker's options (a tagged option view: its tag); on a List with a
---selection, a row's value (several: toggles it in the set).
---@param value any
function Node:select(value) end
---Moves a Slider (or sets a Stepper) within its range; picks a DatePicker's date (seconds since 1970).
---@param value number
function Node:setValue(value) end
---A Stepper's step up or down, kept within its range.
function Node:increment() end
function Node:decrement() end
---Moves a lazy List's window to start at `row` (as far as the rows go), then flushes;
---an error when the List is disabled (:disabled(true) on it or a view around it).
---@param row integer
function Node:scroll(row) end
---Deletes the list row the node is in: its ForEach's onDelete runs with { index }.
function Node:delete() end
---Moves the list row the node is in before position `to` (counted before the move): onMove runs;
---an error while an editMode in the List's environment is "inactive".
---@param to integer
function Node:move(to) end
---Pulls to refresh a view with :refreshable, or a List inside one: its action runs as a task.
function Node:refresh() end

---Mounts and renders a view.
---@param view ui.ViewValue|ui.ViewType
---@return ui.App
function ui.mount(view) end

---Runs pending updates now.
function ui.flush() end

---A fresh start, as between two tests: every app unmounted, every effect and
---task cancelled (their cleanup runs), the virtual clock back at 0.
function ui.reset() end

---Runs fn now, and again after each flush where what it read changed.
---@param fn fun()
---@return ui.Cancellable
function ui.effect(fn) end

---listWindow: rows a List realises; timeBudget: lower the host's budget (s);
---strict: every body runs twice and must describe the same tree, and bodies
---may not write observable state (T08).
---@param options { listWindow?: integer, timeBudget?: number, strict?: boolean }
function ui.configure(options) end

---Logs why views re-render (and prints each line).
---@param on boolean
function ui.trace(on) end

return ui
