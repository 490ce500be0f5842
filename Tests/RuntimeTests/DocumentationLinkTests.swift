import Foundation
import Testing

/// Issue 27: every relative link of the README and docs/ resolves inside the repository — a file that exists, and for
/// a `#fragment` into a Markdown file, one of its headings — so no clone has a broken link.
@Suite struct DocumentationLinkTests {
    /// The Markdown files a reader follows: the README, docs/, the examples' and clients' READMEs.
    static var files: [URL] {
        let root = RuntimeFixture.repository
        var files = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [] where name.hasSuffix(".md")
        {
            files.append(docs.appendingPathComponent(name))
        }
        for other in ["Examples/GridApp/README.md", "clients/python/README.md"] {
            let url = root.appendingPathComponent(other)
            if FileManager.default.fileExists(atPath: url.path) { files.append(url) }
        }
        return files
    }

    /// GitHub's anchor of a heading: lower case, spaces to dashes, punctuation but dashes and underscores dropped.
    static func anchor(of heading: String) -> String {
        String(
            heading.lowercased().replacingOccurrences(of: " ", with: "-").filter {
                $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_"
            }
        )
    }

    static func anchors(in file: URL) -> Set<String> {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        var anchors: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            anchors.insert(anchor(of: line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)))
        }
        return anchors
    }

    @Test func everyRelativeLinkResolvesInsideTheRepository() throws {
        let root = RuntimeFixture.repository.standardizedFileURL.path
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        var checked = 0
        for file in Self.files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: link) {
                guard let target = match.output[1].substring.map(String.init),
                    !target.contains("://"), !target.hasPrefix("mailto:")
                else { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let destination =
                    path.isEmpty
                    ? file : file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(
                    destination.path.hasPrefix(root),
                    "\(file.lastPathComponent): \(target) leads outside the repository"
                )
                #expect(
                    FileManager.default.fileExists(atPath: destination.path),
                    "\(file.lastPathComponent): \(target) does not exist"
                )
                if parts.count == 2, destination.pathExtension == "md" {
                    #expect(
                        Self.anchors(in: destination).contains(String(parts[1])),
                        "\(file.lastPathComponent): \(target): no such heading"
                    )
                }
            }
        }
        #expect(checked > 10, "too few links to mean much: \(checked)")
    }

    @Test func theSpecificationTheCommandLineCitesIsInTheRepository() throws {
        let spec = try String(
            contentsOf: RuntimeFixture.repository.appendingPathComponent("docs/SPEC.md"),
            encoding: .utf8
        )
        // `ctl --help` and the errors cite "SPEC §N" for N up to 15.
        for section in 1...15 { #expect(spec.contains("\n## \(section). "), "§\(section)") }
        #expect(spec.contains("## Where SPEC leaves it open"))
    }
}
