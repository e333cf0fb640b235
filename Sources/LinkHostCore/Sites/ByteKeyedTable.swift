/// A dictionary from byte strings to values, looked up with borrowed bytes so that a request's path or
/// host finds its entry without a `String` or an array being made.
///
/// The lookup is inlinable so the server module gets it specialized for its byte buffers: across module
/// boundaries an unspecialized generic goes through witness tables and metadata lookups per byte.
@usableFromInline
package struct ByteKeyedTable<Value: Sendable>: Sendable {
    @usableFromInline var buckets: [UInt64: [(key: [UInt8], value: Value)]] = [:]
    /// Whether ASCII letters compare without regard to case (host names) or exactly (paths).
    @usableFromInline let foldsCase: Bool

    /// An empty table.
    package init(foldsCase: Bool) {
        self.foldsCase = foldsCase
    }

    /// Adds `value` under `key` unless the key is taken; returns the value already there, if any.
    @discardableResult
    package mutating func insert(_ key: [UInt8], _ value: Value) -> Value? {
        let hash = hash(key)
        if let existing = buckets[hash]?.first(where: { equal($0.key, key) }) { return existing.value }
        buckets[hash, default: []].append((key, value))
        return nil
    }

    /// The value under exactly these bytes (in any case, when the table folds case).
    @inlinable
    package func value<Bytes: Collection<UInt8>>(for key: Bytes) -> Value? {
        guard let bucket = buckets[hash(key)] else { return nil }
        return bucket.first { equal($0.key, key) }?.value
    }

    /// Every key and value, in no particular order.
    package var entries: [(key: [UInt8], value: Value)] { buckets.values.flatMap { $0 } }

    /// FNV-1a over the bytes, folded to lowercase when the table folds case: enough to spread keys; the
    /// bytes are compared in full after it.
    @inlinable
    func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(fold(byte))) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    @inlinable
    func equal<Bytes: Collection<UInt8>>(_ stored: [UInt8], _ given: Bytes) -> Bool {
        stored.count == given.count && zip(stored, given).allSatisfy { fold($0) == fold($1) }
    }

    @inlinable @inline(__always)
    func fold(_ byte: UInt8) -> UInt8 {
        foldsCase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
