import FlyingFox
import Foundation
import Lunette

/// What a message to a page is: every app whole, the subtrees of the views
/// that ran, or anything else (timeline entries, the overlay, replies).
enum PageMessage { case frame, patch, message }

/// What one page is waiting to be sent, bounded: a page that reads slowly,
/// or never, cannot make the process hold more than a frame and a few
/// messages for it. A frame (every app whole) replaces what is waiting of
/// the frames and patches before it (the page diffs it against what it
/// shows); patches (the subtrees of the views that ran) go in order, and a
/// page too far behind on them drops them and waits for a whole frame
/// (`isBehind`). Other messages (timeline entries, the error overlay,
/// replies) are not snapshots: past the bound the page is closed rather
/// than left showing something wrong.
final class Outbox: @unchecked Sendable {
    /// Messages (besides the frame) a page may have waiting before it is closed.
    static let maxPending = 256
    /// Bytes of messages (besides the frame) a page may have waiting before
    /// it is closed. The frame is not counted: it is one at most, the same
    /// string for every page, and as large as the trees it draws (a frame
    /// over this bound closed every page, leaving it blank).
    static let maxPendingBytes = 8 << 20

    private enum State { case open, closing, ended }

    private let lock = NSLock()
    private var pending: [(text: String, kind: PageMessage)] = []
    private var pendingBytes = 0
    private var behind = false
    /// A page is sent patches only after its first whole frame (it had nothing to patch).
    private var framed = false
    private var controls: [WSFrame] = []
    private var state = State.open
    private var waiter: CheckedContinuation<WSFrame?, Never>?

    /// Whether messages are still taken (not overflowed, not gone).
    var isOpen: Bool {
        lock.lock(); defer { lock.unlock() }
        return state == .open
    }

    /// Whether the page dropped patches it could not keep up with, and
    /// takes none until it is sent a whole frame.
    var isBehind: Bool {
        lock.lock(); defer { lock.unlock() }
        return behind && state == .open
    }

    /// Queues a message: a frame replaces the frames and patches waiting.
    func send(_ text: String, kind: PageMessage) {
        lock.lock()
        guard state == .open, !(kind == .patch && (behind || !framed)) else { lock.unlock(); return }
        if kind == .frame {
            dropSnapshotsLocked()
            behind = false
            framed = true
        }
        pending.append((text, kind))
        if kind != .frame { pendingBytes += text.utf8.count }   // a frame is one at most, shared by every page
        if pending.count > Self.maxPending || pendingBytes > Self.maxPendingBytes {
            if pending.contains(where: { $0.kind == .patch }) {   // behind on patches: a whole frame will do
                dropSnapshotsLocked()
                behind = true
            }
            if pending.count > Self.maxPending || pendingBytes > Self.maxPendingBytes {
                pending = []                  // it fell too far behind: closed, never shown a partial page
                pendingBytes = 0
                state = .closing
            }
        }
        wakeLocked()
    }

    /// Drops the frames and patches waiting (the caller holds the lock).
    private func dropSnapshotsLocked() {
        pending.removeAll { message in
            guard message.kind != .message else { return false }
            if message.kind == .patch { pendingBytes -= message.text.utf8.count }
            return true
        }
    }

    /// Queues a protocol frame (a pong, the echo of a close) ahead of
    /// messages. A pong waiting is replaced by the newest, as RFC 6455
    /// section 5.5.3 allows: a page that pings and never reads holds one
    /// (400 MB of pings held 800 MB).
    func sendControl(_ frame: WSFrame) {
        lock.lock()
        guard state != .ended else { lock.unlock(); return }
        if frame.opcode == .pong { controls.removeAll { $0.opcode == .pong } }
        controls.append(frame)
        wakeLocked()
    }

    /// The page went: nothing more is queued; control frames waiting still go.
    func finish() {
        lock.lock()
        state = .ended
        pending = []
        pendingBytes = 0
        wakeLocked()
    }

    /// The next frame to write to the page's socket; nil when it is done.
    /// Asked only when the previous one was written: the socket's pace.
    func next() async -> WSFrame? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<WSFrame?, Never>) in
                lock.lock()
                if let frame = takeLocked() {
                    lock.unlock()
                    continuation.resume(returning: frame)
                } else if state == .ended {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            finish()
        }
    }

    /// Hands the waiting writer what is ready, then unlocks.
    private func wakeLocked() {
        guard let waiter else { lock.unlock(); return }
        let frame = takeLocked()
        if frame == nil && state != .ended { lock.unlock(); return }
        self.waiter = nil
        lock.unlock()
        waiter.resume(returning: frame)
    }

    private func takeLocked() -> WSFrame? {
        if !controls.isEmpty { return controls.removeFirst() }
        if !pending.isEmpty {
            let message = pending.removeFirst()
            if message.kind != .frame { pendingBytes -= message.text.utf8.count }
            return WSFrame(fin: true, opcode: .text, mask: nil, payload: Data(message.text.utf8))
        }
        if state == .closing {
            state = .ended
            return .close(code: WSCloseCode(1008, reason: "too far behind"))
        }
        return nil
    }
}

/// The pages connected to a preview: each has an outbox the server writes from.
final class Clients: @unchecked Sendable {
    private let lock = NSLock()
    private var outboxes: [UUID: Outbox] = [:]

    /// Pages open at once: with each page's bounds (its outbox, a message
    /// it sends, its share of the requests), this bounds what pages can make
    /// the process hold (500 pages each holding most of a message held
    /// 564 MB).
    static let mostPages = 64

    /// Adds a page; false (nothing added) if `mostPages` are open.
    func add(_ id: UUID, _ outbox: Outbox) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard outboxes.count < Self.mostPages else { return false }
        outboxes[id] = outbox
        return true
    }

    func remove(_ id: UUID) {
        lock.lock(); outboxes[id] = nil; lock.unlock()
    }

    /// Sends one page `text` (nothing if it went).
    func send(_ text: String, to id: UUID, kind: PageMessage = .message) {
        lock.lock(); let outbox = outboxes[id]; lock.unlock()
        outbox?.send(text, kind: kind)                  // one closed stays counted until its connection ends
    }

    /// The pages that dropped patches and wait for a whole frame.
    func pagesBehind() -> [UUID] {
        lock.lock(); let all = outboxes; lock.unlock()
        return all.filter { $0.value.isBehind }.map(\.key)
    }

    /// Sends every page `text`, of `kind`.
    func broadcast(_ text: String, kind: PageMessage = .message) {
        lock.lock(); let all = outboxes; lock.unlock()
        for outbox in all.values { outbox.send(text, kind: kind) }
    }

    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return outboxes.count
    }
}

/// A page's WebSocket: what it sends is queued for the runtime's thread;
/// what the session broadcasts reaches it through its bounded outbox, at
/// the pace its socket takes it.
struct PreviewSocket: WSHandler {
    let session: PreviewSession
    let clients: Clients

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        // FlyingFox's message handler reads and checks the page's frames and
        // answers pings; its replies go through the outbox too. It sees the
        // frames through a bound on a message's size.
        let id = UUID(), outbox = Outbox(), clients = self.clients
        guard clients.add(id, outbox) else {
            let closing = PageFrames.closing(1013, "Try Again Later: \(Clients.mostPages) pages are open")
            return AsyncStream { $0.yield(closing); $0.finish() }
        }
        let bounded = PageFrames.bounded(client) { outbox.sendControl($0) }
        let requests = PageRequests(session: session, page: id, isOpen: { outbox.isOpen })
        let replies = try await MessageFrameWSHandler(handler: requests).makeFrames(for: bounded)
        Task {
            for await frame in replies { outbox.sendControl(frame) }
            outbox.finish()                              // what it sent is read: nothing more is queued for it
        }
        session.enqueue(.hello(id))
        // The page holds its place among the open ones until its connection
        // ends (FlyingFox lets go of this stream): a page that stopped
        // reading, or whose socket failed at its first write, holds it until
        // then (its place was given back when its reading ended, or never).
        let lease = PageLease { clients.remove(id); outbox.finish() }
        return AsyncStream(unfolding: { [lease] in
            withExtendedLifetime(lease) {}
            return await outbox.next()
        })
    }
}

/// Runs `end` when the last reference goes: a page's place among the open
/// ones, given back when its connection lets go of the stream that holds it.
final class PageLease: @unchecked Sendable {
    private let end: () -> Void
    init(_ end: @escaping () -> Void) { self.end = end }
    deinit { end() }
}

/// What a page's frames may be, checked before FlyingFox joins them into
/// messages: a message holds at most `maxMessageBytes` however it is split
/// into frames (FlyingFox joins continuations with no bound of its own), the
/// fragments of one message are not interleaved with another's data frame
/// (RFC 6455 section 5.4: a frame in between reset the count, and a page
/// grew the process by 600 MB), and no reserved bit is set (no extension
/// was agreed). Past that the page is told why (1009 or 1002) and its
/// socket is closed. Two limits are FlyingFox's: a frame is read whole
/// before it is seen here (its size is what the peer sends), and its mask
/// is not kept (an unmasked frame cannot be told apart).
struct PageFrames {
    /// Bytes one message from a page may hold: a page sends taps, edits and
    /// inspections, the largest a text field's whole text.
    static let maxMessageBytes = 1 << 20

    /// The close frame that tells a page why it is closed.
    static func closing(_ code: UInt16, _ reason: String) -> WSFrame {
        WSFrame(fin: true, opcode: .close, mask: nil,
                payload: Data([UInt8(code >> 8), UInt8(code & 0xFF)]) + Data(reason.utf8))
    }

    private var message = 0
    private var fragmented = false

    /// Checks the next frame; the close frame to send if it breaks a rule.
    mutating func check(_ frame: WSFrame) -> WSFrame? {
        if frame.rsv1 || frame.rsv2 || frame.rsv3 { return Self.closing(1002, "Protocol Error: a reserved bit is set") }
        switch frame.opcode {
        case .text, .binary:
            if fragmented { return Self.closing(1002, "Protocol Error: a message began inside another") }
            message = frame.payload.count
            fragmented = !frame.fin
        case .continuation:
            message += frame.payload.count
            if frame.fin { fragmented = false }
        default:
            return nil
        }
        return message > Self.maxMessageBytes ? Self.closing(1009, "Message Too Big") : nil
    }

    /// `frames` as the page sent them, ending with an error at the first
    /// frame that breaks a rule (after `refuse` is handed the close frame).
    /// Read in the reader's own task (no task of its own: it ends with the
    /// connection).
    static func bounded(_ frames: AsyncThrowingStream<WSFrame, any Error>,
                        refuse: @escaping @Sendable (WSFrame) -> Void) -> AsyncThrowingStream<WSFrame, any Error> {
        let reader = Reader(frames.makeAsyncIterator())
        return AsyncThrowingStream(unfolding: { try await reader.next(refuse) })
    }

    /// The iterator and the checks, kept between pulls (one reader pulls at a time).
    private final class Reader: @unchecked Sendable {
        var frames: AsyncThrowingStream<WSFrame, any Error>.AsyncIterator
        var rules = PageFrames()
        init(_ frames: AsyncThrowingStream<WSFrame, any Error>.AsyncIterator) { self.frames = frames }

        func next(_ refuse: (WSFrame) -> Void) async throws -> WSFrame? {
            guard let frame = try await frames.next() else { return nil }
            if let close = rules.check(frame) {
                refuse(close)
                throw PreviewError("a page broke the WebSocket rules")
            }
            return frame
        }
    }
}

/// What a page sends: each message is queued for the runtime's thread (a
/// binary one too, to be refused there: the page is told). Its own outgoing
/// stream stays open, empty, until the page goes.
struct PageRequests: WSMessageHandler {
    let session: PreviewSession
    let page: UUID
    /// Whether the page is still sent messages: one closed (too far behind) acts no more.
    let isOpen: @Sendable () -> Bool

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (outgoing, continuation) = AsyncStream<WSMessage>.makeStream()
        let session = self.session, page = self.page, isOpen = self.isOpen
        Task {
            for await message in client {
                guard isOpen() else { break }
                let request: PageRequest
                switch message {
                case .text(let text): request = .text(text, from: page)
                case .data: request = .text(nil, from: page)
                case .close: continue
                }
                if !session.enqueue(request) {   // the runtime is far behind: this page is closed, not silently dropped
                    continuation.yield(.close(WSCloseCode(1013, reason: "Try Again Later: too many requests wait")))
                    break
                }
            }
            continuation.finish()
        }
        return outgoing
    }
}

/// Refuses requests a page on this machine's loopback did not make: another
/// Host (DNS rebinding) or another Origin (a site the browser has open). A
/// WebSocket upgrade must name the page's own origin: browsers always send
/// Origin on one, so a missing Origin is not a page of ours either.
///
/// Those checks stop a browser; a process on this machine can send any
/// header. So the page and its socket also need the preview's key, which
/// only its address carries (`?key=…`, printed by `lunette preview`, or a
/// host's `preview.address`): whoever was not shown the address cannot
/// drive the script (the inspector's edits evaluate Lua). The page's
/// script and style hold nothing of the script's, and are served to anyone
/// on loopback.
struct LoopbackOnly: HTTPHandler {
    let port: @Sendable () -> UInt16
    let key: PreviewKey
    let inner: any HTTPHandler

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let allowed = ["127.0.0.1:\(port())", "localhost:\(port())"]
        let host = request.headers[HTTPHeader("Host")] ?? ""
        if !allowed.contains(host) { return HTTPResponse(statusCode: .forbidden) }
        let origin = request.headers[HTTPHeader("Origin")]
        if let origin, !allowed.map({ "http://" + $0 }).contains(origin) {
            return HTTPResponse(statusCode: .forbidden)
        }
        let upgrade = request.headers[HTTPHeader("Upgrade")] != nil || request.path == "/socket"
        if origin == nil && upgrade { return HTTPResponse(statusCode: .forbidden) }
        let keyed = upgrade || !(request.path == "/preview.js" || request.path == "/preview.css")
        if keyed && !key.opens(request.query["key"]) {
            return HTTPResponse(statusCode: .forbidden, headers: [HTTPHeader("Content-Type"): "text/plain; charset=utf-8"],
                                body: Data("This preview needs its key: open the whole address lunette preview printed.\n".utf8))
        }
        return try await inner.handleRequest(request)
    }
}

/// A preview's key: 128 random bits, as 32 hexadecimal digits.
struct PreviewKey: Sendable {
    /// The digits, as the address carries them.
    let text: String

    init() {
        var generator = SystemRandomNumberGenerator()   // the system's (getrandom): not guessable
        text = (0..<2).map { _ in
            let word = generator.next() as UInt64
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// Whether `given` is this key; compared in a time that does not depend on where they differ.
    func opens(_ given: String?) -> Bool {
        guard let given else { return false }
        let a = Array(text.utf8), b = Array(given.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}

/// Puts the page's security headers on every response, refusals and
/// not-found included: a policy allowing only the page's own script, style
/// and socket; no framing by any site; no sniffing; no referrer.
struct SecurityHeaders: HTTPHandler {
    let port: @Sendable () -> UInt16
    let inner: any HTTPHandler

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try await inner.handleRequest(request)
        } catch is HTTPUnhandledError {
            response = HTTPResponse(statusCode: .notFound)
        } catch {
            response = HTTPResponse(statusCode: .internalServerError)
        }
        for (name, value) in Self.headers(port: port()) { response.headers[HTTPHeader(name)] = value }
        return response
    }

    /// The headers, for a server on `port`.
    static func headers(port: UInt16) -> [(String, String)] {
        let policy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'",
            "connect-src 'self' ws://127.0.0.1:\(port) ws://localhost:\(port)", "img-src 'self' data:",
            "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'",
        ].joined(separator: "; ")
        return [("Content-Security-Policy", policy), ("X-Frame-Options", "DENY"),
                ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                ("Cache-Control", "no-store")]
    }
}

/// The page split in three, so that its policy need allow no inline script
/// or style: the HTML, and its one script and one style sheet served from
/// the page's own origin.
struct PageAssets {
    let html: String
    let script: String
    let style: String

    init(page: String) {
        var html = page
        script = Self.cut(&html, open: "<script>", close: "</script>", with: #"<script src="/preview.js"></script>"#)
        style = Self.cut(&html, open: "<style>", close: "</style>", with: #"<link rel="stylesheet" href="/preview.css">"#)
        self.html = html
    }

    /// Takes the text between `open` and `close` out of `html`, leaving `replacement`.
    private static func cut(_ html: inout String, open: String, close: String, with replacement: String) -> String {
        guard let start = html.range(of: open), let end = html.range(of: close, range: start.upperBound..<html.endIndex) else {
            return ""
        }
        let body = String(html[start.upperBound..<end.lowerBound])
        html.replaceSubrange(start.lowerBound..<end.upperBound, with: replacement)
        return body
    }

    /// The routes serving the three.
    func routes(into routes: inout RoutedHTTPHandler) {
        for (path, type, body) in [("/", "text/html", html), ("/preview.js", "text/javascript", script),
                                   ("/preview.css", "text/css", style)] {
            let data = Data(body.utf8)
            routes.appendRoute(HTTPRoute("GET \(path)")) { _ in
                HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): "\(type); charset=utf-8"], body: data)
            }
        }
    }
}

/// Keeps the server listening. FlyingFox's accept loop ends the server when
/// accept fails (out of descriptors: EMFILE), closing the listening socket
/// for good; here it is started again on the same port, after a pause that
/// doubles while it keeps failing, and the first failure is said on stderr.
enum Listening {
    static func keep(_ first: HTTPServer, handler: any HTTPHandler, port: @escaping @Sendable () -> UInt16) async {
        var server = first, pause = 0.05, reported = false
        while !Task.isCancelled {
            let started = Date()
            do {
                try await server.run()
            } catch where !Task.isCancelled && port() != 0 {
                if !reported {
                    reported = true
                    FileHandle.standardError.write(Data(("lunette preview: the server stopped (\(error)); "
                        + "listening again on 127.0.0.1:\(port()) (out of file descriptors? see ulimit -n)\n").utf8))
                }
            } catch {}
            if Task.isCancelled { return }
            if Date().timeIntervalSince(started) > 10 { pause = 0.05 }   // it had recovered
            try? await Task.sleep(nanoseconds: UInt64(pause * 1e9))
            pause = min(pause * 2, 2)
            if let address = try? sockaddr_in.inet(ip4: "127.0.0.1", port: port()) {
                server = HTTPServer(address: address, logger: .disabled, handler: handler)
            }
        }
    }
}

/// A running preview: its address, and the session the host pumps.
public final class Preview: @unchecked Sendable {
    /// `http://127.0.0.1:PORT/?key=KEY`: the page, with the key its socket
    /// needs (show it only to whom may drive the script).
    public let address: String
    /// The session the host pumps, on the runtime's thread.
    public let session: PreviewSession
    private let server: HTTPServer
    private let task: Task<Void, Never>

    init(address: String, session: PreviewSession, server: HTTPServer, task: Task<Void, Never>) {
        self.address = address
        self.session = session
        self.server = server
        self.task = task
    }

    /// Stops serving.
    public func stop() {
        task.cancel()
    }

    /// Pages connected now.
    public var connectedPages: Int { session.clientCount }
}

extension PreviewSession {
    var clientCount: Int { clients.count }
}

private final class PortBox: @unchecked Sendable {
    var port: UInt16 = 0
}

extension LunetteRuntime {
    /// Serves the live preview and inspector of this runtime's views on
    /// 127.0.0.1 (port 0: any free one). Loopback only; pages from other
    /// origins are refused. The runtime stays on its own thread: call
    /// `preview.session.pump(waiting:)` there (in your run loop), and
    /// `publish()` after you flush, to send pages what changed.
    public func servePreview(port: UInt16 = 0) throws -> Preview {
        let clients = Clients()
        let session = PreviewSession(runtime: self, clients: clients)
        setTracing(true)
        let box = PortBox()
        var routes = RoutedHTTPHandler()
        PageAssets(page: String(decoding: PackageResources.preview_html, as: UTF8.self)).routes(into: &routes)
        routes.appendRoute("GET /socket", to: WebSocketHTTPHandler(handler: PreviewSocket(session: session, clients: clients)))
        let key = PreviewKey()
        let handler = SecurityHeaders(port: { box.port }, inner: LoopbackOnly(port: { box.port }, key: key, inner: routes))
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled, handler: handler)
        let task = Task { await Listening.keep(server, handler: handler, port: { box.port }) }
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var bound: UInt16?
        Task {
            try? await server.waitUntilListening()
            if case .ip4(_, let port) = await server.listeningAddress { bound = port }
            ready.signal()
        }
        ready.wait()
        guard let bound else {
            task.cancel()
            throw PreviewError("could not listen on 127.0.0.1:\(port)")
        }
        box.port = bound
        return Preview(address: "http://127.0.0.1:\(bound)/?key=\(key.text)", session: session, server: server, task: task)
    }
}
