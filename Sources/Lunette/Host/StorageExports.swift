import CLunette
import Foundation

// App storage leaves (clunette.h, "App storage"), answered by the runtime's
// AppStorageKeeper: keys and values are bytes; a failure is reported, never raised.

func withStorage<T>(_ pointer: UnsafeMutableRawPointer?, _ body: (AppStorageKeeper) -> T) -> T {
    Unmanaged<AppStorageKeeper>.fromOpaque(pointer!)._withUnsafeGuaranteedRef(body)
}

func lunhStorageRead(_ context: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ length: Int,
                     _ bytes: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                     _ count: UnsafeMutablePointer<Int>?) -> Int32 {
    withStorage(context) { storage in
        do {
            guard let value = try storage.read(bytesOf(key, length)) else { return 0 }
            bytes?.pointee = value.pointer
            count?.pointee = value.length
            return 1
        } catch {
            return -1
        }
    }
}

func lunhStorageWrite(_ context: UnsafeMutableRawPointer?, _ key: UnsafePointer<CChar>?, _ length: Int,
                      _ value: UnsafePointer<CChar>?, _ count: Int) {
    withStorage(context) { storage in
        storage.stage(bytesOf(key, length), value.map { bytesOf($0, count) })
    }
}

func lunhStorageKeep(_ context: UnsafeMutableRawPointer?) {
    withStorage(context) { storage in
        let said = storage.messages.count
        storage.commit()
        storage.waitUntilWritten(timeout: 5)
        // The process ends next (os.exit): what the store failed to keep is
        // said now, as nothing will report it after.
        for message in storage.messages.dropFirst(said) {
            FileHandle.standardError.write(Data("lunette: \(message)\n".utf8))
        }
    }
}

/// The bytes at pointer, as C handed them.
func bytesOf(_ pointer: UnsafePointer<CChar>?, _ length: Int) -> [UInt8] {
    guard let pointer, length > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: length))
}
