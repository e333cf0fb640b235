import CFileSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder opened with no symbolic link on its path, and the files below it read the same way.
///
/// Static folders are listed first (links resolved, kept only when they stay inside) and read after; whoever
/// can write the folder can rename a link to any file over a listed one in between. Reading relative to this
/// descriptor, one component at a time with O_NOFOLLOW and an fstat of what was opened, makes such a swap
/// fail the read instead of handing over the link's target.
package final class LinkFreeFolder {
    /// The open folder; closed when this object goes away.
    private let descriptor: Int32

    /// Opens the folder at `path`, which must have no symbolic links left (`FileSystem.resolvingSymlinks`);
    /// nil when it cannot be opened or a link was put in its way since it was resolved.
    package init?(_ path: String) {
        let opened = cfs_open_folder(cfs_working_directory(), path, 0, 0)
        guard opened >= 0 else { return nil }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// The regular file at `relativePath` (no `..`, no link on the way), at most `maximumSize` bytes;
    /// errors name it as `shownAs`.
    package func read(_ relativePath: String, shownAs: String, maximumSize: Int) throws(FileSystem.ReadError) -> [UInt8] {
        try FileSystem.readFile(in: descriptor, relativePath, shownAs: shownAs, following: false, maximumSize: maximumSize)
    }
}
