import FlyingFox
import Foundation
import Lunette

/// The pages connected to a preview: each has a stream the server writes to.
final class Clients: @unchecked Sendable {
    private let lock = NSLock()
    private var streams: [UUID: AsyncStream<WSMessage>.Continuation] = [:]

    func add(_ id: UUID, _ continuation: AsyncStream<WSMessage>.Continuation) {
        lock.lock(); streams[id] = continuation; lock.unlock()
    }

    func remove(_ id: UUID) {
        lock.lock(); streams[id] = nil; lock.unlock()
    }

    func broadcast(_ text: String) {
        lock.lock(); let all = Array(streams.values); lock.unlock()
        for stream in all { stream.yield(.text(text)) }
    }

    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return streams.count
    }
}

/// A page's WebSocket: what it sends is queued for the runtime's thread;
/// what the session broadcasts is sent to it.
struct PreviewSocket: WSMessageHandler {
    let session: PreviewSession
    let clients: Clients

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let id = UUID()
        let (outgoing, continuation) = AsyncStream<WSMessage>.makeStream()
        clients.add(id, continuation)
        let session = self.session, clients = self.clients
        Task {
            for await message in client {
                if case .text(let text) = message { session.enqueue(text) }
            }
            clients.remove(id)
            continuation.finish()
        }
        session.enqueue(#"{"type":"hello"}"#)
        return outgoing
    }
}

/// Refuses requests a page on this machine's loopback did not make: another
/// Host (DNS rebinding) or another Origin (a site the browser has open).
struct LoopbackOnly: HTTPHandler {
    let port: @Sendable () -> UInt16
    let inner: any HTTPHandler

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let allowed = ["127.0.0.1:\(port())", "localhost:\(port())"]
        let host = request.headers[HTTPHeader("Host")] ?? ""
        if !allowed.contains(host) { return HTTPResponse(statusCode: .forbidden) }
        if let origin = request.headers[HTTPHeader("Origin")], !allowed.map({ "http://" + $0 }).contains(origin) {
            return HTTPResponse(statusCode: .forbidden)
        }
        return try await inner.handleRequest(request)
    }
}

/// A running preview: its address, and the session the host pumps.
public final class Preview: @unchecked Sendable {
    /// `http://127.0.0.1:PORT/`.
    public let address: String
    public let session: PreviewSession
    private let server: HTTPServer
    private let task: Task<Void, Error>

    init(address: String, session: PreviewSession, server: HTTPServer, task: Task<Void, Error>) {
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
        let page = String(decoding: PackageResources.preview_html, as: UTF8.self)
        routes.appendRoute("GET /") { _ in
            HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): "text/html; charset=utf-8"],
                         body: Data(page.utf8))
        }
        routes.appendRoute("GET /socket", to: .webSocket(PreviewSocket(session: session, clients: clients)))
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled,
                                handler: LoopbackOnly(port: { box.port }, inner: routes))
        let task = Task { try await server.run() }
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
        return Preview(address: "http://127.0.0.1:\(bound)/", session: session, server: server, task: task)
    }
}
