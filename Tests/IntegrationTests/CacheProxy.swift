import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real shared cache in front of a linkhost, on loopback: Debian's nginx (`proxy_cache`) or Varnish.
///
/// Each has its own folder for configuration, cache and logs; the process is stopped with SIGTERM when
/// the value goes away (nginx runs without a master process, Varnish's worker ends with its manager).
final class CacheProxy {
    /// Which cache, for messages.
    let name: String
    let port: Int
    let folder: String
    private let child: ChildProcess

    private init(name: String, port: Int, folder: String, child: ChildProcess) {
        self.name = name
        self.port = port
        self.folder = folder
        self.child = child
    }

    deinit {
        // Stopped and its folder removed on a thread of its own: the last reference may go on a pool thread.
        let (child, folder) = (child, folder)
        child.send(SIGTERM)
        Thread {
            for _ in 0..<100 where child.isRunning { usleep(30_000) }
            try? FileManager.default.removeItem(atPath: folder)
        }.start()
    }

    /// nginx with `proxy_cache` and `proxy_cache_revalidate`; `ignoringVary` adds `proxy_ignore_headers Vary`,
    /// which is what CloudFront's and Cloudflare's defaults amount to: one copy per URL for everyone.
    static func nginx(backend: Int, ignoringVary: Bool) async throws -> CacheProxy {
        let binary = try requireTool("nginx")
        return try await TestPorts.binding(1, "nginx") { ports in
            try await startNginx(binary, port: ports[0], backend: backend, ignoringVary: ignoringVary)
        }
    }

    private static func startNginx(_ binary: String, port: Int, backend: Int, ignoringVary: Bool) async throws -> CacheProxy {
        let folder = try makeFolder("nginx")
        let config = """
        master_process off;
        daemon off;
        pid \(folder)/nginx.pid;
        error_log \(folder)/error.log warn;
        events { worker_connections 256; }
        http {
            access_log \(folder)/access.log;
            client_body_temp_path \(folder)/body;
            proxy_temp_path \(folder)/proxy;
            fastcgi_temp_path \(folder)/fastcgi;
            uwsgi_temp_path \(folder)/uwsgi;
            scgi_temp_path \(folder)/scgi;
            proxy_cache_path \(folder)/cache keys_zone=pages:1m max_size=16m;
            server {
                listen 127.0.0.1:\(port);
                location / {
                    proxy_pass http://127.0.0.1:\(backend);
                    proxy_http_version 1.1;
                    proxy_set_header Host $http_host;
                    proxy_cache pages;
                    proxy_cache_revalidate on;
                    \(ignoringVary ? "proxy_ignore_headers Vary;" : "")
                    add_header X-Cache-Status $upstream_cache_status always;
                }
            }
        }
        """
        try config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        let child = try ChildProcess(executable: binary, arguments: ["-p", folder, "-e", folder + "/error.log", "-c", folder + "/nginx.conf"],
                                     environment: LinkHostCLI.baseEnvironment, directory: folder)
        let proxy = CacheProxy(name: ignoringVary ? "nginx (ignoring Vary)" : "nginx", port: port, folder: folder, child: child)
        try await proxy.waitUntilListening()
        return proxy
    }

    /// Varnish with its built-in VCL (it honours Vary) and a `keep` period, so an expired object is
    /// revalidated with `If-None-Match` instead of fetched anew.
    static func varnish(backend: Int) async throws -> CacheProxy {
        let binary = try requireTool("varnishd")
        return try await TestPorts.binding(1, "Varnish") { ports in try await startVarnish(binary, port: ports[0], backend: backend) }
    }

    private static func startVarnish(_ binary: String, port: Int, backend: Int) async throws -> CacheProxy {
        let folder = try makeFolder("varnish")
        let child = try ChildProcess(
            executable: binary,
            arguments: ["-F", "-n", folder, "-a", "127.0.0.1:\(port)", "-b", "127.0.0.1:\(backend)", "-s", "malloc,32m", "-T", "none", "-j", "none",
                        "-p", "default_keep=60", "-p", "default_grace=0"],
            environment: LinkHostCLI.baseEnvironment, directory: folder)
        let proxy = CacheProxy(name: "Varnish", port: port, folder: folder, child: child)
        try await proxy.waitUntilListening()
        return proxy
    }

    /// A new connection to the cache, connected on a thread of its own.
    func connect() async throws -> RawHTTPClient { try await RawHTTPClient.open(host: "127.0.0.1", port: port, timeout: .seconds(10)) }

    /// One request on a new connection, on a thread of its own.
    func request(_ path: String, headers: [(String, String)] = []) async throws -> HTTPResponse {
        try await connect().request("GET", path, headers: headers)
    }

    /// The cache's URL for a path.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    private func waitUntilListening(seconds: Int = 15) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var lastError = "no attempt"
        var attempts = 0
        // Try, then look at the clock: a full run can keep this task from waking for longer than the whole wait
        // (every cooperative thread busy), and nginx, listening long since, must still get one more try.
        while true {
            attempts += 1
            do {
                _ = try await connect()
                return
            } catch {
                lastError = "\(error)"
            }
            if !child.isRunning {
                throw HarnessError("\(name) exited at start:\n\(child.stderr.text)\(child.stdout.text)\((try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "")")
            }
            if ContinuousClock.now >= deadline { break }
            // Pacing between connection attempts: nginx and Varnish announce nothing when they listen, so a
            // connection accepted is the only sign, and each refusal is kept for the message below.
            try await Task.sleep(for: .milliseconds(50))
        }
        // Whether another process gets through where this one is refused, and every socket on the port.
        let curl = (try? await runTool("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "3", "http://127.0.0.1:\(port)/"], timeout: .seconds(10))).map { "exit \($0.status) \($0.stdout)\($0.stderr)" } ?? "?"
        let sockets = (try? await runTool("ss", ["-tanpe", "( sport = :\(port) or dport = :\(port) )"], timeout: .seconds(10)))?.stdout ?? "?"
        let again = await acceptsConnections(port: port) ? "connects now" : "still refused"
        throw HarnessError("\(name) did not listen on 127.0.0.1:\(port) within \(seconds) s (\(attempts) attempts, the last: \(lastError); curl from another process: \(curl); this process \(again)):\n\(child.stderr.text)\((try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "(no error.log)")\n\(Self.processState(child.pid))\nss:\n\(sockets)")
    }

    /// What a child that does not answer is doing, from /proc: its state, the kernel function it waits in, its open descriptors.
    private static func processState(_ pid: pid_t) -> String {
        func read(_ name: String) -> String {
            LinkHostProcess.readWhole("/proc/\(pid)/\(name)").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let state = read("status").split(separator: "\n").filter { $0.hasPrefix("State:") || $0.hasPrefix("Threads:") }.joined(separator: ", ")
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count).map(String.init) ?? "?"
        let ours = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count).map(String.init) ?? "?"
        let fm = FileManager.default
        let fds = ((try? fm.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).sorted().map { "\($0)→\((try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "?")" }.joined(separator: " ")
        let namespaces = "net \((try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/net")) ?? "?") (ours \((try? fm.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")) ?? "?"))"
        let listening = read("net/tcp").split(separator: "\n").filter { $0.split(separator: " ").count > 3 && $0.split(separator: " ")[3] == "0A" }.map { String($0.split(separator: " ")[1]) }.joined(separator: " ")
        // Each of its sockets as the kernel lists it (local address, remote, state), found by inode.
        let inodes = ((try? fm.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { (try? fm.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) }
            .filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) }
        let sockets = (read("net/tcp") + "\n" + read("net/tcp6") + "\n" + read("net/unix")).split(separator: "\n")
            .filter { line in inodes.contains { inode in line.split(separator: " ").contains { $0 == inode } } }.joined(separator: " | ")
        return "fds: \(fds); its sockets: \(sockets); \(namespaces); listening in its namespace: \(listening)\n" + "pid \(pid): \(state), wchan \(read("wchan")), syscall \(read("syscall")), cmdline \(read("cmdline").replacingOccurrences(of: "\0", with: " ")), \(descriptors) descriptors open (the test process: \(ours)); stack:\n\(read("stack"))"
    }

    private static func makeFolder(_ name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "linkhost-\(name)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // nginx's cache manager and Varnish's worker may run as another user when the tests run as root.
        chmod(folder, 0o777)
        return folder
    }
}

/// Real-world User-Agent strings, from the test corpus of Debian's `uap-core` (the ua-parser project).
enum RealUserAgents {
    static let corpus = "/usr/share/uap-core/tests/test_ua.yaml"

    /// The first `count` distinct browser User-Agents (`Mozilla/5.0 …`, printable ASCII) of the corpus.
    static func load(_ count: Int) throws -> [String] {
        guard let text = try? String(contentsOfFile: corpus, encoding: .utf8) else {
            throw HarnessError("\(corpus) is missing (Debian package uap-core); run make test-deps")
        }
        var seen: Set<String> = []
        var agents: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("- user_agent_string: '"), trimmed.hasSuffix("'") else { continue }
            let agent = String(trimmed.dropFirst("- user_agent_string: '".count).dropLast()).replacing("''", with: "'")
            guard agent.hasPrefix("Mozilla/5.0 ("), agent.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), seen.insert(agent).inserted else { continue }
            agents.append(agent)
            if agents.count == count { return agents }
        }
        throw HarnessError("\(corpus) has only \(agents.count) distinct browser User-Agents")
    }
}
