import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 40, item 3: `linkhost validate --env-file UNIT` run as root (docs/https.md's check from a shell, the README
/// recipe re-run to upgrade) judges the ACME state folder for the user the unit runs the service as, and never
/// advises handing it to the shell's user. Each case builds the folder as systemd leaves it, in a mount namespace
/// of its own (tmpfs over /var/lib and /srv), and runs the real binary there with the shipped unit.
///
/// What systemd makes (systemd.exec(5), "StateDirectory=" and "DynamicUser="): with `DynamicUser=yes` the folder
/// `StateDirectory=linkhost` names is `/var/lib/private/linkhost` (`/var/lib/private` root's, 0700), linked from
/// `/var/lib/linkhost`, owned by a user allocated from 61184–65519 at each start, with `StateDirectoryMode=`; the
/// service then makes its CA subfolder inside it, as its own.
@Suite("validate --env-file: the state folder as the unit's service finds it", .serialized, .timeLimit(.minutes(2)))
struct ServiceStateFolderTests {
    private static let root = SiteFixture.repositoryRoot
    /// The dynamic user of the started service (any UID of systemd's range but the shell's).
    private static let serviceUser = 61234
    /// The store's subfolder for Let's Encrypt's directory, as the service made it.
    private static let caFolder = "acme-v02.api.letsencrypt.org-directory"

    /// Runs `setup` and then `linkhost ARGUMENTS` as root in a mount namespace whose /var/lib and /srv are empty
    /// tmpfs folders; /srv/linkhost holds public/ as the recipe's tarball does (the unit's WorkingDirectory=).
    private func inNamespace(_ setup: String, _ arguments: [String]) async throws -> Termination {
        let script = """
            set -e
            mount -t tmpfs -o mode=0755 tmpfs /var/lib
            mount -t tmpfs -o mode=0755 tmpfs /srv
            mkdir -p /srv/linkhost && cp -r "$1/public" /srv/linkhost/public
            \(setup)
            shift 2
            exec "$BINARY" "$@"
            """
        var environment = LinkHostCLI.baseEnvironment
        environment["BINARY"] = try LinkHostCLI.binaryPath()
        return try await runTool("unshare", ["--mount", "--propagation", "private", "sh", "-c", script, "sh", Self.root, "--"] + arguments,
                                 environment: environment, directory: "/")
    }

    /// The README's config (config/examples/https.json) at `<site>/linkhost.json`, and a drop-in (a later
    /// `--env-file`, as `systemctl edit` writes one) that points the unit's LINKHOST_CONFIG at it, plus `extra` lines.
    private func unitFiles(_ site: SiteFixture, extra: String = "") throws -> [String] {
        try site.writeConfigText(try String(contentsOfFile: Self.root + "/config/examples/https.json", encoding: .utf8))
        try site.write("[Service]\nEnvironment=LINKHOST_CONFIG=\(site.configPath)\n\(extra)", to: "override.conf")
        return ["--env-file", Self.root + "/deploy/linkhost-https.service", "--env-file", site.directory + "/override.conf"]
    }

    /// The started DynamicUser service's folder: /var/lib/private/linkhost and its CA subfolder, the service's, 0700.
    private static let startedService = """
        mkdir -p /var/lib/private/linkhost/\(caFolder)
        chmod 700 /var/lib/private /var/lib/private/linkhost /var/lib/private/linkhost/\(caFolder)
        chown -R \(serviceUser):\(serviceUser) /var/lib/private/linkhost
        ln -s private/linkhost /var/lib/linkhost
        """

    @Test("the shipped unit's started service (DynamicUser=yes, the folder another user's, 0700): valid as root; without the unit, no chown to root is advised",
          skipsOutsideCI(unless: canUnshareMounts(), "needs root and unshare --mount"))
    func startedDynamicUserService() async throws {
        let site = try SiteFixture()
        let started = try await inNamespace(Self.startedService, ["validate"] + (try unitFiles(site)))
        #expect(started.status == 0 && !(started.stdout + started.stderr).contains("LH119"), "\(started)")
        #expect(started.stdout.contains("valid"), "\(started)")

        // Before the first start there is no folder yet: systemd makes it.
        let fresh = try await inNamespace("", ["validate"] + (try unitFiles(site)))
        #expect(fresh.status == 0 && !(fresh.stdout + fresh.stderr).contains("LH119"), "\(fresh)")

        // A unit that would give the folder to its group: serve would refuse what systemd makes.
        let open = try await inNamespace(Self.startedService, ["validate"] + (try unitFiles(site, extra: "StateDirectoryMode=0770\n")))
        #expect(open.status == 2 && open.stderr.contains("StateDirectoryMode=770") && open.stderr.contains("set StateDirectoryMode=0700"), "\(open)")

        // The same folder judged without the unit, as the shell's root: an error (serve as root would refuse it),
        // whose advice is the unit's check, never a chown that takes the folder from the service.
        try site.write("LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=/var/lib/linkhost\n", to: "defaults.env")
        let shell = try await inNamespace(Self.startedService, ["validate", "--config", site.configPath, "--env-file", site.directory + "/defaults.env"])
        #expect(shell.status == 2 && shell.stderr.contains("belongs to user \(Self.serviceUser), not to user 0"), "\(shell)")
        #expect(shell.stderr.contains("linkhost validate --env-file UNIT") && !shell.stderr.contains("chown 0"), "\(shell)")
    }

    @Test("User=NAME: a folder outside StateDirectory= is judged for that user, and the advice names that user; DynamicUser=yes cannot own such a folder",
          skipsOutsideCI(unless: canUnshareMounts(), "needs root and unshare --mount"))
    func namedAndDynamicUsersOutsideStateDirectory() async throws {
        let site = try SiteFixture()
        let nobody = try await runTool("id", ["-u", "nobody"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let elsewhere = "Environment=LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=/srv/acme\n"
        let rootsFolder = "mkdir -m 700 /srv/acme"
        let named = try await inNamespace(rootsFolder, ["validate"] + (try unitFiles(site, extra: elsewhere + "DynamicUser=no\nUser=nobody\n")))
        #expect(named.status == 2 && named.stderr.contains("cannot be written by user \(nobody)") && named.stderr.contains("chown \(nobody) /srv/acme"), "\(named)")
        // Writable by the user, but another's: serve as that user refuses it, and says whose it must be.
        let othersFolder = try await inNamespace("mkdir -m 777 /srv/acme && chmod +t /srv/acme", ["validate"] + (try unitFiles(site, extra: elsewhere + "DynamicUser=no\nUser=nobody\n")))
        #expect(othersFolder.status == 2 && othersFolder.stderr.contains("belongs to user 0, not to user \(nobody)") && othersFolder.stderr.contains("chown \(nobody) /srv/acme"), "\(othersFolder)")
        let given = try await inNamespace(rootsFolder + " && chown nobody /srv/acme", ["validate"] + (try unitFiles(site, extra: elsewhere + "DynamicUser=no\nUser=nobody\n")))
        #expect(given.status == 0 && !(given.stdout + given.stderr).contains("LH119"), "\(given)")
        let dynamic = try await inNamespace(rootsFolder, ["validate"] + (try unitFiles(site, extra: elsewhere)))
        #expect(dynamic.status == 2 && dynamic.stderr.contains("\"/srv/acme\" is not a StateDirectory= of") && dynamic.stderr.contains("DynamicUser=yes"), "\(dynamic)")
    }
}

/// Root, and a mount namespace of one's own (`unshare --mount`).
private func canUnshareMounts() -> Bool { getuid() == 0 && (try? runTool("unshare", ["--mount", "true"]).status) == 0 }
