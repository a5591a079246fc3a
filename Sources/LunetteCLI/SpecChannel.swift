import Foundation
import Lunette

/// The results channel between `lunette test` and one `--child` (TARGETS R25).
///
/// Results never travel on the child's stdout, which the specs print to:
/// the parent makes a Unix socket pair and hands one end to the child as its
/// standard input; before any Lua runs, the child moves it to a close-on-exec
/// descriptor and puts /dev/null on stdin. Why a socket and not a pipe: a
/// spec may `io.open("/proc/self/fd/N", "w")` any descriptor it can guess,
/// and that reopens a pipe but fails (ENXIO) on a socket; close-on-exec keeps
/// it from `io.popen`/`os.execute` children. What is left (native code a
/// non-sandboxed spec loads, writing to the number directly) cannot forge a
/// record: each frame carries a random token the child made in Swift and
/// never gave Lua, and anything that is not a well-formed frame fails the file.
///
/// The stream: a hello line `LUNETTE-SPEC-CHANNEL 1 <token>\n`, then frames
/// `<token><length: 8 hex digits><JSON object of that many bytes>`.
enum SpecChannel {
    static let helloPrefix = "LUNETTE-SPEC-CHANNEL 1 "
    static let tokenLength = 32
    /// A record longer than this is not one the runner writes (SpecResults cuts names and messages well below).
    static let longestPayload = 16 * 1024 * 1024

    /// A frame's bytes.
    static func frame(_ record: SpecRecord, token: String) -> Data {
        let payload = record.json
        var data = Data((token + String(format: "%08x", payload.count)).utf8)
        data.append(payload)
        return data
    }
}

/// The child's end: sends records, flushing what the specs printed first so
/// the parent shows their output before the result that follows it.
final class SpecChannelWriter {
    private let descriptor: Int32
    private let token: String

    /// Takes the socket the parent passed as standard input. Throws when
    /// stdin is not a socket (someone ran `lunette test --child` by hand).
    init() throws {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            throw ValidationErrorText("--child is internal to `lunette test`: run `lunette test FILE` instead")
        }
        let moved = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 10)
        let null = open("/dev/null", O_RDONLY)
        guard moved >= 0, null >= 0, dup2(null, STDIN_FILENO) >= 0 else {
            throw ValidationErrorText("could not set up the results channel: \(String(cString: strerror(errno)))")
        }
        close(null)
        descriptor = moved
        Self.keepFromWhatSpecsStart()
        Self.endWithParent(moved)
        var generator = SystemRandomNumberGenerator()
        token = (0..<SpecChannel.tokenLength / 16).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        write(Data((SpecChannel.helloPrefix + token + "\n").utf8))
    }

    /// Marks every descriptor past stderr close-on-exec, so a process a spec
    /// starts (`os.execute("server &")`) inherits none of them. Foundation's
    /// `Process` tells the parent this child ended when a socket only the
    /// child holds closes (swift-corelibs-foundation, Process.swift): a
    /// background process holding a copy kept `lunette test` waiting for as
    /// long as it lived, though this child had ended.
    private static func keepFromWhatSpecsStart() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for name in names {
            guard let fd = Int32(name), fd > STDERR_FILENO else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Ends this process when the parent goes (killed by `timeout`, a CI
    /// runner or a person), with what the specs started: a thread waits on
    /// the channel, which only the parent's end keeps open (the parent's copy
    /// is close-on-exec and the parent never writes to it), so its end of
    /// stream means the parent is gone. Then the process group this child
    /// leads (TestCommand's setpgid) is killed — a spec blocked in C or in
    /// `os.execute` cannot hold it. Not PR_SET_PDEATHSIG: that fires when
    /// the parent's spawning thread ends, and it would leave the specs'
    /// processes running.
    private static func endWithParent(_ descriptor: Int32) {
        let watcher = Thread {
            var byte: UInt8 = 0
            while true {
                let got = recv(descriptor, &byte, 1, 0)
                if got > 0 || (got < 0 && errno == EINTR) { continue }   // the parent writes nothing: ignore it
                break                                                    // end of stream, or the socket failed
            }
            if getpgrp() == getpid() { kill(0, SIGKILL) }                // its own group: the specs' processes too
            kill(getpid(), SIGKILL)
        }
        watcher.stackSize = 64 * 1024
        watcher.start()
    }

    /// Sends one record, once what the specs printed before it is out of
    /// this process and read by the parent, so their output shows before the
    /// result that follows it (the two travel apart).
    func send(_ record: SpecRecord) {
        fflush(stdout)
        fflush(stderr)
        Self.waitUntilRead(STDOUT_FILENO)
        Self.waitUntilRead(STDERR_FILENO)
        write(SpecChannel.frame(record, token: token))
    }

    /// Waits (at most two seconds: a process a spec started may keep
    /// writing) until the pipe on `fd` is empty. Not a pipe: no wait.
    private static func waitUntilRead(_ fd: Int32) {
        let until = Date().addingTimeInterval(2)
        var waiting: Int32 = 0
        while ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting > 0, Date() < until { usleep(200) }
    }

    /// Writes all of `data`; a parent that went away is not this process's problem (MSG_NOSIGNAL: no SIGPIPE).
    private func write(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Foundation.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                if sent <= 0 { return }
                offset += sent
            }
        }
    }
}

/// An error that is only a message (shown as `Error: message`).
struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The parent's end: decodes the stream into records. The first thing that
/// is not the hello or a frame with the child's token makes the channel
/// `malformed` for good (framing cannot be trusted past it).
struct SpecChannelDecoder {
    private var buffer = Data()
    private var token: Data?
    /// Why the stream stopped being trusted; nil while it is well-formed.
    private(set) var malformed: String?
    /// Whether the child said it finished ("done").
    private(set) var done = false

    /// Adds bytes and returns the complete records they finish.
    mutating func take(_ data: Data) -> [SpecRecord] {
        guard malformed == nil else { return [] }
        buffer.append(data)
        var records: [SpecRecord] = []
        while malformed == nil, let record = next() { records.append(record) }
        return records
    }

    /// Bytes left over at the end of the stream (a record cut off) are malformed too.
    mutating func finish() {
        if malformed == nil, !buffer.isEmpty { malformed = "it ended in the middle of a record" }
    }

    private mutating func next() -> SpecRecord? {
        guard let token = token ?? readHello() else { return nil }
        let header = token.count + 8
        guard buffer.count >= header else { return nil }
        let start = buffer.startIndex
        guard buffer[start..<start + token.count] == token else {
            return fail("it carried bytes that are not a record from the spec runner")
        }
        guard let length = Self.hexLength(buffer[start + token.count..<start + header]),
              length <= SpecChannel.longestPayload else { return fail("a record had a malformed length") }
        guard buffer.count >= header + length else { return nil }
        let payload = buffer[start + header..<start + header + length]
        buffer = Data(buffer[(start + header + length)...])
        guard let record = SpecRecord(json: Data(payload)) else { return fail("a record was not valid JSON of a result") }
        if done { return fail("a record came after the file's \"done\"") }
        if record.status == "done" { done = true }
        return record
    }

    /// Takes the hello line and returns its token (nil until it is all here, or when it is wrong).
    private mutating func readHello() -> Data? {
        let length = SpecChannel.helloPrefix.utf8.count + SpecChannel.tokenLength + 1
        guard buffer.count >= length else { return nil }
        let hello = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        let prefix = Data(SpecChannel.helloPrefix.utf8)
        guard hello.starts(with: prefix), hello.last == UInt8(ascii: "\n") else {
            _ = fail("it did not start with the spec runner's greeting")
            return nil
        }
        token = Data(hello.dropFirst(prefix.count).dropLast())
        return token
    }

    private mutating func fail(_ why: String) -> SpecRecord? {
        malformed = why
        buffer.removeAll()
        return nil
    }

    private static func hexLength(_ digits: Data) -> Int? {
        guard digits.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self), radix: 16)
    }
}
