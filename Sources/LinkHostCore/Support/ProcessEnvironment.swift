#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The process environment as a dictionary, read once where a command starts.
public enum ProcessEnvironment {
    /// The current environment variables.
    public static var current: [String: String] { ProcessInfo.processInfo.environment }
}
