import LinkHostCore
import LinkHostFiles

#if canImport(Glibc)
import Glibc
#endif
import LinkHostCrypto

/// A certificate and key as kept in the state folder.
package struct StoredCertificate: Sendable {
    /// The private key, PEM.
    package let key: [UInt8]
    /// The chain, leaf first, PEM.
    package let chain: [UInt8]
    /// What the leaf says.
    package let facts: CertificateFacts
}

/// Why the state folder cannot be used.
package struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What failed, with the path and the system's reason.
    package let description: String
}

/// The state folder: one subfolder per CA directory (so a staging certificate never stands in for a
/// production one), holding the account key and, per certificate, one file with its key and chain.
///
/// Key and chain share a file so that the rename that replaces it is the one step that changes both:
/// a crash at any point leaves the old pair or the new pair, never a key with another's certificate.
/// Every operation opens the state folder and the CA's subfolder anew as `TrustedFolder`s (owned by this
/// user, writable by no one else, no link in place of the subfolder) and reaches files relative to them,
/// never through a link: a folder whose permissions changed since the start is refused then too. Files are
/// written by `TrustedFolder.replace` (exclusive create of a temporary file, fsync, rename, folder fsync),
/// mode 0600, folders 0700. `flock` locks keep two processes on one folder from ordering the same
/// certificate at once.
package struct CertificateStore: Sendable {
    /// The folder of this CA's files.
    package let folder: String
    private let stateDirectory: String
    private let subfolderName: String

    /// Largest state file read: a key and a chain are a few kilobytes.
    static let maximumFileSize = 1 << 20

    /// The store for the CA at `directory` under `stateDirectory`.
    package init(stateDirectory: String, directory: String) {
        self.stateDirectory = stateDirectory
        subfolderName = Self.folderName(for: directory)
        folder = stateDirectory + "/" + subfolderName
    }

    /// `acme-v02.api.letsencrypt.org-directory`: the directory URL as a file name.
    static func folderName(for directory: String) -> String {
        ACMESettings.storeFolderName(for: directory)
    }

    /// Creates the folders (0700) where missing and checks that they, every folder above them and every
    /// other subfolder of the state folder deserve trust; throws the problem with its fix otherwise.
    package func prepare() throws(StoreError) {
        do throws(TrustedFolder.Problem) {
            let state = try TrustedFolder.open(stateDirectory, create: true)
            _ = try state.subfolder(subfolderName, create: true)
            try state.checkSubfolders()
        } catch {
            throw StoreError(description: "cannot keep private keys in the ACME state folder: \(error)")
        }
        guard access(folder, W_OK) == 0 else { throw StoreError(description: "cannot write to \(folder): \(Self.reason())") }
    }

    /// The account key, made and stored on first use (under a lock, so two processes agree on one).
    package func accountKey() throws(StoreError) -> P256Key {
        try withLock("account", wait: 30) { () throws(StoreError) -> P256Key in
            let name = "account.key.pem"
            let caFolder = try openFolder()
            let stored: [UInt8]?
            do throws(FileSystem.ReadError) { stored = try caFolder.read(name, maximumSize: Self.maximumFileSize) } catch {
                throw StoreError(description: "\(folder)/\(name) \(error); move it away to make a new account")
            }
            if let stored {
                do { return try P256Key(pem: stored) } catch {
                    throw StoreError(description: "\(folder)/\(name) is not an ECDSA P-256 key (\(error)); move it away to make a new account")
                }
            }
            let key: P256Key
            do throws(CryptoError) { key = try P256Key.generate() } catch { throw StoreError(description: error.description) }
            try Self.replace(name, with: key.pem, in: caFolder)
            return key
        }
    }

    /// The stored certificate named `name`, or nil when there is none; a file that is not a matching key and
    /// chain is reported through `problem` and treated as none.
    package func certificate(_ name: String, problem: (String) -> Void = { _ in }) -> StoredCertificate? {
        let file = Self.fileName(name) + ".pem"
        let bytes: [UInt8]?
        do {
            bytes = try openFolder().read(file, maximumSize: Self.maximumFileSize)
        } catch let error as FileSystem.ReadError {
            problem("\(folder)/\(file) \(error); ignoring it")
            return nil
        } catch {
            problem("\(error); ignoring it")
            return nil
        }
        guard let bytes else { return nil }
        let (key, chain) = Self.split(bytes)
        guard !key.isEmpty, !chain.isEmpty, let facts = CertificateFacts(pem: chain), let parsed = try? P256Key(pem: key), parsed.matches(certificateChain: chain) else {
            problem("\(folder)/\(file) is not a key and certificate chain that belong together; ignoring it")
            return nil
        }
        return StoredCertificate(key: key, chain: chain, facts: facts)
    }

    /// Replaces the certificate named `name` in one rename.
    package func store(_ name: String, key: [UInt8], chain: [UInt8]) throws(StoreError) {
        var bytes = key
        if bytes.last != 10 { bytes.append(10) }
        try Self.replace(Self.fileName(name) + ".pem", with: bytes + chain, in: try openFolder())
    }

    /// Runs `body` holding the lock named `name`; waits up to `wait` seconds for another process's hold to
    /// end, then gives up with nil.
    package func withLock<T>(_ name: String, wait: Double, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let file = Self.fileName(name) + ".lock"
        let descriptor: Int32
        let caFolder = try openFolder()
        do throws(TrustedFolder.Problem) { descriptor = try caFolder.openLock(file) } catch { throw StoreError(description: error.description) }
        defer { close(descriptor) }
        var waited = 0.0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < wait else {
                throw StoreError(description: "\(folder)/\(file) is held by another process (another linkhost on the same state folder)")
            }
            usleep(100_000)
            waited += 0.1
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// This CA's subfolder, opened and checked from the state folder down (no link followed below it).
    private func openFolder() throws(StoreError) -> TrustedFolder {
        do throws(TrustedFolder.Problem) {
            return try TrustedFolder.open(stateDirectory, create: false).subfolder(subfolderName, create: false)
        } catch {
            throw StoreError(description: "cannot keep private keys in the ACME state folder: \(error)")
        }
    }

    private static func replace(_ name: String, with bytes: [UInt8], in folder: TrustedFolder) throws(StoreError) {
        do throws(TrustedFolder.Problem) { try folder.replace(name, with: bytes) } catch { throw StoreError(description: error.description) }
    }

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
