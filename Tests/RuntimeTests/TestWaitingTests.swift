import Foundation
import ContainmentTestSupport
import Testing

/// Issue 28: the tests wait for what they wait for (an event, a ready file, `waitIdle`, `Poll`), never a fixed time,
/// but where time itself is under test. Every call of `Task.sleep` or `Thread.sleep` in Tests/ says which it is, on
/// its line or in the comment just above it: "Time under test" or "poll interval".
@Suite struct TestWaitingTests {
    @Test func everySleepInTheTestsIsAPollIntervalOrTimeUnderTest() throws {
        let tests = RuntimeFixture.repository.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        // Spelt in two, so that this file's own lines are not taken for calls.
        let calls = ["Task" + ".sleep(", "Thread" + ".sleep("]
        var unexplained: [String] = []
        var seen = 0
        for file in files where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() where calls.contains(where: line.contains) {
                seen += 1
                let above = lines[max(0, index - 3)..<index].filter {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                }
                let said = ([line] + above).contains { $0.contains("Time under test") || $0.contains("poll interval") }
                if !said {
                    unexplained.append("Tests/\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(seen > 0, "the scan found no sleep at all: is it reading Tests/?")
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }
}

/// CPU-bound tests run on the CPU lane, off Swift's cooperative pool (`Tests/Support/CPULane.swift`): what keeps two of
/// them from holding both of the pool's threads while the runtime tests wait for their daemons.
@Suite struct CPULaneTests {
    @Test(.cpuBound) func aCPUBoundTestRunsOnTheLane() {
        #expect(CPULane.executor.isCurrent)
    }

    @Test(.cpuBound, arguments: [1, 2]) func eachCaseOfACPUBoundTestRunsOnTheLane(case: Int) async {
        #expect(CPULane.executor.isCurrent, "case \(`case`)")
        await Task.yield()
        #expect(CPULane.executor.isCurrent, "case \(`case`) after a suspension")
    }

    @Test func otherTestsRunOnThePool() {
        #expect(!CPULane.executor.isCurrent)
    }
}
