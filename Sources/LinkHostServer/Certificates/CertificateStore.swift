import LinkHostCheck

#if canImport(Glibc)
import Glibc
#endif

/// A certificate and key as kept in the state folder.
public struct StoredCertificate: Sendable {
    /// The private key, PEM.
    public let key: [UInt8]
    /// The chain, leaf first, PEM.
    public let chain: [UInt8]
    /// What the leaf says.
    public let facts: CertificateFacts
}

/// Why the state folder cannot be used.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What failed, with the path and the system's reason.
    public let description: String
}

/// The state folder: one subfolder per CA directory (so a staging certificate never stands in for a
/// production one), holding the account key and, per certificate, one file with its key and chain.
///
/// Key and chain share a file so that the rename that replaces it is the one step that changes both:
/// a crash at any point leaves the old pair or the new pair, never a key with another's certificate.
/// Files are written to a temporary name, flushed with fsync, renamed over the old one, and the folder
/// is flushed; mode 0600, folders 0700. `flock` locks keep two processes on one folder from ordering the
/// same certificate at once.
public struct CertificateStore: Sendable {
    /// The folder of this CA's files.
    public let folder: String

    /// The store for the CA at `directory` under `stateDirectory`.
    public init(stateDirectory: String, directory: String) {
        folder = stateDirectory + "/" + Self.folderName(for: directory)
    }

    /// `acme-v02.api.letsencrypt.org-directory`: the directory URL as a file name.
    static func folderName(for directory: String) -> String {
        var name = directory
        for prefix in ["https://", "http://"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        let mapped = name.utf8.map { byte -> UInt8 in
            HostByte.isSafe(byte) ? byte : UInt8(ascii: "-")
        }
        return String(decoding: mapped.prefix(120), as: UTF8.self)
    }

    /// Creates the folders (0700) where missing.
    public func prepare() throws(StoreError) {
        var path = ""
        for (index, part) in folder.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            path = index == 0 ? String(part) : path + "/" + part
            if part.isEmpty { continue }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw StoreError(description: "cannot create \(path): \(Self.reason())")
            }
        }
        guard access(folder, W_OK) == 0 else { throw StoreError(description: "cannot write to \(folder): \(Self.reason())") }
    }

    /// The account key, made and stored on first use (under a lock, so two processes agree on one).
    public func accountKey() throws(StoreError) -> P256Key {
        try withLock("account", wait: 30) { () throws(StoreError) -> P256Key in
            let path = folder + "/account.key.pem"
            if let bytes = Self.read(path) {
                do { return try P256Key(pem: bytes) } catch {
                    throw StoreError(description: "\(path) is not an ECDSA P-256 key (\(error)); move it away to make a new account")
                }
            }
            let key: P256Key
            do throws(CryptoError) { key = try P256Key.generate() } catch { throw StoreError(description: error.description) }
            try Self.writeAtomically(key.pem, to: path)
            return key
        }
    }

    /// The stored certificate named `name`, or nil when there is none; a file that is not a matching key and
    /// chain is reported through `problem` and treated as none.
    public func certificate(_ name: String, problem: (String) -> Void = { _ in }) -> StoredCertificate? {
        let path = certificatePath(name)
        guard let bytes = Self.read(path) else { return nil }
        let (key, chain) = Self.split(bytes)
        guard !key.isEmpty, !chain.isEmpty, let facts = CertificateFacts(pem: chain), let parsed = try? P256Key(pem: key), parsed.matches(certificateChain: chain) else {
            problem("\(path) is not a key and certificate chain that belong together; ignoring it")
            return nil
        }
        return StoredCertificate(key: key, chain: chain, facts: facts)
    }

    /// Replaces the certificate named `name` in one rename.
    public func store(_ name: String, key: [UInt8], chain: [UInt8]) throws(StoreError) {
        var bytes = key
        if bytes.last != 10 { bytes.append(10) }
        try Self.writeAtomically(bytes + chain, to: certificatePath(name))
    }

    /// Runs `body` holding the lock named `name`; waits up to `wait` seconds for another process's hold to
    /// end, then gives up with nil.
    public func withLock<T>(_ name: String, wait: Double, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let path = folder + "/" + Self.fileName(name) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError(description: "cannot open the lock \(path): \(Self.reason())") }
        defer { close(descriptor) }
        var waited = 0.0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < wait else {
                throw StoreError(description: "\(path) is held by another process (another linkhost on the same state folder)")
            }
            usleep(100_000)
            waited += 0.1
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func certificatePath(_ name: String) -> String { folder + "/" + Self.fileName(name) + ".pem" }

    /// A host name is already a safe file name; anything else is mapped so it cannot leave the folder.
    private static func fileName(_ name: String) -> String {
        String(decoding: name.utf8.map { HostByte.isSafe($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
    }

    /// The private-key block and the certificate blocks of a stored file: everything before the first
    /// certificate is the key (P256Key checks it is one).
    static func split(_ bytes: [UInt8]) -> (key: [UInt8], chain: [UInt8]) {
        guard let chainStart = find("-----BEGIN CERTIFICATE-----", in: bytes, from: 0), chainStart > 0 else { return ([], []) }
        return (Array(bytes[..<chainStart]), Array(bytes[chainStart...]))
    }

    /// Where `marker` starts in `bytes` at or after `start`.
    private static func find(_ marker: String, in bytes: [UInt8], from start: Int) -> Int? {
        let needle = Array(marker.utf8)
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// A whole small file, or nil when it does not exist or cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= 1 << 20 {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += buffer[0..<count]
        }
        return nil
    }

    /// temp file (0600) → write → fsync → rename → fsync the folder.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(StoreError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError(description: "cannot write \(temporary): \(reason())") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let why = reason()
                close(descriptor)
                unlink(temporary)
                throw StoreError(description: "cannot write \(temporary): \(why)")
            }
            written += count
        }
        fchmod(descriptor, 0o600)
        let synced = fsync(descriptor) == 0
        let why = reason()
        close(descriptor)
        guard synced else {
            unlink(temporary)
            throw StoreError(description: "cannot flush \(temporary) to disk: \(why)")
        }
        guard rename(temporary, path) == 0 else {
            let why = reason()
            unlink(temporary)
            throw StoreError(description: "cannot rename \(temporary) to \(path): \(why)")
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let folderDescriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

/// Bytes kept as they are in state file names.
enum HostByte {
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    static func isSafe(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }
}
